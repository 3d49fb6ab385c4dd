"""A round close that loses nothing (issue 32, item 5): ``kifu round close E`` refuses while a
table of the round has no result, naming each, and writes nothing; ``--unreported
draw|double-loss`` counts them as said and the close line records it; the closed round then
reads the same in the terminal, on the desk and the pages (over HTTP, no 対戦中 left) and in
the standings."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from recorder.store import Store
from tests.table.conftest import LiveServer

E = "春の店舗大会"
ROUND1 = "table,player1,player2\n1,青木,井上\n2,上田,江口\n3,大野,加藤\n"


def ok(kifu, *args: str) -> str:
    code, out, err = kifu(*args)
    assert code == 0, err
    return out


def opened(kifu, tmp_path: Path, *extra: str) -> None:
    """Round 1 of six players: table 1 finished (井上 concedes), table 2 in progress (a
    setup line only), table 3 never reported."""
    ok(kifu, "event", "new", E, "--game", "mushijingi", "--rounds", "2", "--seed", "1", *extra)
    for p in ("青木", "井上", "上田", "江口", "大野", "加藤"):
        ok(kifu, "event", "register", E, "--player", p)
    csv = tmp_path / "r1.csv"
    csv.write_text(ROUND1, encoding="utf-8")
    ok(kifu, "round", "pair", E, "--import", str(csv))
    ok(kifu, "record", f"{E}-r1-t1", json.dumps({"type": "concede", "by": "B"}))
    ok(kifu, "record", f"{E}-r1-t2", json.dumps({"type": "setup", "by": "A"}))


def test_a_close_with_unreported_tables_is_refused_naming_each_and_writes_nothing(kifu, tmp_path):
    opened(kifu, tmp_path)
    before = ok(kifu, "event", "export", E)
    code, out, err = kifu("round", "close", E)
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 2 and all(x.startswith("kifu: ") for x in lines)
    assert "round 1 of '春の店舗大会': table 2 (上田 vs 江口): no result" in lines[0]
    assert "table 3 (大野 vs 加藤): no result" in lines[1] and "--unreported draw|double-loss" in lines[1]
    assert ok(kifu, "event", "export", E) == before  # nothing written
    code, _, err = kifu("round", "close", E, "--unreported", "coin")
    assert code != 0 and "--unreported: one of draw, double-loss, got 'coin'" in err
    assert ok(kifu, "event", "export", E) == before
    code, _, err = kifu("round", "pair", E)
    assert code != 0 and "round 1 of '春の店舗大会' is still open" in err


def test_a_refusal_in_japanese(kifu, tmp_path, monkeypatch):
    opened(kifu, tmp_path)
    monkeypatch.delenv("KIFU_LANG")
    code, _, err = kifu("round", "close", E)
    assert code != 0 and "'春の店舗大会' の第1回戦 卓 2（上田 vs 江口）: 結果がありません" in err


@pytest.mark.parametrize("how, points, record, status, word", [
    ("double-loss", 0, "0-1-0", "counted_double-loss", "no result: a loss for both (double loss)"),
    ("draw", 1, "0-0-1", "counted_draw", "no result: counted as a draw"),
])
def test_unreported_tables_count_as_said_and_read_the_same_everywhere(kifu, db, tmp_path, how, points, record,
                                                                      status, word):
    opened(kifu, tmp_path)
    line = json.loads(ok(kifu, "round", "close", E, "--unreported", how, "--json"))
    assert line["unreported"] == how and line["tables"] == ["2", "3"]
    exported = [json.loads(x) for x in ok(kifu, "event", "export", E).splitlines()]
    assert exported[-1]["type"] == "close" and exported[-1]["unreported"] == how
    rows = {r["player"]: r for r in json.loads(ok(kifu, "standings", E, "--json"))["standings"]}
    for p in ("上田", "江口", "大野", "加藤"):
        assert (rows[p]["points"], rows[p]["record"]) == (points, record)
    assert (rows["青木"]["points"], rows["井上"]["points"]) == (3, 0)
    assert json.loads(ok(kifu, "standings", E, "--json"))["pending"] == []
    # the terminal's desk
    desk = json.loads(ok(kifu, "event", "show", E, "--json"))
    assert [t["status"] for t in desk["rounds"][0]["tables"]] == ["finished", status, status]
    assert desk["rounds"][0]["not_reported"] == [] and desk["rounds"][0]["unreported"] == how
    text = ok(kifu, "event", "show", E)
    assert text.count(word) == 2 and "in progress" not in text and "not started" not in text
    # the desk and the round page over HTTP, in Japanese: no table of the closed round 対戦中
    server = LiveServer(db, None).start()
    try:
        page = httpx.get(f"{server.url}/events/{quote(E)}", timeout=10).text
        for table in ("2", "3"):
            card = re.search(rf'<article class="desk-card [^"]*" data-table="{table}">(.*?)</article>', page, re.S)
            assert card is not None, page
            assert "対戦中" not in card.group(1) and "未開始" not in card.group(1)
            assert "結果なし" in card.group(1)
        rnd = httpx.get(f"{server.url}/events/{quote(E)}/rounds/1", timeout=10).text
        row = re.search(r'<tr data-table="2">(.*?)</tr>', rnd, re.S)
        assert row is not None and "対戦中" not in row.group(1) and "結果なし" in row.group(1)
        api = httpx.get(f"{server.url}/api/events/{quote(E)}/rounds/1", timeout=10).json()
        assert [t["status"] for t in api["status"]["tables"]] == ["finished", status, status]
        cards = httpx.get(f"{server.url}/api/events/{quote(E)}", timeout=10).json()["rounds"][0]["tables"]
        assert [c["status"] for c in cards] == ["finished", status, status]
        assert all(g["status"] in ("finished", "closed") for c in cards for g in c["games"])
        st = httpx.get(f"{server.url}/api/events/{quote(E)}/standings", timeout=10).json()
        assert {r["player"]: r["points"] for r in st["standings"]}["上田"] == points
    finally:
        server.stop()


def test_a_table_awaiting_a_ruling_is_refused_even_with_unreported(kifu, db, tmp_path):
    """A game decided by a line that broke a rule (KIFU-3) has a result a judge must settle:
    ``--unreported`` does not count it away."""
    from projections.errors import LogFormatError
    from projections.standings import Game
    from recorder import tournament_service

    opened(kifu, tmp_path)
    games = [Game(f"{E}-r1-t1", 1, "1", ("青木", "井上"), True, "青木", "concession"),
             Game(f"{E}-r1-t2", 1, "2", ("上田", "江口"), True, "上田", "life", ruling=True),
             Game(f"{E}-r1-t3", 1, "3", ("大野", "加藤"), True, "加藤", "life")]
    store = Store(db)
    try:
        with pytest.raises(LogFormatError) as refused:
            tournament_service.close(store, E, "draw", games=games)
        assert refused.value.problems == [
            "round 1 of '春の店舗大会': table 2 (上田 vs 江口): a game awaits a judge's ruling; rule on it first"]
        assert tournament_service.state(store, E).open_round is not None
    finally:
        store.close()
