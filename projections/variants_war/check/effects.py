"""Checks of effect and magic lines (VW-4.2, VW-5.4, VW-5.5, VW-7.4, VW-8.1, VW-8.3, VW-9)."""

from __future__ import annotations

from projections.base import N_, said

from typing import Any

from projections.base import Move
from projections.variants_war import catalog
from projections.package import freeze
from projections.variants_war.apply import ACTION_APPLY
from projections.variants_war.board import CENTRE, Board, in_hand, is_field, per_turn, pile
from projections.variants_war.check.cards import check_card_text
from projections.variants_war.check.common import Found
from projections.variants_war.check.common import flag as _v


PILE_NAMES = {"deck": "deck (デッキ)", "rescue": "rescue deck (救援デッキ)", "magic": "magic deck (魔法デッキ)"}
TARGETS = {"move": ("from",), "swap": ("a", "b"), "destroy": ("square",), "bounce": ("square",),
           "to_deck": ("square",), "position": ("square",), "modify": ("square",), "status": ("square",)}


def check_effect_source(board: Board, move: Move, out: Found) -> None:
    card, kind, sq, by = move.get("card"), move.get("kind"), move.get("square"), move["by"]
    m = board.at(sq) if sq else None
    if m is None or m.card != card or m.owner != by:
        out.append(("VW-9.1", said(N_("{card} of {by} is not on {sq}"), card=card, by=by, sq=sq), None, None))
        return
    if kind == "special":
        if not (catalog.is_ace(card) and m.arrived == board.turn):
            out.append(("VW-9.1", N_("a special effect (特殊効果) is an ace's, on the turn it is summoned"), None, None))
        return
    label = "通常効果" if kind == "normal" else "横移動効果"
    if not catalog.has_effect(card, str(kind)):
        out.append(("VW-5.4" if kind == "normal" else "VW-5.5", said(N_("{card} has no {label}"), card=card, label=label), None, None))
    if kind == "normal" and per_turn(board) and "effect" in board.used:
        out.append(("VW-5.4", N_("the turn's normal effect (行動権) is already used: one per turn"), None, None))
    elif kind == "normal" and m.acted:
        out.append(("VW-5.4", said(N_("{card} already activated its normal effect this turn"), card=card), None, None))
    if kind == "lateral" and m.lateral <= 0:
        out.append(("VW-5.5", said(N_("{card} has not moved sideways on this turn since its last trigger"), card=card), None, None))
    if m.has("no_effect", board.turn):
        out.append(("VW-5.8", said(N_("{card} may not activate effects now"), card=card), None, None))
    if kind == "normal" and m.has("no_action", board.turn):
        out.append(("VW-5.8", said(N_("{card} may not act this turn (幻惑の巻物)"), card=card), None, None))


def _summon_problem(board: Board, move: Move, act: dict[str, Any], before: list[dict[str, Any]]) -> tuple[str, str] | None:
    """VW-8.1: an ace comes only through the effect printed with its condition, and only when the
    line also did what the condition says (``before``: the actions earlier in the same line)."""
    card = act.get("card")
    cond = catalog.SUMMONS.get(str(card))
    if not catalog.is_ace(card) or cond is None:
        return "VW-9.2", said(N_("{card} is not an ace"), card=card)
    if move.get("type") != "effect" or move.get("card") != cond.summoner or move.get("kind") != cond.kind:
        return "VW-8.1", said(N_("{card} comes only through the {kind} effect of {summoner}"), card=card, kind=cond.kind, summoner=cond.summoner)
    pid = act.get("player") or move["by"]
    if card not in board.player(pid).ex:
        return "VW-8.3", said(N_("{card} is not in {pid}'s EX deck (an ace that left never returns)"), card=card, pid=pid)
    if act.get("to") != move.get("square"):
        return "VW-8.1", N_("the ace is summoned where its summoner stood")
    problem = _condition_problem(board, move, cond, before)
    if not problem:
        return None
    return "VW-8.1", said(N_("{summoner}: {problem} (「{text}」)"), summoner=cond.summoner, problem=problem, text=cond.text)


