"""The Gandice ruleset objects: the package's modules handed to the shared wiring, one object
per rules version."""

from __future__ import annotations

from projections.gandice import apply, check, generate, header, moves, render
from projections.package import PackageRuleset


class GandiceRuleset(PackageRuleset):
    name = "gandice"
    version = 2
    aliases = ("gd", "ガンダイス", "眼魔伝ガンダイス", "眼魔伝", "ガンダイス令和版")
    title = "眼魔伝ガンダイス (令和版)"
    min_players = 2
    max_players = 4
    flagged_results = "pending"  # KIFU-3 (docs/rules/core.md)
    after_result_rule = "GD-9.2"  # KIFU-2 in the game's words


class GandiceRulesetV1(GandiceRuleset):
    """gandice/1: matches recorded before issue 27 keep what they were recorded under: a
    flagged deciding line stands (KIFU-3 ``stand``), a 心眼 re-roll 逆立ち counts like 立ち
    (header.HOUSE_RULES_V1)."""

    version = 1
    flagged_results = "stand"


RULESET = GandiceRuleset(header=header, moves=moves, apply=apply, check=check, render=render, generate=generate)
RULESET_V1 = GandiceRulesetV1(
    header=header.VERSION_1, moves=moves, apply=apply, check=check, render=render, generate=generate
)
RULESETS = {1: RULESET_V1, 2: RULESET}
