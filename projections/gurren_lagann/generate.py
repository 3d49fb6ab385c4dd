"""Enumerating legal moves (where the hand is known) and generating random legal matches."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from projections.gurren_lagann.board import (
    HAND_LIMIT,
    SQUARES,
    GLBoard,
    adjacent,
    deploy_zone,
    opponent,
    own_units,
    side,
)
from projections.gurren_lagann.catalog import load
from projections.gurren_lagann.check import check, expected_battle, result
from projections.package import generated_header


def _paths(board: GLBoard, start: str, left: int) -> Iterator[list[str]]:
    diagonal = board.opt("diagonal_moves")
    frontier = [[start]]
    for _ in range(left):
        frontier = [
            p + [sq]
            for p in frontier
            for sq in SQUARES
            if adjacent(p[-1], sq, diagonal) and sq not in p
        ]
        yield from frontier


def candidates(board: GLBoard) -> Iterator[dict[str, Any]]:
    """Plausible moves for the active player (not yet filtered by check)."""
    pid = board.active
    s = side(board, pid)
    cat = board.catalog
    if board.battle is not None:
        exp = expected_battle(board)
        yield {"type": "battle", "by": board.battle.attacker, **exp}
        return
    if board.phase == "draw":
        yield {"type": "draw", "by": pid, "count": board.opt("draw_per_turn")}
        return
    for name in dict.fromkeys(c for c in s.hand if c):
        card = cat.get(name)
        if card is None:
            continue
        if card.kind == "gbs":
            for sq in deploy_zone(s):
                yield {"type": "deploy", "by": pid, "card": name, "square": sq}
        elif card.kind in ("character", "item"):
            for u in own_units(board, pid):
                yield {
                    "type": "support" if card.kind == "character" else "equip",
                    "by": pid,
                    "card": name,
                    "target": u.figure,
                }
        elif card.kind == "skill" and card.timing in ("main", "trap"):
            yield {
                "type": "skill",
                "by": pid,
                "card": name,
                **({"set": True} if card.timing == "trap" else {}),
            }
    yield from _combines(board)
    for u in own_units(board, pid):
        if not u.acted:
            for path in _paths(board, u.square, 2 - u.steps):
                yield {"type": "move", "by": pid, "figures": [u.figure], "path": path}
    yield end_turn(board)


def _combines(board: GLBoard) -> Iterator[dict[str, Any]]:
    """合体: a combine card in hand whose parts share a square (recorded as an effect)."""
    pid = board.active
    for name in dict.fromkeys(c for c in side(board, pid).hand if c):
        card = board.catalog.get(name)
        if card is None or not card.combine:
            continue
        for sq in {u.square for u in own_units(board, pid)}:
            here = {u.figure for u in own_units(board, pid) if u.square == sq}
            if set(card.combine) <= here:
                yield {
                    "type": "effect",
                    "by": pid,
                    "card": name,
                    "text": "合体",
                    "destroyed": [f"{pid}:{f}" for f in card.combine],
                    "deployed": {"card": name, "square": sq},
                }


def end_turn(board: GLBoard) -> dict[str, Any]:
    hand = side(board, board.active).hand
    extra = max(len(hand) - HAND_LIMIT, 0)
    return {"type": "end_turn", "by": board.active, "discarded": list(hand[:extra])}


def legal_moves(board: GLBoard) -> list[dict[str, Any]]:
    if result(board) is not None:
        return []
    return [m for m in candidates(board) if not check(board, {"seq": 0, **m})]


def _header(ruleset: Any, rng: random.Random, match_id: str) -> dict[str, Any]:
    decks = load().decks
    names = list(decks)
    rng.shuffle(names)
    players = [
        {
            "id": pid,
            "name": name,
            "deck": {
                "name": name,
                "archetype": decks[name]["archetype"],
                "cards": list(decks[name]["cards"]),
                "stock": list(decks[name]["stock"]),
            },
        }
        for pid, name in zip(("A", "B"), names)
    ]
    return generated_header(ruleset, match_id, players, rng.choice(["A", "B"]))


def _score(board: GLBoard, move: dict[str, Any], rng: random.Random) -> float:
    kind = move["type"]
    if kind == "move":
        home = side(board, opponent(board, move["by"])).home_row
        here = side(board, move["by"]).home_row
        dest = int(move["path"][-1][1:])
        forward = abs(dest - here) - abs(int(move["path"][0][1:]) - here)
        return 3 + forward * 2 + (4 if dest == home else 0) + rng.random()
    return {"deploy": 6, "equip": 5, "support": 4, "skill": 2, "end_turn": 1}.get(
        kind, 1
    ) + rng.random()


def generate(
    ruleset: Any, rng: random.Random, match_id: str, max_turns: int = 120
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A random legal match, seeded by ``rng``: (header, moves with seq)."""
    header = _header(ruleset, rng, match_id)
    board = ruleset.initial_board(header)
    piles = {}
    log: list[dict[str, Any]] = []

    def emit(move: dict[str, Any]) -> None:
        nonlocal board
        move = {"seq": len(log) + 1, **move}
        assert not ruleset.check(board, move), (move, ruleset.check(board, move))
        log.append(move)
        board = ruleset.apply(board, move)

    for p in header["players"]:
        pile = list(p["deck"]["cards"])
        rng.shuffle(pile)
        piles[p["id"]] = pile
        emit({"type": "reveal", "by": p["id"], "cards": pile[:6]})
        del pile[:6]
    while result(board) is None and board.turn <= max_turns:
        options = legal_moves(board)
        if board.phase == "draw" and board.battle is None:
            pile = piles[board.active]
            emit({"type": "draw", "by": board.active, "cards": pile[: board.opt("draw_per_turn")]})
            del pile[: board.opt("draw_per_turn")]
            continue
        if board.battle is not None:
            options = _battle_skills(board) + options
        if not options:
            break
        emit(
            max(
                options,
                key=lambda m: (
                    _score(board, m, rng)
                    if m["type"] != "skill" or board.battle is None
                    else 10 + rng.random()
                ),
            )
            if rng.random() < 0.85
            else rng.choice(options)
        )
    return header, log


def _battle_skills(board: GLBoard) -> list[dict[str, Any]]:
    b = board.battle
    assert b is not None
    out = []
    for k in side(board, b.defender).skill_zone:
        if k.set and k.card:
            out.append({"type": "trap", "by": b.defender, "card": k.card, "power": 2})
    for pid in (b.attacker, b.defender):
        for name in dict.fromkeys(c for c in side(board, pid).hand if c):
            card = load().get(name)
            if card and card.kind == "skill" and card.timing == "battle":
                m = {"seq": 0, "type": "skill", "by": pid, "card": name}
                if not check(board, m):
                    out.append({k: v for k, v in m.items() if k != "seq"})
    return out
