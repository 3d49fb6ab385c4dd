"""A folder import prepares its files (read, check, build the events, fold the read-model
rows) in worker processes while the writer stores them (recorder/bulkprep.py): the store and
the read model end up byte for byte as importing the files one at a time, and every refusal
reads as it does without workers (the file, the line, the field; nothing of the file stored)."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import sqlite3
from pathlib import Path

import pytest

from projections import registry
from recorder import bulk, bulkprep, logformat
from recorder.logformat import export_lines
from recorder.store import Store
from recorder.tools.synth import generate

GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")


def _write(folder: Path, name: str, header: dict, entries: list) -> None:
    (folder / name).write_text("\n".join(export_lines(header, entries)) + "\n", encoding="utf-8")


@pytest.fixture
def folder(tmp_path):
    """Fourteen logs of the four games, some of them whole matches (with results)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(14):
        header, entries = generate(registry.get(GAMES[i % 4]), 5, i)
        _write(folder, f"m{i:02d}.jsonl", header, entries if i % 3 == 0 else entries[:25])
    return folder


@pytest.fixture
def workers(monkeypatch):
    """Two workers for any folder of two files or more, three files a chunk (so the chunks interleave);
    returns the number of worker processes each import started."""
    started: list[int] = []
    monkeypatch.setattr(bulkprep, "workers_for", lambda files: 2 if files > 1 else 0)
    monkeypatch.setattr(bulkprep, "CHUNK", 3)
    real = bulkprep.Preparer.__init__

    def counted(self, *args, **kwargs):
        real(self, *args, **kwargs)
        started.append(len(self._children))

    monkeypatch.setattr(bulkprep.Preparer, "__init__", counted)
    return started


def _events(db: str) -> list[tuple]:
    """Every stored event in notification order, its recorded time blanked (the only part
    that differs between two imports)."""
    with sqlite3.connect(db) as con:
        rows = con.execute("select rowid, originator_id, originator_version, topic, state from stored_events "
                           "order by rowid").fetchall()
    return [(*r[:4], re.sub(rb'"timestamp":\{[^}]*\}', b"", r[4])) for r in rows]


def _model(db: str) -> dict[str, list[tuple]]:
    with sqlite3.connect(db.replace(".db", ".readmodel.db")) as con:
        return {t: con.execute(f"select * from {t} order by 1, 2").fetchall() for t in ("matches", "results")} | {
            "state": con.execute("select * from state where key not in ('first_event', 'source', 'store_id') order by key").fetchall()}


def _one_at_a_time(db: str, files: list[Path]) -> list[str]:
    store = Store(db)
    try:
        return [bulk.run_import(store, [str(f)], show_progress=False).summary() for f in files]
    finally:
        store.close()


def test_workers_store_byte_for_byte_what_one_file_at_a_time_stores(folder, tmp_path, workers, monkeypatch):
    monkeypatch.setattr(bulk, "COMMIT_LINES", 120)  # several transactions
    monkeypatch.setattr(bulk, "FEED_LINES", 200)  # the read model fed several times
    store = Store(str(tmp_path / "folder.db"))
    try:
        report = bulk.run_import(store, [str(folder)], show_progress=False)
    finally:
        store.close()
    assert workers == [2]
    assert report.summary() == "imported 14, skipped 0 duplicate(s), failed 0" and not report.problems
    files = sorted(folder.glob("*.jsonl"))
    assert _one_at_a_time(str(tmp_path / "single.db"), files) == ["imported 1, skipped 0 duplicate(s), failed 0"] * 14
    assert workers == [2] + [0] * 14  # one file: no worker
    got, want = _events(str(tmp_path / "folder.db")), _events(str(tmp_path / "single.db"))
    assert len(got) == sum(len(f.read_text(encoding="utf-8").splitlines()) for f in files)
    assert got == want
    assert _model(str(tmp_path / "folder.db")) == _model(str(tmp_path / "single.db"))
    assert any(row[list(bulk_columns()).index("finished")] for row in _model(str(tmp_path / "folder.db"))["matches"])


def bulk_columns() -> list[str]:
    from projections.readmodel import MATCH_COLUMNS

    return list(MATCH_COLUMNS)


def _spoil(folder: Path) -> dict[str, str]:
    """A bad line, a copy of a match, an empty file, and a match whose ruleset's
    check fails with a bug: the names of the files they are in."""
    bad = logformat.read_file(str(folder / "m05.jsonl"))[0]["match"]["id"]
    lines = (folder / "m05.jsonl").read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace('"seq": 3,', '"seq": "three",')
    (folder / "m05.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "m09b.jsonl").write_text((folder / "m09.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "m11.jsonl").write_text("", encoding="utf-8")
    return {"bad": str(folder / "m05.jsonl"), "copy": str(folder / "m09b.jsonl"), "empty": str(folder / "m11.jsonl"),
            "bug": str(folder / "m06.jsonl"), "bad_id": bad}


