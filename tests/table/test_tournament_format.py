"""The tournament's stored topics are the database format (issue 32): its event classes moved
from recorder/tournament.py to recorder/domain.py, so a store written before the move holds
them under ``recorder.tournament:Tournament.*`` and this build writes ``recorder.domain:…``.
A store of the old kind still opens, replays, pairs on and migrates, and a store holding both
kinds lists both events."""

from __future__ import annotations

import json
import sqlite3

from eventsourcing.utils import resolve_topic

from recorder import tournament_service
from recorder.domain import TOURNAMENT_LINE_CLASSES, Tournament
from recorder.store import Store

E = "冬季大会"
PLAYERS = ["山田", "佐藤", "鈴木", "田中", "高橋"]


def written_before_the_move(kifu, db: str) -> dict:
    """An event opened, five players registered and round 1 paired, its events then stored
    under the topics the build before issue 32 wrote (the states are the same bytes)."""
    assert kifu("event", "new", E, "--game", "mushijingi", "--rounds", "3", "--seed", "7")[0] == 0
    for p in PLAYERS:
        assert kifu("event", "register", E, "--player", p)[0] == 0
    assert kifu("round", "pair", E)[0] == 0
    code, before, err = kifu("standings", E, "--json")
    assert code == 0, err
    con = sqlite3.connect(db)
    with con:
        changed = con.execute("UPDATE stored_events SET topic = replace(topic, 'recorder.domain:Tournament.', "
                              "'recorder.tournament:Tournament.') WHERE topic LIKE 'recorder.domain:Tournament.%'")
        assert changed.rowcount == 1 + len(PLAYERS) + 1
    topics = {t for (t,) in con.execute("SELECT topic FROM stored_events")}
    con.close()
    assert {"recorder.tournament:Tournament.Opened", "recorder.tournament:Tournament.RoundPaired"} <= topics
    assert not any(t.startswith("recorder.domain:Tournament.") for t in topics)
    return json.loads(before)


def test_the_old_topics_resolve_to_the_moved_classes():
    assert resolve_topic("recorder.tournament:Tournament.Opened") is Tournament.Opened
    for cls in TOURNAMENT_LINE_CLASSES.values():
        assert resolve_topic(f"recorder.tournament:Tournament.{cls.__name__}") is cls


def test_a_store_written_before_the_move_opens_ranks_and_pairs_on(kifu, db):
    before = written_before_the_move(kifu, db)
    store = Store(db)
    try:
        assert tournament_service.names(store) == [E]
        st = tournament_service.state(store, E)
        assert [p.name for p in st.players.values()] == PLAYERS and st.current.number == 1
    finally:
        store.close()
    code, out, err = kifu("standings", E, "--json")
    assert code == 0 and json.loads(out) == before, err
    assert kifu("round", "close", E, "--unreported", "draw")[0] == 0  # round 1 closed, round 2 paired, on the old stream
    code, out, err = kifu("round", "pair", E, "--json")
    assert code == 0 and json.loads(out)["round"] == 2, err
    store = Store(db)
    try:
        topics = [e.topic for e in store.load_stream(tournament_service.event_uuid(E))]
    finally:
        store.close()
    assert topics[0] == "recorder.tournament:Tournament.Opened"  # the past stays as it was stored
    assert topics[-2:] == ["recorder.domain:Tournament.RoundClosed", "recorder.domain:Tournament.RoundPaired"]


def test_a_store_with_both_kinds_lists_both_and_migrates_them(kifu, db, tmp_path):
    written_before_the_move(kifu, db)
    assert kifu("event", "new", "夏季大会", "--game", "gandice", "--rounds", "2")[0] == 0
    store = Store(db)
    try:
        assert tournament_service.names(store) == [E, "夏季大会"]
    finally:
        store.close()
    other = str(tmp_path / "other.db")
    code, out, err = kifu("migrate", "--from", db, "--to", other)
    assert code == 0 and "2 tournament(s)" in out, err
    target = Store(other)
    try:
        assert tournament_service.names(target) == [E, "夏季大会"]
        assert tournament_service.export_lines(target, E) == tournament_service.export_lines(Store(db), E)
    finally:
        target.close()
