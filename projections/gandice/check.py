"""``check``: the rules a recorded move breaks, each citing its GD- rule id."""

from __future__ import annotations

from projections.base import N_, said

from collections.abc import Callable, Mapping
from typing import Any

from projections.base import Move, Result, Violation
from projections.gandice.board import Board, Player, rollable
from projections.gandice.catalog import NORMAL_VALUES, face_of

Found = list[tuple[str, str, dict[str, Any] | None]]  # (rule, message, expected)


def _roll(move: Mapping[str, Any], where: str = "") -> Found:
    """GD-4.5: a 通常目 carries its number (1-6); other faces carry none."""
    face = face_of(move.get("face"))
    value = move.get("value")
    if face == "normal" and (not isinstance(value, int) or value not in NORMAL_VALUES):
        return [("GD-4.5", said(N_("{where}a 通常目 needs its number 1-6, got {value!r}"), where=where, value=value), None)]
    return []


def _unit_roll(board: Board, pid: str, label: Any, move: Move) -> Found:
    """GD-8.2: a fused 核 unit rolls two dice (``rolls``) and adds them; else one roll."""
    player = board.player(pid)
    if player is None or (die := player.die(label)) is None:
        return _roll(move)
    if len(player.unit_members(die.unit or die.label)) > 2:
        rolls = move.get("rolls")
        if not isinstance(rolls, list) or len(rolls) != 2:
            return [("GD-8.2", N_("a fused 核 unit rolls two dice: record them in rolls"), None)]
        return [f for i, r in enumerate(rolls) for f in _roll(r, f"rolls[{i}]: ")]
    return _roll(move)


def _check_summon(board: Board, move: Move, p: Player) -> Found:
    out: Found = []
    if board.phase != "summon" or p.summoned:
        out.append(("GD-2.1", said(N_("{id} already made the opening 眼魔召喚 roll"), id=p.id), None))
    elif board.active != p.id:
        out.append(
            (
                "GD-2.1",
                said(N_("{active} rolls the 眼魔召喚 before {id} (seat order)"), active=board.active, id=p.id),
                {"by": board.active},
            )
        )
    out += _cover(move, p, "GD-2.1")
    return out


def _cover(move: Move, p: Player, rule: str) -> Found:
    rolls = move.get("rolls") or {}
    want = sorted(d.label for d in rollable(p))
    if sorted(rolls) != want:
        return [
            (
                rule,
                said(N_("the roll must cover every character die left in the deck: {want}"), want=', '.join(want)),
                {"dice": want},
            )
        ]
    return []


def _turn(board: Board, p: Player) -> Found:
    if board.phase == "summon":
        return [("GD-2.1", N_("every player makes the 眼魔召喚 roll before the first attack turn"), None)]
    if board.battle is not None:
        return [
            (
                "GD-3.1",
                said(N_("the battle is not over (waiting for {step})"), step=board.battle.step),
                {"step": board.battle.step},
            )
        ]
    if board.active != p.id:
        return [
            (
                "GD-3.1",
                said(N_("it is {active}'s attack turn, not {id}'s"), active=board.active, id=p.id),
                {"active": board.active},
            )
        ]
    return []


def _check_resummon(board: Board, move: Move, p: Player) -> Found:
    return _turn(board, p) + _cover(move, p, "GD-3.2")


def _attacker_ok(board: Board, p: Player, label: Any) -> Found:
    die = p.die(label)
    if die is None or not die.in_play:
        return [("GD-3.4", said(N_("{id} has no die {label!r} in the deck to attack with"), id=p.id, label=label), None)]
    if not die.is_character:
        return [("GD-3.4", said(N_("{label} is a {kind} die; only character dice attack"), label=label, kind=die.kind), None)]
    if die.unit:
        return []
    if die.state == "unsummoned" and not board.option("unsummoned_may_attack"):
        return [("GD-3.4", said(N_("{label} is 未召喚 and cannot attack (再召喚チャレンジ first)"), label=label), None)]
    if die.state == "half" and not board.option("half_summoned_may_attack"):
        return [("GD-3.4", said(N_("{label} is 半召喚 and cannot attack under this house rule"), label=label), None)]
    return []


def _target_ok(board: Board, p: Player, move: Move) -> Found:
    label = move.get("target")
    owners = [q for q in board.players if q.id != p.id and (d := q.die(label)) and d.in_play]
    if isinstance(move.get("defender"), str):
        owners = [q for q in owners if q.id == move["defender"]]
    if not owners:
        return [("GD-3.3", said(N_("no opponent has {label!r} in the deck"), label=label), None)]
    if len(owners) > 1:
        return [
            (
                "GD-3.3",
                said(N_("{label} is ambiguous: name the defender ({q})"), label=label, q=', '.join(q.id for q in owners)),
                None,
            )
        ]
    die = owners[0].die(label)
    if die is not None and not die.is_character:
        return [("GD-3.3", said(N_("{label} is a {kind} die: only character dice can be attacked"), label=label, kind=die.kind), None)]
    return []


