"""Issue 13: ``apply`` stays pure with the fast fold (``projections.package.evolve``): a kept
board is never changed by folding a move onto it."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from tests.gandice.helpers import R

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("gandice-*.jsonl"))


def _check_pure(hdr: dict, moves: list[dict]) -> int:
    board = R.initial_board(hdr)
    folded = 0
    for m in moves:
        if m.get("type") not in R.move_types:
            continue
        kept = copy.deepcopy(board)
        before_json = json.dumps(R.board_json(board), ensure_ascii=False, sort_keys=True)
        new = R.apply(board, m)
        assert board == kept, m  # the original board equals its copy afterwards
        assert json.dumps(R.board_json(board), ensure_ascii=False, sort_keys=True) == before_json
        board = new
        folded += 1
    return folded


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_leaves_every_kept_board_unchanged_along_generated_matches(players):
    for seed in range(5):
        hdr, moves = R.generate(random.Random(100 + seed), "pure", players=players, min_events=60)
        assert _check_pure(hdr, moves) == len(moves)


def test_apply_leaves_kept_boards_unchanged_along_the_examples_including_flagged_moves():
    for path in EXAMPLES:
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        assert _check_pure(lines[0], lines[1:]) > 0


def test_applying_the_same_move_twice_to_a_kept_board_gives_equal_boards():
    hdr, moves = R.generate(random.Random(7), "twice", players=3)
    board = R.initial_board(hdr)
    for m in moves:
        a, b = R.apply(board, m), R.apply(board, m)
        assert (a == b and a is not board) or a == board
        board = a
