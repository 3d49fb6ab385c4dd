"""ヴァリアンツ＝ウォー (ＶＶ～始まりの地～) ruleset for kifu; rules in docs/rules/variants-war.md."""

from __future__ import annotations

from projections.variants_war.ruleset import VariantsWar

RULESETS = {1: VariantsWar()}
