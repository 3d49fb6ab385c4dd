"""The card tables of docs/rules/gurren-lagann.md against the catalog (issue 27): every field the
catalog format can declare has its row, every sample card has its row with its sentence, and
the conditions a row says a card declares are what the catalog declares; then the checks the
new fields bring (GL-8.6 to GL-8.9), each fired and beside the legal line."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from projections.gurren_lagann import RULESET as R
from projections.gurren_lagann.catalog import Card

from .helpers import fold, header, rules_of
from .test_rule_ids import AMBUSH, B_TURN, KEEP_TRAPS, KIAI, ORDER, SPRING
from .test_rules import BATTLE, skill

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules" / "gurren-lagann.md").read_text(encoding="utf-8")
RAW = json.loads((ROOT / "projections" / "gurren_lagann" / "data" / "catalog.json").read_text(encoding="utf-8"))
IDS = set(re.findall(r"\*\*(GL-\d+\.\d+)\*\*", DOC))
# Fields that declare a condition of a card's text (beyond its kind and numbers).
CONDITIONS = ("equip", "user", "combine", "draws", "readies", "trigger")


def rows(heading: str) -> list[list[str]]:
    part = DOC.split(heading, 1)[1].split("\n## ", 1)[0]
    lines = [x for x in part.splitlines() if x.startswith("| ") and not x.startswith("|---")][1:]
    return [[c.strip() for c in x.strip("|").split(" | ")] for x in lines]


def test_every_catalog_field_has_a_row():
    table = rows("## What the catalog can declare")
    assert {r[0].strip("`") for r in table} == {f.name for f in fields(Card)}
    for r in table:
        cited = re.findall(r"GL-\d+\.\d+", r[2])
        assert cited and set(cited) <= IDS, r


def test_every_sample_card_has_its_row():
    table = {r[0]: r for r in rows("## The sample cards' texts")}
    assert set(table) == {c["name"] for c in RAW["cards"]}
    for card in RAW["cards"]:
        row = table[card["name"]]
        assert row[1] == card.get("text", ""), card["name"]
        want = {f"`{k}: {json.dumps(card[k], ensure_ascii=False)}`" for k in CONDITIONS if card.get(k)}
        assert set(re.findall(r"`[^`]+`", row[2])) == want, card["name"]
        assert set(re.findall(r"GL-\d+\.\d+", row[3])) <= IDS, row
        if "パワー+" in card.get("text", ""):  # a printed power is held by GL-8.9
            assert f"+{card['power']}" in card["text"] and "GL-8.9" in row[3], card["name"]


def after(hdr: dict[str, Any], moves: list[dict[str, Any]], move: dict[str, Any]) -> list[str]:
    board, found = fold(hdr, moves)
    assert found == [], found
    return rules_of(R.check(board, {"seq": 99, **move}))


def test_gl_8_6_kiai_draws_one():
    assert after(header(), KIAI, skill("A", "気合い", user="ラガン", drew=["ギガドリル", None])) == ["GL-8.6"]
    assert after(header(), KIAI, skill("A", "気合い", user="ラガン", drew=[None])) == []
    assert after(header(), KIAI, skill("A", "気合い", user="ラガン")) == []  # drawn on a line of its own


def test_gl_8_7_the_order_readies_one_own_figure():
    assert after(header(), ORDER, skill("B", "螺旋王の命令", user="エンキ", readied=["A:グレン"])) == ["GL-8.7"]
    # two named (and ガンメン is no figure of B's on the field)
    assert after(header(), ORDER, skill("B", "螺旋王の命令", user="エンキ", readied=["エンキ", "ガンメン"])) == [
        "GL-8.7", "GL-8.7"]
    assert after(header(), ORDER, skill("B", "螺旋王の命令", user="エンキ", readied=["エンキ"])) == []


def test_gl_8_8_an_ambush_springs_only_on_an_attack():
    assert after(KEEP_TRAPS, AMBUSH, SPRING) == []
    assert after(KEEP_TRAPS, [*B_TURN, skill("B", "待ち伏せ", set=True)], SPRING) == ["GL-8.8"]
    # the attacker springing it is not attacked either
    board, _ = fold(KEEP_TRAPS, AMBUSH)
    assert "GL-8.8" in rules_of(R.check(board, {"seq": 99, **SPRING, "by": "A"}))


def test_gl_8_9_a_printed_power_is_the_power_recorded():
    assert after(KEEP_TRAPS, AMBUSH, {**SPRING, "power": 3}) == ["GL-8.9"]
    assert after(KEEP_TRAPS, AMBUSH, {**SPRING, "power": 2}) == []
    assert after(header(), BATTLE, skill("A", "ドリル一閃", user="グレン", power=2)) == ["GL-8.9"]
    assert after(header(), BATTLE, skill("A", "ドリル一閃", user="グレン")) == []  # the catalog's +1 by default
