"""The 蟲神器 ruleset objects: the package's modules wired into one ruleset per version."""

from __future__ import annotations

from projections.mushijingi import apply, check, generate, header, moves, render
from projections.package import PackageRuleset


class MushijingiRuleset(PackageRuleset):
    name = "mushijingi"
    version = 2
    aliases = ("mj", "蟲神器")
    title = "蟲神器"
    min_players = 2
    max_players = 2


class MushijingiRulesetV1(MushijingiRuleset):
    """mushijingi/1: matches recorded before the rules-fidelity fixes (issue 17) keep the
    defaults they were recorded under (header.HOUSE_RULES_V1)."""

    version = 1


RULESET = MushijingiRuleset(
    header=header, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESET_V1 = MushijingiRulesetV1(
    header=header.VERSION_1, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESETS = {1: RULESET_V1, 2: RULESET}
