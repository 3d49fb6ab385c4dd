"""Applying recorded moves: one small pure function per move type (never validates).

``apply`` trusts the record: an illegal move is folded as recorded (a card that is not in
the hand is simply not removed, a figure that is not in stock still appears), and ``check``
says what was wrong with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from projections.base import Move
from projections.gurren_lagann.board import (
    Battle,
    GLBoard,
    SkillCard,
    Unit,
    battle_outcome,
    find_unit,
    invasion,
    is_square,
    opponent,
    side,
    take_from_hand,
    units_at,
    with_side,
)
from projections.package import evolve, pure


def play_card(board: GLBoard, pid: str, card: Any) -> GLBoard:
    s = side(board, pid)
    hand, _ = take_from_hand(s.hand, card)
    return with_side(board, evolve(s, hand=hand))


def destroy(board: GLBoard, unit: Unit) -> GLBoard:
    """A figure (and its item figure) back to stock, its cards to the discard pile."""
    s = side(board, unit.owner)
    figures = [unit.figure] + ([unit.item_figure] if unit.item_figure else [])
    cards = [unit.card, *unit.supports] + ([unit.item] if unit.item else [])
    s = evolve(s, stock=tuple(sorted({*s.stock, *figures})), discard=s.discard + tuple(cards))
    board = with_side(board, s)
    return evolve(board, units=tuple(u for u in board.units if u is not unit))


def deal_damage(board: GLBoard, pid: str, amount: int) -> GLBoard:
    s = side(board, pid)
    return with_side(board, evolve(s, damage=s.damage + amount))


def invasion_damage(board: GLBoard, pid: str, path: Sequence[str], figures: int) -> GLBoard:
    owner, amount = invasion(board, pid, path)
    if owner is None:
        return board
    if board.opt("invasion_damage") == "per_figure":
        amount *= max(figures, 1)
    return deal_damage(board, owner, amount)


def replace_unit(board: GLBoard, old: Unit, **changes: Any) -> GLBoard:
    """``old`` with ``changes``; a figure that changes squares goes last, so the figures of a
    square stay in the order they arrived and the first is the squad's leader (GL-7.2). (The
    square is compared before the change: in a working fold ``evolve`` may change ``old``
    itself.)"""
    moved = "square" in changes and changes["square"] != old.square
    new = evolve(old, **changes)
    if moved:
        return evolve(board, units=(*(u for u in board.units if u is not old), new))
    return evolve(board, units=tuple(new if u is old else u for u in board.units))


# --- main-phase actions ------------------------------------------------------------------


def apply_draw(board: GLBoard, move: Move) -> GLBoard:
    s = side(board, move["by"])
    cards = move.get("cards")
    n = (
        len(cards)
        if isinstance(cards, list)
        else int(move.get("count") or board.opt("draw_per_turn"))
    )
    drawn = tuple(cards) if isinstance(cards, list) else (None,) * n
    if board.phase == "draw" and move["by"] == board.active:
        board = evolve(board, phase="main")
    if s.deck < n and board.opt("deckout") == "draw":
        board = evolve(board, decked_out=s.id)
    got = min(n, s.deck)
    return with_side(board, evolve(s, deck=s.deck - got, hand=s.hand + drawn[:got]))


def apply_reveal(board: GLBoard, move: Move) -> GLBoard:
    s = side(board, move["by"])
    hand = list(s.hand)
    for card in move.get("cards") or []:
        if None in hand:
            hand[hand.index(None)] = card
    return with_side(board, evolve(s, hand=tuple(hand)))


def _to_main(board: GLBoard, move: Move) -> GLBoard:
    if move["by"] == board.active and board.phase == "draw":
        return evolve(board, phase="main")
    return board


def apply_deploy(board: GLBoard, move: Move) -> GLBoard:
    board = play_card(_to_main(board, move), move["by"], move["card"])
    return place_unit(board, move["by"], move["card"], move.get("figure"), move["square"])


def place_unit(board: GLBoard, pid: str, card_name: str, figure: Any, square: str) -> GLBoard:
    card = board.catalog.get(card_name)
    fig = figure if isinstance(figure, str) else (card.figure_name() if card else card_name)
    s = side(board, pid)
    s = evolve(s, stock=tuple(f for f in s.stock if f != fig), deployed=s.deployed + 1)
    unit = Unit(figure=fig, owner=pid, card=card_name, square=square, acted=True)  # 召喚酔い
    return evolve(with_side(board, s), units=board.units + (unit,))


def apply_support(board: GLBoard, move: Move) -> GLBoard:
    board = play_card(_to_main(board, move), move["by"], move["card"])
    target = find_unit(board, move["target"], move["by"])
    if target is None:
        s = side(board, move["by"])
        return with_side(board, evolve(s, discard=s.discard + (move["card"],)))
    return replace_unit(board, target, supports=target.supports + (move["card"],))


def apply_equip(board: GLBoard, move: Move) -> GLBoard:
    board = play_card(_to_main(board, move), move["by"], move["card"])
    card = board.catalog.get(move["card"])
    fig = move.get("figure") or (card.figure_name() if card else move["card"])
    s = side(board, move["by"])
    board = with_side(board, evolve(s, stock=tuple(f for f in s.stock if f != fig)))
    target = find_unit(board, move["target"], move["by"])
    if target is None:
        return board
    if target.item:  # the old item is replaced: it goes the way of a destroyed item
        s = side(board, move["by"])
        extra = (target.item_figure,) if target.item_figure else ()
        board = with_side(
            board,
            evolve(s, stock=tuple(sorted({*s.stock, *extra})), discard=s.discard + (target.item,)),
        )  # with_side leaves the units as they are: ``target`` is still the board's unit
    return replace_unit(board, target, item=move["card"], item_figure=fig)


def apply_move(board: GLBoard, move: Move) -> GLBoard:
    board = _to_main(board, move)
    pid, path = move["by"], [p for p in move["path"] if is_square(p)]
    if len(path) < 2:
        return board
    dest, steps = path[-1], len(path) - 1
    movers = [find_unit(board, f, pid) for f in move["figures"]]
    units = [u for u in movers if u is not None and u.owner == pid]
    for u in units:
        spent = u.steps + steps
        acted = not board.opt("split_movement") or spent >= 2
        board = replace_unit(board, u, steps=spent, acted=acted)
    route = (units[0].square if units else path[0], *path[1:])
    enemies = [u for u in units_at(board, dest) if u.owner != pid]
    if enemies:
        battle = Battle(
            attacker=pid,
            defender=enemies[0].owner,
            figures=tuple(u.figure for u in units),
            origin=route[0],
            square=dest,
            defenders=tuple(u.figure for u in enemies),
            path=route,
        )
        return evolve(board, battle=battle)
    for cur in [find_unit(board, f, pid) for f in move["figures"]]:
        if cur is not None and cur.owner == pid:
            board = replace_unit(board, cur, square=dest)
    return invasion_damage(board, pid, route, len(units))


def apply_battle(board: GLBoard, move: Move) -> GLBoard:
    b = board.battle
    if b is None:
        return board
    outcome = move.get("outcome") or battle_outcome(int(move["attack"]), int(move["defend"]))
    attackers = [
        u
        for u in (find_unit(board, f, b.attacker) for f in b.figures)
        if u and u.owner == b.attacker
    ]
    defenders = [u for u in units_at(board, b.square) if u.owner == b.defender]
    losers = {"attacker": defenders, "defender": attackers, "both": attackers + defenders}[outcome]
    for u in losers:
        board = destroy(board, u)
    board = evolve(board, battle=None)
    if outcome == "attacker":
        for u in attackers:
            cur = find_unit(board, f"{u.owner}:{u.figure}", u.owner)
            if cur is not None:
                board = replace_unit(board, cur, square=b.square, acted=True)
        board = invasion_damage(board, b.attacker, b.path or (b.origin, b.square), len(attackers))
    return board


def apply_skill(board: GLBoard, move: Move) -> GLBoard:
    board = _to_main(board, move)
    pid = move["by"]
    board = play_card(board, pid, move.get("card"))
    s = side(board, pid)
    placed = SkillCard(card=move.get("card"), set=bool(move.get("set")))
    board = with_side(
        board, evolve(s, skill_zone=s.skill_zone + (placed,), skills_used=s.skills_used + 1)
    )
    board = _battle_bonus(board, pid, move)
    return apply_outcomes(board, move)


def apply_trap(board: GLBoard, move: Move) -> GLBoard:
    s = side(board, move["by"])
    zone = list(s.skill_zone)
    for i, sk in enumerate(zone):
        if sk.set and sk.card in (move.get("card"), None):
            zone[i] = SkillCard(card=move.get("card"), set=False)
            break
    board = with_side(board, evolve(s, skill_zone=tuple(zone)))
    return apply_outcomes(_battle_bonus(board, move["by"], move), move)


def _battle_bonus(board: GLBoard, pid: str, move: Move, skill: bool = True) -> GLBoard:
    b = board.battle
    if b is None:
        return board
    card = board.catalog.get(move.get("card"))
    bonus = (
        move["power"]
        if isinstance(move.get("power"), int)
        else (card.power if card and card.kind == "skill" and card.timing == "battle" else 0)
    )
    if pid == b.attacker:
        return evolve(board, battle=evolve(b, attack_bonus=b.attack_bonus + bonus))
    skilled = b.defender_skilled or skill
    return evolve(
        board, battle=evolve(b, defend_bonus=b.defend_bonus + bonus, defender_skilled=skilled)
    )


def apply_effect(board: GLBoard, move: Move) -> GLBoard:
    board = _to_main(board, move)
    if board.battle is not None and isinstance(move.get("power"), int):
        board = _battle_bonus(board, move["by"], move, skill=False)
    return apply_outcomes(board, move)


# --- what a card text did (effect, skill and trap lines) ---------------------------------

def apply_outcomes(board: GLBoard, move: Move) -> GLBoard:
    pid = move["by"]
    for name, fn in _OUTCOMES.items():
        if move.get(name) is not None:
            board = fn(board, pid, move[name])
    return board


def _destroyed(board: GLBoard, pid: str, refs: Any) -> GLBoard:
    for ref in refs:
        u = find_unit(board, ref, opponent(board, pid))
        if u is not None:
            board = destroy(board, u)
    return board


def _moved(board: GLBoard, pid: str, where: Mapping[str, Any]) -> GLBoard:
    for ref, square in where.items():
        u = find_unit(board, ref, pid)
        if u is not None and is_square(square):
            board = replace_unit(board, u, square=square)
    return board


def _damage(board: GLBoard, pid: str, amounts: Mapping[str, Any]) -> GLBoard:
    for target, n in amounts.items():
        if any(s.id == target for s in board.sides) and isinstance(n, int):
            board = deal_damage(board, target, n)
    return board


def _drew(board: GLBoard, pid: str, drew: Any) -> GLBoard:
    s = side(board, pid)
    cards = tuple(drew) if isinstance(drew, list) else (None,) * int(drew)
    got = min(len(cards), s.deck)
    if got < len(cards) and board.opt("deckout") == "draw":
        board = evolve(board, decked_out=pid)
    return with_side(board, evolve(s, deck=s.deck - got, hand=s.hand + cards[:got]))


def _discarded(board: GLBoard, pid: str, cards: Any) -> GLBoard:
    s = side(board, pid)
    hand, pile = s.hand, list(s.discard)
    for c in cards:
        hand, found = take_from_hand(hand, c)
        if found:  # an unseen card still counts in the pile
            pile.append(c)
    return with_side(board, evolve(s, hand=hand, discard=tuple(pile)))


def _set_acted(board: GLBoard, pid: str, refs: Any, acted: bool) -> GLBoard:
    for ref in refs:
        u = find_unit(board, ref, pid)
        if u is not None:
            board = replace_unit(board, u, acted=acted, steps=u.steps if acted else 0)
    return board


# plain functions rather than closures made at import time, so that mutation testing (which
# swaps a function's code when it is called) reaches what they do
def _readied(board: GLBoard, pid: str, refs: Any) -> GLBoard:
    return _set_acted(board, pid, refs, acted=False)


def _exhausted(board: GLBoard, pid: str, refs: Any) -> GLBoard:
    return _set_acted(board, pid, refs, acted=True)


def _deployed(board: GLBoard, pid: str, what: Mapping[str, Any]) -> GLBoard:
    if not is_square(what.get("square")) or not isinstance(what.get("card"), str):
        return board
    board = play_card(board, pid, what["card"])
    return place_unit(board, pid, what["card"], what.get("figure"), what["square"])


_OUTCOMES: dict[str, Callable[[GLBoard, str, Any], GLBoard]] = {
    "destroyed": _destroyed,
    "deployed": _deployed,
    "moved": _moved,
    "damage": _damage,
    "drew": _drew,
    "discarded": _discarded,
    "readied": _readied,
    "exhausted": _exhausted,
}


# --- turn end ----------------------------------------------------------------------------


def apply_end_turn(board: GLBoard, move: Move) -> GLBoard:
    pid = move["by"]
    board = _discarded(board, pid, move.get("discarded") or [])
    s = side(board, pid)
    keep_traps = board.opt("traps_survive_turn_end")
    stay = tuple(k for k in s.skill_zone if k.set and keep_traps)
    gone = tuple(k.card for k in s.skill_zone if k not in stay)  # an unseen card stays null
    board = with_side(board, evolve(s, skill_zone=stay, discard=s.discard + gone))
    nxt = opponent(board, pid)
    units = tuple(  # the ending player's figures 行動完了, the other's 未行動 (two players)
        (evolve(u, acted=True) if not u.acted else u)
        if u.owner == pid
        else (evolve(u, acted=False, steps=0) if u.acted or u.steps else u)
        for u in board.units
    )
    n = side(board, nxt)
    swept = tuple(k.card for k in n.skill_zone)
    board = with_side(board, evolve(n, skill_zone=(), discard=n.discard + swept))
    sides = tuple(evolve(x, skills_used=0, deployed=0) if x.skills_used or x.deployed else x for x in board.sides)
    return evolve(
        board, units=units, sides=sides, turn=board.turn + 1, active=nxt, phase="draw", battle=None
    )


APPLY: dict[str, Callable[[GLBoard, Move], GLBoard]] = {
    "draw": apply_draw,
    "reveal": apply_reveal,
    "deploy": apply_deploy,
    "support": apply_support,
    "equip": apply_equip,
    "skill": apply_skill,
    "trap": apply_trap,
    "move": apply_move,
    "battle": apply_battle,
    "effect": apply_effect,
    "end_turn": apply_end_turn,
}


def apply_working(board: GLBoard, move: Move) -> GLBoard:
    fn = APPLY.get(move.get("type", ""))
    return fn(board, move) if fn else board


# What everyone else calls: pure (kept boards never change). Folds use apply_working.
apply = pure(apply_working)
