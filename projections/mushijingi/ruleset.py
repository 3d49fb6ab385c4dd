"""The 蟲神器 ruleset objects: the package's modules wired into one ruleset per version."""

from __future__ import annotations

from projections.mushijingi import apply, check, generate, header, moves, render
from projections.package import PackageRuleset


class MushijingiRuleset(PackageRuleset):
    name = "mushijingi"
    version = 3
    aliases = ("mj", "蟲神器", "虫神器", "むしじんぎ")
    title = "蟲神器"
    min_players = 2
    max_players = 2
    flagged_results = "pending"  # KIFU-3 (docs/rules/core.md)
    after_result_rule = "MJ-7.3"  # KIFU-2 in the game's words


class MushijingiRulesetV1(MushijingiRuleset):
    """mushijingi/1: matches recorded before the rules-fidelity fixes (issue 17) keep the
    defaults they were recorded under (header.HOUSE_RULES_V1)."""

    version = 1
    flagged_results = "stand"


class MushijingiRulesetV2(MushijingiRuleset):
    """mushijingi/2: matches recorded before issue 27 keep what they were recorded under: a
    flagged deciding line stands (KIFU-3 ``stand``), a すくいなげ direct attack at territory 0
    wins (header.HOUSE_RULES_V2)."""

    version = 2
    flagged_results = "stand"


RULESET = MushijingiRuleset(
    header=header, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESET_V1 = MushijingiRulesetV1(
    header=header.VERSION_1, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESET_V2 = MushijingiRulesetV2(
    header=header.VERSION_2, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESETS = {1: RULESET_V1, 2: RULESET_V2, 3: RULESET}
