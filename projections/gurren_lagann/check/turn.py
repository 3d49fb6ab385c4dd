"""The turn's bookkeeping: draw (GL-3.3, GL-3.4), reveal (GL-10.3) and turn end (GL-3.6)."""

from __future__ import annotations

from projections.base import N_, said

from projections.base import Move
from projections.gurren_lagann.board import HAND_LIMIT, GLBoard, side, take_from_hand
from projections.gurren_lagann.check.common import Found, copies_ok, v


def check_draw(board: GLBoard, move: Move) -> list[Found]:
    out = []
    if move["by"] != board.active:
        return [v("GL-3.1", said(N_("it is {active}'s turn"), active=board.active))]
    if board.turn == 1 and move["by"] == board.first:
        return [
            v("GL-3.4", N_("the first player draws nothing on the first turn (ファーストドロー制限)"))
        ]
    if board.phase != "draw":
        out.append(v("GL-3.3", N_("the draw phase has passed: one draw per turn")))
    cards = move.get("cards")
    n = (
        len(cards)
        if isinstance(cards, list)
        else int(move.get("count") or board.opt("draw_per_turn"))
    )
    if n != board.opt("draw_per_turn"):
        out.append(
            v(
                "GL-3.3",
                said(N_("drew {n} cards; the draw phase draws {value}"), n=n, value=board.opt('draw_per_turn')),
                {"count": board.opt("draw_per_turn")},
            )
        )
    if isinstance(cards, list):
        out += copies_ok(board, move["by"], cards)
    return out


def check_reveal(board: GLBoard, move: Move) -> list[Found]:
    s = side(board, move["by"])
    cards = move.get("cards") or []
    out = []
    if len(cards) > s.hand.count(None):
        out.append(
            v("GL-10.3", said(N_("{cards} cards revealed but {value} are unknown"), cards=len(cards), value=s.hand.count(None)))
        )
    return out + copies_ok(board, move["by"], cards)


def check_end_turn(board: GLBoard, move: Move) -> list[Found]:
    pid = move["by"]
    out = []
    if pid != board.active:
        return [v("GL-3.1", said(N_("it is {active}'s turn"), active=board.active))]
    if board.battle is not None:
        out.append(
            v("GL-7.7", said(N_("a battle at {square} is in progress: resolve it first"), square=board.battle.square))
        )
    hand = side(board, pid).hand
    discarded = move.get("discarded") or []
    rest = hand
    for c in discarded:
        rest, found = take_from_hand(rest, c)
        if not found:
            out.append(
                v("GL-10.1", said(N_("{c} is not (or no longer) in {pid}'s hand"), c=c, pid=pid), {"hand": list(hand)})
            )
    need = max(len(hand) - HAND_LIMIT, 0)
    if len(discarded) != need:
        out.append(
            v(
                "GL-3.6",
                said(N_("{pid} holds {hand} cards and discards down to {HAND_LIMIT} ({need} cards), not {discarded}"), pid=pid, hand=len(hand), HAND_LIMIT=HAND_LIMIT, need=need, discarded=len(discarded)),
                {"discard": need},
            )
        )
    return out
