"""What the checkers share: the violation tuple and checks several move types make.

Each checker returns ``(rule, message, expected, suggest)`` tuples (``Found``); ``check``
stamps them with the move's seq. Checkers read the board *before* the move.
"""

from __future__ import annotations

from projections.base import N_, said

from collections.abc import Iterable, Mapping
from typing import Any

from projections.base import Move
from projections.gurren_lagann.board import GLBoard, cells_fit, names_on_field, side, units_at
from projections.gurren_lagann.catalog import Card

Found = tuple[str, str, Mapping[str, Any] | None, tuple[Mapping[str, Any], ...] | None]


def v(
    rule: str,
    message: str,
    expected: Mapping[str, Any] | None = None,
    suggest: Iterable[Mapping[str, Any]] | None = None,
) -> Found:
    return (rule, message, expected, tuple(suggest) if suggest is not None else None)


def in_hand(board: GLBoard, pid: str, card: Any) -> list[Found]:
    hand = side(board, pid).hand
    if card in hand or None in hand:
        return []
    return [v("GL-10.1", said(N_("{card} is not in {pid}'s hand"), card=card, pid=pid), {"hand": list(hand)})]


def copies_ok(board: GLBoard, pid: str, names: Iterable[Any]) -> list[Found]:
    s = side(board, pid)
    seen = [*s.hand, *s.discard, *(k.card for k in s.skill_zone), *names_on_field(board, pid)]
    out = []
    for name in dict.fromkeys(n for n in names if isinstance(n, str)):
        known = seen.count(name) + list(names).count(name)
        allowed = s.decklist.count(name)
        if known > allowed:
            out.append(v("GL-10.4", said(N_("{pid} would hold {known} × {name}; the deck has {allowed}"), pid=pid, known=known, name=name, allowed=allowed)))
    return out


def unique(board: GLBoard, pid: str, name: str) -> list[Found]:
    if name in set(names_on_field(board, pid)):
        return [v("GL-9.1", said(N_("{name} is already on {pid}'s field (自軍ユニーク)"), name=name, pid=pid))]
    return []


def card_kind(board: GLBoard, name: Any, kind: str, rule: str) -> tuple[Card | None, list[Found]]:
    card = board.catalog.get(name) if isinstance(name, str) else None
    if card is None:
        return None, [v("GL-1.7", said(N_("{name} is not in the catalog"), name=name))]
    if card.kind != kind:
        return card, [v(rule, said(N_("{name} is a {kind} card, not {kind2}"), name=name, kind=card.kind, kind2=kind))]
    return card, []


def actor(board: GLBoard, move: Move) -> list[Found]:
    """Main-phase actions: the active player, after the draw, with no battle pending."""
    out = []
    if move["by"] != board.active:
        out.append(v("GL-3.1", said(N_("it is {active}'s turn"), active=board.active), {"active": board.active}))
    elif board.phase == "draw":
        out.append(v("GL-3.3", N_("draw phase first: record the draw before main-phase actions")))
    if board.battle is not None:
        out.append(
            v("GL-7.7", said(N_("a battle at {square} is in progress: resolve it first"), square=board.battle.square))
        )
    return out


def square_room(board: GLBoard, pid: str, square: str, newcomers: list[str]) -> list[Found]:
    here = units_at(board, square)
    if any(u.owner != pid for u in here):
        return [v("GL-6.5", said(N_("{square} holds enemy figures"), square=square))]
    figures = [u.figure for u in here if u.figure not in newcomers] + newcomers
    if not cells_fit(board, figures):
        cells = sum(len(board.catalog.figure_cells(f)) for f in figures)
        return [
            v(
                "GL-6.4",
                said(N_("{square} cannot hold {figures} ({cells} cells): the bases must fit one 2×3 square (6 cells, no rotation)"), square=square, figures=', '.join(figures), cells=cells),
            )
        ]
    return []
