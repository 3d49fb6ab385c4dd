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
    assert got["counts"]["violations"] == 1 and got["counts"]["disputes"] == 1  # the live game's
    # The store's matches were not written through the record path, so no checked fold handed
    # over their violations: the first desk folds each match of the event once, no other.
    assert loads and not set(loads) & others
    assert len(loads) == expected["counts"]["matches"] == 31
    page = client.get(f"/events/{quote(EVENT)}")
    assert page.status_code == 200 and "wc-r4-t1-g1" in page.text
    assert len(loads) == 31  # what it found is kept: nothing read again
    # A fresh server (another process, a restart) reads it all from the read model: no fold.
    again = TestClient(create_app(store)).get(f"/api/events/{quote(EVENT)}").json()
    assert again == got and len(loads) == 31 and since == []


def test_a_line_recorded_through_kifu_reaches_the_desk_without_a_fold(event_store, monkeypatch):
    from recorder import service

    store, _ = event_store
    client = TestClient(create_app(store))
    client.get(f"/api/events/{quote(EVENT)}")
    service.record(store, "wc-r4-t1-g1", {"type": "score", "by": "B", "points": 1})
    service.record(store, "wc-r4-t1-g1", {"type": "score", "by": "B", "points": 1})  # B again
    loads, since = _watch_loads(store, monkeypatch)
    got = client.get(f"/api/events/{quote(EVENT)}").json()
    assert loads == [] and since == []  # the record path's own checked fold gave the violations
    row = next(g for rnd in got["rounds"] for card in rnd["tables"] for g in card["games"]
               if g["id"] == "wc-r4-t1-g1")
    header, entries = store.load("wc-r4-t1-g1")
    rep = Replay(header, entries)
    assert row == json.loads(json.dumps(desk.match_row(rep, summary(header, rep)), ensure_ascii=False))
    assert row["steps"] == 6 and [v["seq"] for v in row["violations"]] == [2, 5]  # seq 5: a new one (TOY-1)


def test_a_line_written_behind_the_desks_back_folds_that_match_alone(event_store, monkeypatch):
    store, _ = event_store
    client = TestClient(create_app(store))
    client.get(f"/api/events/{quote(EVENT)}")
    store.append("wc-r4-t1-g1", {"seq": 5, "type": "score", "by": "B", "points": 1, "at": "2026-12-05T10:09:00Z"})
    loads, since = _watch_loads(store, monkeypatch)
    got = client.get(f"/api/events/{quote(EVENT)}").json()
    assert loads + since == ["wc-r4-t1-g1"]  # its checked violations are one line behind
    row = next(g for rnd in got["rounds"] for card in rnd["tables"] for g in card["games"]
               if g["id"] == "wc-r4-t1-g1")
    assert row["steps"] == 5 and row["last_at"] == "2026-12-05T10:09:00Z"
    assert [v["seq"] for v in row["violations"]] == [2, 5]
    client.get(f"/api/events/{quote(EVENT)}")
    assert loads + since == ["wc-r4-t1-g1"]


def test_a_rebuild_forgets_the_checked_violations_and_the_desk_finds_them_again(event_store, monkeypatch):
    from projections import readmodel

    store, _ = event_store
    first = TestClient(create_app(store)).get(f"/api/events/{quote(EVENT)}").json()
    readmodel.rebuild(store).close()
    loads, _ = _watch_loads(store, monkeypatch)
    again = TestClient(create_app(store)).get(f"/api/events/{quote(EVENT)}").json()
    assert again == first and len(loads) == 31


def test_the_desk_of_results_pending_a_ruling_reads_what_folding_shows(store):
    """KIFU-3 on each of the four games: a match decided by a flagged line, and the same match
    once a judge upheld it, read from the read model as the fold shows them."""
    from tests.core.test_flagged_results import CASES, dispute, example, ruling, then

    for i, game in enumerate(CASES):
        header, entries = example(game)
        seq = CASES[game][1]
        for k, lines in enumerate((entries, then(entries, dispute(seq), ruling(seq + 1, "upheld")))):
            h = json.loads(json.dumps(header))
            h["match"].update(id=f"pending-{game}-{k}", event="保留の大会", round=k + 1, table=str(i + 1))
            store.create(h, lines)
    expected = desk.event_rows("保留の大会", _folded_every_match(store))
    got = TestClient(create_app(store)).get(f"/api/events/{quote('保留の大会')}").json()
    assert got == json.loads(json.dumps(expected, ensure_ascii=False))
    assert got["counts"]["pending_rulings"] == 4 and len(got["rulings"]) == 4


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


def test_the_desks_event_stream_finds_the_events_matches_through_the_index(event_store, monkeypatch):
    """The desk page subscribes to /api/events/EVENT/stream as it loads: the matches it follows
    come from the read model's event index, not from a summary of every match of the store."""
    from recorder.web import stream
    from recorder.web.server import MatchCache

    store, others = event_store
    expected_rows = _folded_every_match(store)
    cache = MatchCache(store)
    monkeypatch.setattr(cache, "list", lambda: pytest.fail("the server summarised every match of the store"))
    loads, since = _watch_loads(store, monkeypatch)
    ids = stream.event_match_ids(cache, EVENT)
    expected = {s["id"] for _, s in expected_rows if s.get("event") == EVENT}
    assert set(ids) == expected and len(ids) == 31 and not set(ids) & others
    assert loads == [] and since == []
