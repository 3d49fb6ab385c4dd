"""ヴァリアンツ＝ウォー (ＶＶ～始まりの地～) ruleset for kifu; rules in docs/rules/variants-war.md.

Modules in layers, each importing only those before it: catalog → board → header → moves →
apply → check → render / generate → ruleset.
"""

from __future__ import annotations

from projections.variants_war.ruleset import RULESET, RULESETS

__all__ = ["RULESET", "RULESETS"]
