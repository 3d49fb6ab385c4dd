"""蟲神器 (Mushi-jingi): the ruleset package. See docs/rules/mushijingi.md."""

from __future__ import annotations

from projections.mushijingi.ruleset import RULESET, RULESET_V1, RULESET_V2, RULESETS, MushijingiRuleset

__all__ = ["RULESET", "RULESETS", "RULESET_V1", "RULESET_V2", "MushijingiRuleset"]
