"""The ヴァリアンツ＝ウォー ruleset object: the package's modules tied together, and nothing else."""

from __future__ import annotations

from projections.package import PackageRuleset
from projections.variants_war import apply, check, generate, header, moves, render


class VariantsWarRuleset(PackageRuleset):
    name = "variants-war"
    version = 3
    aliases = ("vw", "variants_war", "ヴァリアンツ＝ウォー", "ヴァリアンツウォー", "ヴァリアンツ", "ＶＶ")
    title = "ＶＶ(ヴァリアンツ＝ウォー)～始まりの地～"
    min_players = 2
    max_players = 2
    flagged_results = "pending"  # KIFU-3 (docs/rules/core.md)
    after_result_rule = "VW-10.2"  # KIFU-2 in the game's words


class VariantsWarRulesetV2(VariantsWarRuleset):
    """variants-war/2: matches recorded before the card texts were checked (issue 27) keep their
    defaults, and a flagged deciding line stands (KIFU-3 ``stand``)."""

    version = 2
    flagged_results = "stand"


class VariantsWarRulesetV1(VariantsWarRuleset):
    """variants-war/1: matches recorded before the rules-fidelity fixes (issue 17) keep their defaults."""

    version = 1
    flagged_results = "stand"


RULESET = VariantsWarRuleset(header=header, moves=moves, apply=apply, check=check, render=render, generate=generate)
RULESET_V1 = VariantsWarRulesetV1(header=header.VERSION_1, moves=moves, apply=apply, check=check, render=render,
                                  generate=generate)
RULESET_V2 = VariantsWarRulesetV2(header=header.VERSION_2, moves=moves, apply=apply, check=check, render=render,
                                  generate=generate)
RULESETS = {1: RULESET_V1, 2: RULESET_V2, 3: RULESET}
