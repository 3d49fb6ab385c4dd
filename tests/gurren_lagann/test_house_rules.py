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
    """GL-H1 draw_per_turn: 1 by default (tests/gurren_lagann/test_seed_fidelity.py), 2 here."""
    h = header({"draw_per_turn": 2})
    moves = [*opening(), end("A")]
    assert last(h, moves, {"type": "draw", "by": "B", "count": 2}) == []
    assert "GL-3.3" in last(h, moves, draw("B"))


def test_diagonal_moves():
    """GL-H5 diagonal_moves: off, a diagonal step is GL-6.3; on, it is a step."""
    move = mv("A", ["グレン"], "d1", "e2")
    assert "GL-6.3" in last(header(), SETUP, move)
    assert last(header({"diagonal_moves": True}), SETUP, move) == []


def test_invasion_damage_per_figure():
    """GL-H6 invasion_damage: per_move (default) deals 1 for a squad; per_figure 1 per figure."""
    ready = {"type": "effect", "by": "A", "card": "グレン", "readied": ["グレン", "ラガン"]}
    moves = [*SETUP, put("A", "グレン", "d5"), put("A", "ラガン", "d5"), ready]
    squad = mv("A", ["グレン", "ラガン"], "d5", "e5", "e6")
    assert fold(header(), [*moves, squad])[0].sides[1].damage == 1
    assert fold(header({"invasion_damage": "per_figure"}), [*moves, squad])[0].sides[1].damage == 2


def test_deckout_timing():
    """GL-H7 deckout: "empty" ends the game when a deck reaches 0; "draw" when one must draw from it."""
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
    """GL-H8 deploy_to_headquarters: on by default; off, the 本陣 takes no deploy (GL-4.3)."""
    assert last(header(), opening(), dp("A", "ラガン", "c1")) == []
    assert last(header({"deploy_to_headquarters": False}), opening(), dp("A", "ラガン", "c1")) == [
        "GL-4.3"
    ]


def test_traps_survive_turn_end():
    """GL-H9 traps_survive_turn_end: off by default, the turn end discards a set 【罠】; on, it stays."""
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


def test_split_movement():
    """GL-H2 split_movement: off, a figure moves once a turn; on, its 2 squares over two moves."""
    one, two, three = mv("A", ["グレン"], "d1", "d2"), mv("A", ["グレン"], "d2", "d3"), mv("A", ["グレン"], "d3", "d4")
    assert last(header(), [*SETUP, one], two) == ["GL-6.1"]
    split = header({"split_movement": True})
    assert last(split, [*SETUP, one], two) == []
    board, _ = fold(split, [*SETUP, one])
    assert not next(u for u in board.units if u.figure == "グレン").acted  # one square left
    assert set(last(split, [*SETUP, one, two], three)) == {"GL-6.1", "GL-6.2"}  # both spent: 行動完了


def test_squad_moves():
    """GL-H3 squad_moves: on by default, a square's figures move as one squad; off, one per move (GL-6.7)."""
    moves = [*SETUP, put("A", "ラガン", "d1"), {"type": "effect", "by": "A", "card": "ラガン", "readied": ["ラガン"]}]
    squad = mv("A", ["グレン", "ラガン"], "d1", "d2")
    assert last(header(), moves, squad) == []
    assert last(header({"squad_moves": False}), moves, squad) == ["GL-6.7"]
    assert last(header({"squad_moves": False}), moves, mv("A", ["グレン"], "d1", "d2")) == []


def test_pass_through_enemy():
    """GL-H4 pass_through_enemy: off by default, enemies stop a path (GL-6.6); on, it passes."""
    moves = [*SETUP, put("B", "ガンメン", "d2")]
    through = mv("A", ["グレン"], "d1", "d2", "d3")
    assert last(header(), moves, through) == ["GL-6.6"]
    assert last(header({"pass_through_enemy": True}), moves, through) == []
    board, _ = fold(header({"pass_through_enemy": True}), [*moves, through])
    assert board.battle is None and [u.square for u in board.units if u.figure == "グレン"] == ["d3"]


def test_invasion_on_entry():
    """GL-H10 invasion_on_entry: on by default, only entering deals damage; off (gurren-lagann/1),
    every move that ends in the enemy's zone does."""
    ready = {"type": "effect", "by": "A", "card": "グレン", "readied": ["グレン"]}
    inside = [*SETUP, put("B", "ガンメン", "a3"), put("A", "グレン", "a6"), ready, mv("A", ["グレン"], "a6", "b6")]
    assert fold(header(), inside)[0].sides[1].damage == 0
    assert fold(header({"invasion_on_entry": False}), inside)[0].sides[1].damage == 1
    hq = [*SETUP, put("A", "グレン", "c6"), ready, mv("A", ["グレン"], "c6", "c5", "c6")]
    assert fold(header({"invasion_on_entry": False}), hq)[0].sides[1].damage == 2
