"""``apply``: fold one recorded move into a new board, one function per move type.

Never validates, never raises.

A battle (眼魔攻撃) spans several lines: attack, then defend, then one item (or fuse) line for
each side that showed a 特殊目. The board resolves it (判定) as soon as nothing more is due.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from projections.base import Move
from projections.gandice.board import Battle, Board, Outcome, Player, Side, rollable
from projections.gandice.catalog import SPECIAL_VALUE, UPRIGHT, face_of, roll_value
from projections.package import evolve, pure

# ---------------------------------------------------------------- summon (眼魔召喚)


def summon_state(board: Board, face: str | None) -> str:
    """GD-2.1: the summon state a resting position gives (house rule summon_table)."""
    if face in UPRIGHT:
        return "summoned"
    if face not in ("special", "normal"):
        return "unsummoned"
    table = board.option("summon_table")
    if table == "faces-full":
        return "summoned"
    full = "special" if table == "special-full" else "normal"
    return "summoned" if face == full else "half"


def stand_triggers(board: Board) -> tuple[str, ...]:
    """GD-2.2: faces that summon every die of the roll (house rule stand_summons_all)."""
    rule = board.option("stand_summons_all")
    return {"stand": ("stand",), "stand-or-handstand": UPRIGHT}.get(rule, ())


def is_zenkai(player: Player, rolls: Mapping[str, Any]) -> bool:
    """GD-2.3 全開召喚: every character die of the deck came up 立ち or 逆立ち."""
    dice = rollable(player)
    return (
        bool(dice) and len(dice) == len(player.characters) and all(face_of(rolls.get(d.label)) in UPRIGHT for d in dice)
    )


def _roll_all(board: Board, move: Move) -> tuple[Board, Player | None]:
    player = board.player(move.get("by"))
    rolls = move.get("rolls") or {}
    if player is None or not isinstance(rolls, Mapping):
        return board, None
    faces = {label: face_of(f) for label, f in rolls.items()}
    triggers = stand_triggers(board)
    everyone = any(f in triggers for f in faces.values())
    states = {
        d.label: "summoned" if everyone else summon_state(board, faces[d.label])
        for d in rollable(player)
        if d.label in faces
    }
    dice = tuple(
        evolve(d, state=states[d.label]) if d.label in states and d.state != states[d.label] else d for d in player.dice
    )
    player = evolve(player, dice=dice)
    return board.with_player(player), player


def apply_summon(board: Board, move: Move) -> Board:
    board, player = _roll_all(board, move)
    if player is None:
        return board
    board = board.with_player(evolve(player, summoned=True))
    if is_zenkai(player, move.get("rolls") or {}):
        return evolve(board, phase="over", winner=player.id, reason="zenkai_summon", battle=None)
    waiting = [pid for pid in board.order if not board.player(pid).summoned]  # type: ignore[union-attr]
    if waiting:
        return evolve(board, active=waiting[0])
    return evolve(board, phase="battle", turn=1, active=board.order[0])


def apply_resummon(board: Board, move: Move) -> Board:
    board, player = _roll_all(board, move)
    if player is None:
        return board
    if board.option("zenkai_on_resummon") and is_zenkai(player, move.get("rolls") or {}):
        return evolve(board, phase="over", winner=player.id, reason="zenkai_summon", battle=None)
    return end_turn(evolve(board, specials=frozenset()))


# ---------------------------------------------------------------- battle helpers


def lead_of(board: Board, pid: str, label: Any) -> str:
    player = board.player(pid)
    die = player.die(label) if player else None
    if die is not None and die.unit:
        return str(die.unit)
    return label if isinstance(label, str) else ""


def owner_of_target(board: Board, by: Any, move: Move) -> str:
    named = move.get("defender")
    if isinstance(named, str):
        return named
    target = move.get("target")
    others = [p for p in board.players if p.id != by]
    for p in others:
        d = p.die(target)
        if d and d.in_play and d.is_character:
            return p.id
    for p in others:
        if p.die(target):
            return p.id
    return others[0].id if others else ""


def unit_roll(board: Board, pid: str, lead: str, move: Move) -> tuple[str, int]:
    """Face and value of a roll; a fused 核 unit rolls two dice and adds them (GD-8.2)."""
    player = board.player(pid)
    members = player.unit_members(lead) if player else ()
    rolls = move.get("rolls")
    if len(members) > 2 and isinstance(rolls, list) and rolls:
        faces = [face_of(r.get("face")) for r in rolls if isinstance(r, Mapping)]
        if faces and all(f == "side" for f in faces):
            return "side", 0
        total = sum(roll_value(face_of(r.get("face")) or "", r.get("value")) for r in rolls if isinstance(r, Mapping))
        return "normal", total
    face = face_of(move.get("face")) or ""
    return face, roll_value(face, move.get("value"))


def end_turn(board: Board) -> Board:
    if board.battle is not None:
        board = evolve(board, battle=None)
    standing = board.standing()
    board = decide(board, standing)
    if board.phase == "over":
        return board
    return evolve(board, turn=board.turn + 1, active=board.next_player(board.active, standing))


def decide(board: Board, standing: tuple[str, ...] | None = None) -> Board:
    """GD-9.1: the last player with a character die out of the graveyard wins."""
    if board.phase != "battle" or board.pending_split:
        return board
    standing = board.standing() if standing is None else standing
    if len(standing) == 1:
        return evolve(board, phase="over", winner=standing[0], reason="all_graveyard", battle=None)
    if not standing:
        return evolve(board, phase="over", winner=None, reason="all_graveyard", battle=None)
    return board


def lose(board: Board, pid: str, lead: str) -> Board:
    """A beaten die goes to the graveyard; a beaten 合身 unit waits for its owner's split."""
    player = board.player(pid)
    if player is None:
        return board
    members = player.unit_members(lead)
    if len(members) > 1:
        return evolve(board, pending_split=(pid, lead))
    die = player.die(lead)
    if die is None:
        return board
    return board.with_player(player.with_die(evolve(die, zone="graveyard", unit="")))


