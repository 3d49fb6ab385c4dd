"""``Board.put``: the one way a fold changes the squares; they stay in board order, a square is
held at most once, and a kept board never changes (it is called on frozen boards too)."""

from __future__ import annotations

import random

import pytest

from projections.package import freeze
from projections.variants_war.board import ORDER_OF, SQUARES, Board, Monster


def _monster(card: str) -> Monster:
    return Monster(card=card, owner="A", source="deck")


def _board() -> Board:
    return Board(players=(), first="A", options=())


def test_squares_stay_in_board_order_whatever_the_order_they_are_filled_in():
    rng = random.Random(7)
    for _ in range(50):
        board, expected = _board(), {}
        for _ in range(30):
            sq = rng.choice(SQUARES)
            m = None if rng.random() < 0.3 else _monster(f"c{rng.randrange(99)}")
            board = board.put(sq, m)
            if m is None:
                expected.pop(sq, None)
            else:
                expected[sq] = m
            assert board.squares == tuple(sorted(expected.items(), key=lambda kv: ORDER_OF[kv[0]]))
        freeze()


def test_a_held_square_is_replaced_or_emptied_in_place_and_an_empty_one_emptied_is_unchanged():
    a, b, c = _monster("a"), _monster("b"), _monster("c")
    first, mid, last = SQUARES[0], SQUARES[len(SQUARES) // 2], SQUARES[-1]
    board = _board().put(mid, a).put(last, b).put(first, c)
    freeze()  # kept: each put below starts from it
    assert board.squares == ((first, c), (mid, a), (last, b))
    assert board.put(mid, b).squares == ((first, c), (mid, b), (last, b))
    assert board.put(first, None).squares == ((mid, a), (last, b))
    assert board.put(last, None).squares == ((first, c), (mid, a))
    assert board.put(SQUARES[1], None).squares == board.squares
    assert board.put("not-a-square", None).squares == board.squares
    with pytest.raises(KeyError):
        board.put("not-a-square", a)
    freeze()


def test_a_kept_board_is_not_changed_by_put():
    board = _board().put(SQUARES[3], _monster("a"))
    freeze()  # board is kept from here on
    before = board.squares
    board.put(SQUARES[3], None)
    board.put(SQUARES[0], _monster("b"))
    assert board.squares == before
