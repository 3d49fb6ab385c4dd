"""Checks for battles (VW-6.1 … VW-6.4): who may fight, and the outcome the catalog gives."""

from __future__ import annotations

from typing import Any

from projections.base import Move
from projections.variants_war.board import (
    CENTRE,
    Board,
    battle_value,
    col,
    field_row,
    home_row,
    is_field,
    row,
    square,
)

Found = list[tuple[str, str, dict[str, Any] | None, tuple[dict[str, Any], ...] | None]]


def outcome(board: Board, a: str, b: str) -> dict[str, Any]:
    """Values both monsters fight with and the squares the rules destroy (VW-6.2)."""
    sa, va = battle_value(board, a, b)
    sb, vb = battle_value(board, b, a)
    if va == vb:
        destroyed = [a, b] if board.opt("battle_tie") == "both" else []
    else:
        destroyed = [a] if va < vb else [b]
    return {"values": {a: [sa, va], b: [sb, vb]}, "destroyed": destroyed}


def can_retreat(board: Board, sq: str) -> str | None:
    """The retreat zone directly behind ``sq`` if its monster may go there when destroyed (VW-6.3)."""
    m = board.at(sq)
    if m is None:
        return None
    seat = board.seat(m.owner)
    behind = square(col(sq), home_row(seat))
    if row(sq) != field_row(seat) or behind is None or behind[0] not in "ace" or board.at(behind):
        return None
    return behind


def pair_problem(board: Board, a: str, b: str) -> tuple[str, str] | None:
    if board.arctos is not None and CENTRE in (a, b):
        return "VW-7.4", "Arctos never fights"
    ma, mb = board.at(a), board.at(b)
    if ma is None or mb is None:
        return "VW-6.1", f"no monster on {a if ma is None else b}"
    if not (is_field(a) and is_field(b)):
        return "VW-6.1", "monsters in sortie/retreat zones never fight"
    if abs(col(a) - col(b)) + abs(row(a) - row(b)) != 1:
        return "VW-6.1", f"{a} and {b} are not adjacent"
    if ma.owner == mb.owner:
        return "VW-6.1", "a battle is between your monster and the opponent's"
    if "-".join(sorted((a, b))) in board.fought:
        return "VW-6.4", f"{a} and {b} already fought this turn"
    return None


def check_fight(board: Board, move: Move, out: Found) -> None:
    a, b = move["squares"]
    problem = pair_problem(board, a, b)
    if problem:
        out.append((problem[0], problem[1], None, None))
        return
    res = outcome(board, a, b)
    if sorted(move.get("destroyed") or []) != sorted(res["destroyed"]):
        fix = {"type": "battle", "by": move["by"], "squares": [a, b], "destroyed": res["destroyed"]}
        out.append(("VW-6.2", "the lower value is destroyed (short edge ATK, long edge DEF)", res, (fix,)))
    for sq in move.get("retreat") or []:
        if sq not in (move.get("destroyed") or []) or can_retreat(board, sq) is None:
            why = "only a monster destroyed in its own battlefield zone with an empty retreat zone directly behind"
            out.append(("VW-6.3", f"{sq} cannot go to a retreat zone: {why}", None, None))
