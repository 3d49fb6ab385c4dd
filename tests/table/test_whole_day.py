"""The whole day, through the ``kifu`` command as an organiser runs it (issue 32, "Done when"):
an 8-player, 3-round Swiss (best of one, a time-out counted as a double loss, 両者敗北), a drop,
then a top 4 best of three with a deciding extra game, to the champion. The standings and the
bracket after every round are the ones worked out here by hand, in exact fractions.

Round 1 (the venue's seating, imported): T1 青木 beats 井上 · T2 上田 beats 江口 · T3 大野 beats
加藤 · T4 木村–工藤: time, the judge records ``result`` winner null, reason ``time``: under
``--unfinished double-loss`` a loss for both (0 points each, the game lost by both).
  上田 = 大野 = 青木: 3 points, MW 1, GW 1, OMW = OGW = 0.33 (their opponents' 0 points, floored).
  井上 = 加藤 = 江口: 0, MW 0.33, GW 0.33, OMW = OGW = 1. 工藤 = 木村: 0 (0-1-0), all 0.33.
加藤 drops after round 1.
Round 2 (kifu's Swiss): T1 上田–青木, T2 大野–井上, T3 江口–工藤, bye 木村 (the lowest-ranked of
the 7 active; 工藤 = 木村 tie, 木村 after 工藤 by name). 上田, 井上 (upset) and 江口 win.
  MW: 上田 1; 青木, 江口, 井上, 大野 1/2; 木村 3/6 = 1/2 (the double loss and the bye);
  工藤, 加藤 0.33. GW: 木村 2 of 3 games (the bye's 2-0, the game lost by both) = 2/3.
  OMW: 上田 (1/2 + 1/2)/2 = 1/2; 青木 (1/2 + 1)/2 = 3/4; 江口 (1 + 0.33)/2 = 133/200;
  井上 (1/2 + 1/2)/2 = 1/2; 大野 (0.33 + 1/2)/2 = 83/200; 木村 (工藤 only: the bye is nobody)
  0.33; 工藤 (1/2 + 1/2)/2 = 1/2; 加藤 1/2. OGW alike from GW, 工藤 (2/3 + 1/2)/2 = 7/12.
Round 3 (Swiss): T1 上田–井上, T2 青木–木村, T3 江口–大野, bye 工藤. 上田, 青木 and 大野 win.
  Final: 上田 9 (3-0-0); 青木 6, 大野 6 (2-1-0); 井上, 江口, 木村, 工藤 3 (1-2-0; 木村's and
  工藤's win the bye); 加藤 0.
  MW 1, 2/3, 2/3, 1/3 ×4 (1/3 > 0.33 stands), 0.33. GW: 木村 and 工藤 2 of 4 = 1/2, else as MW.
  OMW: 上田 (1/3 + 2/3 + 1/3)/3 = 4/9; 青木 (1/3 + 1 + 1/3)/3 = 5/9; 大野 (0.33 + 1/3 + 1/3)/3
  = 299/900; 井上 (2/3 + 2/3 + 1)/3 = 7/9; 江口 (1 + 1/3 + 2/3)/3 = 2/3; 木村 (1/3 + 2/3)/2 = 1/2;
  工藤 (1/3 + 1/3)/2 = 1/3; 加藤 2/3.
  OGW: 上田 4/9; 青木 (1/3 + 1 + 1/2)/3 = 11/18; 大野 299/900; 井上 7/9; 江口 (1 + 1/2 + 2/3)/3
  = 13/18; 木村 (1/2 + 2/3)/2 = 7/12; 工藤 (1/2 + 1/3)/2 = 5/12; 加藤 2/3.
  Ranks: 上田; 青木 (OMW 5/9) before 大野 (299/900); 井上, 江口, 木村, 工藤 by OMW; 加藤.
Top 4, best of three: semifinals 上田 (1) v 井上 (4), 青木 (2) v 大野 (3). 上田 2-0; 青木 wins
game 1, 大野 game 2, game 3 drawn: no draw in a playoff, the judge adds game 4, 大野 wins it
(2-1-1). Final 上田 v 大野: 大野 2-1. Places: 大野, 上田, 青木 (semifinal, seed 2), 井上
(semifinal, seed 4), then 江口, 木村, 工藤, 加藤 in Swiss order.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

from projections.standings import pct

E = "一日大会"
PLAYERS = ["青木", "井上", "上田", "江口", "大野", "加藤", "木村", "工藤"]
FL = F(33, 100)
TIME = {"type": "result", "by": "主審", "winner": None, "reason": "time"}

# rank, player, points, W-L-D, MW, OMW, GW, OGW
AFTER_1 = [
    (1, "上田", 3, "1-0-0", F(1), FL, F(1), FL), (1, "大野", 3, "1-0-0", F(1), FL, F(1), FL),
    (1, "青木", 3, "1-0-0", F(1), FL, F(1), FL), (4, "井上", 0, "0-1-0", FL, F(1), FL, F(1)),
    (4, "加藤", 0, "0-1-0", FL, F(1), FL, F(1)), (4, "江口", 0, "0-1-0", FL, F(1), FL, F(1)),
    (7, "工藤", 0, "0-1-0", FL, FL, FL, FL), (7, "木村", 0, "0-1-0", FL, FL, FL, FL),
]
AFTER_2 = [
    (1, "上田", 6, "2-0-0", F(1), F(1, 2), F(1), F(1, 2)),
    (2, "青木", 3, "1-1-0", F(1, 2), F(3, 4), F(1, 2), F(3, 4)),
    (3, "江口", 3, "1-1-0", F(1, 2), F(133, 200), F(1, 2), F(133, 200)),
    (4, "井上", 3, "1-1-0", F(1, 2), F(1, 2), F(1, 2), F(1, 2)),
    (5, "大野", 3, "1-1-0", F(1, 2), F(83, 200), F(1, 2), F(83, 200)),
    (6, "木村", 3, "1-1-0", F(1, 2), FL, F(2, 3), FL),
    (7, "工藤", 0, "0-2-0", FL, F(1, 2), FL, F(7, 12)),
    (8, "加藤", 0, "0-1-0", FL, F(1, 2), FL, F(1, 2)),
]
FINAL = [
    (1, "上田", 9, "3-0-0", F(1), F(4, 9), F(1), F(4, 9)),
    (2, "青木", 6, "2-1-0", F(2, 3), F(5, 9), F(2, 3), F(11, 18)),
    (3, "大野", 6, "2-1-0", F(2, 3), F(299, 900), F(2, 3), F(299, 900)),
    (4, "井上", 3, "1-2-0", F(1, 3), F(7, 9), F(1, 3), F(7, 9)),
    (5, "江口", 3, "1-2-0", F(1, 3), F(2, 3), F(1, 3), F(13, 18)),
    (6, "木村", 3, "1-2-0", F(1, 3), F(1, 2), F(1, 2), F(7, 12)),
    (7, "工藤", 3, "1-2-0", F(1, 3), F(1, 3), F(1, 2), F(5, 12)),
    (8, "加藤", 0, "0-1-0", FL, F(2, 3), FL, F(2, 3)),
]


def ok(kifu, *args: str) -> str:
    code, out, err = kifu(*args)
    assert code == 0, err
    return out


def record(kifu, match: str, line: dict) -> None:
    ok(kifu, "record", match, json.dumps(line, ensure_ascii=False))


def beats(kifu, rnd: int, winner: str) -> None:
    """``winner`` wins their best-of-one table of round ``rnd`` (the other concedes)."""
    t = next(t for t in json.loads(ok(kifu, "round", "show", E, str(rnd), "--json"))["tables"]
             if winner in t["players"])
    record(kifu, t["match"], {"type": "concede", "by": "B" if t["players"][0] == winner else "A"})


def standings(kifu, *args: str) -> list[dict]:
    return json.loads(ok(kifu, "standings", E, "--json", *args))["standings"]


def expected(rows) -> list[tuple]:
    return [(r[0], r[1], r[2], r[3], pct(r[4]), pct(r[5]), pct(r[6]), pct(r[7])) for r in rows]


def got(rows) -> list[tuple]:
    return [(s["rank"], s["player"], s["points"], s["record"], s["mwp"], s["omw"], s["gwp"], s["ogw"]) for s in rows]


def tables(kifu, rnd: int) -> tuple[list[list[str]], list[str]]:
    data = json.loads(ok(kifu, "round", "show", E, str(rnd), "--json"))
    return [t["players"] for t in data["tables"]], data["byes"]


def bracket(kifu) -> dict:
    return json.loads(ok(kifu, "event", "bracket", E, "--json"))


def test_the_whole_day_through_kifu(kifu, tmp_path: Path):
    ok(kifu, "event", "new", E, "--game", "mushijingi", "--rounds", "3", "--unfinished", "double-loss",
       "--cut-format", "bo3", "--seed", "11")
    for p in PLAYERS:
        ok(kifu, "event", "register", E, "--player", p)
    seating = tmp_path / "r1.csv"
    seating.write_text("table,player1,player2\n1,青木,井上\n2,上田,江口\n3,大野,加藤\n4,木村,工藤\n", encoding="utf-8")
    ok(kifu, "round", "pair", E, "--import", str(seating))
    for w in ("青木", "上田", "大野"):
        beats(kifu, 1, w)
    record(kifu, f"{E}-r1-t4", TIME)  # time at table 4: a double loss
    ok(kifu, "round", "close", E)
    assert got(standings(kifu, "--round", "1")) == expected(AFTER_1)
    assert bracket(kifu)["seeds"] == []
    ok(kifu, "event", "drop", E, "--player", "加藤")

    ok(kifu, "round", "pair", E)
    assert tables(kifu, 2) == ([["上田", "青木"], ["大野", "井上"], ["江口", "工藤"]], ["木村"])
    for w in ("上田", "井上", "江口"):
        beats(kifu, 2, w)
    ok(kifu, "round", "close", E)
    rows = standings(kifu, "--round", "2")
    assert got(rows) == expected(AFTER_2)
    assert [r["place"] for r in rows] == list(range(1, 9))  # before a cut: the Swiss order

    ok(kifu, "round", "pair", E)
    assert tables(kifu, 3) == ([["上田", "井上"], ["青木", "木村"], ["江口", "大野"]], ["工藤"])
    for w in ("上田", "青木", "大野"):
        beats(kifu, 3, w)
    ok(kifu, "round", "close", E)
    final = standings(kifu)
    assert got(final) == expected(FINAL)
    assert [r["dropped_after"] for r in final] == [None] * 7 + [1]

    # the top 4, best of three
    cut = json.loads(ok(kifu, "round", "cut", E, "--top", "4", "--json"))
    assert [(t["players"], t["seeds"], t["chooses_first"]) for t in cut["tables"]] == [
        (["上田", "井上"], [1, 4], "上田"), (["青木", "大野"], [2, 3], "青木")]
    view = bracket(kifu)
    assert [s["player"] for s in view["seeds"]] == ["上田", "青木", "大野", "井上"]
    assert [[m["winner"] for m in r["matches"]] for r in view["rounds"]] == [[None, None]]
    record(kifu, f"{E}-r4-t1-g1", {"type": "concede", "by": "B"})
    record(kifu, f"{E}-r4-t1-g2", {"type": "concede", "by": "B"})
    record(kifu, f"{E}-r4-t2-g1", {"type": "concede", "by": "B"})
    record(kifu, f"{E}-r4-t2-g2", {"type": "concede", "by": "A"})
    record(kifu, f"{E}-r4-t2-g3", {"type": "result", "by": "主審", "winner": None, "reason": "draw"})
    code, _, err = kifu("round", "close", E)
    assert code != 0 and "table 2 (青木 vs 大野): no winner yet" in err
    ok(kifu, "round", "game", E, "--table", "2")
    record(kifu, f"{E}-r4-t2-g4", {"type": "concede", "by": "A"})
    ok(kifu, "round", "close", E)
    view = bracket(kifu)
    semis = view["rounds"][0]
    assert [(m["winner"], [p["wins"] for p in m["players"]]) for m in semis["matches"]] == [
        ("上田", [2, 0]), ("大野", [1, 2])]
    assert [r["place"] for r in standings(kifu)][:4] == [1, 2, 3, 4]
    assert [r["player"] for r in standings(kifu)][:4] == ["上田", "大野", "青木", "井上"]

    final_round = json.loads(ok(kifu, "round", "pair", E, "--json"))
    assert [(t["players"], t["seeds"]) for t in final_round["tables"]] == [(["上田", "大野"], [1, 3])]
    record(kifu, f"{E}-r5-t1-g1", {"type": "concede", "by": "A"})
    record(kifu, f"{E}-r5-t1-g2", {"type": "concede", "by": "B"})
    record(kifu, f"{E}-r5-t1-g3", {"type": "concede", "by": "A"})
    ok(kifu, "round", "close", E)
    view = bracket(kifu)
    assert view["champion"] == "大野" and [r["stage"] for r in view["rounds"]] == ["semifinal", "final"]
    assert [p["wins"] for p in view["rounds"][1]["matches"][0]["players"]] == [1, 2]
    rows = standings(kifu)
    assert [(r["place"], r["player"]) for r in rows] == list(enumerate(
        ["大野", "上田", "青木", "井上", "江口", "木村", "工藤", "加藤"], 1))
    # the Swiss figures stand as worked out: the cut counts in none of them
    assert sorted(got(rows)) == sorted(expected(FINAL))
