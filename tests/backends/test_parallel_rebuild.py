"""A large rebuild folds its matches in one process per core (projections.readmodel,
``_rebuild_by_parts``): it must write exactly what one process writes, leave the old model
alone when a process fails, and leave no process behind. On SQLite and PostgreSQL."""

from __future__ import annotations

import gc
import multiprocessing
import os
import sqlite3
from pathlib import Path

import pytest

from projections import readmodel, registry
from projections.readmodel import ReadModel, ReadModelError, catch_up_store, rebuild
from recorder import service
from recorder.logformat import read_file
from recorder.store import Store, part_filter, part_of
from recorder.tools.synth import generate

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.jsonl"))
TABLES = ("matches", "results", "sides", "pairs")


def _fill(store: Store) -> None:
    """Matches of every game, the examples (rulings, corrections, disputes), and two matches
    recorded line by line in turns, so their streams interleave in the notification log."""
    for game in ("gandice", "mushijingi", "gurren-lagann", "variants-war"):
        for i in range(3):
            store.create(*generate(registry.get(game), 9, i))
    for path in EXAMPLES:
        store.create(*read_file(str(path)))
    pairs = [generate(registry.get("variants-war"), 4, i) for i in range(2)]
    for k, (header, _) in enumerate(pairs):
        header["match"]["id"] = f"interleaved-{k}"
        service.create_match(store, header)
    for step in range(40):
        for k, (_, entries) in enumerate(pairs):
            if step < len(entries):
                store.append(f"interleaved-{k}", dict(entries[step]))


def _tables(rm: ReadModel) -> dict[str, list]:
    out = {t: rm.db.execute(f"select * from {t} order by 1, 2, 3, 4, 5, 6, 7, 8, 9").fetchall() for t in TABLES}
    out["state"] = sorted(rm.db.execute("select * from state").fetchall())
    out["rowid order"] = rm.db.execute("select id from matches order by rowid").fetchall()
    return out


@pytest.fixture
def filled(backend_url):
    store = Store(backend_url)
    _fill(store)
    yield store
    store.close()


def _rebuild(store: Store, path: Path, parts: int, monkeypatch: pytest.MonkeyPatch, **kw) -> ReadModel:
    monkeypatch.setenv("KIFU_REBUILD_PARTS", str(parts))
    monkeypatch.setattr(readmodel, "PARALLEL_FROM", 1)
    return rebuild(store, str(path), **kw)


def test_a_parallel_rebuild_writes_what_one_process_writes(filled, tmp_path, monkeypatch):
    with _rebuild(filled, tmp_path / "one.db", 1, monkeypatch) as one:
        expected = _tables(one)
        report = one.report()
    with catch_up_store(filled, str(tmp_path / "incremental.db")) as incremental:  # page by page
        caught_up = _tables(incremental)
        assert incremental.report() == report
    assert {k: v for k, v in caught_up.items() if k != "rowid order"} == {
        k: v for k, v in expected.items() if k != "rowid order"}  # a row written again goes last
    assert len(expected["matches"]) == 12 + len(EXAMPLES) + 2
    monkeypatch.setattr(readmodel, "PART_PAGE", 7)  # many pages: the progress adds up across them
    for parts in (2, 3):
        seen: list[int] = []
        with _rebuild(filled, tmp_path / f"{parts}.db", parts, monkeypatch, on_page=seen.append) as rm:
            assert _tables(rm) == expected
            assert rm.report() == report
        assert sum(seen) == filled.max_notification_id()  # the progress bar reaches its end
    assert multiprocessing.active_children() == []  # no process left behind


def test_every_part_holds_some_matches_and_each_match_one_part(filled):
    streams = {filled.stream_of(h["match"]["id"]) for h in filled.headers()}
    for parts in (2, 3):
        owners = [part_of(s, parts) for s in streams]
        assert set(owners) == set(range(parts))
        assert all(part_of(str(s), parts) == part_of(s, parts) for s in streams)  # text ids too
        assert all(part_of(s.hex, parts) == part_of(s, parts) for s in streams)  # SQLite's text


