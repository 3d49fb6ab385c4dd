"""The Gandice ruleset object: the package's modules handed to the shared wiring."""

from __future__ import annotations

from projections.gandice import apply, check, generate, header, moves, render
from projections.package import PackageRuleset


class GandiceRuleset(PackageRuleset):
    name = "gandice"
    version = 1
    aliases = ("gd", "ガンダイス")
    title = "眼魔伝ガンダイス (令和版)"
    min_players = 2
    max_players = 4


RULESET = GandiceRuleset(header=header, moves=moves, apply=apply, check=check, render=render, generate=generate)
