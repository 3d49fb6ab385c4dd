"""眼魔伝ガンダイス (Gandice), Reiwa advanced rules, as a kifu ruleset."""

from __future__ import annotations

from projections.gandice.ruleset import RULESET

RULESETS = {1: RULESET}
