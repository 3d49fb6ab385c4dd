"""The writer hands its fold to the read model: the match is neither decoded nor folded again,
even when a catch-up batch ends in the middle of its stream (a long import)."""

from __future__ import annotations

import json
import re

import pytest

from projections import readmodel, registry
from projections.errors import ConflictError, DuplicateMatchError
from projections.replay import Replay
from recorder import hooks, logformat, service
from recorder.store import Store, _consecutive
from recorder.tools.synth import generate


def test_a_handed_over_fold_is_used_across_batches(store, tmp_path, monkeypatch):
    header, moves = generate(registry.get("toy"), 5, 0, min_events=60)
    mid = store.create(header, moves)
    other_header, other_moves = generate(registry.get("toy"), 6, 0)
    other = store.create(other_header, other_moves)
    monkeypatch.setattr(readmodel, "BATCH", 10)  # batches end inside the long stream
    loads = []
    real_load = store.load
    monkeypatch.setattr(store, "load", lambda m: loads.append(m) or real_load(m))
    rm = readmodel.ReadModel(str(tmp_path / "rm.db"))
    rm.catch_up(store, page=4, known={mid: Replay(header, moves, checks=False)})
    assert loads == []  # the other match is folded from the notifications themselves
    with readmodel.rebuild(store, str(tmp_path / "fresh.db")) as fresh:
        assert fresh.matches() == rm.matches()
    assert {m["id"] for m in rm.matches()} == {mid, other}
    rm.close()


# -- the writer's own notifications (Store.written) ----------------------------------------------------


def _toy_header(mid: str) -> dict:
    return {"kifu": 1, "game": "toy", "first": "A", "match": {"id": mid, "event": "秋の大会"},
            "players": [{"id": p, "name": f"名{p}", "deck": {"name": f"デッキ{p}"}} for p in "AB"]}


@pytest.fixture
def model(store, tmp_path, monkeypatch):
    """A read model caught up after every write of ``store``, and the reads it makes."""
    rm = readmodel.ReadModel(str(tmp_path / "rm.db"))
    monkeypatch.setattr(hooks, "AFTER_WRITE", [lambda s, known: rm.catch_up(s, known=known)])
    reads: list[int] = []
    real = store.lines_after
    monkeypatch.setattr(store, "lines_after", lambda after, *a, **k: reads.append(after) or real(after, *a, **k))
    yield rm, reads
    rm.close()


def _same_as_rebuilt(store, rm, tmp_path) -> None:
    with readmodel.rebuild(store, str(tmp_path / "fresh.db")) as fresh:
        assert rm.matches() == fresh.matches()
        assert rm.last_id() == fresh.last_id() == store.max_notification_id()


def test_a_recorded_line_is_not_read_back(store, model, tmp_path):
    rm, reads = model
    service.create_match(store, _toy_header("m1"))  # nothing handed over: the header is read
    assert reads == [0]
    reads.clear()
    for i, points in enumerate((1, 2, 3, 3, 2)):
        service.record(store, "m1", {"type": "score", "by": "AB"[i % 2], "points": points})
        assert store.written == (i + 2, i + 2, store.stream_of("m1"), i + 2)
    assert reads == []
    assert {m["id"]: m["steps"] for m in rm.matches()} == {"m1": 5}
    _same_as_rebuilt(store, rm, tmp_path)


def test_an_imported_log_is_not_read_back(store, model, tmp_path):
    rm, reads = model
    header, moves = generate(registry.get("toy"), 8, 0, min_events=30)
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(logformat.export_lines(header, moves)) + "\n", encoding="utf-8")
    mid = service.import_file(store, str(path))
    assert store.written == (1, len(moves) + 1, store.stream_of(mid), len(moves) + 1)
    assert reads == []
    _same_as_rebuilt(store, rm, tmp_path)


def test_another_writers_line_in_between_is_read(store, model, tmp_path):
    rm, reads = model
    service.create_match(store, _toy_header("m1"))
    service.record(store, "m1", {"type": "score", "by": "A", "points": 1})
    other = Store(store.db)  # another process: no hook, no read model
    other.append("m1", {"type": "score", "by": "B", "points": 2})
    other.close()
    reads.clear()
    service.record(store, "m1", {"type": "score", "by": "A", "points": 3})
    assert reads == [2]  # the other writer's notification 3, then ours
    assert {m["id"]: m["steps"] for m in rm.matches()} == {"m1": 3}
    _same_as_rebuilt(store, rm, tmp_path)


def test_a_refused_write_hands_nothing_over(store):
    store.create(_toy_header("m1"))
    store.append("m1", {"type": "score", "by": "A", "points": 1})
    assert store.written is not None
    with pytest.raises(ConflictError):
        store.append("m1", {"type": "score", "by": "B", "points": 1}, expect_seq=7)
    assert store.written is None
    with pytest.raises(DuplicateMatchError):
        store.create(_toy_header("m1"))
    assert store.written is None


