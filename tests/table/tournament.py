"""An 8-player, 3-round Swiss event with a drop and two byes, best of three, worked out by
hand with exact fractions (tests/table/test_appendix_c.py asserts it; docs/standings.md
walks through it). Each round's pairing is the one projections/swiss.py gives from the
standings as of the round before (tests/table/test_swiss.py checks that too).

Round 1 (everyone):
  T1 佐藤–鈴木 2-0 · T2 高橋–田中 2-1 · T3 伊藤–渡辺 1-1-1 · T4 山本–中村 0-2.
  山本 drops after round 1: 7 players, so round 2 has a bye.
Standings after round 1 (bye to the lowest-ranked player without one): 中村 = 佐藤 (3 points,
  OMW 0.33, GW 1, OGW 0.33) 1st, 高橋 3rd (GW 2/3), 伊藤 = 渡辺 4th, 田中 6th (GW 1/3 beats the
  floored 0.33 of 鈴木 and 山本), 山本 = 鈴木 7th. 山本 dropped: the bye goes to 鈴木.
Round 2: T1 佐藤–中村 2-1 · T2 高橋–伊藤 0-2 · T3 渡辺–田中 2-0 · bye 鈴木.
  (3 points: 中村, 佐藤, 高橋 is odd: 高橋, the lowest of it, pairs down to 伊藤, the
  highest of the 1-point group; 渡辺 then pairs down to 田中.)
Round 3: T1 佐藤–伊藤: 佐藤, 伊藤, then game 3 unfinished when the round is closed (a drawn
  game by default: 1-1-1, a drawn match) · T2 渡辺–鈴木 1-2 · T3 中村–高橋 2-0 with a third
  game row left open (a best of three is decided at two wins; the open game is not counted)
  · bye 田中 (lowest-ranked without a bye after round 2).

Final records (a bye is a 2-0 match win, counted in MW% and GW%, never an opponent):

  player  matches (opponent, games)                     pts  MW%            games W-L-D  GW%
  佐藤    鈴木 2-0, 中村 2-1, 伊藤 1-1-1                 7    7/9            5-2-1        16/24 = 2/3
  鈴木    佐藤 0-2, bye 2-0, 渡辺 2-1                    6    6/9 = 2/3      4-3-0        12/21 = 4/7
  高橋    田中 2-1, 伊藤 0-2, 中村 0-2                    3    3/9 = 1/3      2-5-0        6/21 → 0.33
  田中    高橋 1-2, 渡辺 0-2, bye 2-0                    3    1/3            3-4-0        9/21 = 3/7
  伊藤    渡辺 1-1-1, 高橋 2-0, 佐藤 1-1-1               5    5/9            4-2-2        14/24 = 7/12
  渡辺    伊藤 1-1-1, 田中 2-0, 鈴木 1-2                 4    4/9            4-3-1        13/24
  山本    中村 0-2 (then dropped)                        0    0/3 → 0.33     0-2-0        0 → 0.33
  中村    山本 2-0, 佐藤 1-2, 高橋 2-0                   6    6/9 = 2/3      5-2-0        15/21 = 5/7

  (1/3 is above the floor 33/100, so 高橋's and 田中's 1/3 stand.)

Opponents' averages (each opponent's MW% / GW% as above; byes left out):

  佐藤  OMW (2/3 + 2/3 + 5/9) / 3 = 17/27          OGW (4/7 + 5/7 + 7/12) / 3 = 157/252
  鈴木  OMW (7/9 + 4/9) / 2 = 11/18                OGW (2/3 + 13/24) / 2 = 29/48
  高橋  OMW (1/3 + 5/9 + 2/3) / 3 = 14/27          OGW (3/7 + 7/12 + 5/7) / 3 = 145/252
  田中  OMW (1/3 + 4/9) / 2 = 7/18                 OGW (33/100 + 13/24) / 2 = 523/1200
  伊藤  OMW (4/9 + 1/3 + 7/9) / 3 = 14/27          OGW (13/24 + 33/100 + 2/3) / 3 = 923/1800
  渡辺  OMW (5/9 + 1/3 + 2/3) / 3 = 14/27          OGW (7/12 + 3/7 + 4/7) / 3 = 19/36
  山本  OMW 2/3                                    OGW 5/7
  中村  OMW (33/100 + 7/9 + 1/3) / 3 = 1297/2700   OGW (33/100 + 2/3 + 33/100) / 3 = 199/450

Ranks: 佐藤 7; 鈴木 and 中村 6, OMW 11/18 ≈ 0.611 against 1297/2700 ≈ 0.480; 伊藤 5; 渡辺 4;
高橋 and 田中 3, OMW 14/27 ≈ 0.519 against 7/18 ≈ 0.389; 山本 0 (dropped after round 1,
still ranked). Had 鈴木's bye been an opponent at 100%, his OMW would be (7/9 + 4/9 + 1)/3.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

from projections.standings import Game

EVENT = "秋季スイス"
ROSTER = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村"]
BYES = {2: ["鈴木"], 3: ["田中"]}
DROPPED = {"山本": 1}
BEST_OF = 3

# (round, table, A, B, games): "A"/"B" that seat won, "=" a drawn game, "…" a game still open
ROUNDS: list[tuple[int, int, str, str, str]] = [
    (1, 1, "佐藤", "鈴木", "AA"),
    (1, 2, "高橋", "田中", "ABA"),
    (1, 3, "伊藤", "渡辺", "AB="),
    (1, 4, "山本", "中村", "BB"),
    (2, 1, "佐藤", "中村", "ABA"),
    (2, 2, "高橋", "伊藤", "BB"),
    (2, 3, "渡辺", "田中", "AA"),
    (3, 1, "佐藤", "伊藤", "AB…"),
    (3, 2, "渡辺", "鈴木", "BAB"),
    (3, 3, "中村", "高橋", "AA…"),
]

# rank, player, points, W-L-D, MW%, OMW%, GW%, OGW%, byes, dropped after
FINAL: list[tuple[int, str, int, str, F, F, F, F, int, int | None]] = [
    (1, "佐藤", 7, "2-0-1", F(7, 9), F(17, 27), F(2, 3), F(157, 252), 0, None),
    (2, "鈴木", 6, "2-1-0", F(2, 3), F(11, 18), F(4, 7), F(29, 48), 1, None),
    (3, "中村", 6, "2-1-0", F(2, 3), F(1297, 2700), F(5, 7), F(199, 450), 0, None),
    (4, "伊藤", 5, "1-0-2", F(5, 9), F(14, 27), F(7, 12), F(923, 1800), 0, None),
    (5, "渡辺", 4, "1-1-1", F(4, 9), F(14, 27), F(13, 24), F(19, 36), 0, None),
    (6, "高橋", 3, "1-2-0", F(1, 3), F(14, 27), F(33, 100), F(145, 252), 0, None),
    (7, "田中", 3, "1-2-0", F(1, 3), F(7, 18), F(3, 7), F(523, 1200), 1, None),
    (8, "山本", 0, "0-1-0", F(33, 100), F(2, 3), F(33, 100), F(5, 7), 0, 1),
]

# As of round 2 (what round 3 is paired from). MW%: 佐藤 1, 伊藤 = 渡辺 2/3, 鈴木 = 中村 = 高橋
# 1/2, 田中 = 山本 0.33; GW%: 佐藤 4/5, 伊藤 = 渡辺 2/3, 中村 3/5, 鈴木 1/2, 高橋 2/5, 田中 1/5 → 0.33,
# 山本 0.33. 伊藤 and 渡辺 part on OMW ((2/3 + 1/2)/2 = 7/12 against (2/3 + 0.33)/2 = 299/600).
AFTER_2: list[tuple[int, str, int, str, F, F, F, F, int, int | None]] = [
    (1, "佐藤", 6, "2-0-0", F(1), F(1, 2), F(4, 5), F(11, 20), 0, None),
    (2, "伊藤", 4, "1-0-1", F(2, 3), F(7, 12), F(2, 3), F(8, 15), 0, None),
    (3, "渡辺", 4, "1-0-1", F(2, 3), F(299, 600), F(2, 3), F(299, 600), 0, None),
    (4, "鈴木", 3, "1-1-0", F(1, 2), F(1), F(1, 2), F(4, 5), 1, None),
    (5, "中村", 3, "1-1-0", F(1, 2), F(133, 200), F(3, 5), F(113, 200), 0, None),
    (6, "高橋", 3, "1-1-0", F(1, 2), F(299, 600), F(2, 5), F(299, 600), 0, None),
    (7, "田中", 0, "0-2-0", F(33, 100), F(7, 12), F(33, 100), F(8, 15), 0, None),
    (8, "山本", 0, "0-1-0", F(33, 100), F(1, 2), F(33, 100), F(3, 5), 0, 1),
]

# As of round 1: ties share a rank (中村 = 佐藤 on everything; 伊藤 = 渡辺; 山本 = 鈴木).
AFTER_1: list[tuple[int, str, int]] = [
    (1, "中村", 3), (1, "佐藤", 3), (3, "高橋", 3), (4, "伊藤", 1), (4, "渡辺", 1),
    (6, "田中", 0), (7, "山本", 0), (7, "鈴木", 0),
]


def games() -> list[Game]:
    out = []
    for rnd, table, a, b, results in ROUNDS:
        for n, res in enumerate(results, 1):
            finished = res != "…"
            winner = {"A": a, "B": b}.get(res)
            out.append(Game(f"as-r{rnd}-t{table}-g{n}", rnd, str(table), (a, b), finished, winner,
                            None if not finished else "draw" if res == "=" else "declared"))
    return out


def options(**extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"roster": ROSTER, "byes": BYES, "dropped": DROPPED, "best_of": BEST_OF,
                               "closed_rounds": {1, 2, 3}}
    base.update(extra)
    return base


def pairs(rnd: int) -> set[frozenset[str]]:
    return {frozenset((a, b)) for r, _, a, b, _ in ROUNDS if r == rnd}
