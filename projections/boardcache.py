"""Board snapshots that outlive a process: the replay's checkpoints, kept in a side file.

A long-lived replay (the server, live logging) keeps its checkpoints in memory. A command
such as ``kifu board MATCH --at 9000`` is a new process each time, so without this every
call would fold the match from the start. After the first full pass of a long match its
checkpoint boards and violations are written here; later calls load the checkpoint at or
before the step asked for and fold at most one checkpoint interval.

This is a cache, not a record: it lives beside the store (``X.db`` -> ``X.boards.db``,
``KIFU_BOARD_CACHE`` to override) and can be deleted at any time. An entry holds the state
of a PREFIX of a match's record: the first ``n`` lines (a digest of the header and of line
``n`` checks they are the same lines), under exactly the same ruleset code (a digest of its
source files). The lines of a stored match never change, so the state of lines 1..n stays
true when more lines are appended: the reader folds the new lines on top (and a ruling
among them recomputes from the last checkpoint before the step it changes). Writers save it
again each time the head passes ``SAVE_EVERY`` more lines, so a new process is never more
than that far from a saved head.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

MIN_LINES = 500  # shorter matches replay in a few milliseconds: not worth a file write
SAVE_EVERY = 50  # lines between two saves of a growing match's state (one checkpoint interval)

SCHEMA = """
create table if not exists snapshots (
    match_id text not null,
    view text not null,
    record_key text not null,
    data blob not null,
    primary key (match_id, view)
)
"""


def default_path(store_db: str) -> str:
    env = os.environ.get("KIFU_BOARD_CACHE")
    if env:
        return env
    if "://" in store_db:
        return "kifu.boards.db"
    root, ext = os.path.splitext(store_db)
    return f"{root}.boards{ext or '.db'}"


@cache
def code_digest(module_name: str) -> str:
    """A digest of the ruleset package's source, so a rules fix never serves stale boards."""
    module = sys.modules.get(module_name)
    files = sorted(Path(module.__file__).parent.rglob("*.py")) if module and module.__file__ else []
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def record_key(header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], ruleset: Any) -> str:
    """What identifies the record ``entries`` (lines 1..n) and the code that folded it."""
    digest = hashlib.sha256(json.dumps(header, sort_keys=True, ensure_ascii=False).encode())
    if entries:
        digest.update(json.dumps(entries[-1], sort_keys=True, ensure_ascii=False).encode())
    module = type(ruleset).__module__.rsplit(".", 1)[0]
    return f"{len(entries)}:{digest.hexdigest()[:16]}:{code_digest(module)}:{getattr(ruleset, 'version', 0)}"


def prefix_length(key: str) -> int:
    head, _, _ = key.partition(":")
    return int(head) if head.isdigit() else -1


class BoardCache:
    def __init__(self, path: str):
        self.path = path
        self.con = sqlite3.connect(path, timeout=5)
        self.con.execute("pragma journal_mode=wal")
        self.con.execute(SCHEMA)

    def close(self) -> None:
        self.con.close()

    def load(self, match_id: str, view: str, key: str) -> dict[str, Any] | None:
        row = self.con.execute(
            "select record_key, data from snapshots where match_id = ? and view = ?", (match_id, view)
        ).fetchone()
        if row is None or row[0] != key:
            return None
        try:
            import pickle  # here: a short match never reads the cache, and pickle costs 5 ms to import

            return pickle.loads(row[1])  # our own cache file, written below
        except Exception:
            return None  # a cache written by other code: ignore it, it will be replaced

    def load_prefix(
        self, match_id: str, view: str, header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], ruleset: Any
    ) -> tuple[int, dict[str, Any]] | None:
        """The saved state of the longest prefix of ``entries`` there is: (lines, state)."""
        row = self.con.execute(
            "select record_key from snapshots where match_id = ? and view = ?", (match_id, view)
        ).fetchone()
        if row is None:
            return None
        count = prefix_length(row[0])
        if not 0 < count <= len(entries) or row[0] != record_key(header, entries[:count], ruleset):
            return None
        state = self.load(match_id, view, row[0])
        return None if state is None else (count, state)

    def save_prefix(
        self,
        match_id: str,
        view: str,
        header: Mapping[str, Any],
        entries: Sequence[Mapping[str, Any]],
        ruleset: Any,
        state: dict[str, Any],
    ) -> None:
        self.save(match_id, view, record_key(header, entries, ruleset), state)

    def save(self, match_id: str, view: str, key: str, state: dict[str, Any]) -> None:
        import pickle

        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        with self.con:
            self.con.execute(
                "insert or replace into snapshots (match_id, view, record_key, data) values (?, ?, ?, ?)",
                (match_id, view, key, data),
            )


def open_cache(store_db: str) -> BoardCache | None:
    """The cache beside a store, or None when it cannot be opened (kifu works without it)."""
    try:
        return BoardCache(default_path(store_db))
    except (sqlite3.Error, OSError):
        return None
