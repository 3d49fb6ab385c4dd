"""The event store: append-only streams, all-or-nothing import, duplicates, conflicts."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from projections import registry
from projections.errors import ConflictError, DuplicateMatchError, NotFoundError
from recorder.store import Store, StoreError
from recorder.tools.synth import generate

ROOT = Path(__file__).resolve().parents[2]


def toy_match(seed=1, **kw):
    return generate(registry.get("toy"), seed, 0, **kw)


def test_create_load_round_trip(store):
    header, moves = toy_match()
    store.create(header, moves)
    h, entries = store.load(header["match"]["id"])
    assert h == header
    assert entries == moves
    assert store.last_seq(header["match"]["id"]) == len(moves)


def test_duplicate_match_is_refused(store):
    header, moves = toy_match()
    store.create(header, moves)
    with pytest.raises(DuplicateMatchError, match="already recorded"):
        store.create(header, moves)


def test_unknown_match(store):
    with pytest.raises(NotFoundError):
        store.load("nope")


def test_append_is_contiguous_and_checks_expected_seq(store):
    header, moves = toy_match()
    mid = store.create(header, moves[:3])
    assert store.append(mid, {"type": "pass", "by": "A"}) == 4
    with pytest.raises(ConflictError, match="another writer"):
        store.append(mid, {"type": "pass", "by": "B"}, expect_seq=4)
    assert [e["seq"] for e in store.load(mid)[1]] == [1, 2, 3, 4]


def test_append_without_the_aggregate_stores_what_the_aggregate_would(store):
    """Appends build the event at the next version instead of rebuilding the aggregate: the
    stored topic, version and state must be what ``Match.record`` + ``save`` would write, and
    the library's own repository must read the stream back."""
    from recorder.domain import match_uuid

    header, moves = toy_match()
    mid = store.create(header, moves[:3])
    store.append(mid, dict(moves[3]))
    ours = store.app.recorder.select_events(match_uuid(mid), gt=4)
    match = store.app.repository.get(match_uuid(mid))  # the ordinary way, for comparison
    assert match.version == 5 and match.header == header
    match.record(dict(moves[4]))
    theirs = match.collect_events()[0]
    stored = store.app.mapper.to_stored_event(theirs)
    assert [e.topic for e in ours] == [stored.topic] == ["recorder.domain:Match.MoveRecorded"]
    assert ours[0].originator_version == 5 and stored.originator_version == 6  # version = seq + 1
    decoded = store.app.mapper.to_domain_event(ours[0])
    assert type(decoded) is type(theirs) and decoded.entry == dict(moves[3], seq=4)
    assert set(decoded.__dict__) == set(theirs.__dict__)
    assert not list(store.app.recorder.select_events(match_uuid("nope")))
    with pytest.raises(NotFoundError):
        store.append("nope", {"type": "pass", "by": "A"})


def test_no_update_or_delete_statements_in_kifu_code():
    """The store is append-only: no kifu module issues UPDATE or DELETE against the events."""
    for path in list((ROOT / "recorder").glob("*.py")) + list((ROOT / "projections").glob("*.py")):
        text = path.read_text(encoding="utf-8").upper()
        assert "DELETE FROM STORED_EVENTS" not in text and "UPDATE STORED_EVENTS" not in text, path


