"""The ruleset objects for 天元突破グレンラガン (GBS): the package's modules under one name, one
object per rules version."""

from __future__ import annotations

from projections.gurren_lagann import apply, check, generate, header, moves, render
from projections.package import PackageRuleset


class GurrenLagannRuleset(PackageRuleset):
    name = "gurren-lagann"
    version = 2
    aliases: tuple[str, ...] = ("gl", "gbs", "gurren_lagann")
    title = "天元突破グレンラガン ドリル銀河大戦カードゲーム (GBS)"
    min_players = 2
    max_players = 2


class GurrenLagannRulesetV1(GurrenLagannRuleset):
    """gurren-lagann/1: matches recorded before the rules-fidelity fixes (issue 17) keep the
    defaults they were recorded under (header.HOUSE_RULES_V1)."""

    version = 1


RULESET = GurrenLagannRuleset(
    header=header, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESET_V1 = GurrenLagannRulesetV1(
    header=header.VERSION_1, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESETS = {1: RULESET_V1, 2: RULESET}