def unfuse(board: Board, pid: str, lead: str) -> Board:
    """合身解除 with every die back 召喚 (a tie on defence, GD-8.3)."""
    player = board.player(pid)
    if player is None:
        return board
    for d in player.unit_members(lead):
        player = player.with_die(evolve(d, unit="", state="summoned"))
    return board.with_player(player)


def degrade(board: Board, pid: str, lead: str) -> Board:
    """GD-6.4: a tie drops the defender one step: 召喚 -> 半召喚 -> 未召喚."""
    player = board.player(pid)
    die = player.die(lead) if player else None
    if player is None or die is None:
        return board
    if len(player.unit_members(lead)) > 1:
        return unfuse(board, pid, lead)
    state = {"summoned": "half", "half": "unsummoned"}.get(die.state, "unsummoned")
    return board.with_player(player.with_die(evolve(die, state=state)))


def back_summoned(board: Board, pid: str, label: str) -> Board:
    """GD-6.2 / GD-6.4: after a 判定 the attacker goes back to the deck 召喚 (「召喚状態のまま
    デッキへ戻す」), even if it attacked 半召喚 (house rule ``attacker_returns_summoned``)."""
    player = board.player(pid)
    die = player.die(label) if player else None
    if player is None or die is None or die.unit or not die.in_play or die.state == "summoned":
        return board
    if not board.option("attacker_returns_summoned"):
        return board
    return board.with_player(player.with_die(evolve(die, state="summoned")))


def totals(battle: Battle) -> tuple[int, int]:
    return battle.attack.value + battle.attack.items, battle.defence.value + battle.defence.items


