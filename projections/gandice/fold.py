"""The per-type reducers behind ``apply`` for battle moves, effects and evolution."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from projections.base import Move
from projections.gandice.apply import (
    apply_resummon,
    apply_summon,
    decide,
    judge,
    lead_of,
    owner_of_target,
    resolve,
    set_side,
    side_of,
    unit_roll,
)
from projections.gandice.board import Battle, Board, Side
from projections.gandice.catalog import SPECIAL_VALUE, UPRIGHT, face_of, roll_value


def apply_attack(board: Board, move: Move) -> Board:
    by = move.get("by")
    if board.player(by) is None:
        return board
    defender = owner_of_target(board, by, move)
    a_lead = lead_of(board, str(by), move.get("die"))
    d_lead = lead_of(board, defender, move.get("target"))
    face, value = unit_roll(board, str(by), a_lead, move)
    battle = Battle(Side(str(by), a_lead, face, value), Side(defender, d_lead))
    board = replace(board, battle=battle, specials=frozenset())
    if face == "side":
        return resolve(board, "failed", "attack_side")
    if face in UPRIGHT:
        return resolve(board, "attacker", "attack_upright")
    owner = board.player(defender)
    target = owner.die(d_lead) if owner else None
    if target is None or (target.state == "unsummoned" and not target.unit):
        return resolve(board, "attacker", "undefended")
    return board


def apply_defend(board: Board, move: Move) -> Board:
    battle = board.battle
    if battle is None:
        return board
    d = battle.defence
    face, value = unit_roll(board, d.player, d.die, move)
    board = replace(board, battle=replace(battle, defence=replace(d, face=face, value=value)))
    if face == "side":
        return resolve(board, "attacker", "defence_side")
    if face in UPRIGHT:
        return resolve(board, "defender", "counter")
    return judge(board)


def _item_value(move: Move, bonus: int) -> int:
    face = face_of(move.get("face"))
    extra = move["bonus"] if isinstance(move.get("bonus"), int) else bonus
    if face == "special":
        return SPECIAL_VALUE + extra
    return roll_value(face or "", move.get("value")) if face == "normal" else 0


def apply_item(board: Board, move: Move) -> Board:
    player = board.player(move.get("by"))
    if player is None:
        return board
    add, special = 0, ""
    item, card = move.get("item"), move.get("card")
    die = player.die(item) if isinstance(item, str) else None
    if die is not None:
        player = player.with_die(replace(die, zone="graveyard"))  # GD-5.5
        add = _item_value(move, die.bonus)
        special = die.label if face_of(move.get("face")) == "special" else ""
    elif isinstance(card, str):
        player = replace(player, kofuda_used=player.kofuda_used + (card,))
        add, special = int(move.get("bonus") or 0), card
    board = board.with_player(player)
    if special:
        board = replace(board, specials=board.specials | {(player.id, special)})
    battle = board.battle
    if battle is None:
        return board
    which = side_of(battle, player.id)
    side: Side = getattr(battle, which)
    board = replace(
        board, battle=set_side(battle, which, replace(side, items=side.items + add, decided=True))
    )
    return judge(board)


def _mark_unit(board: Board, pid: str, lead: str, partners: list[Any]) -> Board:
    player = board.player(pid)
    if player is None:
        return board
    for label in [lead, *partners]:
        die = player.die(label)
        if die is not None and die.in_play:
            player = player.with_die(replace(die, unit=lead))
    return board.with_player(player)


def _core_fuse(board: Board, move: Move, which: str, side: Side) -> tuple[Board, Side, str]:
    """GD-8.2 心眼・合身: the re-roll decides success; 立ち wins outright; else judged as rolled."""
    face = face_of(move.get("face")) or ""
    if face == "special" or face in UPRIGHT:
        given = move.get("rolls")
        rolls: list[Any] = given if isinstance(given, list) else []
        value: int = sum(
            roll_value(face_of(r.get("face")) or "", r.get("value"))
            for r in rolls
            if isinstance(r, Mapping)
        )
        board = _mark_unit(board, side.player, side.die, list(move.get("partners") or []))
        outright = "core_stand" if face in UPRIGHT else ""
        return board, replace(side, face="normal", value=value, decided=True, fused=True), outright
    return (
        board,
        replace(side, face="normal", value=roll_value(face, move.get("value")), decided=True),
        ("core_side" if face == "side" else ""),
    )


def apply_fuse(board: Board, move: Move) -> Board:
    battle, player = board.battle, board.player(move.get("by"))
    if battle is None or player is None:
        return board
    which = side_of(battle, player.id)
    side: Side = getattr(battle, which)
    die = player.die(side.die)
    if die is not None and die.fusion_kind == "core":
        board, side, outright = _core_fuse(board, move, which, side)
    else:
        face = face_of(move.get("face")) or ""
        board = _mark_unit(board, player.id, side.die, list(move.get("partners") or []))
        side = replace(
            side,
            face=face,
            value=roll_value(face, move.get("value")),
            decided=face != "special",
            fused=True,
        )
        outright = ""
    board = replace(board, battle=set_side(battle, which, side))
    attacking = which == "attack"
    if outright == "core_stand":
        return resolve(
            board,
            "attacker" if attacking else "defender",
            "attack_upright" if attacking else "counter",
        )
    if outright == "core_side":
        return resolve(
            board,
            "failed" if attacking else "attacker",
            "attack_side" if attacking else "defence_side",
        )
    return judge(board)


def apply_split(board: Board, move: Move) -> Board:
    player = board.player(move.get("by"))
    if player is None:
        return board
    pending = board.pending_split
    lead = pending[1] if pending and pending[0] == player.id else ""
    chosen = player.die(move.get("graveyard"))
    for d in player.unit_members(lead):
        player = player.with_die(replace(d, unit="", state="summoned"))
    if chosen is not None:
        player = player.with_die(
            replace(player.die(chosen.label) or chosen, zone="graveyard", unit="")
        )
    board = replace(board.with_player(player), pending_split=None if lead else board.pending_split)
    return decide(board)


def apply_evolve(board: Board, move: Move) -> Board:
    player = board.player(move.get("by"))
    if player is None or face_of(move.get("face")) != "special":
        return board
    die = player.die(move.get("die"))
    evo = next((e for e in player.evolution if e.label == move.get("into")), None)
    if die is None or evo is None:
        return board
    new = replace(evo, state=die.state, zone=die.zone, origin=die.origin, evolved_from=die.label)
    dice = tuple(new if d.label == die.label else d for d in player.dice)
    pool = tuple(e for e in player.evolution if e is not evo)
    return board.with_player(replace(player, dice=dice, evolution=pool))


def _take(board: Board, by: str, ref: Any) -> Board:
    taker = board.player(by)
    owner = board.player(ref.get("player")) if isinstance(ref, Mapping) else None
    die = owner.die(ref.get("die")) if owner and isinstance(ref, Mapping) else None
    if taker is None or owner is None or die is None or owner.id == taker.id:
        return board
    board = board.with_player(replace(owner, dice=tuple(d for d in owner.dice if d is not die)))
    taker = board.player(by)
    assert taker is not None
    return board.with_player(replace(taker, dice=taker.dice + (replace(die, unit=""),)))


def _each(board: Board, refs: Any, change: Callable[[Any], dict[str, Any]]) -> Board:
    for ref in refs if isinstance(refs, list) else []:
        owner = board.player(ref.get("player")) if isinstance(ref, Mapping) else None
        die = owner.die(ref.get("die")) if owner else None
        if owner is not None and die is not None:
            board = board.with_player(owner.with_die(replace(die, **change(ref))))
    return board


def apply_effect(board: Board, move: Move) -> Board:
    by = str(move.get("by"))
    if "take" in move:
        board = _take(board, by, move["take"])
    board = _each(board, move.get("graveyard"), lambda r: {"zone": "graveyard", "unit": ""})
    board = _each(board, move.get("state"), lambda r: {"state": r.get("state", "unsummoned")})
    board = _each(board, move.get("revive"), lambda r: {"zone": "deck", "state": "unsummoned"})
    return decide(board)


APPLY: dict[str, Callable[[Board, Move], Board]] = {
    "summon": apply_summon,
    "resummon": apply_resummon,
    "attack": apply_attack,
    "defend": apply_defend,
    "item": apply_item,
    "fuse": apply_fuse,
    "split": apply_split,
    "evolve": apply_evolve,
    "effect": apply_effect,
}


def apply(board: Board, move: Move) -> Board:
    fn = APPLY.get(str(move.get("type")))
    if fn is None:
        return board
    if move.get("type") not in ("evolve", "effect"):
        board = replace(board, evolve_ok=None)
    new = fn(board, move)
    if move.get("type") == "evolve":
        new = replace(new, evolve_ok=None)
    return new
