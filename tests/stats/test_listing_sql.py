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


# -- edges the shipped matches do not have: built as read-model rows ------------------------------

MANY = 510  # more than one chunk of the players' query (500 ids at a time)


def _row(mid: str, created: int, **kw):
    from projections.names import name_key

    row = {c: None for c in readmodel.MATCH_COLUMNS}
    row.update(id=mid, stream=f"s-{mid}", game="gandice", rules="gandice/2", players="[]", decks="[]",
               archetypes="[]", player_count=2, first="B", finished=0, steps=7, created=created)
    row.update(kw)
    row["event_key"] = name_key(row["event"])
    return row


def _seats(mid: str, decks=("赤", "青")):
    return [{"match_id": mid, "player": pid, "name": f"{pid}さん", "deck": deck, "archetype": deck,
             "deck_key": deck, "archetype_key": deck, "seat": seat, "is_first": int(seat == 1), "outcome": None,
             "player_key": f"{pid}さん".lower()} for pid, deck, seat in zip("AB", decks, (2, 1))]


@pytest.fixture(scope="module")
def edges(tmp_path_factory):
    rm = readmodel.ReadModel(str(tmp_path_factory.mktemp("edges") / "edges.readmodel.db"))
    rows = [_row("a-draw", 1, finished=1, reason="time", title="引き分けの対戦", event="秋の大会", round=1),
            _row("a-neg", 2, round=-1, event="秋の大会"),
            _row("a-none", 3, event="秋の大会", steps=0),
            _row("a-win", 4, finished=1, winner="A", reason="draw", event="冬の大会", round=2)]
    rows += [_row(f"m{i:04d}", 10 + i, event="" if i % 2 else None) for i in range(MANY)]
    results = [s for r in rows if r["id"] != "a-none" for s in _seats(r["id"], (None, None) if r["id"] == "a-draw"
                                                                      else ("赤", "青"))]
    with rm.db.conn:
        rm._write(rows, results, fresh=True)
    yield rm.db.conn
    rm.close()


def test_a_draw_is_a_finished_match_without_a_winner_not_a_reason_named_draw(edges):
    rows, total = listing.page(edges, {"result": "draw"}, 10)
    assert [r["id"] for r in rows] == ["a-draw"] and total == 1
    assert rows[0]["result"] == {"winner": None, "winner_name": None, "reason": "time"}


def test_a_round_filter_reads_a_negative_round_and_refuses_words(edges):
    assert [r["id"] for r in listing.page(edges, {"round": "-1"}, 10)[0]] == ["a-neg"]
    assert listing.page(edges, {"round": " 2 "}, 10)[1] == 1
    assert listing.page(edges, {"round": "－1"}, 10)[1] == 0 and listing.page(edges, {"round": "２"}, 10)[1] == 1
    for word in ("X1", "1-", "--1", "1.0", "²", "1_0", "+1"):
        assert listing.page(edges, {"round": word}, 10) == ([], 0), word


def test_a_page_row_has_the_summary_fields_and_empty_words_for_what_is_missing(edges):
    rows, _ = listing.page(edges, {"event": "秋の大会"}, 10)
    by_id = {r["id"]: r for r in rows}
    draw = by_id["a-draw"]
    assert (draw["rules"], draw["title"], draw["first"], draw["steps"]) == ("gandice/2", "引き分けの対戦", "B", 7)
    assert draw["players"] == [{"id": "B", "name": "Bさん", "deck": "", "archetype": ""},
                               {"id": "A", "name": "Aさん", "deck": "", "archetype": ""}]  # by seat
    assert by_id["a-none"]["players"] == [] and by_id["a-none"]["result"] is None


def test_uncounted_pages_and_pages_without_a_limit(edges):
    everything, total = listing.page(edges, {}, None)
    assert total == len(everything) == MANY + 4
    assert listing.page(edges, {}, 3, count=False) == (everything[:3], -1)
    assert listing.page(edges, {}, None, offset=1)[0] == everything[1:]
    # the players of every row of a page longer than one chunk of the players' query
    assert [len(r["players"]) for r in everything] == [0 if r["id"] == "a-none" else 2 for r in everything]
    assert [p["id"] for p in everything[-1]["players"]] == ["B", "A"]


def test_an_events_matches_and_the_events_in_order(edges):
    assert listing.event_matches(edges, "秋の大会") == [("a-draw", 7), ("a-neg", 7), ("a-none", 0)]
    assert listing.event_matches(edges, "ｓｐｒｉｎｇ") == []
    assert listing.event_names(edges) == ["秋の大会", "冬の大会"]  # by their first match; no empty name


def test_the_list_of_events_probes_the_event_index_and_never_walks_the_matches(edges):
    """One seek per event (the matches_by_event index), not a GROUP BY over every match: a season
    of 100,000 matches lists its events as fast as one event's store."""
    plan = [r[3] for r in edges.execute("explain query plan " + listing.EVENT_NAMES_SQL)]
    assert not any(step.startswith("SCAN matches") for step in plan), plan
    assert any("INDEX matches_by_event" in step for step in plan), plan
    # ties on the first match's time go by name; a name that sorts before another comes first
    assert listing.event_names(edges) == sorted(listing.event_names(edges),
                                                key=lambda e: (dict(秋の大会=1, 冬の大会=4)[e], e))
