"""The Store's stream API (recorder/store.py; docs/architecture.md "The stream API"): create a
stream, append at an expected version, load it, read notifications by topic, as the tournament
service and the web's stream watcher use it. A racing writer gets ConflictError and writes
nothing."""

from __future__ import annotations

import sqlite3

import pytest

from projections.errors import ConflictError, DuplicateMatchError
from recorder.domain import Tournament, tournament_line_event, tournament_uuid
from recorder.store import Store
from tests.backends.conftest import backend_url  # noqa: F401  (SQLite, and PostgreSQL under .ci/with-postgres)

E = "春季大会"


def opened(name: str = E) -> Tournament.Opened:
    return Tournament(opened={"kifu": 1, "kind": "event", "event": {"name": name}}).collect_events()[0]


def line(version: int, player: str) -> Tournament.LineRecorded:
    return tournament_line_event(tournament_uuid(E), version, {"type": "register", "seq": version - 1, "player": player})


@pytest.fixture
def store(backend_url):  # noqa: F811
    s = Store(backend_url)
    yield s
    s.close()


def test_a_stream_is_created_appended_to_and_loaded(store):
    stream = tournament_uuid(E)
    assert not store.stream_exists(stream) and store.load_stream(stream) == []
    store.create_stream([opened()])
    ids = store.append_events(stream, 1, [line(2, "山田"), line(3, "佐藤")])
    assert len(ids) == 2 and ids[1] == ids[0] + 1 == store.max_notification_id()
    events = store.load_stream(stream)
    assert [e.version for e in events] == [1, 2, 3] and store.top_version(stream) == 3
    assert events[0].state["opened"]["event"]["name"] == E and events[0].topic == "recorder.domain:Tournament.Opened"
    assert [e.state["line"]["player"] for e in events[1:]] == ["山田", "佐藤"]
    assert all(e.stored_at is not None for e in events)
    assert [e.version for e in store.load_stream(stream, upto=2)] == [1, 2]


def test_a_writer_behind_the_stream_gets_a_conflict_and_writes_nothing(store):
    stream = tournament_uuid(E)
    store.create_stream([opened()])
    store.append_events(stream, 1, [line(2, "山田")])
    before = store.max_notification_id()
    with pytest.raises(ConflictError, match="another writer got there first; nothing was recorded"):
        store.append_events(stream, 1, [line(2, "佐藤")], what="event '春季大会'")
    assert store.max_notification_id() == before and store.top_version(stream) == 2


def test_a_racing_writer_that_passed_the_version_check_is_refused_by_the_key(store, monkeypatch):
    """Two writers both read version 1; the second's insert meets the primary key."""
    stream = tournament_uuid(E)
    store.create_stream([opened()])
    other = Store(store.db)
    try:
        monkeypatch.setattr(Store, "top_version", lambda self, s: 1)  # both decided on version 1
        other.append_events(stream, 1, [line(2, "山田")])
        with pytest.raises(ConflictError):
            store.append_events(stream, 1, [line(2, "佐藤"), line(3, "鈴木")])
    finally:
        other.close()
    monkeypatch.undo()
    assert [e.state["line"]["player"] for e in store.load_stream(stream)[1:]] == ["山田"]


def test_also_is_written_with_the_events_or_not_at_all(store):
    from recorder.domain import Match

    stream = tournament_uuid(E)
    store.create_stream([opened()])
    match = {"kifu": 1, "game": "gandice", "match": {"id": "m1"},
             "players": [{"id": "A", "name": "山田"}, {"id": "B", "name": "佐藤"}]}
    store.append_events(stream, 1, [line(2, "山田")], also=[Match(header=match).collect_events()[0]])
    assert store.exists("m1")
    with pytest.raises(ConflictError):  # the match exists: the line is not written either
        store.append_events(stream, 2, [line(3, "佐藤")], also=[Match(header=match).collect_events()[0]])
    assert store.top_version(stream) == 2


def test_a_second_stream_of_the_same_id_is_a_duplicate(store):
    store.create_stream([opened()])
    with pytest.raises(DuplicateMatchError, match="is already recorded"):
        store.create_stream([opened()], what="event '春季大会'")


def test_events_must_follow_the_expected_version(store):
    store.create_stream([opened()])
    with pytest.raises(ValueError, match="do not follow version 1"):
        store.append_events(tournament_uuid(E), 1, [line(3, "山田")])


def test_notifications_by_topic_and_raw(store):
    store.create_stream([opened()])
    store.create_stream([opened("夏季大会")])
    got = store.topic_states(["recorder.domain:Tournament.Opened"])
    assert [s["opened"]["event"]["name"] for _, s in got] == [E, "夏季大会"]
    assert [s["opened"]["event"]["name"] for _, s in store.topic_states(["recorder.domain:Tournament.Opened"],
                                                                          after=got[0][0])] == ["夏季大会"]
    raw = store.raw_notifications(0, upto=got[0][0])
    assert [version for _, _, version, _ in raw] == [1] and raw[0][1] == tournament_uuid(E)
    assert store.decode_state(bytes(raw[0][3]))["opened"]["event"]["name"] == E
    if store.is_postgres:
        assert store.notify_channel
        return
    assert store.notify_channel is None
    con = sqlite3.connect(store.db)
    try:
        assert store.raw_notifications(0, connection=con) == store.raw_notifications(0)
        assert store.max_notification_id(con) == store.max_notification_id() == got[-1][0]
    finally:
        con.close()
