"""Generated matches are legal, complete, varied, and can be made long (benchmarks)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from tests.gandice.helpers import R


def replay(hdr, moves):
    assert R.validate_header(hdr) == []
    board = R.initial_board(hdr)
    for i, m in enumerate(moves, 1):
        assert m["seq"] == i
        assert R.validate_move(m) == [], m
        assert R.check(board, m) == [], m
        board = R.apply(board, m)
    return board


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_generated_matches_replay_with_zero_violations(seed, players):
    hdr, moves = R.generate(random.Random(seed), f"gen-{seed}", players=players)
    assert len(hdr["players"]) == players
    board = replay(hdr, moves)
    assert R.result(board) is not None


def test_boards_render_and_legal_moves_check_along_generated_matches():
    for seed in range(6):
        hdr, moves = R.generate(random.Random(seed), "m", players=2 + seed % 3)
        board = R.initial_board(hdr)
        for m in moves:
            for option in R.legal_moves(board):
                assert R.check(board, {"seq": m["seq"], **option}) == [], option
            board = R.apply(board, m)
            json.dumps(R.board_json(board), ensure_ascii=False)
            assert R.render_text(board)
        assert list(R.legal_moves(board)) == []


def test_generate_default_signature_and_determinism():
    a = R.generate(random.Random(7), "m")
    b = R.generate(random.Random(7), "m")
    assert a == b and a[0]["match"]["id"] == "m" and 2 <= len(a[0]["players"]) <= 4


def test_generated_matches_use_every_move_type():
    kinds = Counter()
    for seed in range(60):
        _, moves = R.generate(random.Random(seed), "m")
        kinds.update(m["type"] for m in moves)
    assert set(kinds) == set(R.move_types)


def test_min_events_long_match():
    hdr, moves = R.generate(random.Random(3), "long", min_events=10_000)
    assert len(moves) >= 10_000
    board = replay(hdr, moves)
    assert R.result(board) is not None