@pytest.mark.parametrize("parts", [1, 2, 3, 4])
def test_the_database_hands_each_part_its_own_streams_and_every_line_to_one_part(filled, parts):
    top = filled.max_notification_id()
    reader = filled.reader()
    try:
        begun: list[int] = []
        lines = 0
        for part in range(parts):
            streams = reader.part_streams(part, parts, top)
            assert all(part_of(stream, parts) == part for _, stream, _ in streams)
            assert [first for first, _, _ in streams] == sorted(first for first, _, _ in streams)
            begun += [first for first, _, _ in streams]
            read = reader.stream_lines([stream for _, stream, _ in streams], top)
            assert list(read) == sorted(stream for _, stream, _ in streams)  # each stream once
            for _, stream, count in streams:
                header, entries = read[stream]
                assert header is not None and len(entries) == count - 1  # every event is a match's here
                assert [e["seq"] for e in entries] == list(range(1, count))
                lines += count
    finally:
        reader.close()
    assert len(set(begun)) == len(begun) == 12 + len(EXAMPLES) + 2  # each stream in one part
    assert lines == top  # each event once, none left out


def test_a_stream_read_stops_at_the_rebuilds_last_notification(filled):
    top = filled.max_notification_id()
    stream = filled.stream_of("interleaved-0")
    before = {s: c for _, s, c in filled.part_streams(0, 1, top)}
    filled.append("interleaved-0", {"seq": 41, "type": "annotate", "by": "judge", "text": "あとから"})
    after = {s: c for _, s, c in filled.part_streams(0, 1, top)}
    assert after == before
    key = next(s for s in after if str(s).replace("-", "") == stream.hex)
    assert len(filled.stream_lines([key], top)[key][1]) == after[key] - 1
    assert len(filled.stream_lines([key], top + 1)[key][1]) == after[key]
    assert filled.stream_lines([], top) == {}


def test_the_parts_share_the_streams_by_their_events_in_the_order_they_began(filled):
    """Each stream in exactly one part, each part in the order its streams began, and the
    parts as even as whole streams allow: each stream goes to the part with the fewest events."""
    listed = filled.part_streams(0, 1, filled.max_notification_id())
    assert readmodel._share(listed, 0, 1) == listed
    for parts in (2, 3, 4):
        shares = [readmodel._share(listed, part, parts) for part in range(parts)]
        assert sorted(s for share in shares for s in share) == sorted(listed)
        assert all(share == sorted(share) for share in shares)
        loads = [sum(count for _, _, count in share) for share in shares]
        assert max(loads) - min(loads) <= max(count for _, _, count in listed)
    made = [(1, "a", 10), (2, "b", 3), (3, "c", 4), (4, "d", 2), (5, "e", 9)]
    assert [readmodel._share(made, part, 2) for part in (0, 1)] == [
        [(1, "a", 10)], [(2, "b", 3), (3, "c", 4), (4, "d", 2), (5, "e", 9)]]
    assert [readmodel._share(made, part, 3) for part in (0, 1, 2)] == [
        [(1, "a", 10)], [(2, "b", 3), (4, "d", 2)], [(3, "c", 4), (5, "e", 9)]]


def test_a_streams_part_is_its_last_hex_digit_and_anything_else_is_part_zero():
    assert [part_of("…0", 2), part_of("…7", 2), part_of("…a", 3), part_of("…F", 4), part_of("…f", 16)] == [0, 1, 1, 3, 15]
    assert part_of("not-a-uuid-z", 3) == part_of("", 2) == 0
    where, params = part_filter("c", "?", 0, 3)
    assert where == " AND c NOT IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" and params == list("124578abde")
    assert part_filter("c", "%s", 2, 3) == (" AND c IN (%s, %s, %s, %s, %s)", list("258be"))
    assert part_filter("c", "?", 0, 1) == ("", [])


