"""The ruleset satisfies projections.base.Ruleset, and its move specs are self-consistent."""

from __future__ import annotations

import json

from projections import registry
from projections.base import META_TYPES, Ruleset
from projections.mushijingi import RULESET as R
from projections.mushijingi import RULESETS
from projections.mushijingi.generate import legal_moves
from tests.mushijingi.helpers import main_board, started


def test_registered_and_protocol():
    assert isinstance(R, Ruleset)
    assert registry.get("mushijingi") is R and registry.get("蟲神器") is R
    assert registry.get("mushijingi/3") is R and R.version == 3
    assert registry.get("mushijingi/2") is RULESETS[2] and RULESETS[2].version == 2
    assert registry.get("mushijingi/1") is RULESETS[1] and RULESETS[1].version == 1
    assert not set(R.move_types) & META_TYPES


def test_move_spec_examples_are_valid():
    for name, spec in R.move_types.items():
        assert spec.example["type"] == name and "seq" in spec.example and "by" in spec.example
        assert R.validate_move(spec.example) == [], name
        assert set(spec.required) <= set(spec.example)


def test_validate_move_structure():
    assert [e.field for e in R.validate_move({"seq": 1, "type": "fly", "by": "A"})] == ["type"]
    assert [e.field for e in R.validate_move({"seq": 1, "type": "attack", "by": "A"})] == [
        "attacker",
        "technique",
        "target",
    ]
    bad = {"seq": 1, "type": "effect", "by": "A", "card": "大嵐", "damage": {"A1": "x"}}
    assert [e.field for e in R.validate_move(bad)] == ["damage"]
    assert [
        e.field for e in R.validate_move({"seq": 1, "type": "reveal", "by": "A", "cards": [None]})
    ] == ["cards[0]"]


def test_board_json_is_json_with_territory():
    data = R.board_json(started())
    text = json.dumps(data, ensure_ascii=False)
    assert "縄張り" not in text and data["players"]["A"]["territory"] == 6
    assert set(data) >= {"turn", "active", "players"}


def test_legal_moves_are_legal():
    board = main_board(
        a=["カブトムシ", "タガメ"], b=["アシダカグモ"], hand_a=["鋼の大顎", "大嵐", None]
    )
    moves = legal_moves(board)
    assert {m["type"] for m in moves} == {"play", "attack", "end_turn"}
    for i, move in enumerate(moves, 1):
        assert R.check(board, {"seq": i, **move}) == [], move
    assert not any(m["type"] == "attack" and m["target"] == "player" for m in moves)
