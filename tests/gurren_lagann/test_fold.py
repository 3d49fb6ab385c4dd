"""The fold is pure (issue 13): ``apply`` never changes a board it was given, whatever the move."""

from __future__ import annotations

import copy
import random

from projections.base import META_TYPES
from projections.gurren_lagann import RULESET as R

from .helpers import fold, header, load_example
from .test_rules import BATTLE


def _walk(hdr, moves):
    board = R.initial_board(hdr)
    for m in moves:
        if m["type"] in META_TYPES:
            continue
        kept = copy.deepcopy(board)
        after = R.apply(board, m)
        assert board == kept, m  # the board handed in is untouched
        assert R.apply(kept, m) == after  # and a copy folds to the same board
        board = after
    return board


def test_apply_leaves_the_kept_board_untouched_along_generated_matches():
    for seed in range(6):
        hdr, moves = R.generate(random.Random(seed), f"p{seed}")
        final = _walk(hdr, moves)
        assert R.result(final) is not None


def test_apply_leaves_the_kept_board_untouched_along_the_examples():
    for name in ("gurren-lagann-example.jsonl", "gurren-lagann-deckout.jsonl"):
        _walk(*load_example(name))


def test_every_move_type_on_one_board_leaves_it_untouched():
    board, _ = fold(header({"traps_survive_turn_end": True, "split_movement": True}), BATTLE)
    kept = copy.deepcopy(board)
    for spec in R.move_types.values():
        R.apply(board, dict(spec.example))
        assert board == kept, spec.type