def test_after_a_parallel_rebuild_the_catch_up_goes_on(filled, tmp_path, monkeypatch):
    rm = _rebuild(filled, tmp_path / "par.db", 2, monkeypatch)
    try:
        header, entries = generate(registry.get("mushijingi"), 31, 0)
        service.create_match(filled, header)
        for entry in entries[:25]:
            service.record(filled, header["match"]["id"], dict(entry))
        filled.append("interleaved-0", {"seq": 41, "type": "annotate", "by": "judge", "text": "続き"})
        rm.catch_up(filled)
        monkeypatch.setenv("KIFU_REBUILD_PARTS", "1")
        with rebuild(filled, str(tmp_path / "fresh.db")) as fresh:
            ours, theirs = _tables(rm), _tables(fresh)
            del ours["rowid order"], theirs["rowid order"]  # a row written again goes last
            assert ours == theirs
    finally:
        rm.close()


def test_a_failing_process_leaves_the_old_model_and_says_so_in_one_line(filled, tmp_path, monkeypatch):
    path = tmp_path / "model.db"
    with _rebuild(filled, path, 1, monkeypatch) as before:
        kept = _tables(before)
    real = readmodel._part_rows

    def fails_in_part_one(store, part, parts, top):
        if part == 1:
            raise RuntimeError("disk on fire")
        return real(store, part, parts, top)

    monkeypatch.setattr(readmodel, "_part_rows", fails_in_part_one)  # the fork inherits it
    with pytest.raises(ReadModelError) as caught:
        _rebuild(filled, path, 2, monkeypatch)
    assert str(caught.value) == "RuntimeError: disk on fire"
    assert multiprocessing.active_children() == []
    with ReadModel(str(path)) as after:
        assert _tables(after) == kept


def test_a_process_that_dies_is_reported_not_waited_for(filled, tmp_path, monkeypatch):
    real = readmodel._part_rows

    def dies_in_part_one(store, part, parts, top):
        if part == 1:
            os._exit(3)
        return real(store, part, parts, top)

    monkeypatch.setattr(readmodel, "_part_rows", dies_in_part_one)
    with pytest.raises(ReadModelError, match=r"a rebuild process ended without its rows \(exit code 3\)"):
        _rebuild(filled, tmp_path / "model.db", 2, monkeypatch)
    assert multiprocessing.active_children() == []


