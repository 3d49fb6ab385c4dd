"""The ruleset object for 天元突破グレンラガン (GBS): the package's modules under one name."""

from __future__ import annotations

from projections.gurren_lagann import apply, check, generate, header, moves, render
from projections.package import PackageRuleset


class GurrenLagannRuleset(PackageRuleset):
    name = "gurren-lagann"
    version = 1
    aliases: tuple[str, ...] = ("gl", "gbs", "gurren_lagann")
    title = "天元突破グレンラガン ドリル銀河大戦カードゲーム (GBS)"
    min_players = 2
    max_players = 2


RULESET = GurrenLagannRuleset(
    header=header, moves=moves, apply=apply, check=check, render=render, generate=generate
)
