"""The metagame (``projections.metagame``): share of the field, win rate per archetype with its
Wilson interval, conversion into a top cut, and the trend by week or month; counted by hand
on a small season, against a direct count (hypothesis), and SQL against Python."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import metagame, stats
from projections.errors import LogFormatError
from projections.readmodel import ReadModel, name_key
from tests.stats.helpers import match
from tests.stats.test_stats_sql import filters as any_filters
from tests.stats.test_stats_sql import matches as any_match

# Two weekly events of one season, by hand (player names by id: A/B as below).
#   11-02 (2026-W45) event 例会1: 山田 闇, 佐藤 イスルギ, 鈴木 闇, 田中 心眼
#     m1 山田 beats 佐藤; m2 鈴木 draws 田中; m3 山田 beats 鈴木 (a mirror); m4 田中 beats 佐藤
#   11-10 (2026-W46) event 例会2: 山田 イスルギ, 佐藤 イスルギ, 高橋 心眼
#     m5 高橋 beats 山田; m6 佐藤 beats 高橋
#   m7 on 11-11 still playing (left out)


def _m(mid, a, b, winner, day, event, *, finished=True):
    (na, da, aa), (nb, db, ab) = a, b
    return match(mid, [("A", da, aa), ("B", db, ab)], winner, date=day, event=event, finished=finished,
                 names={"A": na, "B": nb})


YAMADA_D, SATO_I, SUZUKI_D, TANAKA_S = ("山田", "闇デッキ", "闇"), ("佐藤", "イスルギデッキ", "イスルギ"), (
    "鈴木", "闇デッキ", "闇"), ("田中", "核デッキ", "心眼")
YAMADA_I, TAKAHASHI_S = ("山田", "イスルギデッキ", "イスルギ"), ("高橋", "核デッキ", "心眼")
SEASON = [
    _m("m1", YAMADA_D, SATO_I, "A", "2026-11-02", "例会1"),
    _m("m2", SUZUKI_D, TANAKA_S, None, "2026-11-02", "例会1"),
    _m("m3", YAMADA_D, SUZUKI_D, "A", "2026-11-02", "例会1"),
    _m("m4", TANAKA_S, SATO_I, "A", "2026-11-02", "例会1"),
    _m("m5", YAMADA_I, TAKAHASHI_S, "B", "2026-11-10", "例会2"),
    _m("m6", SATO_I, TAKAHASHI_S, "A", "2026-11-10", "例会2"),
    _m("m7", SATO_I, YAMADA_I, None, "2026-11-11", "例会2", finished=False),
]
for _row in SEASON:
    for _r in _row["results"]:
        _r["player_key"] = name_key(_r["name"])
    _row["event_key"] = name_key(_row["event"])


def model(tmp_path, rows) -> ReadModel:
    """A read model holding ``rows`` (the tests' match rows, as the model writes them)."""
    rm = ReadModel(str(tmp_path / "rm.db"))
    out, results = [], []
    for m in rows:
        row = {k: m.get(k) for k in ("id", "game", "event", "date", "first", "finished", "winner", "reason",
                                      "turns", "error")}
        row.update(stream=f"s-{m['id']}", rules=None, title=None, round=m.get("round") or 1, table="1", players="[]", decks="[]",
                   archetypes="[]", player_count=len(m["results"]), steps=3, event_key=name_key(m.get("event")),
                   created=0, desk=None)
        out.append(row)
        results += [dict(r, player_key=r.get("player_key") or name_key(r.get("name") or r["player"]))
                    for r in m["results"]]
    with rm.db.conn:
        rm._write(out, results)
    return rm


def by_name(items):
    return {i["name"]: i for i in items}


def test_the_season_counted_by_hand(tmp_path):
    rm = model(tmp_path, SEASON)
    try:
        meta = metagame.metagame(rm.db.conn, stats.Filters(game="gandice", by="archetype"))
    finally:
        rm.close()
    # field: 例会1 has 4 entries, 例会2 has 3 (山田 counts again there, with another deck)
    assert meta["field"] == 7 and meta["matches"] == 6 and meta["unfinished"] == 1
    a = by_name(meta["archetypes"])
    assert {n: (g["players"], g["share"]) for n, g in a.items()} == {
        "イスルギ": (3, round(3 / 7, 4)), "闇": (2, round(2 / 7, 4)), "心眼": (2, round(2 / 7, 4))}
    assert meta["archetypes"][0]["name"] == "イスルギ"  # largest share first
    # 闇: m1 win, m2 draw (m3 is a mirror, left out) -> 1.5 / 2
    assert (a["闇"]["games"], a["闇"]["wins"], a["闇"]["draws"], a["闇"]["win_rate"]) == (2, 1, 1, 0.75)
    # イスルギ: m1 loss, m4 loss, m5 loss, m6 win -> 1 / 4
    assert (a["イスルギ"]["games"], a["イスルギ"]["wins"], a["イスルギ"]["win_rate"]) == (4, 1, 0.25)
    # 心眼: m2 draw, m4 win, m5 win, m6 loss -> 2.5 / 4
    assert (a["心眼"]["games"], a["心眼"]["win_rate"]) == (4, 0.625)
    low, high = stats.wilson(2.5, 4)
    assert (a["心眼"]["low"], a["心眼"]["high"]) == (round(low, 4), round(high, 4))
    # matches: the sides each archetype played (a mirror is two sides)
    assert (a["闇"]["matches"], a["イスルギ"]["matches"], a["心眼"]["matches"]) == (4, 4, 4)
    d = by_name(meta["decks"])
    assert d["闇デッキ"]["archetype"] == "闇" and d["イスルギデッキ"]["players"] == 3
    cells = {(c["deck"], c["opponent"]): c for c in meta["matrix"]}
    assert cells[("心眼", "イスルギ")]["wins"] == 2 and cells[("心眼", "イスルギ")]["losses"] == 1
    assert cells[("闇", "闇")]["mirror"] is True


def test_the_python_metagame_equals_the_sql_one_on_the_season(tmp_path):
    rm = model(tmp_path, SEASON)
    try:
        for f in (stats.Filters(game="gandice"), stats.Filters(game="gandice", event="例会2"),
                  stats.Filters(game="gandice", player="山田"), stats.Filters(game="gandice", until="2026-11-05")):
            assert metagame.metagame(rm.db.conn, f) == metagame.metagame_of(rm.matches(), f)
    finally:
        rm.close()


def test_win_rates_are_the_reports_by_archetype(tmp_path):
    rm = model(tmp_path, SEASON)
    try:
        f = stats.Filters(game="gandice", by="archetype")
        meta = metagame.metagame(rm.db.conn, f)
        report = rm.report(f)
    finally:
        rm.close()
    for d in report["decks"]:
        got = by_name(meta["archetypes"])[d["name"]]
        assert {k: got[k] for k in ("games", "wins", "losses", "draws", "win_rate", "low", "high")} == {
            k: d[k] for k in ("games", "wins", "losses", "draws", "win_rate", "low", "high")}


def test_wilson_interval_of_8_out_of_10():
    low, high = stats.wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)


