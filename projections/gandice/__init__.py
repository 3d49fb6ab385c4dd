"""眼魔伝ガンダイス (Gandice), Reiwa advanced rules, as a kifu ruleset."""

from __future__ import annotations

from projections.gandice.ruleset import RULESET, RULESET_V1, RULESETS

__all__ = ["RULESET", "RULESETS", "RULESET_V1"]
