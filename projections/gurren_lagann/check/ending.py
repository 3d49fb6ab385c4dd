"""The result the rules derive from a board (GL-11): damage, or a deck run out."""

from __future__ import annotations

from projections.base import Result
from projections.gurren_lagann.board import LIFE, GLBoard


def result(board: GLBoard) -> Result | None:
    beaten = [s for s in board.sides if s.damage >= LIFE]
    if len(beaten) == 1:
        winner = next(s.id for s in board.sides if s is not beaten[0])
        return Result(winner, "damage")
    if beaten:  # both at once (only through card texts)
        return Result(None, "damage-both")
    if board.opt("deckout") == "draw":
        out = board.decked_out is not None
    else:
        out = any(s.deck == 0 for s in board.sides)
    if not out or len(board.sides) < 2:
        return None
    a, b = board.sides
    if a.damage != b.damage:  # damage dealt by a == damage b received
        return Result(a.id if b.damage > a.damage else b.id, "deck-out")
    alive = [s for s in board.sides if s.deck > 0 and s.id != board.decked_out]
    if len(alive) == 1:
        return Result(alive[0].id, "deck-out-tie")
    return Result(None, "deck-out-draw")