def test_conversion_of_a_given_top_cut():
    rows = metagame.sides(SEASON, stats.Filters(event="例会1"))
    conv = metagame.conversion(rows, ["山田", " 田中 "])  # names matched by their key
    g = by_name(conv["groups"])
    assert conv["players"] == 4 and conv["cut"] == 2
    assert (g["闇"]["players"], g["闇"]["cut"], g["闇"]["rate"], g["闇"]["cut_share"]) == (2, 1, 0.5, 0.5)
    assert (g["心眼"]["cut"], g["心眼"]["rate"]) == (1, 1.0) and (g["イスルギ"]["cut"], g["イスルギ"]["rate"]) == (0, 0.0)
    low, high = stats.wilson(1, 2)
    assert (g["闇"]["low"], g["闇"]["high"]) == (round(low, 4), round(high, 4))
    by_deck = metagame.conversion(rows, {"山田"}, by="deck")
    assert by_name(by_deck["groups"])["闇デッキ"]["cut"] == 1


def test_conversion_of_an_event_counts_its_swiss_rounds_only(tmp_path):
    """``event_conversion`` from the read model: 例会1's round 1 is its Swiss; three playoff
    matches (round 2) where 山田 plays イスルギ would make イスルギ his most played archetype
    if they counted; they do not, so he stays an entry of 闇 (counted by hand as above)."""
    playoff = [dict(_m(f"p{i}", YAMADA_I, TANAKA_S, "A", "2026-11-02", "例会1"), round=2) for i in range(3)]
    for row in playoff:
        for r in row["results"]:
            r["player_key"] = name_key(r["name"])
        row["event_key"] = name_key(row["event"])
    rm = model(tmp_path, SEASON + playoff)
    try:
        conv = metagame.event_conversion(rm.db.conn, stats.Filters(event="例会1", by="archetype"), 1, ["山田", "田中"])
        every = metagame.conversion(metagame.sides_sql(rm.db.conn, stats.Filters(event="例会1")), ["山田", "田中"])
    finally:
        rm.close()
    g = by_name(conv["groups"])
    assert conv["players"] == 4 and set(g) == {"闇", "イスルギ", "心眼"}
    assert [(n, g[n]["players"], g[n]["cut"]) for n in ("闇", "イスルギ", "心眼")] == [("闇", 2, 1), ("イスルギ", 1, 0),
                                                                                    ("心眼", 1, 1)]
    assert by_name(every["groups"])["イスルギ"]["cut"] == 1  # the playoff counted: what event_conversion avoids


