"""The card tables of docs/rules/mushijingi.md against the catalog (issue 27): every field the
catalog format can declare has its row, every sample card and every technique with a text has
its row with its sentence, and the conditions a row says the card declares are what the
catalog declares. A field, a card or a technique's text cannot be added without its row."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from typing import Any

import pytest

from projections.mushijingi.catalog import SAMPLE, Card, CatalogError, Technique, parse_catalog
from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import ROOT, main_board

DOC = (ROOT / "docs" / "rules" / "mushijingi.md").read_text(encoding="utf-8")
RAW = json.loads(SAMPLE.read_text(encoding="utf-8"))
IDS = set(re.findall(r"^\| (MJ-\d+\.\d+) \|", DOC, flags=re.MULTILINE))
# The fields that declare a condition on a card's text, with their "nothing declared" value.
CONDITIONS: dict[str, Any] = {"target": "none", "target_side": "any", "attack_bonus": 0, "hp_bonus": 0,
                              "sets_colour": None, "reaches": [], "on_enter": False}
TECH_CONDITIONS: dict[str, Any] = {"target": False, "multi_target": False, "when": ""}


def rows(heading: str) -> list[list[str]]:
    part = DOC.split(heading, 1)[1].split("\n#", 1)[0]
    lines = [x for x in part.splitlines() if x.startswith("| ")][1:]  # without the column names
    return [[c.strip() for c in x.strip("|").split(" | ")] for x in lines if not x.startswith("|---")]


def declared(raw: dict[str, Any], conditions: dict[str, Any], kind: str | None = None) -> set[str]:
    out = set()
    for key, nothing in conditions.items():
        if (key in raw and raw[key] != nothing) or (key == "target" and kind == "spell" and key in raw):
            out.add(f"`{key}: {json.dumps(raw[key], ensure_ascii=False)}`")
    return out


def test_every_catalog_field_has_a_row():
    table = rows("### What the catalog can declare")
    named = {r[0].strip("`") for r in table}
    expected = {f.name for f in fields(Card)} | {f"techniques[].{f.name}" for f in fields(Technique)}
    assert named == expected
    for r in table:
        cited = re.findall(r"MJ-\d+\.\d+", r[3])
        assert cited and set(cited) <= IDS, r


def test_every_sample_card_and_technique_text_has_its_row():
    table = rows("### The sample cards' texts")
    by_key = {(r[0], r[1]): r for r in table}
    expected = set()
    for card in RAW["cards"]:
        texts = [t for t in card.get("techniques", []) if t.get("text")]
        for tech in texts:
            expected.add((card["name"], tech["name"]))
            row = by_key.get((card["name"], tech["name"]))
            assert row is not None, f"no row for {card['name']} {tech['name']}"
            assert row[2] == tech["text"]
            have = set(re.findall(r"`[^`]+`", row[3]))
            assert have == declared(tech, TECH_CONDITIONS), row
        if not texts:
            expected.add((card["name"], "—"))
            row = by_key.get((card["name"], "—"))
            assert row is not None, f"no row for {card['name']}"
            assert row[2] == (card.get("text") or "—")
            assert set(re.findall(r"`[^`]+`", row[3])) == declared(card, CONDITIONS, card["kind"]), row
    assert set(by_key) == expected  # and no row for a card the catalog does not have
    for r in table:
        assert set(re.findall(r"MJ-\d+\.\d+", r[4])) <= IDS, r


def test_a_catalog_with_an_unknown_condition_value_is_refused():
    card = {"name": "x", "kind": "spell", "cost": 0, "colour": "赤", "target": "insect"}
    with pytest.raises(CatalogError, match=r"cards\[0\]\.target_side: 'mine' is not one of any, own, opponent"):
        parse_catalog({"cards": [{**card, "target_side": "mine"}]})
    bug = {"name": "y", "kind": "insect", "cost": 0, "colour": "赤", "hp": 1,
           "techniques": [{"name": "t", "attack": 0, "when": "later"}]}
    with pytest.raises(CatalogError, match=r"cards\[0\]\.techniques\[0\]\.when: 'later' is not one of direct"):
        parse_catalog({"cards": [bug]})


def test_mj_6_7_the_direct_attack_is_of_this_turn():
    board = main_board(a=["ゲンジボタル"])
    board = R.apply(board, {"seq": 1, "type": "attack", "by": "A", "attacker": "A1", "technique": "ひかる", "target": "player"})
    effect = {"seq": 2, "type": "effect", "by": "A", "card": "ゲンジボタル", "technique": "ひかる", "draw": 1}
    assert R.check(board, effect) == []
    board = R.apply(board, {"seq": 3, "type": "end_turn", "by": "A"})
    assert [v.rule for v in R.check(board, effect)] == ["MJ-6.7"]
