"""Winning (勝利条件, MJ-7): direct attack at territory 0, deck-out by territory count."""

from __future__ import annotations

from dataclasses import replace

from projections.base import Result
from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import fold, main_board, one, rules_of, started


def with_territory(board, pid, n, deck=None):
    side = board.side(pid)
    return board.with_side(replace(side, territory=n, deck=side.deck if deck is None else deck))


def test_direct_attack_at_territory_zero_wins():
    board = with_territory(main_board(a=["カブトムシ"]), "B", 0)
    board, found = one(
        board,
        {
            "type": "attack",
            "by": "A",
            "attacker": "A1",
            "technique": "つのでつく",
            "target": "player",
        },
    )
    assert found == [] and R.result(board) == Result("A", "direct-attack")


def test_destroying_the_last_insect_at_territory_zero_does_not_win():
    board = with_territory(main_board(a=["ヘラクレスオオカブト"], b=["オオカマキリ"]), "B", 0)
    board, _ = one(
        board,
        {"type": "attack", "by": "A", "attacker": "A1", "technique": "つのなげ", "target": "B1"},
    )
    assert R.result(board) is None and board.side("B").territory == 0


def test_moves_after_the_result_are_flagged():
    board = with_territory(main_board(a=["カブトムシ", "オオカマキリ"]), "B", 0)
    board, found = fold(
        board,
        [
            {
                "type": "attack",
                "by": "A",
                "attacker": "A1",
                "technique": "つのでつく",
                "target": "player",
            },
            {"type": "end_turn", "by": "A"},
        ],
    )
    assert rules_of(found) == ["MJ-7.3"]


def _deck_out_board(**rules):
    board = started(**rules)
    board, _ = one(board, {"type": "end_turn", "by": "A"})
    return board


def test_deck_out_decides_by_territory():
    board = with_territory(with_territory(_deck_out_board(), "A", 3), "B", 2, deck=0)
    board, found = one(board, {"type": "draw", "by": "B"})
    assert found == [] and R.result(board) == Result("A", "deck-out")


def test_deck_out_with_equal_territory_is_a_draw():
    board = with_territory(with_territory(_deck_out_board(), "A", 2), "B", 2, deck=0)
    board, _ = one(board, {"type": "draw", "by": "B"})
    assert R.result(board) == Result(None, "deck-out-tie")


def test_deck_out_house_rule_last_card():
    board = with_territory(_deck_out_board(deck_out="last"), "B", 6, deck=1)
    board = with_territory(board, "A", 4)
    board, _ = one(board, {"type": "draw", "by": "B"})
    assert R.result(board) == Result("B", "deck-out")
    default = with_territory(_deck_out_board(), "B", 6, deck=1)
    default, _ = one(default, {"type": "draw", "by": "B"})
    assert R.result(default) is None and default.side("B").deck == 0
