"""Checks of the battle phase (VW-6.1 … VW-6.5): who may fight, the outcome the catalog
gives, retreats, and the breakthrough."""

from __future__ import annotations

from projections.base import N_, said

from projections.base import Move
from projections.variants_war.board import (
    CENTRE,
    Board,
    can_retreat,
    col,
    invaders,
    is_field,
    outcome,
    row,
)
from projections.variants_war.check.common import Found
from projections.variants_war.check.common import flag as _v


def pair_problem(board: Board, a: str, b: str) -> tuple[str, str] | None:
    if board.arctos is not None and CENTRE in (a, b):
        return "VW-7.4", N_("Arctos never fights")
    ma, mb = board.at(a), board.at(b)
    if ma is None or mb is None:
        return "VW-6.1", said(N_("no monster on {a}"), a=a if ma is None else b)
    if not (is_field(a) and is_field(b)):
        return "VW-6.1", N_("monsters in sortie/retreat zones never fight")
    if abs(col(a) - col(b)) + abs(row(a) - row(b)) != 1:
        return "VW-6.1", said(N_("{a} and {b} are not adjacent"), a=a, b=b)
    if ma.owner == mb.owner:
        return "VW-6.1", N_("a battle is between your monster and the opponent's")
    if "-".join(sorted((a, b))) in board.fought:
        return "VW-6.4", said(N_("{a} and {b} already fought this turn"), a=a, b=b)
    return None


def check_battle(board: Board, move: Move, out: Found) -> None:
    a, b = move["squares"]
    problem = pair_problem(board, a, b)
    if problem:
        out.append((problem[0], problem[1], None, None))
        return
    res = outcome(board, a, b)
    if sorted(move.get("destroyed") or []) != sorted(res["destroyed"]):
        fix = {"type": "battle", "by": move["by"], "squares": [a, b], "destroyed": res["destroyed"]}
        out.append(("VW-6.2", N_("the lower value is destroyed (short edge ATK, long edge DEF)"), res, (fix,)))
    for sq in move.get("retreat") or []:
        if sq not in (move.get("destroyed") or []) or can_retreat(board, sq) is None:
            why = N_("only a monster destroyed in its own battlefield zone with an empty retreat zone directly behind")
            out.append(("VW-6.3", said(N_("{sq} cannot go to a retreat zone: {why}"), sq=sq, why=why), None, None))


def check_breakthrough(board: Board, move: Move, out: Found) -> None:
    expected = invaders(board, move["by"])
    if board.resolved:
        _v(out, "VW-6.5", N_("the breakthrough was already resolved this turn"))
    elif sorted(move.get("squares") or []) != sorted(expected):
        _v(out, "VW-6.5", N_("every monster of yours in the opponent's battlefield zone, and only those"),
           {"squares": expected}, ({"type": "breakthrough", "by": move["by"], "squares": expected},))