@pytest.mark.parametrize("use_workers", [True, False], ids=["workers", "in-process"])
def test_each_refusal_reads_the_same_with_workers_and_nothing_of_the_file_is_stored(
        folder, tmp_path, monkeypatch, use_workers, request):
    names = _spoil(folder)
    started = request.getfixturevalue("workers") if use_workers else None
    victim = logformat.read_file(names["bug"])[0]["match"]["id"]
    real = logformat.normalise_header

    def buggy(header):  # runs where the file is checked: in a worker, or here
        if header["match"]["id"] == victim:
            raise ZeroDivisionError("division by zero")
        return real(header)

    monkeypatch.setattr(logformat, "normalise_header", buggy)
    store = Store(str(tmp_path / "kifu.db"))
    try:
        report = bulk.run_import(store, [str(folder)], show_progress=False)
        if use_workers:
            assert started == [2]
        assert report.summary() == "imported 11, skipped 1 duplicate(s), failed 3"
        assert report.failed == [names["bad"], names["bug"], names["empty"]]
        assert report.problems[0].startswith(f"{names['bad']}:4: seq")  # file, line, field
        assert report.problems[1] == logformat.clip(
            f"{names['bug']}: internal error: ZeroDivisionError: division by zero (nothing imported from this "
            "file; set KIFU_DEBUG=1 and import it alone for details)")
        assert report.problems[1].startswith(f"{names['bug']}: internal error: ZeroDivisionError: division by zero")
        assert report.problems[2] == f"{names['empty']}:1: header: the file is empty"
        copied = logformat.read_file(names["copy"])[0]["match"]["id"]
        assert report.duplicates == [f"{names['copy']}: match {copied!r} is already recorded"]
        assert not store.exists(victim) and not store.exists(names["bad_id"])
        assert store.max_notification_id() == sum(
            len(logformat.read_file(str(f))[1]) + 1 for f in sorted(folder.glob("m??.jsonl"))
            if str(f) not in (names["bad"], names["bug"], names["empty"]))
    finally:
        store.close()


def test_the_cli_says_which_file_line_and_field_and_exits_non_zero(folder, kifu, db, workers):
    names = _spoil(folder)
    code, out, err = kifu("import", str(folder))
    assert workers == [2]
    assert code == 1
    assert out.strip() == "imported 12, skipped 1 duplicate(s), failed 2"
    said = [line for line in err.splitlines() if line.strip()]
    assert said[0].startswith(f"kifu: {names['bad']}:4: seq: expected 3, got 'three'")
    assert said[1] == f"kifu: {names['empty']}:1: header: the file is empty"
    assert "Traceback" not in err


def test_a_worker_that_dies_leaves_its_files_to_the_writer(folder, tmp_path, workers, monkeypatch):
    real = bulkprep._work

    def dies(store, files, me, n, conn):
        if me == 1:
            os._exit(3)  # killed, out of memory: whatever it was, no word from it
        real(store, files, me, n, conn)

    monkeypatch.setattr(bulkprep, "_work", dies)
    store = Store(str(tmp_path / "kifu.db"))
    try:
        report = bulk.run_import(store, [str(folder)], show_progress=False)
    finally:
        store.close()
    assert workers == [2]
    assert report.summary() == "imported 14, skipped 0 duplicate(s), failed 0"
    assert _events(str(tmp_path / "kifu.db")) == _events_of_single(tmp_path, folder)


def _events_of_single(tmp_path: Path, folder: Path) -> list[tuple]:
    db = str(tmp_path / "single.db")
    _one_at_a_time(db, sorted(folder.glob("*.jsonl")))
    return _events(db)


def test_ctrl_c_with_workers_keeps_what_was_stored_and_stops_them(folder, tmp_path, workers, monkeypatch):
    monkeypatch.setattr(bulk, "COMMIT_LINES", 10_000)
    ids = [logformat.read_file(str(p))[0]["match"]["id"] for p in sorted(folder.glob("*.jsonl"))]
    real = Store.create_prepared

    def interrupted_at_the_sixth(self, match_id, stream, stored):
        if match_id == ids[5]:
            raise KeyboardInterrupt
        return real(self, match_id, stream, stored)

    monkeypatch.setattr(Store, "create_prepared", interrupted_at_the_sixth)
    store = Store(str(tmp_path / "kifu.db"))
    try:
        report = bulk.run_import(store, [str(folder)], show_progress=False)
        assert workers == [2]
        assert report.interrupted and report.summary() == (
            "interrupted: imported 5, skipped 0 duplicate(s), failed 0, not tried 9")
        assert [store.exists(mid) for mid in ids] == [True] * 5 + [False] * 9
        assert not multiprocessing.active_children()  # the workers were stopped
        with sqlite3.connect(str(tmp_path / "kifu.readmodel.db")) as con:
            assert con.execute("select count(*) from matches").fetchone() == (5,)
    finally:
        store.close()


def test_a_few_files_or_kifu_debug_use_no_worker(monkeypatch):
    monkeypatch.delenv("KIFU_DEBUG", raising=False)
    assert bulkprep.workers_for(bulkprep.PARALLEL_FROM - 1) == 0
    cores = len(os.sched_getaffinity(0))
    assert bulkprep.workers_for(bulkprep.PARALLEL_FROM) == (cores if cores > 1 else 0)
    monkeypatch.setenv("KIFU_DEBUG", "1")
    assert bulkprep.workers_for(10 * bulkprep.PARALLEL_FROM) == 0


def test_prepared_events_survive_the_pipe(tmp_path):
    """What a worker sends is what the writer would have built itself."""
    store = Store(str(tmp_path / "kifu.db"))
    try:
        header, entries = generate(registry.get("gandice"), 2, 0)
        path = tmp_path / "one.jsonl"
        _write(tmp_path, "one.jsonl", header, entries)
        here = bulkprep.prepare(store, str(path), fold=True)
        sent = bulkprep._unpacked(bulkprep._packed(bulkprep.prepare(store, str(path), fold=True)))
        assert [(e.originator_id, e.originator_version, e.topic) for e in sent.events] == [
            (e.originator_id, e.originator_version, e.topic) for e in here.events]
        assert [json.loads(e.state) | {"timestamp": None} for e in sent.events] == [
            json.loads(e.state) | {"timestamp": None} for e in here.events]
        assert sent.fresh == here.fresh and sent.fresh.steps == len(entries)
    finally:
        store.close()
