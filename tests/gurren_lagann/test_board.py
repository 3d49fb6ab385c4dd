"""Board JSON, terminal rendering, structural move checks, vocabulary and the generator."""

from __future__ import annotations

import json
import random

from exports.i18n import translations
from projections.base import Ruleset
from projections.gurren_lagann import RULESET as R
from projections.gurren_lagann import RULESET_V1, RULESET_V2, RULESETS

from .helpers import fold, header, opening
from .test_rules import SETUP

JA = translations("ja")  # the text board as kifu board says it by default


def test_protocol_and_registry():
    assert isinstance(R, Ruleset)
    assert RULESETS == {1: RULESET_V1, 2: RULESET_V2, 3: R} and R.name == "gurren-lagann" and R.version == 3
    assert isinstance(RULESET_V1, Ruleset) and RULESET_V1.version == 1
    assert isinstance(RULESET_V2, Ruleset) and RULESET_V2.version == 2
    for spec in R.move_types.values():
        ex = dict(spec.example)
        assert ex["type"] == spec.type and "seq" in ex and "by" in ex
        assert R.validate_move(ex) == [], spec.type


def test_board_json_field_and_counters():
    board, _ = fold(header(), SETUP)
    j = R.board_json(board)
    json.dumps(j, ensure_ascii=False)
    assert j["turn"] == 3 and j["active"] == "A"
    assert j["players"]["A"]["damage"] == 0 and j["players"]["B"]["damage"] == 0
    squares = j["field"]["squares"]
    assert len(squares) == 30 and j["field"]["columns"] == 5 and j["field"]["rows"] == 6
    b1 = next(s for s in squares if s["square"] == "b1")
    assert b1["owner"] == "A" and b1["figures"][0]["figure"] == "ラガン"
    assert b1["zone"] == "deploy" and b1["zone_owner"] == "A" and b1["leader"] == "ラガン"
    assert next(s for s in squares if s["square"] == "c6")["zone"] == "hq"
    assert j["players"]["A"]["hand"].count(None) == 0 and j["players"]["A"]["deck"] == 23


def test_render_text_grid():
    board, _ = fold(header(), SETUP)
    text = R.render_text(board, JA)
    assert "A:ラガン" in text and "B:エンキ" in text and "(A本陣)" in text
    lines = text.splitlines()
    assert any(line.startswith(" 6 |") for line in lines) and any(
        line.startswith(" 1 |") for line in lines
    )
    assert lines.index(next(x for x in lines if x.startswith(" 6 |"))) < lines.index(
        next(x for x in lines if x.startswith(" 1 |"))
    )


def test_validate_move_structure():
    assert R.validate_move({"seq": 1, "type": "teleport", "by": "A"})[0].field == "type"
    assert {e.field for e in R.validate_move({"seq": 1, "type": "move", "by": "A"})} == {
        "figures",
        "path",
    }
    bad = R.validate_move(
        {"seq": 1, "type": "move", "by": "A", "figures": ["グレン"], "path": ["d1", "z9"]}
    )
    assert [e.field for e in bad] == ["path"]
    assert R.validate_move(
        {"seq": 1, "type": "deploy", "by": "A", "card": "グレン", "square": "f1"}
    )
    assert R.validate_move({"seq": 1, "type": "battle", "by": "A", "attack": "3", "defend": 1})
    assert R.validate_move(
        {"seq": 1, "type": "effect", "by": "A", "card": "グレン", "damage": {"B": "x"}}
    )


def test_vocabulary_has_cards_squares_and_types():
    vocab = R.vocabulary(header())
    assert {"グレンラガン", "エンキ", "a1", "e6", "deploy", "end_turn"} <= set(vocab)


def test_legal_moves_are_legal():
    board, _ = fold(header(), SETUP)
    moves = list(R.legal_moves(board))
    assert {m["type"] for m in moves} >= {"move", "equip", "support", "end_turn"}
    for m in moves:
        assert R.check(board, {"seq": 99, **m}) == []
    first, _ = fold(header(), opening())
    assert not any(m["type"] == "draw" for m in R.legal_moves(first))


def test_generate_is_legal_and_complete():
    for seed in range(6):
        hdr, moves = R.generate(random.Random(seed), f"g{seed}")
        assert R.validate_header(hdr) == []
        assert [m["seq"] for m in moves] == list(range(1, len(moves) + 1))
        board = R.initial_board(hdr)
        for m in moves:
            assert R.validate_move(m) == []
            assert R.check(board, m) == [], (seed, m)
            board = R.apply(board, m)
        assert R.result(board) is not None


def test_generator_covers_the_move_types():
    seen = set()
    for seed in range(30):
        _, moves = R.generate(random.Random(seed), f"g{seed}")
        seen |= {m["type"] for m in moves}
    assert seen >= {
        "reveal",
        "draw",
        "deploy",
        "support",
        "equip",
        "skill",
        "move",
        "battle",
        "end_turn",
    }


def test_generate_is_deterministic():
    assert R.generate(random.Random(7), "x") == R.generate(random.Random(7), "x")