def _check_attack(board: Board, move: Move, p: Player) -> Found:
    out = _turn(board, p) + _attacker_ok(board, p, move.get("die")) + _target_ok(board, p, move)
    out += _unit_roll(board, p.id, move.get("die"), move)
    die = p.die(move.get("die"))
    if die and die.unit and die.fusion_kind == "super" and face_of(move.get("face")) == "side":
        out.append(("GD-8.4", N_("a fused 超眼 die has no 横倒し"), None))
    return out


def _check_defend(board: Board, move: Move, p: Player) -> Found:
    b = board.battle
    last = board.last
    if b is None:
        if last and last.reason == "undefended" and last.defence_die == move.get("die"):
            return [
                (
                    "GD-4.3",
                    said(N_("{defence_die} was 未召喚 and cannot defend; the attack already won"), defence_die=last.defence_die),
                    None,
                )
            ]
        return [("GD-4.4", N_("there is no attack to defend against"), None)]
    if b.step != "defend":
        return [("GD-4.4", said(N_("the defence roll is done (waiting for {step})"), step=b.step), {"step": b.step})]
    out: Found = []
    if p.id != b.defence.player:
        out.append(("GD-4.4", said(N_("{player} defends, not {id}"), player=b.defence.player, id=p.id), {"by": b.defence.player}))
    die = board.player(b.defence.player).die(move.get("die"))  # type: ignore[union-attr]
    if move.get("die") != b.defence.die and not (die and die.unit == b.defence.die):
        out.append(("GD-4.4", said(N_("the attacked die {die} rolls in defence"), die=b.defence.die), {"die": b.defence.die}))
    if die and die.unit and die.fusion_kind == "super" and face_of(move.get("face")) == "side":
        out.append(("GD-8.4", N_("a fused 超眼 die has no 横倒し"), None))
    return out + _unit_roll(board, b.defence.player, b.defence.die, move)


def _item_step(board: Board, p: Player, what: str) -> Found:
    b = board.battle
    if b is None or b.step not in ("attacker_item", "defender_item"):
        step = b.step if b else "no battle"
        return [
            (
                "GD-5.1",
                said(N_("{what} only after a 特殊目, in the item step (now: {step})"), what=what, step=step),
                {"step": step},
            )
        ]
    due = b.attack.player if b.step == "attacker_item" else b.defence.player
    if p.id != due:
        return [("GD-5.1", said(N_("{due} chooses an item first ({step})"), due=due, step=b.step), {"by": due})]
    return []


def _check_item(board: Board, move: Move, p: Player) -> Found:
    out = _item_step(board, p, "items are used")
    item, card = move.get("item"), move.get("card")
    if isinstance(item, str):
        die = p.die(item)
        if die is None or not die.in_play:
            out.append(("GD-5.2", said(N_("{id} has no unused item die {item!r}"), id=p.id, item=item), None))
        elif die.kind not in ("weapon", "curse"):
            out.append(("GD-5.2", said(N_("{item} is a {kind} die, not a 武具 or 呪術 die"), item=item, kind=die.kind), None))
        if face_of(move.get("face")) is None:
            out.append(("GD-5.2", N_("an item die roll needs its face"), None))
        out += _roll(move)
    elif isinstance(card, str):
        if card not in p.kofuda:
            out.append(("GD-5.4", said(N_("{card} is not one of {id}'s 小札絵"), card=card, id=p.id), None))
        elif card in p.kofuda_used:
            out.append(("GD-5.4", said(N_("小札絵 {card} was already used this match"), card=card), None))
    return out


def _check_fuse(board: Board, move: Move, p: Player) -> Found:
    out = _item_step(board, p, "合身 is declared")
    b = board.battle
    label = move.get("die")
    die = p.die(label)
    if b is not None and label not in (b.attack.die, b.defence.die):
        out.append(("GD-8.1", said(N_("{label} is not fighting in this battle"), label=label), None))
    if die is None or not die.fusion_kind:
        return out + [("GD-8.1", said(N_("{label} is not a 超眼 or 核 die"), label=label), None)]
    if b is not None and (b.attack.fused if b.attack.player == p.id else b.defence.fused):
        out.append(("GD-8.1", said(N_("{label} already fused in this battle"), label=label), None))
    partners = move.get("partners") or []
    rule, need = ("GD-8.1", 1) if die.fusion_kind == "super" else ("GD-8.2", 2)
    if len(partners) != need or len(set(partners)) != need or label in partners:
        out.append((rule, said(N_("{need} 合身 takes {need2} partner die(s)"), need='超眼' if need == 1 else '核', need2=need), None))
    for name in partners:
        q = p.die(name)
        if q is None or not q.in_play or q.unit:
            out.append((rule, said(N_("partner {name} is not in {id}'s deck"), name=name, id=p.id), None))
        elif q.fusion_group != die.fusion_group or q.fusion_kind != die.fusion_kind:
            out.append((rule, said(N_("{name} cannot 合身 with {label}"), name=name, label=label), None))
        elif need == 1 and q.state != "summoned":
            out.append((rule, said(N_("partner {name} must be 召喚 (not 半召喚/未召喚)"), name=name), None))
    if need == 2 and face_of(move.get("face")) == "special":  # 立ち/逆立ち: won, nothing to roll
        rolls = move.get("rolls")
        if not isinstance(rolls, list) or len(rolls) != 2:
            out.append(
                (
                    "GD-8.2",
                    N_("after 合身成功 the two other core dice are rolled: record them in rolls"),
                    None,
                )
            )
        else:
            out += [f for i, r in enumerate(rolls) for f in _roll(r, f"rolls[{i}]: ")]
    return out + _roll(move)


