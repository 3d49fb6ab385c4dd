"""A folder imported through worker processes (recorder/bulkprep.py) stores, on SQLite and on
PostgreSQL, the same events in the same order as the files imported one at a time, and feeds
the read model the same rows."""

from __future__ import annotations

import re
import sqlite3

from recorder import bulk
from recorder.store import Store
from tests.backends.conftest import _pg_database
from tests.core.test_folder_import_workers import folder, workers  # noqa: F401  (fixtures)


def _events(url: str) -> list[tuple]:
    if "://" not in url:
        with sqlite3.connect(url) as con:
            rows = con.execute("select originator_id, originator_version, topic, state from stored_events "
                               "order by rowid").fetchall()
    else:
        import psycopg

        from recorder.tools.bench.measure import pg_events_table

        with psycopg.connect(url) as con:
            rows = con.execute(f"select originator_id::text, originator_version, topic, state from "
                               f"{pg_events_table(con)} order by notification_id").fetchall()
    return [(str(r[0]).replace("-", ""), r[1], r[2], re.sub(rb'"timestamp":\{[^}]*\}', b"", bytes(r[3])))
            for r in rows]


def _model(path: str, created: bool) -> dict[str, list]:
    """The read model's rows (``created``: with the notification id each match began at)."""
    with sqlite3.connect(path) as con:
        con.row_factory = sqlite3.Row
        matches = [{k: r[k] for k in r.keys() if created or k != "created"}  # noqa: SIM118  (a Row iterates values)
                   for r in con.execute("select * from matches order by id")]
        return {"matches": matches, "results": [tuple(r) for r in con.execute("select * from results order by 1, 2")]}


def test_a_folder_through_workers_equals_one_file_at_a_time(backend_url, folder, workers, tmp_path,  # noqa: F811
                                                             monkeypatch):
    monkeypatch.setattr(bulk, "COMMIT_LINES", 120)
    monkeypatch.setattr(bulk, "FEED_LINES", 200)
    other = str(tmp_path / "single.db") if "://" not in backend_url else _pg_database()
    reports = []
    for url, name, paths in ((backend_url, "folder", [str(folder)]),
                             (other, "single", [str(p) for p in sorted(folder.glob("*.jsonl"))])):
        monkeypatch.setenv("KIFU_READMODEL", str(tmp_path / f"{name}.readmodel.db"))
        store = Store(url)
        try:
            reports += [bulk.run_import(store, [p], show_progress=False).summary() for p in (
                paths if name == "single" else [paths[0]])]
        finally:
            store.close()
    assert workers[0] == 2 and set(workers[1:]) == {0}
    assert reports == ["imported 14, skipped 0 duplicate(s), failed 0"] + ["imported 1, skipped 0 duplicate(s), failed 0"] * 14
    got, want = _events(backend_url), _events(other)
    assert len(got) > 14 * 20 and got == want
    ids = "://" not in backend_url  # PostgreSQL's notification ids are each database's own
    folder_rows = _model(str(tmp_path / "folder.readmodel.db"), ids)
    assert folder_rows == _model(str(tmp_path / "single.readmodel.db"), ids)
    assert len(folder_rows["matches"]) == 14 and all(r["error"] is None for r in folder_rows["matches"])
