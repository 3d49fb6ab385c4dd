"""docs/rules/mushijingi.md names every rule id the code cites and every house rule."""

from __future__ import annotations

import re

from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import ROOT

DOC = (ROOT / "docs" / "rules" / "mushijingi.md").read_text(encoding="utf-8")


def test_every_cited_rule_id_is_documented():
    code = "".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "projections" / "mushijingi").glob("*.py")
    )
    cited = set(re.findall(r"MJ-\d+\.\d+", code))
    documented = set(re.findall(r"^\| (MJ-\d+\.\d+) \|", DOC, flags=re.MULTILINE))
    assert cited and cited <= documented
    assert len(documented) >= 30


def test_house_rules_and_reasons_are_documented():
    for name in R.house_rules:
        assert f"`{name}`" in DOC, name
    for reason in ("direct-attack", "deck-out", "deck-out-tie"):
        assert f"`{reason}`" in DOC
