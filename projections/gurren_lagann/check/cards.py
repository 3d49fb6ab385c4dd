"""Cards into play: deploy (GL-4), support and equip (GL-5), effects and 合体 (GL-10.2, GL-4.5)."""

from __future__ import annotations

from projections.base import N_, said

from typing import Any

from projections.base import Move
from projections.gurren_lagann.board import (
    FIRST_TURN_DEPLOYS,
    GLBoard,
    deploy_zone,
    find_unit,
    headquarters,
    opponent,
    own_units,
    side,
    units_at,
)
from projections.gurren_lagann.check.common import (
    Found,
    actor,
    card_kind,
    in_hand,
    square_room,
    unique,
    v,
)


def check_deploy(board: GLBoard, move: Move) -> list[Found]:
    pid, sq = move["by"], move["square"]
    s = side(board, pid)
    out = actor(board, move) + in_hand(board, pid, move["card"])
    card, problems = card_kind(board, move["card"], "gbs", "GL-4.1")
    out += problems
    if card is None:
        return out
    if card.combine:
        out.append(
            v("GL-4.5", said(N_("{name} reaches the field only by 合体 (record it as an effect)"), name=card.name))
        )
    fig = move.get("figure") or card.figure_name()
    if fig != card.figure_name():
        out.append(v("GL-4.2", said(N_("{name} deploys the figure {card}, not {fig}"), name=card.name, card=card.figure_name(), fig=fig)))
    if fig not in s.stock:
        out.append(
            v("GL-4.2", said(N_("the figure {fig} is not in {pid}'s stock"), fig=fig, pid=pid), {"stock": list(s.stock)})
        )
    zone = set(deploy_zone(s)) - (
        set() if board.opt("deploy_to_headquarters") else {headquarters(s)}
    )
    if sq not in zone:
        out.append(v("GL-4.3", said(N_("{sq} is not in {pid}'s deploy zone"), sq=sq, pid=pid), {"squares": sorted(zone)}))
    out += square_room(board, pid, sq, [fig]) + unique(board, pid, card.name)
    if board.turn == 1 and pid == board.first and s.deployed >= FIRST_TURN_DEPLOYS:
        out.append(
            v("GL-3.5", said(N_("the first player deploys at most {FIRST_TURN_DEPLOYS} figures on turn 1"), FIRST_TURN_DEPLOYS=FIRST_TURN_DEPLOYS))
        )
    return out


def check_support(board: GLBoard, move: Move) -> list[Found]:
    pid = move["by"]
    out = actor(board, move) + in_hand(board, pid, move["card"])
    card, problems = card_kind(board, move["card"], "character", "GL-5.1")
    target = find_unit(board, move["target"], pid)
    if target is None or target.owner != pid:
        problems.append(v("GL-5.1", said(N_("{target} is not {pid}'s figure on the field"), target=move['target'], pid=pid)))
    return out + problems + (unique(board, pid, card.name) if card else [])


def check_equip(board: GLBoard, move: Move) -> list[Found]:
    pid = move["by"]
    out = actor(board, move) + in_hand(board, pid, move["card"])
    card, problems = card_kind(board, move["card"], "item", "GL-5.2")
    out += problems
    if card is None or problems:
        return out
    if card.figure_name() not in side(board, pid).stock:
        out.append(v("GL-5.2", said(N_("the item figure {card} is not in {pid}'s stock"), card=card.figure_name(), pid=pid)))
    target = find_unit(board, move["target"], pid)
    if target is None or target.owner != pid:
        return out + [v("GL-5.2", said(N_("{target} is not {pid}'s figure on the field"), target=move['target'], pid=pid))]
    if target.item:
        out.append(
            v("GL-5.3", said(N_("{figure} already carries {item} (one item per character)"), figure=target.figure, item=target.item))
        )
    if card.equip and target.figure not in card.equip:
        out.append(
            v(
                "GL-5.4",
                said(N_("{name} may be equipped only to {equip}"), name=card.name, equip=', '.join(card.equip)),
                {"targets": list(card.equip)},
            )
        )
    return out + unique(board, pid, card.name)


def check_effect(board: GLBoard, move: Move) -> list[Found]:
    pid, name = move["by"], move["card"]
    s = side(board, pid)
    out: list[Found] = []
    places = [*s.hand, *s.discard, *(k.card for k in s.skill_zone)]
    on_field = any(name in (u.card, u.item, *u.supports) for u in own_units(board, pid))
    if board.catalog.get(name) is None:
        out.append(v("GL-1.7", said(N_("{name} is not in the catalog"), name=name)))
    elif not on_field and name not in places and None not in s.hand:
        out.append(
            v("GL-10.2", said(N_("{name} is not on {pid}'s field, hand, skill zone or discard pile"), name=name, pid=pid))
        )
    deployed = move.get("deployed")
    if isinstance(deployed, dict):
        out += _check_combine(board, pid, deployed, move.get("destroyed") or [])
    return out


def _check_combine(
    board: GLBoard, pid: str, what: dict[str, Any], leaving: list[Any]
) -> list[Found]:
    card, out = card_kind(board, what.get("card"), "gbs", "GL-4.1")
    if card is None:
        return out
    out += in_hand(board, pid, card.name)
    # the text's `destroyed` acts first (apply.apply_outcomes): what it sends back to stock is there
    # again for `deployed`, and its cards leave the field. A bare name is the opponent's figure.
    other = opponent(board, pid)
    leaving_units = [u for u in (find_unit(board, r, other) for r in leaving) if u is not None and u.owner == pid]
    gone = {u.figure for u in leaving_units}
    back = gone | {u.item_figure for u in leaving_units if u.item_figure}
    fig = what.get("figure") or card.figure_name()
    if fig not in side(board, pid).stock and fig not in back:
        out.append(v("GL-4.2", said(N_("the figure {fig} is not in {pid}'s stock"), fig=fig, pid=pid)))
    here = [u.figure for u in units_at(board, what.get("square", "")) if u.owner == pid]
    missing = [p for p in card.combine if p not in here]
    if missing:
        out.append(v("GL-4.5", said(N_("合体 needs {missing} on {square}"), missing=', '.join(missing), square=what.get('square'))))
    if card.name in {u.card for u in own_units(board, pid) if u.figure not in gone}:
        out.append(v("GL-9.1", said(N_("{name} is already on {pid}'s field (自軍ユニーク)"), name=card.name, pid=pid)))
    return out
