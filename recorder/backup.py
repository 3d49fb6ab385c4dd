"""``kifu backup`` and ``kifu restore``: a consistent copy of a live SQLite store and its read
model, and putting one back.

The copy is SQLite's online backup (``sqlite3.Connection.backup``), in one step: one read
transaction, so the copy is the store as it stood at one moment while ``kifu serve`` goes on
writing (a step-by-step backup starts over each time another connection writes, and might
never end under a busy venue). Never a file copy, which can catch a half-written page; never
``VACUUM INTO``, which may renumber the row ids that are the notification ids a read model
stands on. The read model is copied first, then the store: the model's position is then at or
before the store's newest event, and the next command catches it up without a rebuild. Both
are written under a temporary name, synced, then renamed into place.

The store's id (``Store.identity``) travels with the copy: a backup restored, moved or copied
keeps its read model. PostgreSQL is backed up with its own tools (docs/deploy.md).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass

from projections.base import N_, said
from projections.errors import KifuError
from recorder.store import Store


class BackupError(KifuError):
    """A backup or a restore that cannot be made (nothing was written in place)."""


@dataclass(frozen=True)
class Copied:
    store: str
    events: int
    readmodel: str | None  # the read model copied beside it, or None (it is rebuilt on first use)
    note: str | None = None  # why the read model was not copied


def beside(path: str) -> str:
    """The read model that lies beside a store file (``X.db`` -> ``X.readmodel.db``), whatever
    KIFU_READMODEL says: a backup's read model travels with it."""
    root, ext = os.path.splitext(path)
    return f"{root}.readmodel{ext or '.db'}"


