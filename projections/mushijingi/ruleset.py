"""The 蟲神器 ruleset object: the package's modules wired into one ruleset."""

from __future__ import annotations

from projections.mushijingi import apply, check, generate, header, moves, render
from projections.package import PackageRuleset


class MushijingiRuleset(PackageRuleset):
    name = "mushijingi"
    version = 1
    aliases = ("mj", "蟲神器")
    title = "蟲神器"
    min_players = 2
    max_players = 2


RULESET = MushijingiRuleset(
    header=header, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESETS = {1: RULESET}
