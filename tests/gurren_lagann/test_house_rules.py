"""Every house-rule option changes behaviour (docs/rules/gurren-lagann.md, GL-H*)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from projections.gurren_lagann import RULESET as R
from projections.gurren_lagann.header import HOUSE_RULES

from .helpers import fold, header, last, opening
from .test_rules import SETUP, dp, draw, end, mv, put


def test_every_option_is_documented():
    doc = (Path(__file__).resolve().parents[2] / "docs/rules/gurren-lagann.md").read_text(
        encoding="utf-8"
    )
    for name in HOUSE_RULES:
        assert f"`{name}`" in doc


def test_draw_per_turn():
    h = header({"draw_per_turn": 2})
    moves = [*opening(), end("A")]
    assert last(h, moves, {"type": "draw", "by": "B", "count": 2}) == []
    assert "GL-3.3" in last(h, moves, draw("B"))


def test_diagonal_moves():
    move = mv("A", ["グレン"], "d1", "e2")
    assert "GL-6.3" in last(header(), SETUP, move)
    assert last(header({"diagonal_moves": True}), SETUP, move) == []


def test_invasion_damage_per_figure():
    ready = {"type": "effect", "by": "A", "card": "グレン", "readied": ["グレン", "ラガン"]}
    moves = [*SETUP, put("A", "グレン", "d5"), put("A", "ラガン", "d5"), ready]
    squad = mv("A", ["グレン", "ラガン"], "d5", "e5", "e6")
    assert fold(header(), [*moves, squad])[0].sides[1].damage == 1
    assert fold(header({"invasion_damage": "per_figure"}), [*moves, squad])[0].sides[1].damage == 2


def test_deckout_timing():
    board, _ = fold(header(), SETUP)
    empty = replace(board, sides=(board.sides[0], replace(board.sides[1], deck=0)))
    assert R.result(empty).to_json() == {"winner": "A", "reason": "deck-out-tie"}
    hdr = header({"deckout": "draw"})
    board, _ = fold(hdr, SETUP)
    empty = replace(board, sides=(board.sides[0], replace(board.sides[1], deck=0)))
    assert R.result(empty) is None  # the game goes on until B must draw
    after = R.apply(
        replace(empty, active="B", phase="draw"), {"seq": 1, "type": "draw", "by": "B", "count": 1}
    )
    assert R.result(after).to_json() == {"winner": "A", "reason": "deck-out-tie"}
    hurt = replace(after, sides=(replace(after.sides[0], damage=2), after.sides[1]))
    assert R.result(hurt).to_json() == {"winner": "B", "reason": "deck-out"}  # B dealt more damage
    plain, _ = fold(header(), SETUP)  # deckout "empty", the default
    both = replace(plain, sides=tuple(replace(s, deck=0) for s in plain.sides))
    assert R.result(both).to_json() == {
        "winner": None,
        "reason": "deck-out-draw",
    }


def test_deploy_to_headquarters():
    assert last(header(), opening(), dp("A", "ラガン", "c1")) == []
    assert last(header({"deploy_to_headquarters": False}), opening(), dp("A", "ラガン", "c1")) == [
        "GL-4.3"
    ]


def test_traps_survive_turn_end():
    moves = [
        *opening(),
        end("A"),
        draw("B"),
        dp("B", "エンキ", "d6"),
        {"type": "skill", "by": "B", "card": "待ち伏せ", "set": True},
        end("B", []),
    ]
    gone, _ = fold(header(), moves)  # the default: the turn end discards every skill card
    assert gone.sides[1].skill_zone == () and "待ち伏せ" in gone.sides[1].discard
    kept, _ = fold(header({"traps_survive_turn_end": True}), moves)
    assert [k.card for k in kept.sides[1].skill_zone] == ["待ち伏せ"]
    assert "待ち伏せ" not in kept.sides[1].discard
    # kept over the opponent's turn, it goes at its owner's next turn start
    later, _ = fold(header({"traps_survive_turn_end": True}), [*moves, draw("A"), end("A")])
    assert later.sides[1].skill_zone == () and "待ち伏せ" in later.sides[1].discard
