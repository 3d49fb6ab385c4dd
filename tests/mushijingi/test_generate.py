"""generate(): seeded random matches are complete and legal."""

from __future__ import annotations

import json
import random

from projections.mushijingi import RULESET as R


def test_generated_matches_are_legal_and_complete():
    reasons = set()
    for seed in range(12):
        header, moves = R.generate(random.Random(seed), f"gen-{seed}")
        assert R.validate_header(header) == []
        assert [m["seq"] for m in moves] == list(range(1, len(moves) + 1))
        board = R.initial_board(header)
        for move in moves:
            assert R.validate_move(move) == []
            assert R.check(board, move) == [], (seed, move)
            board = R.apply(board, move)
        result = R.result(board)
        assert result is not None
        reasons.add(result.reason)
        json.dumps(R.board_json(board), ensure_ascii=False)
    assert "direct-attack" in reasons


def test_generation_is_deterministic():
    one = R.generate(random.Random(7), "x")
    two = R.generate(random.Random(7), "x")
    assert one == two
