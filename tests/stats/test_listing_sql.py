"""The match list filtered and paged in SQL (projections/listing.py) keeps exactly the rows the
list's filters always kept (recorder/web/common.py: matches_filter over every read-model row),
in the same order, for any filters and any page: a property over the shipped examples plus
generated matches of every game, and the server's list API on the same store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import listing, readmodel
from recorder.store import Store
from recorder.web.common import matches_filter

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    from recorder import bulk
    from recorder.tools.synth import write_matches
    from projections import registry

    d = tmp_path_factory.mktemp("listing")
    for game in ("gandice", "mushijingi", "gurren-lagann", "variants-war"):
        write_matches(registry.get(game), 4, 3, d / game)
    store = Store(str(d / "kifu.db"))
    bulk.run_import(store, [str(EXAMPLES), *(str(d / g) for g in ("gandice", "mushijingi", "gurren-lagann",
                                                                     "variants-war"))], show_progress=False)
    rm = readmodel.catch_up_store(store)
    yield rm
    rm.close()
    store.close()


def reference(rm, q):
    out = []
    for r in rm.matches():
        players = [{"id": x["player"], "name": x["name"] or x["player"], "deck": x["deck"] or "",
                    "archetype": x["archetype"] or ""} for x in r["results"]]
        names = {p["id"]: p["name"] for p in players}
        result = None
        if r["finished"]:
            result = {"winner": r["winner"], "winner_name": names.get(r["winner"]) if r["winner"] else None,
                      "reason": r["reason"]}
        row = {"id": r["id"], "game": r["game"], "title": r["title"], "event": r["event"], "round": r["round"],
               "players": players, "result": result}
        if matches_filter(row, q):
            out.append(row)
    return out


def values(rm):
    rows = rm.matches()
    names = sorted({x["name"] for r in rows for x in r["results"] if x["name"]})
    decks = sorted({x["deck"] for r in rows for x in r["results"] if x["deck"]})
    events = sorted({r["event"] for r in rows if r["event"]})
    reasons = sorted({r["reason"] for r in rows if r["reason"]})
    return names, decks, events, reasons


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_sql_listing_keeps_what_the_filters_kept(conn, data):
    names, decks, events, reasons = values(conn)

    def part(options):
        word = data.draw(st.sampled_from(options)) if options else ""
        start = data.draw(st.integers(0, max(0, len(word) - 1)))
        return word[start:start + data.draw(st.integers(1, 4))]

    q = {k: "" for k in listing.FILTERS}
    for key in data.draw(st.sets(st.sampled_from(listing.FILTERS), max_size=3)):
        q[key] = {
            "game": lambda: data.draw(st.sampled_from(["gandice", "gd", "mushijingi", "variants-war", "chess"])),
            "event": lambda: part(events),
            "round": lambda: data.draw(st.sampled_from(["1", "2", "x", ""])),
            "player": lambda: part(names) or data.draw(st.sampled_from(["A", "B"])),
            "deck": lambda: part(decks),
            "result": lambda: data.draw(st.sampled_from(["in-progress", "decided", "draw", "A", *reasons])),
            "q": lambda: part(names + events),
        }[key]()
    want = reference(conn, q)
    per = data.draw(st.integers(1, 7))
    page_no = data.draw(st.integers(1, 4))
    rows, total = listing.page(conn.db.conn, q, per, (page_no - 1) * per)
    assert total == len(want)
    assert [r["id"] for r in rows] == [r["id"] for r in want[(page_no - 1) * per: page_no * per]]
    for got, ref in zip(rows, want[(page_no - 1) * per:]):
        assert got["players"] == ref["players"] and got["result"] == ref["result"]


def test_an_unknown_game_or_round_keeps_nothing(conn):
    assert listing.page(conn.db.conn, {"game": "chess"}, 10) == ([], 0)
    assert listing.page(conn.db.conn, {"round": "first"}, 10) == ([], 0)
    rows, total = listing.page(conn.db.conn, {}, None)
    assert total == len(rows) == conn.count() and json.dumps(rows, ensure_ascii=False)
