"""The explicit actions an ``effect`` or ``magic`` line records (VW-9): what the card did.

Card texts are not simulated; the scorekeeper records what happened and these functions fold
it into the board. Coin tosses and dice are recorded facts and change nothing by themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from projections.base import Move
from projections.variants_war.apply import (
    draw,
    enter,
    leave,
    lose_life,
    relocate,
    take_from_hand,
    to_bottom,
    until_turn,
)
from projections.variants_war.board import Board, Mod, Monster, col, row

Action = dict[str, Any]


def _move(board: Board, act: Action, by: str) -> Board:
    return relocate(board, act["from"], act["to"]) if board.at(act["from"]) else board


def _swap(board: Board, act: Action, by: str) -> Board:
    a, b = board.at(act["a"]), board.at(act["b"])
    if a is None or b is None:
        return board
    if row(act["a"]) == row(act["b"]) and col(act["a"]) != col(act["b"]):
        a = replace(a, lateral=a.lateral + (a.owner == board.active))
        b = replace(b, lateral=b.lateral + (b.owner == board.active))
    return enter(enter(board, act["a"], b), act["b"], a)


def _destroy(board: Board, act: Action, by: str) -> Board:
    return leave(board, act["square"])


def _bounce(board: Board, act: Action, by: str) -> Board:
    return leave(board, act["square"], "hand")


def _draw(board: Board, act: Action, by: str) -> Board:
    return draw(board, act.get("player") or by, act["pile"], act.get("card"))


def _return(board: Board, act: Action, by: str) -> Board:
    """A hand card goes to the bottom of a pile (バンドラ, ライズベルト)."""
    pid = act.get("player") or by
    board, hc = take_from_hand(board, pid, act.get("card"))
    source = hc.source if hc else act["pile"]
    return to_bottom(board, pid, act.get("card"), source)


def _place(board: Board, act: Action, by: str) -> Board:
    """Put a monster from hand (default) or deck into a zone (ヴァイカント)."""
    pid = act.get("player") or by
    if act.get("from") == "deck":
        p = board.player(pid)
        cards = list(p.deck.cards)
        pool = p.deck.pool
        if act["card"] in cards:
            cards.remove(act["card"])
        elif None in cards and act["card"] in pool:
            cards.remove(None)
            pool = board.player(pid).deck.forget(act["card"]).pool
        board = board.with_player(replace(p, deck=replace(p.deck, cards=tuple(cards), pool=pool)))
        source = "deck"
    else:
        board, hc = take_from_hand(board, pid, act["card"])
        source = hc.source if hc else "deck"
    return enter(board, act["to"], Monster(act["card"], pid, source, arrived=board.turn))


def _summon(board: Board, act: Action, by: str) -> Board:
    """An ace (切り札) comes from the EX deck; it cannot move this turn (VW-8.2)."""
    pid = act.get("player") or by
    p = board.player(pid)
    ex = list(p.ex)
    if act["card"] in ex:
        ex.remove(act["card"])
    board = board.with_player(replace(p, ex=tuple(ex)))
    m = Monster(act["card"], pid, "ex", position=act.get("position") or "attack", arrived=board.turn)
    return enter(board, act["to"], m)


def _position(board: Board, act: Action, by: str) -> Board:
    m = board.at(act["square"])
    if m is None or m.position is None:
        return board
    flipped = "defence" if m.position == "attack" else "attack"
    return board.put(act["square"], replace(m, position=flipped))


def _modify(board: Board, act: Action, by: str) -> Board:
    m = board.at(act["square"])
    if m is None:
        return board
    stats = ("atk", "def") if act["stat"] == "both" else (act["stat"],)
    amount = int(act.get("amount") or 0)
    if act.get("until") == "permanent" and act["op"] == "add":
        if "atk" in stats:
            m = replace(m, atk_bonus=m.atk_bonus + amount)
        return board.put(act["square"], m)
    until = until_turn(board, m, act.get("until"))
    mods = tuple(Mod(s, act["op"], amount, until) for s in stats)
    return board.put(act["square"], replace(m, mods=m.mods + mods))


def _status(board: Board, act: Action, by: str) -> Board:
    m = board.at(act["square"])
    if m is None:
        return board
    until = until_turn(board, m, act.get("until"))
    if act["status"] == "extra_move":
        return board.put(act["square"], replace(m, extra_moves=m.extra_moves + 1))
    return board.put(act["square"], replace(m, statuses=m.statuses + ((act["status"], until),)))


def _lose_life(board: Board, act: Action, by: str) -> Board:
    return lose_life(board, act["player"], int(act.get("amount", 1)))


def _fact(board: Board, act: Action, by: str) -> Board:
    return board


def _seal_zone(board: Board, act: Action, by: str) -> Board:
    # until the start of the sealer's next turn = through the opponent's coming turn
    return replace(board, sealed=board.sealed + ((act["square"], board.turn + 1),))


ACTION_APPLY: dict[str, Callable[[Board, Action, str], Board]] = {
    "move": _move, "swap": _swap, "destroy": _destroy, "bounce": _bounce, "to_deck": _destroy,
    "draw": _draw, "return": _return, "place": _place, "summon": _summon, "position": _position,
    "modify": _modify, "status": _status, "lose_life": _lose_life, "coin": _fact, "die": _fact,
    "seal_zone": _seal_zone,
}


def run_actions(board: Board, move: Move) -> Board:
    ids = {p.id for p in board.players}
    for act in move.get("actions") or ():
        fn = ACTION_APPLY.get(str(act.get("do"))) if isinstance(act, dict) else None
        if fn is not None and act.get("player", move["by"]) in ids:
            board = fn(board, act, move["by"])
    return board
