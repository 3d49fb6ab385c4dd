"""The 8-player, 3-round event of tests/table/tournament.py run as an organiser runs it, through
the ``kifu`` command: register, pair (round 1 imported from the venue's CSV, then kifu's Swiss),
record every game, drop, close, standings after each round — compared with the standings worked
out by hand with exact fractions."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

from projections.standings import pct
from tests.table import tournament as hand

E = hand.EVENT


def run_round(kifu, rnd: int) -> None:
    """Record each game of the hand-worked round at the table kifu paired it at, whoever sits A."""
    code, out, err = kifu("round", "show", E, str(rnd), "--json")
    assert code == 0, err
    seated = {frozenset(t["players"]): t for t in json.loads(out)["tables"]}
    for r, _, a, b, results in hand.ROUNDS:
        if r != rnd:
            continue
        table = seated[frozenset((a, b))]
        for n, res in enumerate(results, 1):
            mid = f"{E}-r{rnd}-t{table['table']}-g{n}"
            if res == "…":
                continue  # left open: unfinished at time, or not needed
            if res == "=":
                line = {"type": "result", "by": "主審", "winner": None, "reason": "draw"}
            else:
                winner = a if res == "A" else b
                loser_seat = "B" if table["players"].index(winner) == 0 else "A"
                line = {"type": "concede", "by": loser_seat}
            code, _, err = kifu("record", mid, json.dumps(line, ensure_ascii=False))
            assert code == 0, err


def standings(kifu, *args: str) -> list[dict]:
    code, out, err = kifu("standings", E, "--json", *args)
    assert code == 0, err
    return json.loads(out)["standings"]


def expected(rows) -> list[tuple]:
    return [(r[0], r[1], r[2], r[3], pct(r[4]), pct(r[5]), pct(r[6]), pct(r[7])) for r in rows]


def got(rows) -> list[tuple]:
    return [(s["rank"], s["player"], s["points"], s["record"], s["mwp"], s["omw"], s["gwp"], s["ogw"]) for s in rows]


def pairing(kifu, rnd: int) -> tuple[set[frozenset[str]], list[str]]:
    code, out, err = kifu("round", "show", E, str(rnd), "--json")
    assert code == 0, err
    data = json.loads(out)
    return {frozenset(t["players"]) for t in data["tables"]}, data["byes"]


def test_the_hand_worked_event_run_through_kifu(kifu, tmp_path):
    code, _, err = kifu("event", "new", E, "--game", "mushijingi", "--rounds", "3", "--format", "bo3", "--seed", "11")
    assert code == 0, err
    for p in hand.ROSTER:
        assert kifu("event", "register", E, "--player", p)[0] == 0
    r1 = tmp_path / "r1.csv"
    r1.write_text("table,player1,player2\n" + "".join(
        f"{t},{a},{b}\n" for r, t, a, b, _ in hand.ROUNDS if r == 1), encoding="utf-8")
    code, out, err = kifu("round", "pair", E, "--import", str(r1))
    assert code == 0, err
    assert f"{E}-r1-t1-g1" in out
    run_round(kifu, 1)
    assert kifu("round", "close", E)[0] == 0
    after1 = standings(kifu, "--round", "1")
    assert [(s["rank"], s["player"], s["points"]) for s in after1] == hand.AFTER_1
    assert kifu("event", "drop", E, "--player", "山本")[0] == 0

    code, out, err = kifu("round", "pair", E)  # Swiss from the standings as of round 1
    assert code == 0, err
    assert pairing(kifu, 2) == (hand.pairs(2), hand.BYES[2])
    run_round(kifu, 2)
    assert kifu("round", "close", E)[0] == 0
    assert got(standings(kifu, "--round", "2")) == expected(hand.AFTER_2)

    assert kifu("round", "pair", E)[0] == 0
    assert pairing(kifu, 3) == (hand.pairs(3), hand.BYES[3])
    run_round(kifu, 3)
    # before the close, round 3's table 1 (a game still open, the match 1-1) is pending;
    # table 3 (2-0 with its third game open) is decided already
    code, out, _ = kifu("standings", E, "--json")
    pending = json.loads(out)["pending"]
    assert [(p["round"], p["table"]) for p in pending] == [(3, "1")]
    # a close that loses nothing: refused while table 1 has no result, naming it, nothing written
    before = kifu("event", "export", E)[1]
    code, _, err = kifu("round", "close", E)
    assert code != 0 and "table 1 (佐藤 vs 伊藤): no result" in err and "table 3" not in err
    assert kifu("event", "export", E)[1] == before
    assert kifu("round", "close", E, "--unreported", "draw")[0] == 0  # time: the open game a draw (MTR)
    final = standings(kifu)
    assert got(final) == expected(hand.FINAL)
    assert [s.get("dropped_after") for s in final] == [r[9] for r in hand.FINAL]
    # the text and CSV carry the match-win % too
    code, text, _ = kifu("standings", E)
    assert f"{pct(Fraction(7, 9)):.2f}" in text
    code, text, _ = kifu("standings", E, "--csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["player"], r["mw_pct"]) for r in rows][:2] == [("佐藤", "77.78"), ("鈴木", "66.67")]
