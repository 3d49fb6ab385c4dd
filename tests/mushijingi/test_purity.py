"""``apply`` and ``check`` are pure (issue 13.2): the fold builds new boards with
``projections.package.evolve`` and never changes a board someone keeps."""

from __future__ import annotations

import dataclasses

import copy
import random

from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import extra_catalog, fold, main_board


def test_apply_and_check_leave_every_kept_board_equal_to_its_copy():
    for seed in range(5):
        header, moves = R.generate(random.Random(seed), f"p{seed}")
        board = R.initial_board(header)
        kept = []
        for move in moves:
            before = copy.deepcopy(board)
            R.check(board, move)
            new = R.apply(board, move)
            assert board == before, (seed, move)
            assert new is not board
            kept.append((board, before))
            board = new
        # and nothing later reached back into an earlier board
        assert all(b == c for b, c in kept)


def test_every_effect_action_leaves_the_kept_board_alone(tmp_path):
    board = main_board(
        a=["カブトムシ", "タガメ"],
        b=["ミヤマクワガタ", "アシダカグモ"],
        hand_a=["闘志", "羽化", "オオムラサキ"],
        catalog=extra_catalog(tmp_path),
    )
    board, _ = fold(board, [{"type": "set", "by": "A", "card": "羽化"}])
    board = board.with_side(dataclasses.replace(board.side("A"), discard=("オオカマキリ",)))
    moves = [
        {"type": "effect", "by": "A", "card": "大嵐", "damage": {"B1": 300}, "boost": {"A1": 300}, "flip": ["B2"]},
        {"type": "effect", "by": "A", "card": "樹液の罠", "bounce": ["A2"], "destroy": ["B1"], "territory": 1},
        {"type": "effect", "by": "A", "card": "蟲寄せ", "summon": ["オオムラサキ"], "discard": ["闘志"], "draw": 2},
        {
            "type": "effect",
            "by": "A",
            "card": "墓守",
            "summon": ["オオカマキリ"],
            "from": "discard",
            "feed_discard": ["羽化"],
        },
        {"type": "attack", "by": "A", "attacker": "A1", "technique": "つのでつく", "target": "B2"},
        {"type": "end_turn", "by": "A"},
    ]
    for i, move in enumerate(moves, 1):
        move = {"seq": i, **move}
        before = copy.deepcopy(board)
        new = R.apply(board, move)
        assert board == before, move
        assert new != board, move
        board = new