def test_conversion_refuses_a_cut_player_who_did_not_play():
    rows = metagame.sides(SEASON, stats.Filters(event="例会1"))
    with pytest.raises(LogFormatError, match="top cut: 高橋: not a player"):
        metagame.conversion(rows, ["山田", "高橋"])


def test_the_trend_by_week_counted_by_hand(tmp_path):
    rm = model(tmp_path, SEASON)
    try:
        t = metagame.trend(rm.db.conn, stats.Filters(game="gandice"), "week")
        month = metagame.trend(rm.db.conn, stats.Filters(game="gandice"), "month")
    finally:
        rm.close()
    assert [(p["period"], p["since"], p["until"], p["matches"], p["field"]) for p in t["periods"]] == [
        ("2026-W45", "2026-11-02", "2026-11-08", 4, 4), ("2026-W46", "2026-11-09", "2026-11-15", 2, 3)]
    w46 = by_name(t["periods"][1]["archetypes"])
    assert (w46["イスルギ"]["players"], w46["イスルギ"]["share"], w46["イスルギ"]["win_rate"]) == (2, round(2 / 3, 4), 0.5)
    assert (w46["心眼"]["players"], w46["心眼"]["win_rate"]) == (1, 0.5) and "闇" not in w46
    assert t["archetypes"] == ["イスルギ", "心眼", "闇"]  # by entries over the season, then name
    assert [p["period"] for p in month["periods"]] == ["2026-11"] and month["periods"][0]["field"] == 7


def test_periods_cover_the_season_with_empty_ones():
    from datetime import date

    weeks = metagame.periods(date(2026, 12, 30), date(2027, 1, 12), "week")
    assert [w[0] for w in weeks] == ["2026-W53", "2027-W01", "2027-W02"]
    months = metagame.periods(date(2026, 11, 30), date(2027, 2, 1), "month")
    assert [(m[0], m[1].isoformat(), m[2].isoformat()) for m in months] == [
        ("2026-11", "2026-11-01", "2026-11-30"), ("2026-12", "2026-12-01", "2026-12-31"),
        ("2027-01", "2027-01-01", "2027-01-31"), ("2027-02", "2027-02-01", "2027-02-28")]
    with pytest.raises(LogFormatError, match="--trend: must be week or month"):
        metagame.periods(date(2026, 1, 1), date(2026, 1, 2), "year")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), f=any_filters)
def test_share_equals_a_direct_count_and_sql_equals_python(tmp_path_factory, data, f):
    rows, results = [], []
    for i in range(data.draw(st.integers(0, 20))):
        row, res = data.draw(any_match(i))
        rows.append(row)
        results += res
    rm = ReadModel(str(tmp_path_factory.mktemp("rm") / "rm.db"))
    try:
        with rm.db.conn:
            rm._write(rows, results)
        f = replace(f, game=f.game or "gandice")
        got = metagame.metagame(rm.db.conn, f)
        assert json.dumps(got, ensure_ascii=False, sort_keys=True) == json.dumps(
            metagame.metagame_of(rm.matches(), f), ensure_ascii=False, sort_keys=True)
        # the direct count: each (event or match, player, archetype) of a decided match once
        entries: set[tuple[str, str, str]] = set()
        sides: Counter[str] = Counter()
        for m in stats.select(rm.matches(), f):
            if not m["finished"] or m["error"]:
                continue
            for r in m["results"]:
                arch = r["archetype_key"] or "(no archetype)"
                entries.add((m["event_key"] or "match:" + m["id"], r["player_key"], arch))
                sides[arch] += 1
        players = Counter(arch for _e, _p, arch in entries)
        assert got["field"] == len(entries)
        assert {a["name"]: (a["players"], a["matches"]) for a in got["archetypes"]} == {
            n: (players[n], sides[n]) for n in sides}
        if entries:
            assert abs(sum(a["share"] for a in got["archetypes"]) - 1) < 1e-3
    finally:
        rm.close()