def _parts_used(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of parts each rebuild from now on is split into (it still runs)."""
    used: list[int] = []
    real = readmodel.ReadModel._rebuild_by_parts

    def counted(self, store, source, top, parts, on_page):
        used.append(parts)
        return real(self, store, source, top, parts, on_page)

    monkeypatch.setattr(readmodel.ReadModel, "_rebuild_by_parts", counted)
    return used


def test_a_small_store_is_rebuilt_in_one_process(filled, tmp_path, monkeypatch):
    monkeypatch.setenv("KIFU_REBUILD_PARTS", "2")
    used = _parts_used(monkeypatch)
    with rebuild(filled, str(tmp_path / "small.db")) as rm:  # far below PARALLEL_FROM
        assert rm.count() == 12 + len(EXAMPLES) + 2
    assert used == [1]


@pytest.mark.parametrize("given, expected", [("1", 1), ("3", 3), ("64", readmodel.PARTS_MAX), ("", None), ("x", None), ("0", None)])
def test_how_many_processes_a_rebuild_uses(given, expected, monkeypatch):
    monkeypatch.setenv("KIFU_REBUILD_PARTS", given)
    cores = min(os.cpu_count() or 1, readmodel.PARTS_MAX)
    assert readmodel.rebuild_parts() == (cores if expected is None else expected)


def test_a_large_store_is_rebuilt_in_one_part_per_core_on_either_backend(filled, tmp_path, monkeypatch):
    monkeypatch.delenv("KIFU_REBUILD_PARTS", raising=False)
    monkeypatch.setattr(readmodel, "PARALLEL_FROM", 1)
    used = _parts_used(monkeypatch)
    rebuild(filled, str(tmp_path / "m.db")).close()
    assert used == [min(os.cpu_count() or 1, readmodel.PARTS_MAX)]


def test_the_collector_is_off_while_a_rebuild_reads_and_back_after(filled, tmp_path, monkeypatch):
    seen: list[tuple[str, bool]] = []
    part, page = readmodel._part_rows, ReadModel._catch_up_page
    monkeypatch.setattr(readmodel, "_part_rows", lambda *a: seen.append(("part", gc.isenabled())) or part(*a))
    monkeypatch.setattr(ReadModel, "_catch_up_page", lambda *a: seen.append(("page", gc.isenabled())) or page(*a))
    assert gc.isenabled()
    with catch_up_store(filled, str(tmp_path / "model.db")) as rm:  # a catch-up: pages
        assert rm.count() > 0
    with _rebuild(filled, tmp_path / "model.db", 1, monkeypatch):  # one part, in this process
        pass
    with _rebuild(filled, tmp_path / "model.db", 2, monkeypatch):  # every part in a process of its own
        pass
    assert set(seen) == {("page", False), ("part", False)} and gc.isenabled()
    gc.disable()
    try:
        with readmodel.no_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def test_a_store_at_exactly_the_threshold_is_rebuilt_in_parts(filled, tmp_path, monkeypatch):
    monkeypatch.setenv("KIFU_REBUILD_PARTS", "2")
    top = filled.max_notification_id()
    used: list[int] = []
    monkeypatch.setattr(readmodel.ReadModel, "_rebuild_by_parts",
                        lambda self, store, source, top, parts, on_page: used.append(parts) or 0)
    monkeypatch.setattr(readmodel, "PARALLEL_FROM", top)
    rebuild(filled, str(tmp_path / "m.db")).close()
    monkeypatch.setattr(readmodel, "PARALLEL_FROM", top + 1)
    rebuild(filled, str(tmp_path / "m.db")).close()
    assert used == [2, 1]


def test_processes_are_not_used_where_they_cannot_be_forked(monkeypatch):
    monkeypatch.setenv("KIFU_REBUILD_PARTS", "3")
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert readmodel.rebuild_parts() == 1
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["fork", "spawn"])
    monkeypatch.delenv("KIFU_REBUILD_PARTS")
    monkeypatch.setattr(os, "cpu_count", lambda: None)  # unknown: one
    assert readmodel.rebuild_parts() == 1


def test_a_part_reads_up_to_the_rebuilds_last_notification_and_no_further(filled):
    def steps(top: int) -> dict[str, int]:
        reader = filled.reader()
        try:
            return {row["id"]: row["steps"] for _, row, _ in readmodel._part_rows(reader, 0, 1, top)}
        finally:
            reader.close()

    top = filled.max_notification_id()
    whole = steps(top)
    filled.append("interleaved-0", {"seq": 41, "type": "annotate", "by": "judge", "text": "あとから"})
    assert steps(top) == whole  # the line written after the rebuild began is the next catch-up's
    assert steps(top + 50)["interleaved-0"] == whole["interleaved-0"] + 1  # fewer than asked: it stops


def test_a_part_without_streams_reads_no_lines():
    class Empty:
        calls = 0

        def part_streams(self, part, parts, upto):
            return []

        def stream_lines(self, streams, upto):
            Empty.calls += 1
            return {}

    assert list(readmodel._part_rows(Empty(), 0, 1, 50)) == []
    assert Empty.calls == 0


def _foreign(store: Store) -> None:
    """What another kind of stream (a tournament's) and an unknown event in a match's stream
    look like in the store: events that carry a ``line``, neither ``header`` nor ``entry``."""
    import json
    import uuid

    from eventsourcing.persistence import StoredEvent

    def stored(stream, version, topic, state):
        return StoredEvent(originator_id=stream, originator_version=version, topic=topic,
                           state=json.dumps(state, ensure_ascii=False).encode())

    tournament = uuid.uuid4()
    match = filled_stream = store.stream_of("interleaved-1")
    top = store.top_version(filled_stream)
    store.app.recorder.insert_events([
        stored(tournament, 1, "recorder.tournament:Tournament.Opened", {"line": {"name": "春季大会"}}),
        stored(tournament, 2, "recorder.tournament:Tournament.RoundPaired", {"line": {"round": 1}}),
    ])
    store.app.recorder.insert_events([stored(match, top + 1, "recorder.domain:Match.Noted", {"note": "審判メモ"})])
    store.app.recorder.insert_events([
        stored(tournament, 3, "recorder.tournament:Tournament.Closed", {"line": {}, "entry": {"seq": 1}}),
    ])


def test_streams_and_events_that_are_not_a_matchs_are_skipped_by_the_rebuild_and_the_catch_up(
    filled, tmp_path, monkeypatch
):
    with _rebuild(filled, tmp_path / "before.db", 1, monkeypatch) as before:
        expected = _tables(before)
        del expected["state"]
    _foreign(filled)
    for parts in (1, 2):
        with _rebuild(filled, tmp_path / f"{parts}.db", parts, monkeypatch) as rm:
            got = _tables(rm)
            del got["state"]
            assert got == expected
            assert rm.last_id() == filled.max_notification_id()
    with catch_up_store(filled, str(tmp_path / "incremental.db")) as rm:  # from nothing, page by page
        got = _tables(rm)
        del got["state"], got["rowid order"], expected["rowid order"]
        assert got == expected


def test_after_a_rebuild_the_catch_up_skips_another_kind_of_stream(filled, tmp_path, monkeypatch):
    with _rebuild(filled, tmp_path / "m.db", 1, monkeypatch) as rm:
        kept = _tables(rm)
        _foreign(filled)
        assert rm.catch_up(filled) == 4
        got = _tables(rm)
        assert rm.last_id() == filled.max_notification_id()
    del kept["state"], got["state"]
    assert got == kept


def test_a_stream_id_that_is_not_a_uuid_is_kept_as_it_is():
    assert readmodel._stream_text("not-a-uuid") == "not-a-uuid"
    assert readmodel._stream_text("8ba17b1e39535a3794ed70e82659e78e") == "8ba17b1e-3953-5a37-94ed-70e82659e78e"


def test_a_database_error_while_writing_the_parts_rows_is_one_line(filled, tmp_path, monkeypatch):
    def fails(self, tables):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(ReadModel, "_insert", fails)  # what a rebuild writes its rows with
    path = tmp_path / "m.db"
    with pytest.raises(ReadModelError) as caught:
        _rebuild(filled, path, 2, monkeypatch)
    assert str(caught.value) == f"read model {path}: disk I/O error"
    assert multiprocessing.active_children() == []


def test_a_rebuild_process_sends_its_rows_or_one_line_and_closes_its_store(filled, monkeypatch):
    """What a forked part runs, run here (a fork's own coverage is invisible to the mutation
    tool): it ignores Ctrl-C (the parent's to handle), sends its rows or one line, and closes."""
    import signal

    top = filled.max_notification_id()
    streams = {filled.stream_of(h["match"]["id"]): h["match"]["id"] for h in filled.headers()}
    seen: dict[str, object] = {}
    monkeypatch.setattr(readmodel, "SEND_ROWS", 3)

    def opener():
        seen["sigint"] = signal.getsignal(signal.SIGINT)
        store = filled.reader()
        real_close = store.close
        store.close = lambda: seen.setdefault("closed", True) and real_close()
        return store

    def fails(error):
        def opener():
            raise error
        return opener

    before = signal.getsignal(signal.SIGINT)
    try:
        results = []
        for open_it in (opener, fails(ReadModelError("the store is gone")), fails(RuntimeError("boom"))):
            mine, theirs = multiprocessing.Pipe(duplex=False)
            readmodel._part_child(open_it, 1, 2, top, theirs)
            got = [mine.recv()]
            while got[-1][0] == "rows":
                got.append(mine.recv())
            results.append(got)
            with pytest.raises(EOFError):  # and nothing after it: the pipe was closed
                mine.recv()
            mine.close()
    finally:
        signal.signal(signal.SIGINT, before)
    sent, [failed], [crashed] = results
    assert [kind for kind, _ in sent] == ["rows"] * (len(sent) - 1) + ["done"] and len(sent) > 2  # in batches
    rows = [found for _, batch in sent[:-1] for found in batch]
    assert all(len(batch) <= 3 for _, batch in sent[:-1])
    assert [first for first, _, _ in rows] == sorted(first for first, _, _ in rows)  # in the order they began
    # each match's rows as the tables take them (readmodel.table_rows), with its events
    ids = readmodel.MATCH_COLUMNS.index("id"), readmodel.MATCH_COLUMNS.index("steps")
    share = {stream for _, stream, _ in readmodel._share(filled.part_streams(0, 1, top), 1, 2)}
    assert {tables[0][ids[0]] for _, _, tables in rows} == {
        m for s, m in streams.items() if any(str(x).replace("-", "") == s.hex for x in share)}
    assert all(events == tables[0][ids[1]] + 1 for _, events, tables in rows)
    reader = filled.reader()
    try:
        folded = {f[0]: f for f in readmodel._part_rows(reader, 1, 2, top)}
        for first, _, tables in rows:
            assert tables == readmodel.table_rows(folded[first][1], folded[first][2])
    finally:
        reader.close()
    assert seen == {"sigint": signal.SIG_IGN, "closed": True}
    assert failed == ("error", "the store is gone") and crashed == ("error", "RuntimeError: boom")


def _indexes(rm: ReadModel) -> list[tuple[str, str]]:
    return rm.db.execute("select name, sql from sqlite_master where type = 'index' order by name").fetchall()


def test_a_rebuild_drops_the_indexes_while_it_inserts_and_makes_them_again_before_it_commits(
        filled, tmp_path, monkeypatch):
    with ReadModel(str(tmp_path / "new.db")) as new:  # what a model's schema makes
        made = _indexes(new)
    seen: list[list[tuple[str, str]]] = []
    insert = ReadModel._insert

    def watched(self, tables):
        seen.append(_indexes(self))
        return insert(self, tables)

    monkeypatch.setattr(ReadModel, "_insert", watched)
    for parts in (1, 2):
        with _rebuild(filled, tmp_path / f"m{parts}.db", parts, monkeypatch) as rm:
            assert _indexes(rm) == made
            plan = " ".join(str(r) for r in rm.db.execute(  # and the statistics use them
                "explain query plan select count(*) from cards where game = 'gandice' and listed = 1").fetchall())
            assert "cards_by_game_card" in plan
    assert seen and all(not [n for n, sql in s if sql is not None] for s in seen)  # none but the keys'
    assert {n for n, sql in made if sql is not None} >= {"cards_by_game_card", "cards_by_match_id", "matches_by_event"}

    def fails(self, tables):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(ReadModel, "_insert", fails)
    with pytest.raises(ReadModelError):
        _rebuild(filled, tmp_path / "m1.db", 1, monkeypatch)
    with ReadModel(str(tmp_path / "m1.db")) as kept:  # the failed rebuild rolled the drop back
        assert _indexes(kept) == made


def test_the_pipe_from_a_rebuild_process_holds_a_few_batches_or_stays_as_it_was(monkeypatch):
    """A part that runs ahead of the other goes on folding while its rows wait in the pipe
    (readmodel._widen); where the system refuses the size, the pipe is left as it was."""
    fcntl = pytest.importorskip("fcntl")
    get = getattr(fcntl, "F_GETPIPE_SZ", None)
    if get is None:
        pytest.skip("no F_GETPIPE_SZ here (not Linux)")
    mine, theirs = multiprocessing.Pipe(duplex=False)
    try:
        before = fcntl.fcntl(theirs.fileno(), get)
        readmodel._widen(theirs)
        assert fcntl.fcntl(theirs.fileno(), get) >= readmodel.PIPE_BYTES > before
    finally:
        mine.close()
        theirs.close()
    mine, theirs = multiprocessing.Pipe(duplex=False)
    try:
        before = fcntl.fcntl(theirs.fileno(), get)
        real = fcntl.fcntl

        def refused(fd, cmd, arg=0):
            if cmd == fcntl.F_SETPIPE_SZ:
                raise PermissionError(1, "Operation not permitted")  # above pipe-max-size, not root
            return real(fd, cmd, arg)

        monkeypatch.setattr(fcntl, "fcntl", refused)
        readmodel._widen(theirs)
        monkeypatch.undo()
        assert fcntl.fcntl(theirs.fileno(), get) == before
    finally:
        mine.close()
        theirs.close()
