"""Checking moves against the rules (GL-* ids, docs/rules/gurren-lagann.md) and the result.

``check(board, move)`` runs the checker of the move's type (one module per area: ``turn``,
``cards``, ``skills``, ``field``) and stamps what it finds with the move's seq.
"""

from __future__ import annotations

from projections.base import N_

from collections.abc import Callable

from projections.base import Move, Violation
from projections.gurren_lagann.board import GLBoard
from projections.gurren_lagann.check.cards import check_deploy, check_effect, check_equip, check_support
from projections.gurren_lagann.check.common import Found, v
from projections.gurren_lagann.check.ending import result
from projections.gurren_lagann.check.field import check_battle, check_move, expected_battle
from projections.gurren_lagann.check.skills import check_skill, check_trap
from projections.gurren_lagann.check.turn import check_draw, check_end_turn, check_reveal

CHECKS: dict[str, Callable[[GLBoard, Move], list[Found]]] = {
    "draw": check_draw,
    "reveal": check_reveal,
    "deploy": check_deploy,
    "support": check_support,
    "equip": check_equip,
    "skill": check_skill,
    "trap": check_trap,
    "move": check_move,
    "battle": check_battle,
    "effect": check_effect,
    "end_turn": check_end_turn,
}


def check(board: GLBoard, move: Move) -> list[Violation]:
    found: list[Found] = []
    if result(board) is not None:
        found.append(v("GL-11.3", N_("the game is already over")))
    fn = CHECKS.get(move.get("type", ""))
    if fn is not None:
        found += fn(board, move)
    seq = int(move.get("seq", 0))
    return [Violation(seq=seq, rule=r, message=m, expected=e, suggest=s) for r, m, e, s in found]


__all__ = ["CHECKS", "check", "expected_battle", "result"]