@pytest.mark.parametrize("ids, expected", [
    ([4], (4, 4, "s", 9)), ([4, 5, 6], (4, 6, "s", 9)), ([4, 6], None), ([], None), (None, None),
])
def test_only_consecutive_notifications_are_handed_over(ids, expected):
    assert _consecutive(ids, "s", 9) == expected


# -- one line onto an unfinished match: only its row is written again ------------------------------


def _results(rm) -> list[tuple]:
    return rm.db.execute("select rowid, * from results order by rowid").fetchall()


def _facts(rm) -> list[tuple]:
    return rm.db.execute("select * from sides").fetchall() + rm.db.execute("select * from pairs").fetchall()


def test_a_line_onto_an_unfinished_match_writes_only_its_row(store, model, tmp_path):
    rm, _ = model
    service.create_match(store, _toy_header("m1"))
    service.record(store, "m1", {"type": "score", "by": "A", "points": 3})
    before = _results(rm)
    assert [r[-2] for r in before] == [None, None]  # no outcome yet
    statements: list[str] = []
    rm.db.conn.set_trace_callback(statements.append)
    try:
        for by in "BABAB":
            service.record(store, "m1", {"type": "score", "by": by, "points": 1})
            assert _results(rm) == before
    finally:
        rm.db.conn.set_trace_callback(None)
    written = [re.match(r"(update \w+ set \w+|insert or replace into \w+|insert into \w+|delete from \w+)", s).group(1)
               for s in statements if s.lower().startswith(("insert", "delete", "update"))]
    # per line: its steps (and turns, desk facts), the violations the writer's checked fold found
    # (projections/deskrows.py), then the state's two keys (last notification id, position)
    assert written == ["update matches set steps", "insert or replace into checked", "insert or replace into state",
                       "insert or replace into state"] * 5
    header, entries = store.load("m1")
    assert rm.db.execute("select steps, violations from checked").fetchall() == [
        (6, json.dumps([v.to_json() for v in Replay(header, entries).violations()], ensure_ascii=False,
                       separators=(",", ":")))]
    assert {m["id"]: m["steps"] for m in rm.matches()} == {"m1": 6}
    _same_as_rebuilt(store, rm, tmp_path)


def test_the_line_that_decides_the_match_writes_its_results_and_facts(store, model, tmp_path):
    rm, _ = model
    service.create_match(store, _toy_header("m1"))
    for _ in range(3):
        service.record(store, "m1", {"type": "score", "by": "A", "points": 3})
        service.record(store, "m1", {"type": "score", "by": "B", "points": 1})
    assert _facts(rm) == []
    service.record(store, "m1", {"type": "score", "by": "A", "points": 3})  # 12 points: A wins
    assert sorted(r[-2] for r in _results(rm)) == ["loss", "win"]
    assert len(_facts(rm)) == 3  # two sides, one pair
    _same_as_rebuilt(store, rm, tmp_path)
    with readmodel.rebuild(store, str(tmp_path / "again.db")) as fresh:
        assert _facts(fresh) == _facts(rm)


@pytest.mark.parametrize("stands", ["finished", "error", "missing"])
def test_a_row_that_does_not_stand_unfinished_is_written_whole(store, model, tmp_path, stands):
    """What the model holds decides, not what this process wrote last: another process (a
    rebuild with another build, a hand-edited file) may have left the row otherwise."""
    rm, _ = model
    service.create_match(store, _toy_header("m1"))
    service.record(store, "m1", {"type": "score", "by": "A", "points": 3})
    if stands == "finished":
        rm.db.execute("update matches set finished = 1, winner = 'A'")
        rm.db.execute("update results set outcome = 'win'")
    elif stands == "error":
        rm.db.execute("update matches set error = 'no such game'")
        rm.db.execute("delete from results")
    else:
        rm.db.execute("delete from matches")
        rm.db.execute("delete from results")
    rm.db.conn.commit()
    service.record(store, "m1", {"type": "score", "by": "B", "points": 1})
    _same_as_rebuilt(store, rm, tmp_path)
    with readmodel.rebuild(store, str(tmp_path / "again.db")) as fresh:
        assert [r[1:] for r in _results(rm)] == [r[1:] for r in _results(fresh)]


def test_a_writers_line_another_catch_up_already_wrote_is_read_as_nothing_new(store, tmp_path):
    """The writer hands its fold over after a catch-up elsewhere (another process, a page)
    already took its line: nothing is read, nothing written, and it says so (0)."""
    rm = readmodel.ReadModel(str(tmp_path / "rm.db"))
    try:
        service.create_match(store, _toy_header("m1"))
        store.append("m1", {"type": "score", "by": "A", "points": 1})
        assert rm.catch_up(store) == 2  # the header and the line, read from the store
        pages: list[int] = []
        rep = Replay(_toy_header("m1"), [{"seq": 1, "type": "score", "by": "A", "points": 1}], checks=False)
        assert rm.catch_up(store, known={"m1": rep}, on_page=pages.append) == 0
        assert pages == [] and rm.last_id() == 2
    finally:
        rm.close()
