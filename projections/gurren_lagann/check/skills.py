"""Skill cards (GL-8): timing, who may use them, three a turn, and springing traps."""

from __future__ import annotations

from projections.base import N_, said

from typing import Any

from projections.base import Move
from projections.gurren_lagann.board import SKILLS_PER_TURN, GLBoard, Unit, find_unit, own_units, side, skill_of
from projections.gurren_lagann.check.common import Found, actor, card_kind, copies_ok, in_hand, v


def _skill_users(board: GLBoard, pid: str, card: Any) -> list[Unit]:
    units = own_units(board, pid)
    b = board.battle
    if card.timing == "battle" and b is not None:
        fighting = b.figures if pid == b.attacker else b.defenders
        units = [u for u in units if u.figure in fighting]
    if card.user:
        units = [u for u in units if u.figure in card.user]
    return [u for u in units if skill_of(board, u) >= card.requirement]


def check_skill(board: GLBoard, move: Move) -> list[Found]:
    pid = move["by"]
    if move.get("card") is None:  # a face-down set card the scorekeeper could not see
        return (
            _skill_timing(board, move, None) + _skill_count(board, pid) + in_hand(board, pid, None)
        )
    out = in_hand(board, pid, move["card"])
    card, problems = card_kind(board, move["card"], "skill", "GL-8.1")
    if card is None or problems:
        return out + problems
    out += _skill_timing(board, move, card) + _skill_count(board, pid) + printed(board, move, card)
    users = _skill_users(board, pid, card)
    named = move.get("user")
    if named is not None and all(u.figure != named for u in users):
        out.append(v("GL-8.3", said(N_("{named} cannot use {name} (skill {requirement} needed)"), named=named, name=card.name, requirement=card.requirement)))
    elif not users:
        out.append(
            v(
                "GL-8.3",
                said(N_("no character of {pid} on the field has skill ≥ {requirement} among {value}"), pid=pid,
                     requirement=card.requirement, value=", ".join(card.user)) if card.user else
                said(N_("no character of {pid} on the field has skill ≥ {requirement}"), pid=pid, requirement=card.requirement),
            )
        )
    return out


def _skill_count(board: GLBoard, pid: str) -> list[Found]:
    if side(board, pid).skills_used >= SKILLS_PER_TURN:
        return [v("GL-8.4", said(N_("{pid} has used {SKILLS_PER_TURN} skills this turn"), pid=pid, SKILLS_PER_TURN=SKILLS_PER_TURN))]
    return []


def _skill_timing(board: GLBoard, move: Move, card: Any) -> list[Found]:
    timing = "trap" if card is None else card.timing
    b = board.battle
    if timing == "battle":
        if b is None:
            return [v("GL-8.2", N_("【戦闘】 skills are used only during a battle"))]
        if move["by"] not in (b.attacker, b.defender):
            return [v("GL-3.1", N_("only the two sides of the battle use skills"))]
        if move["by"] == b.attacker and b.defender_skilled:
            return [
                v("GL-7.3", N_("the attacker's skills come first: the defender has already used one"))
            ]
        return []
    out = actor(board, move)
    if timing == "trap" and not move.get("set"):
        out.append(v("GL-8.2", N_("a 【罠】 card is set face down (set: true) and sprung later")))
    if timing == "main" and move.get("set"):
        out.append(v("GL-8.2", N_("only 【罠】 cards are set")))
    return out


def printed(board: GLBoard, move: Move, card: Any) -> list[Found]:
    """What the card's text prints, held against what its line records (catalog ``draws``,
    ``readies``, ``power``): GL-8.6, GL-8.7, GL-8.9. What a line leaves out is not flagged: a
    scorekeeper may record the text's outcome on an ``effect`` line of its own."""
    out = []
    pid = move["by"]
    drew = move.get("drew")
    count = drew if isinstance(drew, int) else (len(drew) if isinstance(drew, list) else None)
    if card.draws and count is not None and count != card.draws:
        out.append(v("GL-8.6", said(N_("{card} draws {draws} (「{text}」), {count} recorded"), card=card.name, draws=card.draws, text=card.text, count=count), {"drew": card.draws}))
    readied = move.get("readied")
    if card.readies and isinstance(readied, list):
        if len(readied) > card.readies:
            out.append(v("GL-8.7", said(N_("{card} readies {readies} figure(s) (「{text}」), {readied_count} recorded"), card=card.name, readies=card.readies, text=card.text, readied_count=len(readied)),
                         {"readied": card.readies}))
        for ref in readied:
            unit = find_unit(board, ref, pid)
            if unit is None or unit.owner != pid:
                out.append(v("GL-8.7", said(N_("{card} readies {pid}'s own figures (自分のフィギュア), not {ref}"), card=card.name, pid=pid, ref=ref)))
    power = move.get("power")
    if card.power and card.timing in ("battle", "trap") and isinstance(power, int) and power != card.power:
        out.append(v("GL-8.9", said(N_("{card} gives power +{power} (「{text}」), +{power2} recorded"), card=card.name, power=card.power, text=card.text, power2=power),
                     {"power": card.power}))
    return out


def check_trap(board: GLBoard, move: Move) -> list[Found]:
    zone = side(board, move["by"]).skill_zone
    card = board.catalog.get(move.get("card"))
    out = []
    if card is not None:
        out += printed(board, move, card)
        b = board.battle
        if card.trigger == "attacked" and (b is None or b.defender != move["by"]):
            out.append(v("GL-8.8", said(N_("{card} springs 「相手のフィギュアがバトルを仕掛けた時」: only in a battle {by} defends"), card=card.name, by=move['by'])))
    if any(k.set and k.card == move.get("card") for k in zone):
        return out
    if any(k.set and k.card is None for k in zone):
        return out + copies_ok(board, move["by"], [move.get("card")])
    return out + [v("GL-8.5", said(N_("{by} has no set 【罠】 card {move} to spring"), by=move['by'], move=move.get('card') or ''))]
