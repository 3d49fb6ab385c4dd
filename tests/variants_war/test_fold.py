"""The fold is pure (issue 13): ``apply`` never changes a board it was given, so checkpoints and
caches may share boards. Checked on every move of generated matches, against deep copies."""

from __future__ import annotations

import copy
import random

import pytest

from tests.variants_war.build_examples import build
from tests.variants_war.helpers import RS


@pytest.mark.parametrize("seed", [0, 7, 16])
def test_apply_never_changes_the_board_it_was_given(seed: int) -> None:
    head, moves = RS.generate(random.Random(seed), f"pure-{seed}")
    board = RS.initial_board(head)
    kept = []
    for move in moves:
        before = copy.deepcopy(board)
        after = RS.apply(board, move)
        assert board == before, move
        kept.append((board, before))
        board = after
    assert all(b == c for b, c in kept)  # and none changed later either
    assert RS.result(board) is not None


def test_the_examples_fold_the_same_from_copies() -> None:
    rows = build()["variants-war-example.jsonl"]
    board = RS.initial_board(rows[0])
    for e in rows[1:]:
        if e["type"] == "annotate":
            continue
        twin = RS.apply(copy.deepcopy(board), e)
        board = RS.apply(board, e)
        assert twin == board, e