def test_bad_database_paths_are_one_line_errors(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        Store(str(tmp_path / "missing" / "x.db"))
    with pytest.raises(StoreError, match="unsupported database"):
        Store("mysql://x/y")


WRITER = r"""
import sys, time, json
sys.path.insert(0, {root!r})
from projections import registry
from tests.toy import TOY
registry.register("toy", {{1: TOY}})
from projections.errors import ConflictError
from recorder.store import Store
store = Store({db!r})
mid, me, go = sys.argv[1], sys.argv[2], sys.argv[3]
expect = store.last_seq(mid) + 1
import os
open(go + "-ready-" + me, "w").close()  # decided on the next seq: tell the test
while not os.path.exists(go):
    time.sleep(0.001)
outcome = []
for attempt in range(20):
    try:
        seq = store.append(mid, {{"type": "pass", "by": me, "note": me}}, expect_seq=expect)
        outcome.append(["ok", seq])
        break
    except ConflictError as exc:
        outcome.append(["conflict", str(exc)])
        expect = store.last_seq(mid) + 1
print(json.dumps(outcome))
"""


def test_two_processes_appending_at_once(db, tmp_path):
    store = Store(db)
    header, moves = toy_match()
    mid = store.create(header, moves[:5])
    go = tmp_path / "go"
    script = WRITER.format(root=str(ROOT), db=db)
    procs = [
        subprocess.Popen([sys.executable, "-c", script, mid, who, str(go)], stdout=subprocess.PIPE, text=True)
        for who in ("A", "B")
    ]
    deadline = time.monotonic() + 60
    while not all((tmp_path / f"go-ready-{who}").exists() for who in ("A", "B")):
        assert time.monotonic() < deadline, "the writers never started"
        time.sleep(0.01)  # until both have read the match and decided on the same next seq
    go.write_text("go")
    outcomes = [json.loads(p.communicate(timeout=60)[0]) for p in procs]
    assert all(o[-1][0] == "ok" for o in outcomes)
    conflicts = [step for o in outcomes for step in o if step[0] == "conflict"]
    assert conflicts, "one of the two writers must have seen a conflict"
    assert all("run the command again" in c[1] for c in conflicts)
    entries = store.load(mid)[1]
    assert [e["seq"] for e in entries] == [1, 2, 3, 4, 5, 6, 7]
    assert sorted(e.get("note") for e in entries[5:]) == ["A", "B"]


def test_fast_state_decoding_equals_the_library_mapper(store):
    """``Store.load`` decodes stored states with plain JSON: what was written comes back, even
    a line whose own dict looks like the library's typed-value marker (the library's mapper
    cannot read that one back at all)."""
    from recorder.domain import match_uuid

    header, moves = toy_match()
    mid = store.create(header, moves[:2])
    tricky = [
        {"type": "annotate", "by": "解説", "on": 1, "text": 'a "_type_" in a note'},
        {"type": "annotate", "by": "解説", "on": 1, "text": "x", "extra": {"_type_": "datetime_iso", "_data_": "no"}},
        {"type": "annotate", "by": "解説", "on": 2, "text": "棋譜 ✓ \\u0000-free"},
    ]
    for line in tricky:
        store.append(mid, line)
    _, entries = store.load(mid)
    assert entries[2:] == [dict(t, seq=3 + i) for i, t in enumerate(tricky)]
    assert store.load_since(mid, 2) == entries[2:]
    plain = [e.entry for e in list(store.app.events.get(match_uuid(mid), lte=4))[1:]]  # the mapper, where it can
    assert entries[:3] == plain


def test_recorded_times_read_back_exactly_as_the_library_stores_them(store):
    from recorder.domain import match_uuid

    header, moves = toy_match()
    mid = store.create(header, moves[:3])
    store.append(mid, {"type": "annotate", "by": "解説", "on": 1, "text": "x", "extra": {"_type_": "datetime_iso", "_data_": "no"}})
    _, timed = store.load_timed(mid)
    stamps = [e.timestamp for e in list(store.app.events.get(match_uuid(mid), lte=4))[1:]]
    assert [t for _, t in timed][:3] == stamps and all(t.tzinfo is not None for _, t in timed)
    assert timed[-1][0]["extra"] == {"_type_": "datetime_iso", "_data_": "no"}


def test_the_started_topic_the_store_reads_by_is_the_domain_class_topic():
    """Reading needs no domain model (recorder.ids); the topic it filters on must still be the
    one the library writes for Match.Started: the database format."""
    from eventsourcing.utils import get_topic

    from recorder.domain import Match
    from recorder.ids import STARTED_TOPIC

    assert get_topic(Match.Started) == STARTED_TOPIC