def resolve(board: Board, winner: str, reason: str) -> Board:
    """Close the battle: losses, the outcome shown on the board, then the next turn."""
    battle = board.battle
    if battle is None:
        return board
    a, d = battle.attack, battle.defence
    at, dt = totals(battle)
    board = evolve(board, last=Outcome(a.player, a.die, d.player, d.die, winner, reason, at, dt))
    evolve_ok = None
    if winner == "attacker":
        board = lose(board, d.player, d.die)
        attacker = board.player(a.player)
        die = attacker.die(a.die) if attacker else None
        if die is not None and not die.unit:
            evolve_ok = (a.player, a.die)
    elif winner == "defender" and reason == "counter":
        board = lose(board, a.player, a.die)
    elif winner == "tie":
        board = degrade(board, d.player, d.die)
    if reason in ("higher_total", "tie") and winner in ("attacker", "tie"):
        board = back_summoned(board, a.player, a.die)
    board = end_turn(board)
    return board if board.evolve_ok == evolve_ok else evolve(board, evolve_ok=evolve_ok)


def judge(board: Board) -> Board:
    """GD-6.1 判定: compare roll + item totals once nothing more is due."""
    battle = board.battle
    if battle is None or battle.step != "judge":
        return board
    at, dt = totals(battle)
    if at > dt:
        return resolve(board, "attacker", "higher_total")
    if dt > at:
        return resolve(board, "defender", "higher_total")
    return resolve(board, "tie", "tie")


def side_of(battle: Battle, by: Any) -> str:
    """The side a player's item or 合身 counts for: their own; both, when a die of their own was
    attacked (flagged GD-3.3), by the item step it is recorded in."""
    if battle.step == "defender_item" and battle.defence.player == by:
        return "defence"
    return "attack" if battle.attack.player == by else "defence"


def set_side(battle: Battle, which: str, side: Side) -> Battle:
    return evolve(battle, **{which: side})


# ---------------------------------------------------------------- battle moves, effects, evolution


def apply_attack(board: Board, move: Move) -> Board:
    by = move.get("by")
    if board.player(by) is None:
        return board
    defender = owner_of_target(board, by, move)
    a_lead = lead_of(board, str(by), move.get("die"))
    d_lead = lead_of(board, defender, move.get("target"))
    face, value = unit_roll(board, str(by), a_lead, move)
    battle = Battle(Side(str(by), a_lead, face, value), Side(defender, d_lead))
    board = evolve(board, battle=battle, specials=frozenset())
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
    board = evolve(board, battle=evolve(battle, defence=evolve(d, face=face, value=value)))
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
    add, specials = 0, board.specials  # item dice and 小札絵 whose ability this battle allows
    item, card = move.get("item"), move.get("card")
    die = player.die(item) if isinstance(item, str) else None
    if die is not None:
        player = player.with_die(evolve(die, zone="graveyard"))  # GD-5.5
        add = _item_value(move, die.bonus)
        if face_of(move.get("face")) == "special":
            specials = specials | {(player.id, die.label)}
    elif isinstance(card, str):
        player = evolve(player, kofuda_used=player.kofuda_used + (card,))
        add, specials = int(move.get("bonus") or 0), specials | {(player.id, card)}
    board = evolve(board.with_player(player), specials=specials)
    battle = board.battle
    if battle is None:
        return board
    which = side_of(battle, player.id)
    side: Side = getattr(battle, which)
    board = evolve(board, battle=set_side(battle, which, evolve(side, items=side.items + add, decided=True)))
    return judge(board)


def _mark_unit(board: Board, pid: str, lead: str, partners: list[Any]) -> Board:
    player = board.player(pid)
    if player is None:
        return board
    for label in [lead, *partners]:
        die = player.die(label)
        if die is not None and die.in_play:
            player = player.with_die(evolve(die, unit=lead))
    return board.with_player(player)


