"""Checks of the main phase's move and position change (VW-5.1 … VW-5.3, VW-5.6 … VW-5.8, VW-8.2)."""

from __future__ import annotations

from projections.base import N_, said

from projections.base import Move
from projections.variants_war.board import (
    CENTRE,
    Board,
    allowed_steps,
    home_row,
    is_field,
    may_move,
    per_turn,
    row,
    step,
    step_targets,
)
from projections.variants_war.check.common import Found
from projections.variants_war.check.common import flag as _v


def destination_problem(board: Board, pid: str, dst: str) -> tuple[str, str] | None:
    if board.arctos is not None and dst == CENTRE:
        return "VW-7.4", N_("Arctos stands on the centre")
    if board.at(dst) is not None:
        return "VW-5.3", said(N_("{dst} is occupied"), dst=dst)
    if any(s == dst for s, _ in board.sealed):
        return "VW-9.4", said(N_("{dst} is sealed (シール・イール)"), dst=dst)
    if not is_field(dst):
        if row(dst) != home_row(board.seat(pid)):
            return "VW-5.3", N_("a monster never enters the opponent's sortie/retreat zones by moving")
        if not board.opt("retreat_by_move"):
            return "VW-5.3", N_("house rule retreat_by_move is off: no moving back into your own zones")
    return None


def check_move(board: Board, move: Move, out: Found) -> None:
    src, dst, by = move["from"], move["to"], move["by"]
    m = board.at(src)
    if m is None or m.owner != by:
        out.append(("VW-5.7", said(N_("no monster of {by} on {src}"), by=by, src=src), None, None))
        return
    if m.source == "ex" and m.arrived == board.turn:
        out.append(("VW-8.2", said(N_("{card} cannot move on the turn it was summoned"), card=m.card), None, None))
    if not may_move(board, m):
        if per_turn(board):
            out.append(("VW-5.1", N_("the turn's move (行動権) is already used: one move per turn"), None, None))
        else:
            out.append(("VW-5.1", said(N_("{card} already moved this turn"), card=m.card), None, None))
    if m.has("no_action", board.turn):
        out.append(("VW-5.8", said(N_("{card} may not act this turn (幻惑の巻物)"), card=m.card), None, None))
    d = step(src, dst)
    if d not in allowed_steps(board, src):
        what = N_("defence position moves only left/right") if m.position == "defence" else \
            N_("attack position (and sortie/retreat zones) move only up/down")
        options = [s for s in step_targets(board, src) if destination_problem(board, by, s) is None]
        out.append(("VW-5.2", f"{m.card}: {what}", {"to": options},
                    tuple({"type": "move", "by": by, "from": src, "to": s} for s in options) or None))
        return
    problem = destination_problem(board, by, dst)
    if problem:
        out.append((problem[0], problem[1], None, None))


def check_position(board: Board, move: Move, out: Found) -> None:
    m = board.at(move["square"])
    if m is None or m.owner != move["by"]:
        _v(out, "VW-5.7", said(N_("no monster of {by} on {square}"), by=move['by'], square=move['square']))
        return
    if not is_field(move["square"]):
        _v(out, "VW-5.6", N_("only battlefield monsters have a position (出撃・撤退ゾーンは縦のみ)"))
    if per_turn(board) and "position" in board.used:
        _v(out, "VW-5.6", N_("the turn's position change (行動権) is already used: one per turn"))
    elif m.turned:
        _v(out, "VW-5.6", said(N_("{card} already changed position this turn"), card=m.card))
    if m.has("no_position", board.turn) or m.has("no_action", board.turn):
        _v(out, "VW-5.8", said(N_("{card} may not change position now (effect in force)"), card=m.card))


def legal_steps(board: Board, sq: str) -> list[str]:
    m = board.at(sq)
    if m is None:
        return []
    return [s for s in step_targets(board, sq) if destination_problem(board, m.owner, s) is None]
