"""The ruleset objects for 天元突破グレンラガン (GBS): the package's modules under one name, one
object per rules version."""

from __future__ import annotations

from projections.gurren_lagann import apply, check, generate, header, moves, render
from projections.package import PackageRuleset


class GurrenLagannRuleset(PackageRuleset):
    name = "gurren-lagann"
    version = 3
    aliases: tuple[str, ...] = ("gl", "gbs", "gurren_lagann", "天元突破グレンラガン", "グレンラガン",
                                "ドリル銀河大戦カードゲーム", "ドリル銀河大戦")
    title = "天元突破グレンラガン ドリル銀河大戦カードゲーム (GBS)"
    min_players = 2
    max_players = 2
    flagged_results = "pending"  # KIFU-3 (docs/rules/core.md)
    after_result_rule = "GL-11.3"  # KIFU-2 in the game's words


class GurrenLagannRulesetV1(GurrenLagannRuleset):
    """gurren-lagann/1: matches recorded before the rules-fidelity fixes (issue 17) keep the
    defaults they were recorded under (header.HOUSE_RULES_V1)."""

    version = 1
    flagged_results = "stand"


class GurrenLagannRulesetV2(GurrenLagannRuleset):
    """gurren-lagann/2: matches recorded before issue 27 keep what they were recorded under: a
    flagged deciding line stands (KIFU-3 ``stand``). Its house-rule defaults are the newest."""

    version = 2
    flagged_results = "stand"


RULESET = GurrenLagannRuleset(
    header=header, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESET_V1 = GurrenLagannRulesetV1(
    header=header.VERSION_1, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESET_V2 = GurrenLagannRulesetV2(
    header=header, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESETS = {1: RULESET_V1, 2: RULESET_V2, 3: RULESET}
