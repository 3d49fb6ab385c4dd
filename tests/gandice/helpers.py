"""Small helpers for the Gandice tests: headers, and folding moves through the ruleset."""

from __future__ import annotations

from typing import Any

from projections.base import META_TYPES, Violation
from projections.gandice import RULESETS

R = RULESETS[max(RULESETS)]  # the newest rules
EVO = {"kind": "character", "evolution": True}
YAMI = {
    "name": "闇ダイスデッキ",
    "cards": ["ギダン", "爪牙", "美雅羅", "武具・羅", "呪術・笑童児"],
    "evolution": ["ギダン・進化"],
    "kofuda": ["ギダン"],
    "dice": [{"name": "ギダン・進化", "kin": "闇", **EVO}],
}
ISURUGI = {
    "name": "イスルギデッキ",
    "cards": ["紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ", "武具・羅", "呪術・笑童児"],
    "kofuda": ["イスルギ"],
}
SUPER = {"name": "超眼", "cards": ["武王", "鰐蛇", "雷爪", "武具・羅", "呪術・笑童児"]}
CORE = {"name": "核", "cards": ["獣幽士", "闘奇子", "機改人", "凶鎌手", "武具・羅"]}


def header(*decks: dict[str, Any], house: dict[str, Any] | None = None, first: str = "A") -> dict[str, Any]:
    decks = decks or (YAMI, ISURUGI)
    ids = "ABCDE"
    return {
        "kifu": 1,
        "game": "gandice",
        "match": {"id": "t", "house_rules": house or {}},
        "rules": "gandice/2",
        "players": [{"id": ids[i], "name": ids[i], "deck": d} for i, d in enumerate(decks)],
        "first": first,
    }


def run(moves: list[dict[str, Any]], hdr: dict[str, Any] | None = None) -> tuple[Any, list[Violation]]:
    """Fold moves (seq added) through check + apply; return the final board and all violations."""
    board = R.initial_board(hdr or header())
    found: list[Violation] = []
    for i, m in enumerate(moves, 1):
        m = {"seq": i, **m}
        if m["type"] in META_TYPES:
            continue
        assert R.validate_move(m) == [], (m, R.validate_move(m))
        found += R.check(board, m)
        board = R.apply(board, m)
    return board, found


def rules(violations: list[Violation]) -> list[str]:
    return [v.rule for v in violations]


def summons(a: dict[str, str] | None = None, b: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Opening rolls: by default A (闇) summons all by 特殊目, B (イスルギ) too."""
    a = a or {"ギダン": "special", "爪牙": "special", "美雅羅": "special"}
    b = b or {"紅蓮のイスルギ": "special", "青嵐のイスルギ": "special", "イスルギ": "special"}
    return [{"type": "summon", "by": "A", "rolls": a}, {"type": "summon", "by": "B", "rolls": b}]


def pj(board: Any, pid: str) -> dict[str, Any]:
    return R.board_json(board)["players"][pid]


def state(board: Any, pid: str, die: str) -> str:
    return next(d for d in pj(board, pid)["dice"] if d["name"] == die).get("state", "")


def sp(move: dict[str, Any]) -> dict[str, Any]:
    """The move with a special roll (特殊目)."""
    return {**move, "face": "special"}


def nm(move: dict[str, Any], value: int) -> dict[str, Any]:
    """The move with a normal roll of ``value``."""
    return {**move, "face": "normal", "value": value}


def at(moves: list[dict[str, Any]], hdr: dict[str, Any] | None = None) -> Any:
    """The board after ``moves``, which must all be legal (the position is reached legally)."""
    board, found = run(moves, hdr)
    assert found == [], found
    return board