def _check_split(board: Board, move: Move, p: Player) -> Found:
    pending = board.pending_split
    if pending is None or pending[0] != p.id:
        return [("GD-8.3", said(N_("{id} has no beaten 合身 unit to split"), id=p.id), None)]
    members = [d.label for d in p.unit_members(pending[1])]
    if move.get("graveyard") not in members:
        return [("GD-8.3", said(N_("choose one of {members}"), members=', '.join(members)), {"graveyard": members})]
    return []


def _check_evolve(board: Board, move: Move, p: Player) -> Found:
    out: Found = []
    if board.evolve_ok != (p.id, move.get("die")):
        out.append(("GD-7.1", N_("a 進化チャレンジ comes only right after that die won an attack"), None))
    evo = next((e for e in p.evolution if e.label == move.get("into")), None)
    die = p.die(move.get("die"))
    if evo is None:
        out.append(("GD-7.1", said(N_("{id} has no unused evolution die {into!r}"), id=p.id, into=move.get('into')), None))
    elif die is not None and evo.kin != die.kin:
        out.append(("GD-7.1", said(N_("{label} ({kin}) is not 同族 with {label2} ({kin2})"), label=evo.label, kin=evo.kin, label2=die.label, kin2=die.kin), None))
    return out + _roll(move)


def _refs_exist(board: Board, move: Move) -> Found:
    out: Found = []
    refs = [move["take"]] if isinstance(move.get("take"), Mapping) else []
    for name in ("graveyard", "state", "revive"):
        refs += [r for r in move.get(name) or [] if isinstance(r, Mapping)]
    for ref in refs:
        owner = board.player(ref.get("player"))
        if owner is None or owner.die(ref.get("die")) is None:
            out.append(("GD-10.1", said(N_("{player} has no die {die!r}"), player=ref.get('player'), die=ref.get('die')), None))
    take = move.get("take")
    victim = board.player(take.get("player")) if isinstance(take, Mapping) else None
    taken = victim.die(take.get("die")) if victim and isinstance(take, Mapping) else None
    if taken is not None and taken.unit:
        out.append(("GD-10.1", said(N_("{label} is part of a 合身 unit and cannot change sides"), label=taken.label), None))
    if isinstance(take, Mapping) and (me := board.player(move.get("by"))) and me.die(take.get("die")):
        out.append(("GD-10.1", said(N_("{by} already has a die labelled {die}"), by=move.get('by'), die=take.get('die')), None))
    return out


def _check_effect(board: Board, move: Move, p: Player) -> Found:
    src = move.get("source")
    die = p.die(src)
    out = _refs_exist(board, move)
    if die is None and src not in p.kofuda:
        return out + [("GD-10.1", said(N_("{src!r} is not a die or 小札絵 of {id}"), src=src, id=p.id), None)]
    if die is not None and die.kind == "character":
        if not die.in_play:
            out.append(("GD-10.1", said(N_("{src} is in the graveyard"), src=src), None))
        return out
    if (p.id, src) not in board.specials:
        out.append(("GD-10.1", said(N_("{src}'s ability needs its 特殊目 in this battle"), src=src), None))
    return out


CHECKS: dict[str, Callable[[Board, Move, Player], Found]] = {
    "summon": _check_summon,
    "resummon": _check_resummon,
    "attack": _check_attack,
    "defend": _check_defend,
    "item": _check_item,
    "fuse": _check_fuse,
    "split": _check_split,
    "evolve": _check_evolve,
    "effect": _check_effect,
}


def check(board: Board, move: Move) -> list[Violation]:
    seq = int(move.get("seq") or 0)
    p = board.player(move.get("by"))
    kind = str(move.get("type"))
    if p is None:
        return [Violation(seq, "GD-3.1", said(N_("unknown player {by!r}"), by=move.get('by')))]
    if board.phase == "over":
        return [Violation(seq, "GD-9.2", said(N_("the match is over ({winner} won: {reason})"), winner=board.winner, reason=board.reason))]
    found: Found = []
    if board.pending_split and kind not in ("split", "effect", "evolve"):
        who = board.pending_split[0]
        found.append(("GD-8.3", said(N_("{who} splits the beaten 合身 unit first"), who=who), {"by": who}))
    if kind in CHECKS:
        found += CHECKS[kind](board, move, p)
    return [Violation(seq, rule, msg, expected) for rule, msg, expected in found]


def result(board: Board) -> Result | None:
    """GD-9.1 / GD-2.3: the result once the match is over, else None."""
    if board.phase != "over":
        return None
    return Result(board.winner, board.reason)
