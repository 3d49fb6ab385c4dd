"""A hand-computed 8-player, 3-round event (docs/standings.md works through it).

Each kifu match is one game; the games at one table in one round form one organised-play
match. Results come from the shared lines a real event would record: ``result`` (a win, or
``winner: null`` for a drawn game), ``concede`` and a game-loss ``penalty``.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

EVENT = "冬季大会"
NAMES = ["青木", "井上", "上田", "江口", "大野", "加藤", "木村", "工藤"]

# (round, table, player A, player B, games): each game is "A" or "B" (that seat won),
# "=" (a drawn game), "concede-B" (B conceded) or "gameloss-A" (A got a game-loss penalty).
PAIRINGS: list[tuple[int, int, str, str, list[str]]] = [
    (1, 1, "青木", "井上", ["A", "A"]),
    (1, 2, "上田", "江口", ["A", "B", "="]),
    (1, 3, "大野", "加藤", ["A", "concede-B"]),
    (1, 4, "木村", "工藤", ["B", "A", "B"]),
    (2, 1, "青木", "大野", ["B", "A", "B"]),
    (2, 2, "上田", "工藤", ["gameloss-A", "A", "B"]),
    (2, 3, "江口", "井上", ["A", "A"]),
    (2, 4, "加藤", "木村", ["B", "B"]),
    (3, 1, "大野", "工藤", ["A", "B", "="]),
    (3, 2, "江口", "青木", ["B", "B"]),
    (3, 3, "木村", "上田", ["B", "A", "B"]),
    (3, 4, "井上", "加藤", ["A", "A"]),
]

# The standings worked out by hand (docs/standings.md): rank, player, match points, W-L-D,
# then OMW%, GW%, OGW% as exact fractions (each opponent's percentage floored at 33/100).
EXPECTED: list[tuple[int, str, int, str, F, F, F]] = [
    (1, "大野", 7, "2-0-1", F(1597, 2700), F(2, 3), F(30937, 56700)),
    (2, "工藤", 7, "2-0-1", F(14, 27), F(16, 27), F(89, 162)),
    (3, "青木", 6, "2-1-0", F(14, 27), F(5, 7), F(31, 63)),
    (4, "上田", 4, "1-1-1", F(14, 27), F(13, 27), F(593, 1134)),
    (5, "江口", 4, "1-1-1", F(13, 27), F(10, 21), F(289, 567)),
    (6, "木村", 3, "1-2-0", F(1397, 2700), F(1, 2), F(3791, 8100)),
    (7, "井上", 3, "1-2-0", F(1297, 2700), F(1, 3), F(3193, 6300)),
    (8, "加藤", 0, "0-3-0", F(13, 27), F(33, 100), F(1, 2)),
]


def games() -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    out = []
    for rnd, table, a, b, results in PAIRINGS:
        for n, res in enumerate(results, 1):
            mid = f"wc-r{rnd}-t{table}-g{n}"
            header = {
                "kifu": 1, "game": "toy", "rules": "toy/1",
                "match": {"id": mid, "title": f"{EVENT} 第{rnd}回戦 {table}卓 第{n}ゲーム", "event": EVENT,
                          "round": rnd, "table": str(table), "date": "2026-12-05", "house_rules": {}},
                "players": [{"id": "A", "name": a, "deck": {"name": f"{a}のデッキ", "cards": []}},
                            {"id": "B", "name": b, "deck": {"name": f"{b}のデッキ", "cards": []}}],
                "first": "A",
            }
            lines: list[dict[str, Any]] = [{"type": "score", "by": "A", "points": 1}]
            if res in ("A", "B"):
                lines.append({"type": "result", "by": "judge", "winner": res, "reason": "declared"})
            elif res == "=":
                lines.append({"type": "result", "by": "judge", "winner": None, "reason": "time"})
            elif res.startswith("concede-"):
                lines.append({"type": "concede", "by": res[-1]})
            elif res.startswith("gameloss-"):
                lines.append({"type": "penalty", "by": "judge", "player": res[-1], "infraction": "遅刻",
                              "penalty": "game-loss"})
            out.append((header, [dict(line, seq=i) for i, line in enumerate(lines, 1)]))
    return out


def fill(store: Any) -> None:
    for header, entries in games():
        store.create(header, entries)
