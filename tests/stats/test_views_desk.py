"""The judges' desk and the standings cost the event, not the store (issue 25 item 2): the
event's matches are found through the read model's event index and only they are read and
folded; the standings of an event without a tournament stream come from the read model's
rows. What they show is what folding every match of the store showed."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from exports import desk
from exports.timeline import summary
from projections import standings
from projections.replay import Replay
from recorder.web.server import create_app
from tests.table.event import EVENT, fill
from tests.table.test_desk import live_game


def _other_matches(store, n: int = 6) -> set[str]:
    """Matches of other events (one named like the event but in other letters' case)."""
    ids = set()
    for i in range(n):
        event = "別の大会" if i % 2 else "other cup"
        header = {"kifu": 1, "game": "toy", "rules": "toy/1", "first": "A",
                  "match": {"id": f"other-{i}", "event": event, "round": 1, "table": str(i + 1)},
                  "players": [{"id": "A", "name": f"他{i}A"}, {"id": "B", "name": f"他{i}B"}]}
        store.create(header, [{"seq": 1, "type": "score", "by": "A", "points": 3}])
        ids.add(f"other-{i}")
    return ids


def _folded_every_match(store) -> list[tuple[Replay, dict]]:
    """The desk's matches the way it found them before: every match of the store folded."""
    out = []
    for header in store.headers():
        _, entries = store.load(header["match"]["id"])
        rep = Replay(header, entries)
        out.append((rep, summary(header, rep)))
    return out


@pytest.fixture
def event_store(store):
    fill(store)
    live_game(store)
    others = _other_matches(store)
    return store, others


def _watch_loads(store, monkeypatch) -> tuple[list[str], list[str]]:
    loads: list[str] = []
    since: list[str] = []
    real_load, real_since = store.load, store.load_since
    monkeypatch.setattr(store, "load", lambda m: loads.append(m) or real_load(m))
    monkeypatch.setattr(store, "load_since", lambda m, *a: since.append(m) or real_since(m, *a))
    monkeypatch.setattr(store, "headers", lambda: pytest.fail("store.headers() read every stored header"))
    return loads, since


def test_the_desk_reads_only_the_events_matches_and_shows_what_folding_all_showed(event_store, monkeypatch):
    store, others = event_store
    expected = desk.event_rows(EVENT, _folded_every_match(store))
    loads, since = _watch_loads(store, monkeypatch)
    client = TestClient(create_app(store))
    got = client.get(f"/api/events/{quote(EVENT)}").json()
    assert got == json.loads(json.dumps(expected, ensure_ascii=False))
    assert loads and not set(loads) & others
    assert len(loads) == expected["counts"]["matches"] == 31
    page = client.get(f"/events/{quote(EVENT)}")
    assert page.status_code == 200 and "wc-r4-t1-g1" in page.text
    assert len(loads) == 31  # the rows are kept: nothing read again


def test_a_desk_refreshed_after_a_line_folds_only_that_match(event_store, monkeypatch):
    from recorder import service

    store, _ = event_store
    client = TestClient(create_app(store))
    client.get(f"/api/events/{quote(EVENT)}")
    service.record(store, "wc-r4-t1-g1", {"type": "score", "by": "B", "points": 1})
    loads, since = _watch_loads(store, monkeypatch)
    got = client.get(f"/api/events/{quote(EVENT)}").json()
    assert loads == [] and since == ["wc-r4-t1-g1"]
    row = next(g for rnd in got["rounds"] for card in rnd["tables"] for g in card["games"]
               if g["id"] == "wc-r4-t1-g1")
    assert row["steps"] == 5


def test_a_desk_keeps_no_more_rows_than_it_is_told(event_store):
    from recorder.web import desk as web_desk
    from recorder.web.server import MatchCache

    store, _ = event_store
    cache = MatchCache(store, keep=0)  # no replay kept: a row not kept is folded again
    api = next(r for r in web_desk.routes(cache, lambda fn: fn, keep=5) if r.path == "/api/events/{event}")
    loads: list[str] = []
    real = store.load
    store.load = lambda m: loads.append(m) or real(m)  # type: ignore[method-assign]

    class Request:
        path_params = {"event": EVENT}
        query_params: dict[str, str] = {}

    first = json.loads(api.endpoint(Request()).body)
    assert len(loads) == 31
    again = json.loads(api.endpoint(Request()).body)
    assert again == first
    assert len(loads) == 31 + 31 - 5  # five rows kept, the other 26 folded again
    assert cache.replays.evicted == 31 + 26


def test_store_matches_reads_only_the_event(event_store, monkeypatch):
    store, others = event_store
    expected = [(s["id"], s) for _, s in _folded_every_match(store) if s.get("event") == EVENT]
    loads, _ = _watch_loads(store, monkeypatch)
    got = desk.store_matches(store, EVENT)
    assert sorted((s["id"], s) for _, s in got) == sorted(expected, key=lambda x: x[0])
    assert not set(loads) & others and len(loads) == 31


def test_kifu_standings_of_an_event_without_a_stream_folds_nothing(kifu, event_store):
    store, _ = event_store
    expected = desk.standings_table(EVENT, _folded_every_match(store))
    code, out, err = kifu("standings", EVENT, "--json")
    assert code == 0, err
    assert json.loads(out)["standings"] == [s.to_json() for s in expected.rows]
    code, out, err = kifu("standings", EVENT, "--round", "2", "--json")
    games = [standings.Game.from_summary(s) for _, s in _folded_every_match(store) if s.get("event") == EVENT]
    upto = standings.standings(EVENT, [g for g in games if g.round is not None and g.round <= 2])
    assert code == 0, err
    assert json.loads(out)["standings"] == [s.to_json() for s in upto.rows]
    code, out, err = kifu("standings", "no such event")
    assert code != 0 and "no event 'no such event'" in err


def test_the_standings_api_and_the_desk_agree(event_store):
    store, _ = event_store
    client = TestClient(create_app(store))
    deskj = client.get(f"/api/events/{quote(EVENT)}").json()
    st = client.get(f"/api/events/{quote(EVENT)}/standings").json()
    assert st["standings"] == deskj["standings"] and st["pending"] == deskj["pending"]