def _condition_problem(board: Board, move: Move, cond: catalog.SummonCondition,
                       before: list[dict[str, Any]]) -> str | None:
    """What the line lacks of ``cond``, read on the board before the line."""
    returned = [a.get("square") for a in before if a.get("do") == "to_deck"]
    zone = "戦場ゾーン" if cond.zones == "battlefield" else "フィールドのゾーン"
    if move.get("square") not in returned:
        return N_("the summoner itself goes back to the deck first")
    for sq in returned:
        m = board.at(sq)
        if m is None or m.owner != move["by"] or cond.family not in m.card:
            return said(N_("{m} is not one of your 「{family}」 monsters"), m=m.card if m else sq, family=cond.family)
        if cond.zones == "battlefield" and not is_field(str(sq)):
            return said(N_("{card} is not in a {zone}"), card=m.card, zone=zone)
    if len(set(returned)) != cond.returns:
        return said(N_("{returns} monsters go back to the deck from the {zone}, not {returned}"), returns=cond.returns, zone=zone, returned=len(set(returned)))
    return None


def _target_problem(board: Board, move: Move, act: dict[str, Any]) -> tuple[str, str] | None:
    by = move["by"]
    for key in TARGETS.get(act["do"], ()):
        sq = act.get(key)
        if board.arctos is not None and sq == CENTRE:
            return "VW-7.4", N_("Arctos takes no effects")
        m = board.at(sq)
        if m is None:
            return "VW-9.2", said(N_("no monster on {sq}"), sq=sq)
        if m.owner != by and m.has("immune", board.turn):
            return "VW-9.3", said(N_("{card} is unaffected by the opponent's card effects now"), card=m.card)
    dst = act.get("to")
    if act["do"] in ("move", "place", "summon") and dst:
        if board.arctos is not None and dst == CENTRE:
            return "VW-7.4", N_("Arctos stands on the centre")
        if board.at(dst) is not None:
            return "VW-9.2", said(N_("{dst} is occupied"), dst=dst)
        if any(s == dst for s, _ in board.sealed):
            return "VW-9.4", said(N_("{dst} is sealed (シール・イール)"), dst=dst)
    return None


def check_actions(board: Board, move: Move, out: Found) -> None:
    """Check each action against the board left by the actions before it."""
    freeze()  # the actions are folded on a what-if copy: the board given stays as it is
    ids = {p.id for p in board.players}
    start, before = board, list[dict[str, Any]]()
    for act in move.get("actions") or ():
        if act.get("player", move["by"]) not in ids:
            out.append(("VW-9.2", said(N_("{player!r} is not a player"), player=act.get('player')), {"action": act}, None))
            continue
        if act["do"] == "summon":
            problem = _summon_problem(start, move, act, before)
        else:
            problem = _target_problem(board, move, act)
        if act["do"] == "draw" and not pile(board, act.get("player") or move["by"], act["pile"]).cards:
            problem = ("VW-9.2", said(N_("the {pile} is empty: nothing to draw"), pile=PILE_NAMES.get(act['pile'], act['pile'])))
        if problem:
            out.append((problem[0], problem[1], {"action": act}, None))
        board = ACTION_APPLY[act["do"]](board, act, move["by"])
        before.append(act)


def check_magic(board: Board, move: Move, out: Found) -> None:
    by, card = move["by"], move["card"]
    if not catalog.is_magic(card):
        _v(out, "VW-4.2", said(N_("{card} is not a magic card"), card=card))
    elif not in_hand(board, by, card):
        _v(out, "VW-3.4", said(N_("{card} is not in {by}'s hand"), card=card, by=by))
    check_actions(board, move, out)
    check_card_text(board, move, out)


def check_effect(board: Board, move: Move, out: Found) -> None:
    before = len(out)
    check_effect_source(board, move, out)
    activated = len(out) == before  # an effect that may not be activated at all is not read further (VW-11)
    check_actions(board, move, out)
    if activated:
        check_card_text(board, move, out)
