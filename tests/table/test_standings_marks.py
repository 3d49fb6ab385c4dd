"""A no-show and a drop read in words on the desk's standings table, under the name (a phone
sees them without scrolling sideways): Japanese by default, English on request, the words of
``kifu standings``; the standings CSV's ``place`` and ``no_show``
columns, appended after the columns it always had (docs/standings.md, "Formats")."""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import quote

import httpx
import pytest

from tests.table.conftest import LiveServer

E = "印の大会"
COLUMNS = ["rank", "player", "points", "wins", "losses", "draws", "games_won", "games_lost", "games_drawn",
           "mw_pct", "omw_pct", "gw_pct", "ogw_pct", "byes", "dropped_after"]


def ok(kifu, *args: str) -> str:
    code, out, err = kifu(*args)
    assert code == 0, err
    return out


def the_day(kifu, tmp_path) -> None:
    """五人 register for check-in, 戸田 never checks in; round 1 (imported): 甲 beats 乙, 丙 beats
    丁; 丁 drops after it; round 2 (imported): 甲 beats 丙, 乙 has the bye."""
    ok(kifu, "event", "new", E, "--game", "mushijingi", "--rounds", "2", "--seed", "5", "--checkin")
    for p in ("甲", "乙", "丙", "丁", "戸田"):
        ok(kifu, "event", "register", E, "--player", p)
    for p in ("甲", "乙", "丙", "丁"):
        ok(kifu, "event", "checkin", E, "--player", p)
    r1 = tmp_path / "r1.csv"
    r1.write_text("1,甲,乙\n2,丙,丁\n", encoding="utf-8")
    ok(kifu, "round", "pair", E, "--import", str(r1))
    for t in (1, 2):
        ok(kifu, "record", f"{E}-r1-t{t}", json.dumps({"type": "concede", "by": "B"}))
    ok(kifu, "round", "close", E)
    ok(kifu, "event", "drop", E, "--player", "丁")
    r2 = tmp_path / "r2.csv"
    r2.write_text("1,甲,丙\nBYE,乙,\n", encoding="utf-8")
    ok(kifu, "round", "pair", E, "--import", str(r2))
    ok(kifu, "record", f"{E}-r2-t1", json.dumps({"type": "concede", "by": "B"}))
    ok(kifu, "round", "close", E)


def _marks(html: str, player: str) -> str:
    """The marks under ``player``'s name in the desk's standings table ("" when none)."""
    table = html[html.index('id="standings"'):]
    row = re.search(rf'<tr data-player="{player}">(.*?)</tr>', table, re.S)
    assert row, player
    marks = re.search(r'<small class="desk-notes">(.*?)</small>', row.group(1), re.S)
    return marks.group(1) if marks else ""


@pytest.fixture
def desk(kifu, db, tmp_path):
    the_day(kifu, tmp_path)
    server = LiveServer(db, None).start()
    yield server
    server.stop()


def test_the_desk_s_standings_mark_no_shows_and_drops_in_words(desk):
    url = f"{desk.url}/events/{quote(E)}"
    ja = httpx.get(url, timeout=30).text  # no language asked: Japanese
    assert _marks(ja, "戸田") == "<span data-no-show>欠席</span>"
    assert _marks(ja, "丁") == "<span data-dropped>第1回戦後ドロップ</span>"
    assert _marks(ja, "乙") == "<span data-byes>不戦勝1</span>"
    assert _marks(ja, "甲") == ""
    en = httpx.get(url, params={"lang": "en"}, timeout=30).text
    assert _marks(en, "戸田") == "<span data-no-show>no-show</span>"
    assert _marks(en, "丁") == "<span data-dropped>dropped after round 1</span>"


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_standings_csv_gains_place_and_no_show_after_its_columns(kifu, db, tmp_path):
    the_day(kifu, tmp_path)
    text = ok(kifu, "standings", E, "--csv")
    assert text.splitlines()[0].split(",") == [*COLUMNS, "place", "no_show"]
    rows = _rows(text)
    got = {r["player"]: (r["rank"], r["points"], r["dropped_after"], r["place"], r["no_show"]) for r in rows}
    # the same rank and place as the JSON's rows, in the same order
    ranks = {r["player"]: (r["rank"], r["place"]) for r in json.loads(ok(kifu, "standings", E, "--json"))["standings"]}
    assert {p: (int(v[0]), int(v[3])) for p, v in got.items()} == ranks
    assert [r["place"] for r in rows] == ["1", "2", "3", "4", "5"]
    assert got["戸田"][2:] == ("0", "5", "1") and got["丁"][2] == "1" and got["丁"][4] == "0"
    assert all(r["no_show"] == "0" for r in rows if r["player"] != "戸田")
    server = LiveServer(db, None).start()
    try:
        served = httpx.get(f"{server.url}/api/events/{quote(E)}/standings", params={"format": "csv"}, timeout=30).text
    finally:
        server.stop()
    assert served == text
