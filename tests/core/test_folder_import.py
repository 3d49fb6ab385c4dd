"""A folder import stores many files to a transaction, a savepoint per file (recorder.bulk
``import_batch``, ``Store.batch``): a file that fails rolls back alone and is reported with its
file, line and field; a commit that fails stores none of its batch and says so per file; Ctrl-C
keeps what was stored before it; the read model is fed what was imported."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from projections import readmodel, registry
from projections.errors import ConflictError
from recorder import bulk, logformat
from recorder.logformat import export_lines
from recorder.store import Store
from recorder.tools.synth import generate


def _write(folder: Path, name: str, header: dict, entries: list) -> None:
    (folder / name).write_text("\n".join(export_lines(header, entries)) + "\n", encoding="utf-8")


@pytest.fixture
def folder(tmp_path):
    """Twelve good logs of two games (names sort in this order)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    made, i = 0, 0
    while made < 12:
        header, entries = generate(registry.get(("gandice", "mushijingi")[made % 2]), 8, i)
        i += 1
        if len(entries) >= 20:  # 21 events each
            _write(folder, f"m{made:02d}.jsonl", header, entries[:20])
            made += 1
    return folder


def _ids(folder: Path) -> list[str]:
    return [logformat.read_file(str(p))[0]["match"]["id"] for p in sorted(folder.glob("*.jsonl"))]


def _count_batches(monkeypatch) -> list[int]:
    opened: list[int] = []
    real = Store.batch

    def counted(self):
        opened.append(1)
        return real(self)

    monkeypatch.setattr(Store, "batch", counted)
    return opened


def test_many_files_go_in_few_transactions_and_the_read_model_counts_them(folder, tmp_path, monkeypatch):
    monkeypatch.setattr(bulk, "COMMIT_LINES", 80)  # four files of 21 events a transaction
    opened = _count_batches(monkeypatch)
    store = Store(str(tmp_path / "kifu.db"))
    try:
        report = bulk.run_import(store, [str(folder)], show_progress=False)
        assert report.summary() == "imported 12, skipped 0 duplicate(s), failed 0"
        assert len(opened) == 3
        assert sorted(report.imported) == sorted(_ids(folder))
        assert all(store.load(mid)[1] == logformat.read_file(str(p))[1]
                   for mid, p in zip(_ids(folder), sorted(folder.glob("*.jsonl"))))
        with readmodel.open_readmodel(store) as rm:
            assert rm.count() == 12 and rm.last_id() == store.max_notification_id()
    finally:
        store.close()


def test_a_bad_file_in_a_batch_rolls_back_alone_and_is_named(folder, tmp_path, monkeypatch):
    ids = _ids(folder)
    header, entries = logformat.read_file(str(folder / "m03.jsonl"))
    _write(folder, "m03b.jsonl", header, entries)  # the same match again: a duplicate in the same batch
    lines = (folder / "m05.jsonl").read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace('"seq": 3,', '"seq": "three",')
    (folder / "m05.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(bulk, "COMMIT_LINES", 10_000)  # every file in one transaction
    opened = _count_batches(monkeypatch)
    store = Store(str(tmp_path / "kifu.db"))
    # A failure while storing one match, after some of its rows went in: its savepoint undoes them.
    recorder = store.app.recorder
    real = recorder._insert_events
    victim = store.stream_of(ids[7])

    def fails_midway(cursor, stored, **kw):
        if stored[0].originator_id == victim:
            real(cursor, stored[:5], **kw)
            raise RuntimeError("disk on fire")
        return real(cursor, stored, **kw)

    monkeypatch.setattr(recorder, "_insert_events", fails_midway)
    try:
        report = bulk.run_import(store, [str(folder)], show_progress=False)
        assert report.summary() == "imported 10, skipped 1 duplicate(s), failed 2"
        assert len(opened) == 1
        assert report.duplicates == [f"{folder / 'm03b.jsonl'}: match {ids[3]!r} is already recorded"]
        assert report.failed == [str(folder / "m05.jsonl"), str(folder / "m07.jsonl")]
        assert report.problems[0].startswith(f"{folder / 'm05.jsonl'}:4: seq")  # file, line, field
        assert report.problems[1].startswith(f"{folder / 'm07.jsonl'}: internal error: RuntimeError: disk on fire")
        assert not store.exists(ids[7]) and not store.exists(ids[5])  # nothing of them, not 5 rows
        assert store.max_notification_id() == 10 * 21
        assert len(store.load(ids[3])[1]) == 20  # the first copy, once
    finally:
        store.close()


def test_a_commit_that_fails_stores_none_of_its_files_and_says_so_for_each(folder, tmp_path, monkeypatch):
    monkeypatch.setattr(bulk, "COMMIT_LINES", 80)
    real = Store.batch
    calls: list[int] = []

    def second_fails(self):
        calls.append(1)
        if len(calls) != 2:
            return real(self)

        class Failing:
            def __enter__(inner):
                inner.cm = real(self)
                return inner.cm.__enter__()

            def __exit__(inner, *exc):
                inner.cm.__exit__(RuntimeError, RuntimeError("rolled back"), None)  # undo it all
                raise ConflictError("database busy, nothing imported: database is locked")

        return Failing()

    monkeypatch.setattr(Store, "batch", second_fails)
    store = Store(str(tmp_path / "kifu.db"))
    try:
        report = bulk.run_import(store, [str(folder)], show_progress=False)
        names = [str(folder / f"m{i:02d}.jsonl") for i in range(4, 8)]
        assert report.summary() == "imported 8, skipped 0 duplicate(s), failed 4"
        assert report.failed == names
        assert report.problems == [f"{n}: database busy, nothing imported: database is locked" for n in names]
        ids = _ids(folder)
        assert [store.exists(mid) for mid in ids] == [True] * 4 + [False] * 4 + [True] * 4
        with readmodel.open_readmodel(store) as rm:
            assert rm.count() == 8  # only what was committed was fed
    finally:
        store.close()


def test_ctrl_c_keeps_the_files_stored_before_it(folder, tmp_path, monkeypatch):
    monkeypatch.setattr(bulk, "COMMIT_LINES", 10_000)
    ids = _ids(folder)
    real = logformat.read_file

    def interrupted_at_the_sixth(path):
        if path.endswith("m05.jsonl"):
            raise KeyboardInterrupt
        return real(path)

    monkeypatch.setattr(logformat, "read_file", interrupted_at_the_sixth)
    store = Store(str(tmp_path / "kifu.db"))
    try:
        report = bulk.run_import(store, [str(folder)], show_progress=False)
        assert report.interrupted and report.summary() == (
            "interrupted: imported 5, skipped 0 duplicate(s), failed 0, not tried 7")
        assert [store.exists(mid) for mid in ids] == [True] * 5 + [False] * 7
        with readmodel.open_readmodel(store) as rm:
            assert rm.count() == 5
    finally:
        store.close()


def test_in_a_batch_the_store_sees_what_the_batch_stored(tmp_path):
    store = Store(str(tmp_path / "kifu.db"))
    try:
        header, entries = generate(registry.get("gandice"), 3, 0)
        with store.batch():
            store.create(copy.deepcopy(header), entries)
            assert store.exists(header["match"]["id"])  # on the batch's own connection
            with pytest.raises(RuntimeError, match="already open"), store.batch():
                pass
        assert store.exists(header["match"]["id"])
        with pytest.raises(KeyError), store.batch():  # an exception in the block: nothing stays
            store.create(dict(copy.deepcopy(header), match=dict(header["match"], id="other")), entries)
            raise KeyError("x")
        assert not store.exists("other") and store._batch is None
    finally:
        store.close()
