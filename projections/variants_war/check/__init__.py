"""Checking moves against the rules (docs/rules/variants-war.md): ``check(board, move)`` lists
the rules a move breaks, each citing its rule id; ``result(board)`` is the result the rules
derive. One module per area: the turn's flow, moving, fighting, effects."""

from __future__ import annotations

from projections.base import N_, said

from collections.abc import Callable

from projections.base import Move, Result, Violation
from projections.variants_war.board import Board
from projections.variants_war.check.common import Found
from projections.variants_war.check.effects import check_effect, check_magic
from projections.variants_war.check.fighting import check_battle, check_breakthrough
from projections.variants_war.check.flow import (
    check_draft,
    check_draw,
    check_end_turn,
    check_flow,
    check_master,
    check_reveal,
    check_set,
)
from projections.variants_war.check.moving import check_move, check_position

__all__ = ["CHECKS", "check", "result"]

CHECKS: dict[str, Callable[[Board, Move, Found], None]] = {
    "draft": check_draft, "draw": check_draw, "reveal": check_reveal, "set": check_set,
    "magic": check_magic, "move": check_move, "position": check_position, "effect": check_effect,
    "battle": check_battle, "breakthrough": check_breakthrough, "master": check_master,
    "end_turn": check_end_turn,
}


def check(board: Board, move: Move) -> list[Violation]:
    out: Found = []
    if move.get("by") not in {p.id for p in board.players}:
        return [Violation(int(move.get("seq") or 0), "VW-3.2", said(N_("{by!r} is not a player"), by=move.get('by')))]
    check_flow(board, move, out)
    if not any(rule in ("VW-10.2", "VW-3.2") for rule, *_ in out):
        fn = CHECKS.get(str(move.get("type")))
        if fn is not None:
            fn(board, move, out)
    seq = int(move.get("seq") or 0)
    return [Violation(seq, rule, msg, exp, sug) for rule, msg, exp, sug in out]


def result(board: Board) -> Result | None:
    """The result the fold recorded: a life reached 0 (VW-10.1)."""
    if board.reason is None:
        return None
    return Result(board.winner, board.reason)
