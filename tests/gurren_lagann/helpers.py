"""Small helpers for the GBS tests: headers, folding moves, boards at a step."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from projections.base import META_TYPES, Violation
from projections.gurren_lagann import RULESET as R
from projections.gurren_lagann.catalog import load

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DECKS = load().decks


def header(house_rules: dict[str, Any] | None = None, first: str = "A") -> dict[str, Any]:
    players = []
    for pid, name in (("A", "大グレン団"), ("B", "獣人軍")):
        deck = DECKS[name]
        players.append(
            {
                "id": pid,
                "name": pid,
                "deck": {
                    "name": name,
                    "archetype": deck["archetype"],
                    "cards": list(deck["cards"]),
                    "stock": list(deck["stock"]),
                },
            }
        )
    return {
        "kifu": 1,
        "game": "gurren-lagann",
        "rules": "gurren-lagann/2",
        "match": {
            "id": "t",
            "round": 1,
            "table": "1",
            "date": "2026-11-29",
            "house_rules": house_rules or {},
        },
        "players": players,
        "first": first,
    }


def fold(hdr: dict[str, Any], moves: list[dict[str, Any]]) -> tuple[Any, list[Violation]]:
    """Apply moves (seq added when missing, meta types skipped), collecting violations."""
    board = R.initial_board(hdr)
    found: list[Violation] = []
    for i, m in enumerate(moves, 1):
        m = {"seq": i, **m}
        if m["type"] in META_TYPES:
            continue
        assert not R.validate_move(m), (m, R.validate_move(m))
        found += R.check(board, m)
        board = R.apply(board, m)
    return board, found


def load_example(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return rows[0], rows[1:]


def board_at(hdr: dict[str, Any], events: list[dict[str, Any]], step: int) -> Any:
    board = R.initial_board(hdr)
    for e in events:
        if e["seq"] > step:
            break
        if e["type"] not in META_TYPES:
            board = R.apply(board, e)
    return board


def rules_of(violations: list[Violation]) -> list[str]:
    return [v.rule for v in violations]


HAND_A = ["グレン", "ラガン", "カミナ", "ドリル一閃", "グレンブーメラン", "ダヤッカイザー"]
HAND_B = ["エンキ", "ビャコウ", "ガンメン", "ヴィラル", "獣人の誇り", "待ち伏せ"]


def opening() -> list[dict[str, Any]]:
    return [
        {"type": "reveal", "by": "A", "cards": list(HAND_A)},
        {"type": "reveal", "by": "B", "cards": list(HAND_B)},
    ]


def last(hdr: dict[str, Any], moves: list[dict[str, Any]], move: dict[str, Any]) -> list[str]:
    """Rule ids the final ``move`` breaks after ``moves`` were played."""
    board, _ = fold(hdr, moves)
    return rules_of(R.check(board, {"seq": len(moves) + 1, **move}))


def deepcopy(x: Any) -> Any:
    return copy.deepcopy(x)
