"""天元突破グレンラガン ドリル銀河大戦カードゲーム (ゴッコ バトル システム, GBS) for kifu.

Rules: docs/rules/gurren-lagann.md (ids GL-*). Sample card catalog: data/catalog.json.
"""

from __future__ import annotations

from projections.gurren_lagann.ruleset import RULESET, RULESET_V1, RULESET_V2, RULESETS, GurrenLagannRuleset

__all__ = ["RULESET", "RULESETS", "RULESET_V1", "RULESET_V2", "GurrenLagannRuleset"]
