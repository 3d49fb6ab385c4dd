"""The table of dice abilities and 小札絵 in docs/rules/gandice.md against the catalog and the seed:
a die with a printed ability, a bottom-face bonus or a 合身 cannot be added to data/dice.json
without its row; every sentence the table quotes is the seed's; every rule it cites exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

from projections.gandice.catalog import lookup

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules" / "gandice.md").read_text(encoding="utf-8")
SEED = ROOT / "docs" / "seeds" / "gandice-reiwa.ja.txt"
CATALOG = json.loads((ROOT / "projections" / "gandice" / "data" / "dice.json").read_text(encoding="utf-8"))


def table() -> list[list[str]]:
    part = DOC.split("## Dice abilities and 小札絵 the seed prints", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in part.splitlines() if line.startswith("| ") and not line.startswith("| dice / card")]
    return [[c.strip() for c in row.strip("|").split(" | ")] for row in rows]


def seed_text() -> str:
    return SEED.read_text(encoding="utf-8")


def test_every_die_with_an_ability_bonus_or_fusion_has_a_row():
    named = " ".join(row[0] for row in table())
    special = [d for d in CATALOG["dice"] if d.get("ability") or d.get("bonus") or d.get("fusion")]
    assert special, "the catalog has dice with abilities"
    for die in special:
        assert die["name"] in named, f"{die['name']} has an ability, bonus or 合身 but no row in the table"
        row = next(r for r in table() if die["name"] in r[0])
        if die.get("ability"):
            assert die["ability"] in row[1], (die["name"], row[1])
        if die.get("bonus"):
            assert f"+{die['bonus']}" in row[1], (die["name"], row[1])


def test_every_die_a_row_names_is_in_the_catalog():
    for row in table():
        for name in re.split(r"[,、]\s*", re.sub(r"\(.*?\)", "", row[0])):
            name = name.strip()
            if name and not name.endswith(("ダイス", "小札絵")) and "(" not in name:
                assert lookup(name, {}) is not None, f"table row names {name!r}, not a catalog die"


def test_every_quoted_sentence_is_the_seeds():
    seed = seed_text()
    quotes = [q for row in table() for q in re.findall(r"「((?:[^「」]|「[^「」]*」)*)」", row[2])]
    assert len(quotes) >= 10
    for q in quotes:
        assert q in seed, q


def test_every_cited_rule_is_documented():
    ids = set(re.findall(r"\*\*(GD-\d+\.\d+)\*\*", DOC))
    for row in table():
        for rid in re.findall(r"GD-\d+\.\d+", row[3]):
            assert rid in ids, rid
        assert re.findall(r"GD-\d+\.\d+", row[3]) or row[4].startswith("not checkable"), row
