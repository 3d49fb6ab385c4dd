"""Checking moves against the rules (docs/rules/variants-war.md). Each finding cites a rule id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from projections.base import Move, Violation
from projections.variants_war import catalog
from projections.variants_war.apply import ORDER, PHASE_OF, master_kind
from projections.variants_war.board import (
    CENTRE,
    Board,
    col,
    field_row,
    home_row,
    is_field,
    row,
    square,
)
from projections.variants_war.effects_rules import check_actions

Found = list[tuple[str, str, dict[str, Any] | None, tuple[dict[str, Any], ...] | None]]


def _v(out: Found, rule: str, message: str, expected: dict[str, Any] | None = None,
       suggest: tuple[dict[str, Any], ...] | None = None) -> None:
    out.append((rule, message, expected, suggest))


def move_phase(move: Move) -> str | None:
    if move.get("type") == "effect":
        return "main" if move.get("kind") == "normal" else None
    return PHASE_OF.get(str(move.get("type")))


def deck_empty(board: Board, pid: str) -> bool:
    return not board.player(pid).deck.cards


def draw_due(board: Board) -> bool:
    if board.drawn or board.phase != "draw" or deck_empty(board, board.active):
        return False
    return board.turn > 1 or bool(board.opt("first_turn_draw"))


def pending_battles(board: Board) -> list[tuple[str, str]]:
    """Adjacent enemy pairs on battlefield squares that have not fought this turn (VW-6.4)."""
    out = []
    for sq, m in board.squares:
        if not is_field(sq):
            continue
        for other in (square(col(sq) + 1, row(sq)), square(col(sq), row(sq) + 1)):
            n = board.at(other)
            key = "-".join(sorted((sq, other or "")))
            if other and n is not None and is_field(other) and n.owner != m.owner and key not in board.fought:
                out.append((sq, other))
    return out


def invaders(board: Board, pid: str) -> list[str]:
    """``pid``'s monsters standing in the opponent's battlefield zone (VW-6.5)."""
    enemy_row = field_row(1 - board.seat(pid))
    return [sq for sq, m in board.squares if m.owner == pid and row(sq) == enemy_row]


# --- checks common to every move -------------------------------------------------------------
def check_flow(board: Board, move: Move, out: Found) -> None:
    kind, by = move.get("type"), move.get("by")
    if board.phase == "over":
        _v(out, "VW-10.2", "the match is already decided")
        return
    if kind in ("draft", "reveal") or board.phase in ("draft", "setup"):
        return
    if by != board.active:
        _v(out, "VW-3.2", f"it is {board.active}'s turn", {"active": board.active})
        return
    phase = move_phase(move)
    if phase and board.phase in ORDER and ORDER.index(phase) < ORDER.index(board.phase):
        _v(out, "VW-3.1", f"{kind} belongs to the {phase} phase but the {board.phase} phase has begun",
           {"phase": board.phase})
    if kind != "draw" and (phase or kind == "end_turn") and draw_due(board):
        _v(out, "VW-3.3", "the draw phase was skipped though the deck has cards",
           suggest=({"type": "draw", "by": by, "card": None},))
    if kind in ("breakthrough", "master", "end_turn"):
        check_battles_done(board, move, out)


def check_battles_done(board: Board, move: Move, out: Found) -> None:
    pending = pending_battles(board)
    if pending:
        _v(out, "VW-6.4", f"battles not fought: {', '.join('-'.join(p) for p in pending)}",
           {"battles": [list(p) for p in pending]})
    if move.get("type") in ("master", "end_turn") and not board.resolved and invaders(board, board.active):
        squares = invaders(board, board.active)
        _v(out, "VW-6.5", "monsters in the opponent's battlefield zone were not resolved",
           {"squares": squares}, ({"type": "breakthrough", "by": board.active, "squares": squares},))
    if move.get("type") == "end_turn" and not board.mastered and master_kind(board):
        _v(out, "VW-7.1", "the master phase (two d8) is due at the end of this turn",
           {"master": master_kind(board)})


# --- per move type -----------------------------------------------------------------------------
def check_draft(board: Board, move: Move, out: Found) -> None:
    card, by = move.get("card"), str(move.get("by"))
    if board.phase != "draft":
        _v(out, "VW-2.2", "the draft is over")
        return
    if card not in board.draft_pool:
        _v(out, "VW-2.2", f"{card} is not among the enhancement cards left", {"left": list(board.draft_pool)})
    me, them = board.player(by), board.player(board.other(by))
    if len(me.picks) >= 4:
        _v(out, "VW-2.2", f"{by} already picked 4 cards")
    elif len(me.picks) > len(them.picks):
        _v(out, "VW-2.2", f"picks alternate: it is {them.id}'s pick", {"picker": them.id})


def check_draw(board: Board, move: Move, out: Found) -> None:
    by, card = move["by"], move.get("card")
    p = board.player(by)
    if board.phase == "draft":
        _v(out, "VW-2.2", "the draft (4 picks each) is not finished")
    elif board.phase == "setup":
        if len(p.hand) >= 2:
            _v(out, "VW-2.5", "the opening hand is 2 cards")
    elif board.drawn or board.phase != "draw":
        _v(out, "VW-3.3", "one draw per turn, in the draw phase")
    elif not p.deck.cards:
        _v(out, "VW-3.3", "the deck is empty: the draw phase is skipped")
    elif board.turn == 1 and not board.opt("first_turn_draw"):
        _v(out, "VW-3.3", "house rule first_turn_draw: the first player does not draw on turn 1")
    if p.deck.cards and card is not None:
        top = p.deck.cards[0]
        if (top is not None and top != card) or (top is None and card not in p.deck.pool):
            _v(out, "VW-3.4", f"{card} cannot be the top card of {by}'s deck", {"card": top})


def check_reveal(board: Board, move: Move, out: Found) -> None:
    p, card = board.player(move["by"]), move["card"]
    from projections.variants_war.apply import _pile

    if not any(hc.card is None and card in _pile(board, p.id, hc.source).pool for hc in p.hand):
        _v(out, "VW-3.4", f"no unseen card in {p.id}'s hand can be {card}")


def in_hand(board: Board, pid: str, card: str) -> bool:
    from projections.variants_war.apply import _pile

    return any(hc.card == card or (hc.card is None and card in _pile(board, pid, hc.source).pool)
               for hc in board.player(pid).hand)


def check_set(board: Board, move: Move, out: Found) -> None:
    by, card, to = move["by"], move["card"], move["to"]
    seat = board.seat(by)
    if catalog.is_ace(card):
        _v(out, "VW-8.1", f"{card} is an ace: it comes only through its card's effect")
        return
    if catalog.card(card) is None or catalog.is_magic(card):
        _v(out, "VW-4.1", f"{card} is not a monster")
    if board.sortied:
        _v(out, "VW-4.1", "one monster per standby phase")
    if row(to) != home_row(seat) or to[0] not in "bd":
        _v(out, "VW-4.1", f"{to} is not {by}'s sortie zone",
           {"sortie": [f"b{home_row(seat)}", f"d{home_row(seat)}"]})
    elif board.occupied(to):
        _v(out, "VW-4.1", f"{to} is occupied")
    if not in_hand(board, by, card):
        _v(out, "VW-3.4", f"{card} is not in {by}'s hand")
    if any(s == to for s, _ in board.sealed):
        _v(out, "VW-9.4", f"{to} is sealed (シール・イール)")


def check_magic(board: Board, move: Move, out: Found) -> None:
    by, card = move["by"], move["card"]
    if not catalog.is_magic(card):
        _v(out, "VW-4.2", f"{card} is not a magic card")
    elif not in_hand(board, by, card):
        _v(out, "VW-3.4", f"{card} is not in {by}'s hand")
    check_actions(board, move, out)


def check_move(board: Board, move: Move, out: Found) -> None:
    from projections.variants_war.moving import check_step

    check_step(board, move, out)


def check_position(board: Board, move: Move, out: Found) -> None:
    m = board.at(move["square"])
    if m is None or m.owner != move["by"]:
        _v(out, "VW-5.7", f"no monster of {move['by']} on {move['square']}")
        return
    if not is_field(move["square"]):
        _v(out, "VW-5.6", "only battlefield monsters have a position (出撃・撤退ゾーンは縦のみ)")
    if m.turned:
        _v(out, "VW-5.6", f"{m.card} already changed position this turn")
    if m.has("no_position", board.turn) or m.has("no_action", board.turn):
        _v(out, "VW-5.8", f"{m.card} may not change position now (effect in force)")


def check_effect(board: Board, move: Move, out: Found) -> None:
    from projections.variants_war.effects_rules import check_effect_source

    check_effect_source(board, move, out)
    check_actions(board, move, out)


def check_battle(board: Board, move: Move, out: Found) -> None:
    from projections.variants_war.fighting import check_fight

    check_fight(board, move, out)


def check_breakthrough(board: Board, move: Move, out: Found) -> None:
    expected = invaders(board, move["by"])
    if board.resolved:
        _v(out, "VW-6.5", "the breakthrough was already resolved this turn")
    elif sorted(move.get("squares") or []) != sorted(expected):
        _v(out, "VW-6.5", "every monster of yours in the opponent's battlefield zone, and only those",
           {"squares": expected}, ({"type": "breakthrough", "by": move["by"], "squares": expected},))


def check_master(board: Board, move: Move, out: Found) -> None:
    kind = master_kind(board)
    if board.mastered:
        _v(out, "VW-7.1", "the master phase already happened this turn")
    elif kind is None:
        reason = "Arctos was destroyed: the master phase is skipped" if board.arctos_destroyed else \
            "the master phase comes only after every 2 turns"
        _v(out, "VW-7.5" if board.arctos_destroyed else "VW-7.1", reason)


def check_end_turn(board: Board, move: Move, out: Found) -> None:
    return None


CHECKS: dict[str, Callable[[Board, Move, Found], None]] = {
    "draft": check_draft, "draw": check_draw, "reveal": check_reveal, "set": check_set,
    "magic": check_magic, "move": check_move, "position": check_position, "effect": check_effect,
    "battle": check_battle, "breakthrough": check_breakthrough, "master": check_master,
    "end_turn": check_end_turn,
}


def check(board: Board, move: Move) -> list[Violation]:
    out: Found = []
    if move.get("by") not in {p.id for p in board.players}:
        return [Violation(int(move.get("seq") or 0), "VW-3.2", f"{move.get('by')!r} is not a player")]
    check_flow(board, move, out)
    if not any(rule in ("VW-10.2", "VW-3.2") for rule, *_ in out):
        fn = CHECKS.get(str(move.get("type")))
        if fn is not None:
            fn(board, move, out)
    seq = int(move.get("seq") or 0)
    return [Violation(seq, rule, msg, exp, sug) for rule, msg, exp, sug in out]


def not_centre(sq: str, board: Board) -> bool:
    return not (board.arctos is not None and sq == CENTRE)
