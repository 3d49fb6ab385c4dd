"""Matches the web tests step through: a toy match with every kind of note (and hostile
text), and seeded generated matches of each real game."""

from __future__ import annotations

import random
from typing import Any

from projections import registry

XSS = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 1">'
GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")


def toy_match(match_id: str = "toy-1") -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header = {
        "kifu": 1, "game": "toy", "rules": "toy/1",
        "match": {"id": match_id, "title": "秋の大会 決勝", "event": "秋の大会", "round": 3, "table": "12",
                  "date": "2026-11-29", "house_rules": {}},
        "players": [
            {"id": "A", "name": "山田 <b>太郎</b>", "deck": {"name": "闇ダイス組", "archetype": "闇", "cards": []}},
            {"id": "B", "name": "佐藤", "deck": {"name": "イスルギ組", "archetype": "イスルギ", "cards": []}},
        ],
        "first": "A",
    }
    lines: list[dict[str, Any]] = [
        {"type": "score", "by": "A", "points": 2},                     # 1
        {"type": "score", "by": "B", "points": 3},                     # 2
        {"type": "annotate", "on": 2, "by": "解説", "text": XSS, "symbol": "!?"},  # 3
        {"type": "score", "by": "B", "points": 1},                     # 4 (not B's turn: TOY-1)
        {"type": "dispute", "on": 4, "by": "A", "claim": "B played twice", "rule": "TOY-1"},  # 5
        {"type": "ruling", "dispute": 5, "by": "judge", "decision": "overturned", "rule": "TOY-1",
         "text": "A's turn: A scores 1 instead", "replace": [{"type": "score", "by": "A", "points": 1}]},  # 6
        {"type": "score", "by": "B", "points": 4},                     # 7 (TOY-2 in both views)
    ]
    return header, [dict(line, seq=i) for i, line in enumerate(lines, 1)]


def generated(game: str, seed: int = 1) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return registry.get(game).generate(random.Random(seed), f"gen-{game}")
