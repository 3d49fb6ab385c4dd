"""The field: movement (GL-6) and battles (GL-7)."""

from __future__ import annotations

from projections.base import N_, said

import itertools
from typing import Any

from projections.base import Move
from projections.gurren_lagann.board import (
    MOVEMENT,
    GLBoard,
    adjacent,
    battle_outcome,
    find_unit,
    is_square,
    power_of,
    units_at,
)
from projections.gurren_lagann.check.common import Found, actor, square_room, v


def check_move(board: GLBoard, move: Move) -> list[Found]:
    pid, path, figs = move["by"], move["path"], move["figures"]
    out = actor(board, move)
    if not figs or len(path) < 2 or not all(is_square(p) for p in path):
        return out + [
            v("GL-6.3", N_("a move names at least one figure and a path of squares from its square"))
        ]
    if len(figs) > 1 and not board.opt("squad_moves"):
        out.append(v("GL-6.7", N_("one figure per move (house rule squad_moves is off)")))
    steps = len(path) - 1
    for ref in figs:
        out += _mover(board, pid, ref, path[0], steps)
    diagonal = board.opt("diagonal_moves")
    if any(not adjacent(a, b, diagonal) for a, b in itertools.pairwise(path)):
        out.append(
            v(
                "GL-6.3",
                N_("each step of the path goes to an adjacent square") if diagonal
                else N_("each step of the path goes to an adjacent square (orthogonally)"),
            )
        )
    if not board.opt("pass_through_enemy"):
        blocked = [sq for sq in path[1:-1] if any(u.owner != pid for u in units_at(board, sq))]
        if blocked:
            out.append(
                v(
                    "GL-6.6",
                    said(N_("the path passes through {blocked}, which holds enemy figures"), blocked=', '.join(blocked)),
                )
            )
    dest = path[-1]
    if not any(u.owner != pid for u in units_at(board, dest)):
        movers = [u.figure for u in (find_unit(board, f, pid) for f in figs) if u]
        out += square_room(board, pid, dest, movers)
    return out


def _mover(board: GLBoard, pid: str, ref: Any, start: str, steps: int) -> list[Found]:
    u = find_unit(board, ref, pid)
    if u is None or u.owner != pid:
        return [v("GL-6.1", said(N_("{ref} is not {pid}'s figure on the field"), ref=ref, pid=pid))]
    out = []
    if u.square != start:
        out.append(
            v("GL-6.3", said(N_("{figure} stands on {square}, not {start}"), figure=u.figure, square=u.square, start=start), {"square": u.square})
        )
    if u.acted and u.steps == 0:
        out.append(v("GL-4.4", said(N_("{figure} is 行動完了 (deployed this turn: 召喚酔い)"), figure=u.figure)))
    elif u.acted:
        out.append(v("GL-6.1", said(N_("{figure} has already acted this turn"), figure=u.figure)))
    if u.steps + steps > MOVEMENT:
        out.append(
            v(
                "GL-6.2",
                said(N_("{figure} would move {steps} squares this turn (2 at most)"), figure=u.figure, steps=u.steps + steps),
                {"left": MOVEMENT - u.steps},
            )
        )
    return out


def expected_battle(board: GLBoard) -> dict[str, Any]:
    b = board.battle
    assert b is not None
    attackers = [u for u in (find_unit(board, f, b.attacker) for f in b.figures) if u]
    defenders = [u for u in units_at(board, b.square) if u.owner == b.defender]
    attack = sum(power_of(board, u) for u in attackers) + b.attack_bonus
    defend = sum(power_of(board, u) for u in defenders) + b.defend_bonus
    return {"attack": attack, "defend": defend, "outcome": battle_outcome(attack, defend)}


def check_battle(board: GLBoard, move: Move) -> list[Found]:
    if board.battle is None:
        return [v("GL-7.7", N_("no battle is in progress"))]
    out = []
    if move["by"] != board.battle.attacker:
        out.append(v("GL-3.1", said(N_("the attacker {attacker} records the battle"), attacker=board.battle.attacker)))
    attack, defend = move["attack"], move["defend"]
    outcome = move.get("outcome") or battle_outcome(attack, defend)
    if outcome != battle_outcome(attack, defend):
        out.append(
            v(
                "GL-7.4",
                said(N_("power {attack} against {defend} means outcome {attack2}, not {outcome}"), attack=attack, defend=defend, attack2=battle_outcome(attack, defend), outcome=outcome),
                {"outcome": battle_outcome(attack, defend)},
            )
        )
    exp = expected_battle(board)
    if (attack, defend) != (exp["attack"], exp["defend"]):
        fix = {
            "type": "battle",
            "by": board.battle.attacker,
            "attack": exp["attack"],
            "defend": exp["defend"],
            "outcome": exp["outcome"],
        }
        out.append(
            v(
                "GL-7.5",
                said(N_("recorded power {attack}–{defend}, the cards say {attack2}–{defend2} (record skill/effect power to explain)"), attack=attack, defend=defend, attack2=exp['attack'], defend2=exp['defend']),
                exp,
                [fix],
            )
        )
    return out
