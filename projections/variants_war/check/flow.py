"""Checks of the turn's flow and of the lines outside the main and battle phases: the turn
player and phase order (VW-3), the draft and the draws (VW-2, VW-3.3, VW-3.4), the sortie
(VW-4.1), the battles due before the turn moves on (VW-6.4, VW-6.5) and the master phase (VW-7)."""

from __future__ import annotations

from projections.base import N_, said

from projections.base import Move
from projections.variants_war import catalog
from projections.variants_war.board import (
    Board,
    draw_due,
    home_row,
    in_hand,
    invaders,
    master_kind,
    pending_battles,
    pile,
    row,
)
from projections.variants_war.check.common import Found
from projections.variants_war.check.common import flag as _v
from projections.variants_war.moves import ORDER, move_phase


def check_flow(board: Board, move: Move, out: Found) -> None:
    kind, by = move.get("type"), move.get("by")
    if board.phase == "over":
        _v(out, "VW-10.2", N_("the match is already decided"))
        return
    if kind in ("draft", "reveal") or board.phase in ("draft", "setup"):
        return
    if by != board.active:
        _v(out, "VW-3.2", said(N_("it is {active}'s turn"), active=board.active), {"active": board.active})
        return
    phase = move_phase(move)
    mover = board.at(move.get("from")) if kind == "move" else None
    if mover is not None and mover.extra_moves > 0:
        phase = None  # a move granted by an effect comes when the card says (士気高揚: after a battle)
    if phase and board.phase in ORDER and ORDER.index(phase) < ORDER.index(board.phase):
        _v(out, "VW-3.1", said(N_("{kind} belongs to the {phase} phase but the {phase2} phase has begun"), kind=kind, phase=phase, phase2=board.phase),
           {"phase": board.phase})
    if kind != "draw" and (phase or kind == "end_turn") and draw_due(board):
        _v(out, "VW-3.3", N_("the draw phase was skipped though the deck has cards"),
           suggest=({"type": "draw", "by": by, "card": None},))
    if kind in ("breakthrough", "master", "end_turn"):
        check_battles_done(board, move, out)


def check_battles_done(board: Board, move: Move, out: Found) -> None:
    pending = pending_battles(board)
    if pending:
        _v(out, "VW-6.4", said(N_("battles not fought: {p}"), p=', '.join('-'.join(p) for p in pending)),
           {"battles": [list(p) for p in pending]})
    if move.get("type") in ("master", "end_turn") and not board.resolved and invaders(board, board.active):
        squares = invaders(board, board.active)
        _v(out, "VW-6.5", N_("monsters in the opponent's battlefield zone were not resolved"),
           {"squares": squares}, ({"type": "breakthrough", "by": board.active, "squares": squares},))
    if move.get("type") == "end_turn" and not board.mastered and master_kind(board):
        _v(out, "VW-7.1", N_("the master phase (two d8) is due at the end of this turn"),
           {"master": master_kind(board)})


# --- per move type -----------------------------------------------------------------------------
def check_draft(board: Board, move: Move, out: Found) -> None:
    card, by = move.get("card"), str(move.get("by"))
    if board.phase != "draft":
        _v(out, "VW-2.2", N_("the draft is over"))
        return
    if card not in board.draft_pool:
        _v(out, "VW-2.2", said(N_("{card} is not among the enhancement cards left"), card=card), {"left": list(board.draft_pool)})
    me, them = board.player(by), board.player(board.other(by))
    if len(me.picks) >= 4:
        _v(out, "VW-2.2", said(N_("{by} already picked 4 cards"), by=by))
    elif len(me.picks) > len(them.picks):
        _v(out, "VW-2.2", said(N_("picks alternate: it is {id}'s pick"), id=them.id), {"picker": them.id})


def check_draw(board: Board, move: Move, out: Found) -> None:
    by, card = move["by"], move.get("card")
    p = board.player(by)
    if board.phase == "draft":
        _v(out, "VW-2.2", N_("the draft (4 picks each) is not finished"))
    elif board.phase == "setup":
        if len(p.hand) >= 2:
            _v(out, "VW-2.5", N_("the opening hand is 2 cards"))
    elif board.drawn or board.phase != "draw":
        _v(out, "VW-3.3", N_("one draw per turn, in the draw phase"))
    elif not p.deck.cards:
        _v(out, "VW-3.3", N_("the deck is empty: the draw phase is skipped"))
    elif board.turn == 1 and not board.opt("first_turn_draw"):
        _v(out, "VW-3.3", N_("house rule first_turn_draw: the first player does not draw on turn 1"))
    if p.deck.cards and card is not None:
        top = p.deck.cards[0]
        if (top is not None and top != card) or (top is None and card not in p.deck.pool):
            _v(out, "VW-3.4", said(N_("{card} cannot be the top card of {by}'s deck"), card=card, by=by), {"card": top})


def check_reveal(board: Board, move: Move, out: Found) -> None:
    p, card = board.player(move["by"]), move["card"]
    if not any(hc.card is None and card in pile(board, p.id, hc.source).pool for hc in p.hand):
        _v(out, "VW-3.4", said(N_("no unseen card in {id}'s hand can be {card}"), id=p.id, card=card))


def check_set(board: Board, move: Move, out: Found) -> None:
    by, card, to = move["by"], move["card"], move["to"]
    seat = board.seat(by)
    if catalog.is_ace(card):
        _v(out, "VW-8.1", said(N_("{card} is an ace: it comes only through its card's effect"), card=card))
        return
    if catalog.card(card) is None or catalog.is_magic(card):
        _v(out, "VW-4.1", said(N_("{card} is not a monster"), card=card))
    if board.sortied:
        _v(out, "VW-4.1", N_("one monster per standby phase"))
    if row(to) != home_row(seat) or to[0] not in "bd":
        _v(out, "VW-4.1", said(N_("{to} is not {by}'s sortie zone"), to=to, by=by),
           {"sortie": [f"b{home_row(seat)}", f"d{home_row(seat)}"]})
    elif board.occupied(to):
        _v(out, "VW-4.1", said(N_("{to} is occupied"), to=to))
    if not in_hand(board, by, card):
        _v(out, "VW-3.4", said(N_("{card} is not in {by}'s hand"), card=card, by=by))
    if any(s == to for s, _ in board.sealed):
        _v(out, "VW-9.4", said(N_("{to} is sealed (シール・イール)"), to=to))


def check_master(board: Board, move: Move, out: Found) -> None:
    kind = master_kind(board)
    if board.mastered:
        _v(out, "VW-7.1", N_("the master phase already happened this turn"))
    elif kind is None:
        reason = N_("Arctos was destroyed: the master phase is skipped") if board.arctos_destroyed else \
            N_("the master phase comes only after every 2 turns")
        _v(out, "VW-7.5" if board.arctos_destroyed else "VW-7.1", reason)


def check_end_turn(board: Board, move: Move, out: Found) -> None:
    return None