def _core_fuse(board: Board, move: Move, side: Side) -> tuple[Board, Side, str]:
    """GD-8.2 心眼・合身: the re-roll decides success; 立ち wins outright; else judged as rolled
    (a 逆立ち wins outright as that face does, without 合身成功, unless house rule
    ``core_handstand`` counts it like 立ち)."""
    face = face_of(move.get("face")) or ""
    if face == "handstand" and board.option("core_handstand") == "face":
        return board, evolve(side, face=face, value=0, decided=True), "core_stand"
    if face == "special" or face in UPRIGHT:
        given = move.get("rolls")
        rolls: list[Any] = given if isinstance(given, list) else []
        value: int = sum(
            roll_value(face_of(r.get("face")) or "", r.get("value")) for r in rolls if isinstance(r, Mapping)
        )
        board = _mark_unit(board, side.player, side.die, list(move.get("partners") or []))
        outright = "core_stand" if face in UPRIGHT else ""
        return board, evolve(side, face="normal", value=value, decided=True, fused=True), outright
    return (
        board,
        evolve(side, face="normal", value=roll_value(face, move.get("value")), decided=True),
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
        board, side, outright = _core_fuse(board, move, side)
    else:
        face = face_of(move.get("face")) or ""
        board = _mark_unit(board, player.id, side.die, list(move.get("partners") or []))
        side = evolve(
            side,
            face=face,
            value=roll_value(face, move.get("value")),
            decided=face != "special",
            fused=True,
        )
        outright = ""
    board = evolve(board, battle=set_side(battle, which, side))
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
    for d in player.unit_members(lead):
        player = player.with_die(evolve(d, unit="", state="summoned"))
    chosen = player.die(move.get("graveyard"))
    if chosen is not None:
        player = player.with_die(evolve(chosen, zone="graveyard", unit=""))
    board = evolve(board.with_player(player), pending_split=None if lead else board.pending_split)
    return decide(board)


def apply_evolve(board: Board, move: Move) -> Board:
    player = board.player(move.get("by"))
    if player is None or face_of(move.get("face")) != "special":
        return board
    die = player.die(move.get("die"))
    evo = next((e for e in player.evolution if e.label == move.get("into")), None)
    if die is None or evo is None:
        return board
    new = evolve(evo, state=die.state, zone=die.zone, origin=die.origin, evolved_from=die.label)
    dice = tuple(new if d.label == die.label else d for d in player.dice)
    pool = tuple(e for e in player.evolution if e is not evo)
    return board.with_player(evolve(player, dice=dice, evolution=pool))


def _take(board: Board, by: str, ref: Any) -> Board:
    taker = board.player(by)
    owner = board.player(ref.get("player")) if isinstance(ref, Mapping) else None
    die = owner.die(ref.get("die")) if owner and isinstance(ref, Mapping) else None
    if taker is None or owner is None or die is None or owner.id == taker.id:
        return board
    board = board.with_player(evolve(owner, dice=tuple(d for d in owner.dice if d is not die)))
    taker = board.player(by)
    assert taker is not None
    return board.with_player(evolve(taker, dice=taker.dice + (evolve(die, unit=""),)))


def _each(board: Board, refs: Any, change: Callable[[Any], dict[str, Any]]) -> Board:
    for ref in refs if isinstance(refs, list) else []:
        owner = board.player(ref.get("player")) if isinstance(ref, Mapping) else None
        die = owner.die(ref.get("die")) if owner else None
        if owner is not None and die is not None:
            board = board.with_player(owner.with_die(evolve(die, **change(ref))))
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


def apply_working(board: Board, move: Move) -> Board:
    fn = APPLY.get(str(move.get("type")))
    if fn is None:
        return board
    if board.evolve_ok is not None and move.get("type") not in ("evolve", "effect"):
        board = evolve(board, evolve_ok=None)
    new = fn(board, move)
    if new.evolve_ok is not None and move.get("type") == "evolve":
        new = evolve(new, evolve_ok=None)
    return new


# What everyone else calls: pure (kept boards never change). Folds use apply_working.
apply = pure(apply_working)
