"""One checker per move type (see rules.py for the shared pieces and the result)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from projections.base import Move, Violation
from projections.gurren_lagann.board import (
    FIRST_TURN_DEPLOYS,
    HAND_LIMIT,
    MOVEMENT,
    SKILLS_PER_TURN,
    GLBoard,
    Unit,
    adjacent,
    deploy_zone,
    find_unit,
    headquarters,
    is_square,
    own_units,
    power_of,
    side,
    skill_of,
    units_at,
)
from projections.gurren_lagann.moves import battle_outcome, take_from_hand
from projections.gurren_lagann.rules import (
    Found,
    actor,
    card_kind,
    copies_ok,
    in_hand,
    result,
    square_room,
    unique,
    v,
)


def check_draw(board: GLBoard, move: Move) -> list[Found]:
    out = []
    if move["by"] != board.active:
        return [v("GL-3.1", f"it is {board.active}'s turn")]
    if board.turn == 1 and move["by"] == board.first:
        return [
            v("GL-3.4", "the first player draws nothing on the first turn (ファーストドロー制限)")
        ]
    if board.phase != "draw":
        out.append(v("GL-3.3", "the draw phase has passed: one draw per turn"))
    cards = move.get("cards")
    n = (
        len(cards)
        if isinstance(cards, list)
        else int(move.get("count") or board.opt("draw_per_turn"))
    )
    if n != board.opt("draw_per_turn"):
        out.append(
            v(
                "GL-3.3",
                f"drew {n} cards; the draw phase draws {board.opt('draw_per_turn')}",
                {"count": board.opt("draw_per_turn")},
            )
        )
    if isinstance(cards, list):
        out += copies_ok(board, move["by"], cards)
    return out


def check_reveal(board: GLBoard, move: Move) -> list[Found]:
    s = side(board, move["by"])
    cards = move.get("cards") or []
    out = []
    if len(cards) > s.hand.count(None):
        out.append(
            v("GL-10.3", f"{len(cards)} cards revealed but {s.hand.count(None)} are unknown")
        )
    return out + copies_ok(board, move["by"], cards)


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
            v("GL-4.5", f"{card.name} reaches the field only by 合体 (record it as an effect)")
        )
    fig = move.get("figure") or card.figure_name()
    if fig != card.figure_name():
        out.append(v("GL-4.2", f"{card.name} deploys the figure {card.figure_name()}, not {fig}"))
    if fig not in s.stock:
        out.append(
            v("GL-4.2", f"the figure {fig} is not in {pid}'s stock", {"stock": list(s.stock)})
        )
    zone = set(deploy_zone(s)) - (
        set() if board.opt("deploy_to_headquarters") else {headquarters(s)}
    )
    if sq not in zone:
        out.append(v("GL-4.3", f"{sq} is not in {pid}'s deploy zone", {"squares": sorted(zone)}))
    out += square_room(board, pid, sq, [fig]) + unique(board, pid, card.name)
    if board.turn == 1 and pid == board.first and s.deployed >= FIRST_TURN_DEPLOYS:
        out.append(
            v("GL-3.5", f"the first player deploys at most {FIRST_TURN_DEPLOYS} figures on turn 1")
        )
    return out


def check_support(board: GLBoard, move: Move) -> list[Found]:
    pid = move["by"]
    out = actor(board, move) + in_hand(board, pid, move["card"])
    card, problems = card_kind(board, move["card"], "character", "GL-5.1")
    target = find_unit(board, move["target"], pid)
    if target is None or target.owner != pid:
        problems.append(v("GL-5.1", f"{move['target']} is not {pid}'s figure on the field"))
    return out + problems + (unique(board, pid, card.name) if card else [])


def check_equip(board: GLBoard, move: Move) -> list[Found]:
    pid = move["by"]
    out = actor(board, move) + in_hand(board, pid, move["card"])
    card, problems = card_kind(board, move["card"], "item", "GL-5.2")
    out += problems
    if card is None or problems:
        return out
    if card.figure_name() not in side(board, pid).stock:
        out.append(v("GL-5.2", f"the item figure {card.figure_name()} is not in {pid}'s stock"))
    target = find_unit(board, move["target"], pid)
    if target is None or target.owner != pid:
        return out + [v("GL-5.2", f"{move['target']} is not {pid}'s figure on the field")]
    if target.item:
        out.append(
            v("GL-5.3", f"{target.figure} already carries {target.item} (one item per character)")
        )
    if card.equip and target.figure not in card.equip:
        out.append(
            v(
                "GL-5.4",
                f"{card.name} may be equipped only to {', '.join(card.equip)}",
                {"targets": list(card.equip)},
            )
        )
    return out + unique(board, pid, card.name)


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
    out += _skill_timing(board, move, card) + _skill_count(board, pid)
    users = _skill_users(board, pid, card)
    named = move.get("user")
    if named is not None and all(u.figure != named for u in users):
        out.append(v("GL-8.3", f"{named} cannot use {card.name} (skill {card.requirement} needed)"))
    elif not users:
        out.append(
            v(
                "GL-8.3",
                f"no character of {pid} on the field has skill ≥ {card.requirement}"
                + (f" among {', '.join(card.user)}" if card.user else ""),
            )
        )
    return out


def _skill_count(board: GLBoard, pid: str) -> list[Found]:
    if side(board, pid).skills_used >= SKILLS_PER_TURN:
        return [v("GL-8.4", f"{pid} has used {SKILLS_PER_TURN} skills this turn")]
    return []


def _skill_timing(board: GLBoard, move: Move, card: Any) -> list[Found]:
    timing = "trap" if card is None else card.timing
    b = board.battle
    if timing == "battle":
        if b is None:
            return [v("GL-8.2", "【戦闘】 skills are used only during a battle")]
        if move["by"] not in (b.attacker, b.defender):
            return [v("GL-3.1", "only the two sides of the battle use skills")]
        if move["by"] == b.attacker and b.defender_skilled:
            return [
                v("GL-7.3", "the attacker's skills come first: the defender has already used one")
            ]
        return []
    out = actor(board, move)
    if timing == "trap" and not move.get("set"):
        out.append(v("GL-8.2", "a 【罠】 card is set face down (set: true) and sprung later"))
    if timing == "main" and move.get("set"):
        out.append(v("GL-8.2", "only 【罠】 cards are set"))
    return out


def check_trap(board: GLBoard, move: Move) -> list[Found]:
    zone = side(board, move["by"]).skill_zone
    if any(k.set and k.card == move.get("card") for k in zone):
        return []
    if any(k.set and k.card is None for k in zone):
        return copies_ok(board, move["by"], [move.get("card")])
    return [v("GL-8.5", f"{move['by']} has no set 【罠】 card {move.get('card') or ''} to spring")]


def check_move(board: GLBoard, move: Move) -> list[Found]:
    pid, path, figs = move["by"], move["path"], move["figures"]
    out = actor(board, move)
    if not figs or len(path) < 2 or not all(is_square(p) for p in path):
        return out + [
            v("GL-6.3", "a move names at least one figure and a path of squares from its square")
        ]
    if len(figs) > 1 and not board.opt("squad_moves"):
        out.append(v("GL-6.7", "one figure per move (house rule squad_moves is off)"))
    steps = len(path) - 1
    for ref in figs:
        out += _mover(board, pid, ref, path[0], steps)
    diagonal = board.opt("diagonal_moves")
    if any(not adjacent(a, b, diagonal) for a, b in itertools.pairwise(path)):
        out.append(
            v(
                "GL-6.3",
                "each step of the path goes to an adjacent square"
                + ("" if diagonal else " (orthogonally)"),
            )
        )
    if not board.opt("pass_through_enemy"):
        blocked = [sq for sq in path[1:-1] if any(u.owner != pid for u in units_at(board, sq))]
        if blocked:
            out.append(
                v(
                    "GL-6.6",
                    f"the path passes through {', '.join(blocked)}, which holds enemy figures",
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
        return [v("GL-6.1", f"{ref} is not {pid}'s figure on the field")]
    out = []
    if u.square != start:
        out.append(
            v("GL-6.3", f"{u.figure} stands on {u.square}, not {start}", {"square": u.square})
        )
    if u.acted and u.steps == 0:
        out.append(v("GL-4.4", f"{u.figure} is 行動完了 (deployed this turn: 召喚酔い)"))
    elif u.acted:
        out.append(v("GL-6.1", f"{u.figure} has already acted this turn"))
    if u.steps + steps > MOVEMENT:
        out.append(
            v(
                "GL-6.2",
                f"{u.figure} would move {u.steps + steps} squares this turn (2 at most)",
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
        return [v("GL-7.7", "no battle is in progress")]
    out = []
    if move["by"] != board.battle.attacker:
        out.append(v("GL-3.1", f"the attacker {board.battle.attacker} records the battle"))
    attack, defend = move["attack"], move["defend"]
    outcome = move.get("outcome") or battle_outcome(attack, defend)
    if outcome != battle_outcome(attack, defend):
        out.append(
            v(
                "GL-7.4",
                f"power {attack} against {defend} means outcome "
                f"{battle_outcome(attack, defend)}, not {outcome}",
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
                f"recorded power {attack}–{defend}, the cards say "
                f"{exp['attack']}–{exp['defend']} (record skill/effect power to explain)",
                exp,
                [fix],
            )
        )
    return out


def check_effect(board: GLBoard, move: Move) -> list[Found]:
    pid, name = move["by"], move["card"]
    s = side(board, pid)
    out: list[Found] = []
    places = [*s.hand, *s.discard, *(k.card for k in s.skill_zone)]
    on_field = any(name in (u.card, u.item, *u.supports) for u in own_units(board, pid))
    if board.catalog.get(name) is None:
        out.append(v("GL-1.7", f"{name} is not in the catalog"))
    elif not on_field and name not in places and None not in s.hand:
        out.append(
            v("GL-10.2", f"{name} is not on {pid}'s field, hand, skill zone or discard pile")
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
    fig = what.get("figure") or card.figure_name()
    if fig not in side(board, pid).stock:
        out.append(v("GL-4.2", f"the figure {fig} is not in {pid}'s stock"))
    here = [u.figure for u in units_at(board, what.get("square", "")) if u.owner == pid]
    missing = [p for p in card.combine if p not in here]
    if missing:
        out.append(v("GL-4.5", f"合体 needs {', '.join(missing)} on {what.get('square')}"))
    gone = {(find_unit(board, r, pid) or Unit("", "", "", "")).figure for r in leaving}
    if card.name in {n for u in own_units(board, pid) if u.figure not in gone for n in (u.card,)}:
        out.append(v("GL-9.1", f"{card.name} is already on {pid}'s field (自軍ユニーク)"))
    return out


def check_end_turn(board: GLBoard, move: Move) -> list[Found]:
    pid = move["by"]
    out = []
    if pid != board.active:
        return [v("GL-3.1", f"it is {board.active}'s turn")]
    if board.battle is not None:
        out.append(
            v("GL-7.7", f"a battle at {board.battle.square} is in progress: resolve it first")
        )
    hand = side(board, pid).hand
    discarded = move.get("discarded") or []
    rest = hand
    for c in discarded:
        rest, found = take_from_hand(rest, c)
        if not found:
            out.append(
                v("GL-10.1", f"{c} is not (or no longer) in {pid}'s hand", {"hand": list(hand)})
            )
    need = max(len(hand) - HAND_LIMIT, 0)
    if len(discarded) != need:
        out.append(
            v(
                "GL-3.6",
                f"{pid} holds {len(hand)} cards and discards down to {HAND_LIMIT} "
                f"({need} cards), not {len(discarded)}",
                {"discard": need},
            )
        )
    return out


CHECKS: dict[str, Callable[[GLBoard, Move], list[Found]]] = {
    "draw": check_draw,
    "reveal": check_reveal,
    "deploy": check_deploy,
    "support": check_support,
    "equip": check_equip,
    "skill": check_skill,
    "trap": check_trap,
    "move": check_move,
    "battle": check_battle,
    "effect": check_effect,
    "end_turn": check_end_turn,
}


def check(board: GLBoard, move: Move) -> list[Violation]:
    found: list[Found] = []
    if result(board) is not None:
        found.append(v("GL-11.3", "the game is already over"))
    fn = CHECKS.get(move.get("type", ""))
    if fn is not None:
        found += fn(board, move)
    seq = int(move.get("seq", 0))
    return [Violation(seq=seq, rule=r, message=m, expected=e, suggest=s) for r, m, e, s in found]
