"""The whole day of issue 32's "Done when" (tests/table/test_whole_day.py works its figures by
hand; tests/table/test_whole_day_pages.py runs it once through the pages): the event, its
players and what happens at each table, and the ``kifu`` commands an organiser types."""

from __future__ import annotations

import json
from pathlib import Path

E = "一日大会"
PLAYERS = ["青木", "井上", "上田", "江口", "大野", "加藤", "木村", "工藤"]
NO_SHOW, LATE, DROP = "工藤", "佐藤", "加藤"
TIME = {"type": "result", "by": "主審", "winner": None, "reason": "time"}
SEATING = "table,player1,player2\n1,青木,井上\n2,上田,江口\n3,大野,加藤\nBYE,木村,\n"  # round 1, the venue's
WINNERS = {1: ("青木", "上田"), 2: ("青木", "井上", "江口", "佐藤"), 3: ("青木", "上田", "佐藤")}
# the semifinals (round 4) game by game, the seat that concedes: 青木 2-0 木村; 上田 1, 佐藤 1,
# game 3 drawn (the judge then adds game 4), 佐藤 game 4; the final (round 5) 青木 2-1 佐藤
SEMIS = [("t1-g1", "B"), ("t1-g2", "B"), ("t2-g1", "B"), ("t2-g2", "A")]
FINAL = [("t1-g1", "B"), ("t1-g2", "A"), ("t1-g3", "B")]


def ok(kifu, *args: str) -> str:
    code, out, err = kifu(*args)
    assert code == 0, err
    return out


def record(kifu, match: str, line: dict) -> None:
    ok(kifu, "record", match, json.dumps(line, ensure_ascii=False))


def concede(kifu, rnd: int, games: list[tuple[str, str]]) -> None:
    for game, seat in games:
        record(kifu, f"{E}-r{rnd}-{game}", {"type": "concede", "by": seat})


def beats(kifu, rnd: int, winner: str) -> None:
    """``winner`` wins their best-of-one table of round ``rnd`` (the other concedes)."""
    t = next(t for t in json.loads(ok(kifu, "round", "show", E, str(rnd), "--json"))["tables"]
             if winner in t["players"])
    record(kifu, t["match"], {"type": "concede", "by": "B" if t["players"][0] == winner else "A"})


def open_day(kifu) -> None:
    """The event (check-in, a double loss at time, a top cut best of three) and its eight players."""
    ok(kifu, "event", "new", E, "--game", "mushijingi", "--rounds", "3", "--unfinished", "double-loss",
       "--cut-format", "bo3", "--seed", "11", "--checkin")
    for p in PLAYERS:
        ok(kifu, "event", "register", E, "--player", p)


def pair_round_one(kifu, folder: Path) -> None:
    seating = folder / "r1.csv"
    seating.write_text(SEATING, encoding="utf-8")
    ok(kifu, "round", "pair", E, "--import", str(seating))


def play(kifu, rnd: int) -> None:
    """Round ``rnd``'s results: its winners', and in round 1 time at table 3 (a double loss)."""
    for w in WINNERS[rnd]:
        beats(kifu, rnd, w)
    if rnd == 1:
        record(kifu, f"{E}-r1-t3", TIME)


def standings(kifu, *args: str) -> list[dict]:
    return json.loads(ok(kifu, "standings", E, "--json", *args))["standings"]


def tables(kifu, rnd: int) -> tuple[list[list[str]], list[str]]:
    data = json.loads(ok(kifu, "round", "show", E, str(rnd), "--json"))
    return [t["players"] for t in data["tables"]], data["byes"]


def bracket(kifu) -> dict:
    return json.loads(ok(kifu, "event", "bracket", E, "--json"))
