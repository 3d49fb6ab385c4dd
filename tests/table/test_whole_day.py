"""The whole day, through the ``kifu`` command as an organiser runs it (issue 32, "Done when"):
an 8-player, 3-round Swiss (best of one, a time-out counted as a double loss, 両者敗北, check-in
with one no-show, one late entrant in round 2, a drop), then a top 4 best of three with a
deciding extra game, to the champion. The standings and the bracket after every round are the
ones worked out here by hand, in exact fractions (each figure's working beside it).

Eight register for check-in: 青木 井上 上田 江口 大野 加藤 木村 工藤. 工藤 does not check in (the
no-show: dropped after round 0, still listed, 0-0-0; MW = GW = 0.33, the floor of no match; no
opponent, so OMW = OGW = 0).

Round 1 (the venue's seating, imported): T1 青木 beats 井上 · T2 上田 beats 江口 · T3 大野–加藤:
time, the judge records ``result`` winner null, reason ``time``: under ``--unfinished
double-loss`` a loss for both (0 points each, the game lost by both: 0-1 in games) · bye 木村
(a 2-0 match win, nobody's opponent).
  青木, 上田: 3, MW = GW = 1, OMW = OGW = 0.33 (井上's, 江口's 0 floored). 木村: 3, MW = GW = 1,
  no opponent: OMW = OGW = 0. 井上, 江口: 0, 0.33, their opponent's 1: OMW = OGW = 1.
  大野, 加藤: 0, all 0.33. 工藤 the no-show as above.
佐藤 arrives and registers ``--late`` after round 1: round 1 a match loss for them (0-2 in games),
against nobody.
Round 2 (kifu's Swiss, 8 players, no bye): T1 上田–青木 (the 3-point group), T2 木村–井上 (木村,
the lowest of the odd 3-point group, paired down to 井上, the highest of the 0-point group),
T3 江口–加藤, T4 大野–佐藤 (within the 0-point group, 大野–加藤 a rematch). 青木, 井上, 江口 and
佐藤 win.
  MW: 青木 1; 井上 上田 木村 江口 佐藤 3/6 = 1/2 (木村's a bye, 佐藤's the missed round);
  大野 加藤 0.33. GW: 木村 2 wins of 3 games = 6/9 = 2/3; 佐藤 1 of 3 = 1/3; 井上 上田 江口 1/2.
  OMW: 青木 (井上 1/2 + 上田 1/2)/2 = 1/2; 井上 (青木 1 + 木村 1/2)/2 = 3/4; 上田 (江口 1/2 +
  青木 1)/2 = 3/4; 木村 (井上 only: the bye is nobody) 1/2; 江口 (上田 1/2 + 加藤 0.33)/2 =
  83/200; 佐藤 (大野 only: the missed round is nobody) 0.33; 加藤 (大野 0.33 + 江口 1/2)/2 =
  83/200; 大野 (加藤 0.33 + 佐藤 1/2)/2 = 83/200.
  OGW: 青木 (1/2 + 1/2)/2 = 1/2; 井上 (1 + 2/3)/2 = 5/6; 上田 (1/2 + 1)/2 = 3/4; 木村 1/2;
  江口 (1/2 + 0.33)/2 = 83/200; 佐藤 0.33; 加藤 83/200; 大野 (0.33 + 1/3)/2 = 199/600.
  Ranks: 青木; 井上 before 上田 (OMW and GW equal, OGW 5/6 > 3/4); 木村, 江口, 佐藤 by OMW;
  加藤 before 大野 (OGW); 工藤.
加藤 drops after round 2.
Round 3 (Swiss, 7 active): T1 青木–木村 (青木 pairs down; 井上 and 上田 are rematches), T2
井上–上田, T3 江口–佐藤, bye 大野 (the lowest-ranked active player, no bye yet). 青木, 上田, 佐藤
win.
  Final: 青木 9 (3-0-0); 上田, 佐藤 6 (2-1-0); 木村 井上 江口 大野 3 (1-2-0); 加藤 0 (0-2-0),
  工藤 0 (0-0-0).
  MW: 1, 2/3, 2/3, 1/3 ×4 (1/3 > 0.33 stands), 0.33, 0.33. GW: 佐藤 2 of 4 games = 1/2,
  木村 and 大野 (the bye's 2-0) 2 of 4 = 1/2, else as MW.
  OMW: 青木 (井上 1/3 + 上田 2/3 + 木村 1/3)/3 = 4/9; 上田 (江口 1/3 + 青木 1 + 井上 1/3)/3 =
  5/9; 佐藤 (大野 1/3 + 江口 1/3)/2 = 1/3; 木村 (井上 1/3 + 青木 1)/2 = 2/3; 井上 (青木 1 +
  木村 1/3 + 上田 2/3)/3 = 2/3; 江口 (上田 2/3 + 加藤 0.33 + 佐藤 2/3)/3 = 499/900; 大野 (加藤
  0.33 + 佐藤 2/3)/2 = 299/600; 加藤 (大野 1/3 + 江口 1/3)/2 = 1/3; 工藤 0.
  OGW: 青木 (1/3 + 2/3 + 1/2)/3 = 1/2; 上田 (1/3 + 1 + 1/3)/3 = 5/9; 佐藤 (大野 1/2 + 江口
  1/3)/2 = 5/12; 木村 (1/3 + 1)/2 = 2/3; 井上 (1 + 1/2 + 2/3)/3 = 13/18; 江口 (2/3 + 0.33 +
  1/2)/3 = 449/900; 大野 (0.33 + 1/2)/2 = 83/200; 加藤 (1/2 + 1/3)/2 = 5/12; 工藤 0.
  Ranks: 青木; 上田 (OMW 5/9) before 佐藤 (1/3); 木村 before 井上 (OMW equal, GW 1/2 > 1/3),
  江口, 大野 by OMW; 加藤; 工藤.
Top 4, best of three: semifinals 青木 (1) v 木村 (4), 上田 (2) v 佐藤 (3). 青木 2-0; 上田 wins
game 1, 佐藤 game 2, game 3 drawn: no draw in a playoff, the judge adds game 4, 佐藤 wins it
(2-1-1). Final 青木 v 佐藤: 青木 2-1. Places: 青木, 佐藤, 上田 (semifinal, seed 2), 木村
(semifinal, seed 4), then 井上, 江口, 大野, 加藤, 工藤 in Swiss order.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

from projections.standings import pct
from tests.table.whole_day import (
    DROP, E, FINAL as FINAL_GAMES, LATE, NO_SHOW, PLAYERS, SEMIS, bracket, concede, ok, open_day, pair_round_one, play, record,
    standings, tables,
)

FL = F(33, 100)

# rank, player, points, W-L-D, MW, OMW, GW, OGW
AFTER_1 = [
    (1, "上田", 3, "1-0-0", F(1), FL, F(1), FL), (1, "青木", 3, "1-0-0", F(1), FL, F(1), FL),
    (3, "木村", 3, "1-0-0", F(1), F(0), F(1), F(0)),
    (4, "井上", 0, "0-1-0", FL, F(1), FL, F(1)), (4, "江口", 0, "0-1-0", FL, F(1), FL, F(1)),
    (6, "加藤", 0, "0-1-0", FL, FL, FL, FL), (6, "大野", 0, "0-1-0", FL, FL, FL, FL),
    (8, "工藤", 0, "0-0-0", FL, F(0), FL, F(0)),
]
AFTER_2 = [
    (1, "青木", 6, "2-0-0", F(1), F(1, 2), F(1), F(1, 2)),
    (2, "井上", 3, "1-1-0", F(1, 2), F(3, 4), F(1, 2), F(5, 6)),
    (3, "上田", 3, "1-1-0", F(1, 2), F(3, 4), F(1, 2), F(3, 4)),
    (4, "木村", 3, "1-1-0", F(1, 2), F(1, 2), F(2, 3), F(1, 2)),
    (5, "江口", 3, "1-1-0", F(1, 2), F(83, 200), F(1, 2), F(83, 200)),
    (6, "佐藤", 3, "1-1-0", F(1, 2), FL, F(1, 3), FL),
    (7, "加藤", 0, "0-2-0", FL, F(83, 200), FL, F(83, 200)),
    (8, "大野", 0, "0-2-0", FL, F(83, 200), FL, F(199, 600)),
    (9, "工藤", 0, "0-0-0", FL, F(0), FL, F(0)),
]
FINAL = [
    (1, "青木", 9, "3-0-0", F(1), F(4, 9), F(1), F(1, 2)),
    (2, "上田", 6, "2-1-0", F(2, 3), F(5, 9), F(2, 3), F(5, 9)),
    (3, "佐藤", 6, "2-1-0", F(2, 3), F(1, 3), F(1, 2), F(5, 12)),
    (4, "木村", 3, "1-2-0", F(1, 3), F(2, 3), F(1, 2), F(2, 3)),
    (5, "井上", 3, "1-2-0", F(1, 3), F(2, 3), F(1, 3), F(13, 18)),
    (6, "江口", 3, "1-2-0", F(1, 3), F(499, 900), F(1, 3), F(449, 900)),
    (7, "大野", 3, "1-2-0", F(1, 3), F(299, 600), F(1, 2), F(83, 200)),
    (8, "加藤", 0, "0-2-0", FL, F(1, 3), FL, F(5, 12)),
    (9, "工藤", 0, "0-0-0", FL, F(0), FL, F(0)),
]
# the marks of the day: player -> (dropped_after, no_show, missed rounds, byes)
MARKS = {"工藤": (0, True, 0, 0), "佐藤": (None, False, 1, 0), "加藤": (2, False, 0, 0), "木村": (None, False, 0, 1),
         "大野": (None, False, 0, 1)}


def expected(rows) -> list[tuple]:
    return [(r[0], r[1], r[2], r[3], pct(r[4]), pct(r[5]), pct(r[6]), pct(r[7])) for r in rows]


def got(rows) -> list[tuple]:
    return [(s["rank"], s["player"], s["points"], s["record"], s["mwp"], s["omw"], s["gwp"], s["ogw"]) for s in rows]


def marks(rows) -> dict[str, tuple]:
    return {s["player"]: (s["dropped_after"], s["no_show"], s["missed"], s["byes"]) for s in rows
            if (s["dropped_after"], s["no_show"], s["missed"], s["byes"]) != (None, False, 0, 0)}


def games(view: dict) -> list[list[tuple[str | None, list[int]]]]:
    """Each playoff round's tables as (winner, each player's game wins)."""
    return [[(m["winner"], [p["wins"] for p in m["players"]]) for m in r["matches"]] for r in view["rounds"]]


def test_the_whole_day_through_kifu(kifu, tmp_path: Path, monkeypatch):
    open_day(kifu)
    for p in PLAYERS:  # check-in: everyone but 工藤
        if p != NO_SHOW:
            ok(kifu, "event", "checkin", E, "--player", p)
    monkeypatch.setenv("KIFU_LANG", "ja")
    assert "チェックイン: 7 / 8" in ok(kifu, "event", E)
    monkeypatch.setenv("KIFU_LANG", "en")

    pair_round_one(kifu, tmp_path)
    status = json.loads(ok(kifu, "event", "show", E, "--json"))["rounds"][0]
    assert status["no_shows"] == [NO_SHOW]
    assert tables(kifu, 1) == ([["青木", "井上"], ["上田", "江口"], ["大野", "加藤"]], ["木村"])
    play(kifu, 1)
    ok(kifu, "round", "close", E)
    rows = standings(kifu, "--round", "1")
    assert got(rows) == expected(AFTER_1)
    assert marks(rows) == {"工藤": (0, True, 0, 0), "木村": (None, False, 0, 1)}
    assert [r["place"] for r in rows] == list(range(1, 9))  # before a cut: the Swiss order
    assert bracket(kifu)["seeds"] == []

    # the late entrant, for round 2: round 1 a loss against nobody
    late = json.loads(ok(kifu, "event", "register", E, "--player", LATE, "--late", "--json"))
    assert late["missed"] == [1]
    row = next(r for r in standings(kifu, "--round", "1") if r["player"] == LATE)
    assert (row["points"], row["record"], row["games"], row["opponents"]) == (
        0, "0-1-0", {"won": 0, "lost": 2, "drawn": 0}, [])

    ok(kifu, "round", "pair", E)
    assert tables(kifu, 2) == ([["上田", "青木"], ["木村", "井上"], ["江口", "加藤"], ["大野", "佐藤"]], [])
    play(kifu, 2)
    ok(kifu, "round", "close", E)
    rows = standings(kifu, "--round", "2")
    assert got(rows) == expected(AFTER_2)
    assert marks(rows) == {"工藤": (0, True, 0, 0), "佐藤": (None, False, 1, 0), "木村": (None, False, 0, 1)}
    assert [r["place"] for r in rows] == list(range(1, 10))
    assert bracket(kifu)["seeds"] == []
    ok(kifu, "event", "drop", E, "--player", DROP)

    ok(kifu, "round", "pair", E)
    assert tables(kifu, 3) == ([["青木", "木村"], ["井上", "上田"], ["江口", "佐藤"]], ["大野"])
    play(kifu, 3)
    ok(kifu, "round", "close", E)
    final = standings(kifu)
    assert got(final) == expected(FINAL)
    assert marks(final) == MARKS
    assert [r["place"] for r in final] == list(range(1, 10))
    assert bracket(kifu)["seeds"] == []

    # the top 4, best of three
    cut = json.loads(ok(kifu, "round", "cut", E, "--top", "4", "--json"))
    assert [(t["players"], t["seeds"], t["chooses_first"]) for t in cut["tables"]] == [
        (["青木", "木村"], [1, 4], "青木"), (["上田", "佐藤"], [2, 3], "上田")]
    view = bracket(kifu)
    assert [s["player"] for s in view["seeds"]] == ["青木", "上田", "佐藤", "木村"]
    assert games(view) == [[(None, [0, 0]), (None, [0, 0])]] and view["champion"] is None
    concede(kifu, 4, SEMIS)
    record(kifu, f"{E}-r4-t2-g3", {"type": "result", "by": "主審", "winner": None, "reason": "draw"})
    assert games(bracket(kifu)) == [[("青木", [2, 0]), (None, [1, 1])]]
    code, _, err = kifu("round", "close", E)
    assert code != 0 and "table 2 (上田 vs 佐藤): no winner yet" in err
    ok(kifu, "round", "game", E, "--table", "2")
    concede(kifu, 4, [("t2-g4", "A")])
    ok(kifu, "round", "close", E)
    view = bracket(kifu)
    assert games(view) == [[("青木", [2, 0]), ("佐藤", [1, 2])]] and view["rounds"][0]["closed"] is True
    rows = standings(kifu)
    # while the cut is played: the two still in first (by seed), the semifinal losers 3 and 4 by seed
    assert [(r["place"], r["player"]) for r in rows][:4] == [(1, "青木"), (2, "佐藤"), (3, "上田"), (4, "木村")]
    assert sorted(got(rows)) == sorted(expected(FINAL))  # the cut counts in no Swiss figure

    final_round = json.loads(ok(kifu, "round", "pair", E, "--json"))
    assert [(t["players"], t["seeds"]) for t in final_round["tables"]] == [(["青木", "佐藤"], [1, 3])]
    concede(kifu, 5, FINAL_GAMES)
    ok(kifu, "round", "close", E)
    view = bracket(kifu)
    assert view["champion"] == "青木" and [r["stage"] for r in view["rounds"]] == ["semifinal", "final"]
    assert games(view) == [[("青木", [2, 0]), ("佐藤", [1, 2])], [("青木", [2, 1])]]
    rows = standings(kifu)
    assert [(r["place"], r["player"]) for r in rows] == list(enumerate(
        ["青木", "佐藤", "上田", "木村", "井上", "江口", "大野", "加藤", "工藤"], 1))
    # the Swiss figures stand as worked out: the cut counts in none of them
    assert sorted(got(rows)) == sorted(expected(FINAL))
    assert marks(rows) == MARKS