def _copy(source: str, target: str, on_progress: Callable[[int, int], None] | None) -> None:
    """SQLite's online backup of ``source`` into a new file ``target`` (one step: one read
    transaction), written under a temporary name, synced, then renamed."""
    part = f"{target}.part"
    for name in (part, f"{part}-journal"):
        if os.path.exists(name):
            os.remove(name)
    src = sqlite3.connect(f"file:{os.path.abspath(source)}?mode=ro", uri=True, timeout=30, check_same_thread=False)
    dst = sqlite3.connect(part, check_same_thread=False)
    try:
        page_size = src.execute("PRAGMA page_size").fetchone()[0]
        total = int(src.execute("PRAGMA page_count").fetchone()[0]) * int(page_size)
        failed: list[BaseException] = []

        def run() -> None:
            try:
                src.backup(dst)  # pages=-1: the whole database in one step
            except BaseException as exc:
                failed.append(exc)

        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        while worker.is_alive():
            worker.join(0.1)
            if on_progress is not None and os.path.exists(part):
                on_progress(min(os.path.getsize(part), total), total)
        if failed:
            raise failed[0]
        if on_progress is not None:
            on_progress(total, total)
    except BaseException:
        dst.close()
        src.close()
        if os.path.exists(part):
            os.remove(part)
        raise
    dst.close()
    src.close()
    fd = os.open(part, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(part, target)
    try:
        dirfd = os.open(os.path.dirname(os.path.abspath(target)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dirfd)
    finally:
        os.close(dirfd)


def backup(store: Store, target: str, readmodel_path: str | None = None,
           on_progress: Callable[[int, int], None] | None = None) -> Copied:
    """Copy the live store (and its read model) to ``target`` (and ``beside(target)``)."""
    from projections import readmodel

    if store.is_postgres:
        raise BackupError(said(N_("{db} is a PostgreSQL store: back it up with pg_dump (docs/deploy.md, "
                             "\"Backing up\")"), db=store.safe_db))
    if os.path.exists(target):
        raise BackupError(said(N_("{file} exists: give a new file (a backup never writes over one)"), file=target))
    parent = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(parent):
        raise BackupError(said(N_("{file}: directory {parent} does not exist"), file=target, parent=parent))
    if os.path.abspath(target) == os.path.abspath(store.db):
        raise BackupError(said(N_("{file} is the store itself"), file=target))
    store.identity()  # recorded before the copy, so that the copy and its read model share it
    events = store.max_notification_id()
    source_model = readmodel_path or readmodel.default_path(store.db)
    model_target = beside(target)
    copied_model: str | None = None
    note: str | None = None
    if os.path.exists(model_target):
        raise BackupError(said(N_("{file} exists: give a new file (a backup never writes over one)"),
            file=model_target))
    if os.path.exists(source_model):
        try:
            _copy(source_model, model_target, None)  # first: its position stays at or before the store's
            copied_model = model_target
        except sqlite3.Error as exc:
            note = said(N_("the read model was not copied ({error}): it is rebuilt on first use"), error=exc)
    else:
        note = N_("no read model to copy: it is rebuilt on first use")
    try:
        _copy(store.db, target, on_progress)
    except sqlite3.Error as exc:
        if copied_model is not None:
            os.remove(copied_model)
        raise BackupError(said(N_("{file}: the backup failed, nothing was written: {error}"),
            file=target, error=exc)) from None
    return Copied(target, events, copied_model, note)


def _events_in(path: str) -> int:
    """How many events a backup file holds (its newest notification id), read-only; BackupError
    when it is not a kifu store."""
    try:
        con = sqlite3.connect(f"file:{os.path.abspath(path)}?mode=ro", uri=True)
        try:
            top = con.execute("SELECT max(rowid) FROM stored_events").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise BackupError(said(N_("{file} is not a kifu store: {error}"), file=path, error=exc)) from None
    return int(top or 0)


def restore(store_db: str, source: str, force: bool = False, readmodel_path: str | None = None,
            on_progress: Callable[[int, int], None] | None = None) -> Copied:
    """Put the backup ``source`` (and the read model beside it) in place of the store
    ``store_db``. A store that holds events is overwritten only with ``force``."""
    from projections import readmodel

    if store_db.startswith(("postgresql://", "postgres://")):
        raise BackupError(N_("a PostgreSQL store is restored with pg_restore or psql (docs/deploy.md, "
                             "\"Backing up\")"))
    if not os.path.isfile(source):
        raise BackupError(said(N_("{file} does not exist (or is not a file)"), file=source))
    if os.path.abspath(source) == os.path.abspath(store_db):
        raise BackupError(said(N_("{file} is the store itself"), file=source))
    parent = os.path.dirname(os.path.abspath(store_db))
    if not os.path.isdir(parent):
        raise BackupError(said(N_("{file}: directory {parent} does not exist"), file=store_db, parent=parent))
    events = _events_in(source)  # read-only: a restore never writes into its backup
    if os.path.exists(store_db) and not force:
        present = Store(store_db)
        try:
            held = present.max_notification_id()
        finally:
            present.close()
        if held:
            raise BackupError(said(N_("{db} holds {n} event(s): give --force to replace it with {file}"),
                db=store_db, n=held, file=source))
    model = readmodel_path or readmodel.default_path(store_db)
    model_source = beside(source)
    for name in (model, f"{model}-wal", f"{model}-shm", f"{model}-journal"):
        if os.path.exists(name):
            os.remove(name)
    try:
        return _restore_files(store_db, source, model, model_source, events, on_progress)
    except sqlite3.Error as exc:
        raise BackupError(said(N_("{file}: the restore failed: {error}"), file=source, error=exc)) from None


def _restore_files(store_db: str, source: str, model: str, model_source: str, events: int,
                   on_progress: Callable[[int, int], None] | None) -> Copied:
    copied_model: str | None = None
    note: str | None = None
    if os.path.exists(model_source):
        _copy(model_source, model, None)
        copied_model = model
    else:
        note = said(N_("no read model beside {file}: it is rebuilt on first use"), file=source)
    for name in (f"{store_db}-wal", f"{store_db}-shm"):
        if os.path.exists(name) and not os.path.exists(store_db):
            os.remove(name)
    if os.path.exists(store_db):
        # into the live file, through SQLite (its readers see the old store or the new one)
        src = sqlite3.connect(f"file:{os.path.abspath(source)}?mode=ro", uri=True)
        dst = sqlite3.connect(store_db, timeout=30)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
    else:
        _copy(source, store_db, on_progress)
    return Copied(store_db, events, copied_model, note)
