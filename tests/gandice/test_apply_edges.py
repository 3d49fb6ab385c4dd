"""``apply`` never raises on a structurally valid move, and a move that names nobody it can act
on (an unknown player, no battle to join) leaves the board as it was."""

from __future__ import annotations

import pytest

from tests.gandice.helpers import R, run, summons

ATK = {"type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルギ", "face": "special"}
UNKNOWN_PLAYER = [
    {"type": "summon", "by": "Z", "rolls": {"ギダン": "stand"}},
    {"type": "resummon", "by": "Z", "rolls": {"ギダン": "stand"}},
    {**ATK, "by": "Z"},
    {"type": "item", "by": "Z", "item": "武具・羅", "face": "special"},
    {"type": "fuse", "by": "Z", "die": "武王", "partners": ["鰐蛇"], "face": "normal", "value": 5},
    {"type": "split", "by": "Z", "graveyard": "鰐蛇"},
    {"type": "evolve", "by": "Z", "die": "ギダン", "into": "ギダン・進化", "face": "special"},
]


@pytest.mark.parametrize("move", UNKNOWN_PLAYER, ids=[m["type"] for m in UNKNOWN_PLAYER])
def test_a_move_by_an_unknown_player_changes_nothing(move):
    for before in ([], summons(), [*summons(), ATK]):
        board, _ = run(before)
        move = {"seq": 9, **move}
        assert R.validate_move(move) == []
        assert R.apply(board, move) == board
        assert [v.rule for v in R.check(board, move)] == ["GD-3.1"]


def test_battle_moves_without_a_battle_change_nothing_but_the_evolution_window():
    board, _ = run(summons())
    for move in (
        {"type": "defend", "by": "B", "die": "紅蓮のイスルギ", "face": "special"},
        {"type": "fuse", "by": "A", "die": "ギダン", "partners": ["爪牙"], "face": "normal", "value": 2},
    ):
        assert R.apply(board, {"seq": 9, **move}) == board
