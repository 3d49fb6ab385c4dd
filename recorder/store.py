"""Where matches live: the eventsourcing application over SQLite (default) or PostgreSQL.

``open_store(db)`` takes a file path (``./kifu.db`` by default, or ``KIFU_DB``) or a
``postgresql://user:pass@host:port/dbname`` URL. Everything else in kifu talks to a
``Store`` and never to the library directly.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import contextmanager
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from datetime import datetime, UTC
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, OperationalError
from projections.base import N_, said
from projections.errors import ConflictError, DuplicateMatchError, KifuError, NotFoundError
from recorder.ids import STARTED_TOPIC, match_uuid

if TYPE_CHECKING:
    from recorder.domain import Match

# The domain model (recorder.domain) is imported by the paths that write: building its event
# classes is a third of the library's import time, and reading a match does not need them.

DEFAULT_DB = "kifu.db"
HEX_DIGITS = "0123456789abcdef"
# json's C scanner, called directly: ``json.loads`` of bytes first sniffs their encoding, then
# matches whitespace with a regex on both ends, which cost as much as the parsing itself on the
# short states kifu stores. The library writes each state as compact UTF-8 JSON.
_scan = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
# The topics of a match's events (recorder.domain's Match.*): a stream of another kind (a
# tournament's, say) may live in the same store, and a read model of matches skips it.
MATCH_TOPICS = STARTED_TOPIC.rpartition(".")[0] + "."


def event_for(stream: Any, version: int, entry: dict[str, Any], timestamp: datetime | None = None) -> Match.EntryRecorded:
    """The domain event of one log line at a known version, built as ``Match.record`` would
    build it (same class, so the same topic; same fields), without an aggregate."""
    from recorder.domain import EVENT_CLASSES, Match

    cls = EVENT_CLASSES.get(entry["type"], Match.MoveRecorded)
    return cls(  # type: ignore[call-arg]
        originator_id=stream,
        originator_version=version,
        timestamp=timestamp or cls.create_timestamp(),
        entry=entry,
    )


class BusyError(ConflictError):
    """The database is locked or busy (another writer holds it longer than the lock timeout):
    nothing was written; the server answers 503 with Retry-After, the CLI one line."""


class StoreError(KifuError):
    """The database cannot be opened or reached."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def resolve_db(db: str | None) -> str:
    return db or os.environ.get("KIFU_DB") or DEFAULT_DB


def store_env(db: str) -> dict[str, str]:
    """The library's settings for a path or a postgresql:// URL."""
    if db.startswith(("postgresql://", "postgres://")):
        url = urlparse(db)
        if not url.hostname or not url.path.strip("/"):
            raise StoreError(f"bad database URL {db!r}: expected postgresql://user:pass@host:port/dbname")
        try:
            port = url.port or 5432
        except ValueError:
            raise StoreError(f"bad database URL {db!r}: port is not a number") from None
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(url.path.strip("/")),
            "POSTGRES_HOST": url.hostname,
            "POSTGRES_PORT": str(port),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "POSTGRES_CONNECT_TIMEOUT": "5",
            "CREATE_TABLE": "y",
        }
    if "://" in db:
        raise StoreError(f"unsupported database {db!r}: give a file path or a postgresql:// URL")
    parent = os.path.dirname(os.path.abspath(db))
    if not os.path.isdir(parent):
        raise StoreError(f"{db}: directory {parent} does not exist")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": db,
        "SQLITE_LOCK_TIMEOUT": "10",
        "CREATE_TABLE": "y",
    }


class KifuApp(Application):
    """The eventsourcing application.

    Nothing in kifu rebuilds the ``Match`` aggregate (appends are built at a known version,
    lines are read straight from the events), so no snapshots are taken any more; stores
    written by the first build hold a few, which stay harmless. ``is_snapshotting_enabled``
    stays on so that the library's snapshot table keeps existing for those stores."""

    name = "kifu"
    is_snapshotting_enabled = True


@dataclass(frozen=True)
class Entry:
    """One stored log line with the notification id it was stored under."""

    seq: int
    entry: dict[str, Any]


@dataclass(frozen=True)
class StreamEvent:
    """One stored event of a stream, decoded as ``Store.decode_state`` decodes: its version
    (1 for the stream's first event), its topic (the event class as stored) and its state
    (the event's fields: a match's ``header``/``entry``, a tournament's ``opened``/``line``,
    and the ``timestamp`` it was stored at)."""

    version: int
    topic: str
    state: dict[str, Any]

    @property
    def stored_at(self) -> datetime | None:
        """The time the event was stored (its ``timestamp``), or None."""
        stamp = self.state.get("timestamp")
        if stamp is None:
            return None
        return datetime.fromisoformat(str(stamp["_data_"] if isinstance(stamp, dict) else stamp))


@dataclass(frozen=True)
class Snapshot:
    """The whole store at one moment (``Store.snapshot``): how many events, the newest
    notification id, and ``events()``: every event, stream by stream in version order, as
    (notification id, stream id as hex without dashes, version, topic, stored state)."""

    count: int
    top: int
    events: Callable[[], Iterator[tuple[int, str, int, str, bytes]]]


class Store:
    def __init__(self, db: str | None = None):
        self.db = resolve_db(db)
        self.is_postgres = self.db.startswith(("postgresql://", "postgres://"))
        env = store_env(self.db)
        for attempt in range(6):
            try:
                self.app = KifuApp(env=env)
                break
            except Exception as exc:  # psycopg and sqlite3 raise their own errors on connect
                # Several processes starting at once on PostgreSQL race on the library's
                # CREATE TABLE / CREATE FUNCTION ("tuple concurrently updated"), and on SQLite
                # on the schema lock ("database is locked"): try again.
                if ("concurrently" in str(exc) or "locked" in str(exc)) and attempt < 5:
                    time.sleep(0.05 * (attempt + 1))
                    continue
                raise StoreError(f"cannot open database {self.safe_db}: {_first_line(exc)}") from None
        self._started_topic = STARTED_TOPIC
        # What this store object wrote last: (first notification id, last, stream, last
        # version) when its events took consecutive notification ids, else None. A read model
        # catching up right after the write learns from it what the new notifications are
        # without reading them back (readmodel._catch_up_page).
        self.written: tuple[int, int, Any, int] | None = None
        self._batch: Any = None  # the open batch's cursor (SQLite) or connection (PostgreSQL)
        self._identity: str | None = None  # the store's own id, once read (``identity``)

    def reader(self) -> Store:
        """Another store on the same database, for one process of a bulk read of the
        notification log (a parallel rebuild): its own connections."""
        return Store(self.db)

    @property
    def safe_db(self) -> str:
        """The database as messages and the read model name it: a URL without its password."""
        return _without_password(self.db) if self.is_postgres else self.db

    def close(self) -> None:
        self.app.close()

    # -- identity ------------------------------------------------------------------------
    #
    # A store is known by an id it records itself, not by where it lies: the read model names
    # that id and its position (projections/readmodel.py), so a store folder moved, copied or
    # restored keeps its read model. The id lives in a small table beside the events
    # (``kifu_store``, as the token tables do): it is not part of any stream's history, and the
    # event store stays append-only. A store written before this build gets its id on the
    # first open that asks for it.

    def identity(self, create: bool = True) -> str | None:
        """The store's own id (a UUID, as text). ``create``: record one if the store has none
        yet (a store of an earlier build); otherwise None for such a store (``kifu verify``
        reads only)."""
        if self._identity is not None:
            return self._identity
        found = self._read_identity()
        if found is None and create:
            import uuid

            fresh = str(uuid.uuid4())
            for attempt in range(5):
                try:
                    self._write_identity(fresh)
                    break
                except Exception as exc:  # two first opens at once race on the catalog (PostgreSQL)
                    if attempt == 4 or ("concurrently" not in str(exc) and "already exists" not in str(exc)
                                        and "locked" not in str(exc)):
                        raise StoreError(f"cannot open database {self.safe_db}: {_first_line(exc)}") from None
                    time.sleep(0.05 * (attempt + 1))
            found = self._read_identity()
        self._identity = found
        return found

    def _read_identity(self) -> str | None:
        recorder: Any = self.app.recorder
        if self.is_postgres:
            with recorder.datastore.transaction(commit=False) as curs:
                curs.execute("SELECT to_regclass('kifu_store') IS NOT NULL AS present")
                row = curs.fetchone()
                if not (row["present"] if isinstance(row, dict) else row[0]):
                    return None
                curs.execute("SELECT value FROM kifu_store WHERE key = 'id'")
                row = curs.fetchone()
                return None if row is None else str(row["value"] if isinstance(row, dict) else row[0])
        with recorder.datastore.transaction(commit=False) as c:
            c.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kifu_store'")
            if c.fetchone() is None:
                return None
            c.execute("SELECT value FROM kifu_store WHERE key = 'id'")
            row = c.fetchone()
            return None if row is None else str(row[0])

    def _write_identity(self, fresh: str) -> None:
        recorder: Any = self.app.recorder
        create = "CREATE TABLE IF NOT EXISTS kifu_store (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
        if self.is_postgres:
            with recorder.datastore.transaction(commit=True) as curs:
                curs.execute(create)
                curs.execute("INSERT INTO kifu_store (key, value) VALUES ('id', %s) ON CONFLICT (key) DO NOTHING",
                             [fresh])
            return
        with recorder.datastore.transaction(commit=True) as c:
            c.execute(create)
            c.execute("INSERT OR IGNORE INTO kifu_store (key, value) VALUES ('id', ?)", [fresh])

    def event_at(self, notification_id: int) -> str | None:
        """``stream/version`` of the event stored under a notification id (None: none): what a
        read model checks its position by (a copy of a store that went its own way since, or an
        older backup, holds another event there, or none)."""
        if notification_id <= 0:
            return None
        row = self._event_row(("originator_id::text, originator_version", "notification_id = %s"),
                              ("originator_id, originator_version", "rowid = ?"), [notification_id])
        if row is None:
            return None
        stream, version = row
        return f"{str(stream).replace('-', '')}/{int(version)}"

    def _event_row(self, pg: tuple[str, str], sqlite: tuple[str, str], params: Sequence[Any]) -> tuple[Any, ...] | None:
        """One row of the events table, or None: (columns, condition) as PostgreSQL spells them
        (``notification_id``, ``%s``) and as SQLite does (``rowid``, ``?``)."""
        recorder: Any = self.app.recorder
        if self.is_postgres:
            from psycopg.rows import tuple_row
            from psycopg.sql import SQL, Identifier

            query = SQL("SELECT " + pg[0] + " FROM {}.{} WHERE " + pg[1]).format(
                Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name))
            with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
                curs.execute(query, list(params))
                row = curs.fetchone()
        else:
            with recorder.datastore.transaction(commit=False) as c:
                c.execute(f"SELECT {sqlite[0]} FROM {recorder.events_table_name} WHERE {sqlite[1]}", list(params))
                row = c.fetchone()
        return None if row is None else tuple(row)

    @contextmanager
    def snapshot(self) -> Iterator[Snapshot]:
        """One consistent read of the whole store (``kifu verify``): what it holds at one moment
        however long the read takes, while writers go on. Reads only."""
        recorder: Any = self.app.recorder
        table = recorder.events_table_name
        if self.is_postgres:
            from psycopg.rows import tuple_row
            from psycopg.sql import SQL, Identifier

            name = Identifier(recorder.datastore.schema), Identifier(table)
            with recorder.datastore.get_connection() as conn, conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")

                def one(query: Any) -> int:
                    with conn.cursor(row_factory=tuple_row) as curs:
                        curs.execute(query)
                        row = curs.fetchone()
                        return int(row[0] or 0) if row else 0

                def events() -> Iterator[tuple[int, str, int, str, bytes]]:
                    query = SQL("SELECT notification_id, originator_id::text, originator_version, topic, state "
                                "FROM {}.{} ORDER BY originator_id, originator_version").format(*name)
                    with conn.cursor(name="kifu_verify", row_factory=tuple_row) as curs:
                        curs.itersize = 2000
                        curs.execute(query)
                        for nid, stream, version, topic, state in curs:
                            yield int(nid), stream.replace("-", ""), int(version), str(topic), bytes(state)

                yield Snapshot(
                    count=one(SQL("SELECT count(*) FROM {}.{}").format(*name)),
                    top=one(SQL("SELECT max(notification_id) FROM {}.{}").format(*name)),
                    events=events)
            return
        con = sqlite3.connect(f"file:{os.path.abspath(self.db)}?mode=ro", uri=True, timeout=self.lock_timeout)
        try:
            con.execute("BEGIN")  # one read transaction: WAL keeps its snapshot for the whole scan

            def events_() -> Iterator[tuple[int, str, int, str, bytes]]:
                rows = con.execute(f"SELECT rowid, originator_id, originator_version, topic, state FROM {table} "
                                   "ORDER BY originator_id, originator_version")
                for nid, stream, version, topic, state in rows:
                    yield int(nid), str(stream).replace("-", ""), int(version), str(topic), bytes(state)

            count = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            top = con.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0]
            yield Snapshot(count=int(count or 0), top=int(top or 0), events=events_)
        finally:
            con.close()

    # -- writing -------------------------------------------------------------------------

    def create(
        self,
        header: dict[str, Any],
        entries: Sequence[dict[str, Any]] = (),
        timestamps: Sequence[datetime] | None = None,
    ) -> str:
        """Store a new match with its lines in one transaction (all or nothing).
        ``timestamps`` (one per line) keep recorded times when copying between stores."""
        match_id = header["match"]["id"]
        self.written = None
        if self._batch is None and self.exists(match_id):  # in a batch, the primary key tells
            raise DuplicateMatchError(said(N_("match {match!r} is already recorded"), match=match_id))
        return self.create_prepared(match_id, *self.prepare(header, entries, timestamps))

    def prepare(
        self,
        header: dict[str, Any],
        entries: Sequence[dict[str, Any]] = (),
        timestamps: Sequence[datetime] | None = None,
    ) -> tuple[Any, list[Any]]:
        """The stream id and the stored events of a new match:
        what ``create`` inserts, built without touching the database (a folder import builds
        them in worker processes, recorder/bulkprep.py). The events are built in one pass:
        what ``app.save(Match(...))`` writes, without the aggregate, the processing event and
        the recordings it hands to nobody."""
        from recorder.domain import Match

        started = Match(header=header).collect_events()
        stream = started[0].originator_id
        to_stored = self.app.mapper.to_stored_event
        stored = [to_stored(started[0])]
        for i, entry in enumerate(entries):
            if entry.get("seq") != i + 1:  # seq == version - 1, contiguous by construction
                raise ValueError(f"seq {entry.get('seq')} is not the next seq {i + 1}")
            stored.append(to_stored(event_for(stream, i + 2, entry, timestamps[i] if timestamps else None)))
        return stream, stored

    def create_prepared(self, match_id: str, stream: Any, stored: list[Any]) -> str:
        """Insert what ``prepare`` built for match ``match_id`` (stream ``stream``), in one
        transaction, or in a savepoint of the open batch. Sets ``written``."""
        self.written = None
        if self._batch is not None:
            batched = self._insert_in_batch(stored, match_id)
            self.written = _consecutive(batched, stream, len(stored))
            return match_id
        try:
            ids = self.app.recorder.insert_events(stored)
        except IntegrityError:
            raise DuplicateMatchError(said(N_("match {match!r} is already recorded"), match=match_id)) from None
        except OperationalError as exc:
            raise ConflictError(said(N_("database busy, nothing imported: {error}"), error=_first_line(exc))) from None
        self.written = _consecutive(ids, stream, len(stored))
        return match_id

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction for many ``create`` calls (a folder import): each match is stored in
        a savepoint of its own, so a match that fails (a duplicate, say) rolls back alone and
        the others stay; all of them are committed, durably, once, when the block ends without
        an exception (with one, none is). Other writers wait meanwhile: keep batches short."""
        if self._batch is not None:
            raise RuntimeError("a batch is already open on this store")
        recorder: Any = self.app.recorder
        try:
            if self.is_postgres:
                with recorder.datastore.get_connection() as conn, conn.transaction():
                    with conn.cursor() as curs:  # matches take their notification ids in commit order
                        recorder._lock_table(curs)
                        recorder._notify_channel(curs)
                    self._batch = conn
                    yield
            else:
                with recorder.datastore.transaction(commit=True) as cursor:
                    self._batch = cursor
                    yield
        except (OperationalError, sqlite3.OperationalError) as exc:
            raise ConflictError(said(N_("database busy, nothing imported: {error}"), error=_first_line(exc))) from None
        finally:
            self._batch = None

    def _insert_in_batch(self, stored: list[Any], match_id: str) -> list[int]:
        """Insert one match's events in a savepoint of the open batch: its notification ids."""
        recorder: Any = self.app.recorder
        batch: Any = self._batch
        if self.is_postgres:
            import psycopg

            try:
                with batch.transaction(), batch.cursor() as curs:  # a savepoint
                    recorder._insert_stored_events(curs, stored)
                    return list(recorder._fetch_ids_after_insert_events(curs, stored) or [])
            except psycopg.IntegrityError:
                raise DuplicateMatchError(said(N_("match {match!r} is already recorded"), match=match_id)) from None
            except psycopg.OperationalError as exc:
                raise ConflictError(said(N_("database busy, nothing imported: {error}"), error=_first_line(exc))) from None
        batch.execute("SAVEPOINT kifu_match")
        try:
            ids = recorder._insert_events(batch, stored)
        except BaseException as exc:
            batch.execute("ROLLBACK TO kifu_match")
            batch.execute("RELEASE kifu_match")
            if isinstance(exc, sqlite3.IntegrityError):
                raise DuplicateMatchError(said(N_("match {match!r} is already recorded"), match=match_id)) from None
            if isinstance(exc, sqlite3.OperationalError):
                raise ConflictError(said(N_("database busy, nothing imported: {error}"), error=_first_line(exc))) from None
            raise
        batch.execute("RELEASE kifu_match")
        return list(ids or [])

    def append(self, match_id: str, entry: dict[str, Any], expect_seq: int | None = None, *, read: bool = False,
               within: Callable[[Any], Sequence[int]] | None = None) -> int:
        """Append one line; ``expect_seq`` is the seq the caller decided it on (its check
        saw every line before it). Raises ConflictError when another writer got there first.

        The event is built at the next version and saved as it is: no aggregate is rebuilt
        from the stream (the library's ``save`` takes domain events). The primary key
        (stream, version) still refuses a writer that raced us to the same seq.

        ``read``: the caller has just read the stream up to ``expect_seq`` itself (the record
        path's head fold), so the match exists and its head is not read again; a line written
        since by another writer still makes the insert fail on the primary key.

        ``within``: inserts the stored event itself, in one transaction with what else must
        hold or happen with it (recorder/tokens.py: the token check and the idempotency key),
        and returns its notification ids."""
        self.written = None
        stream = match_uuid(match_id)
        if read and expect_seq is not None:
            top = expect_seq
        else:
            top = self.top_version(stream)
            if top == 0:
                raise NotFoundError(said(N_("no match {match!r} in {db}"), match=match_id, db=self.safe_db))
            if expect_seq is not None and top != expect_seq:
                raise ConflictError(
                    said(N_("match {match!r} changed while recording: seq {seq} was appended by another writer; run the command again"), match=match_id, seq=top - 1)
                )
        entry = dict(entry, seq=top)
        event = event_for(stream, top + 1, entry)
        try:
            if within is None:
                ids: Sequence[int] = [r.notification.id for r in self.app.save(event)]
            else:
                ids = within(self.app.mapper.to_stored_event(event))
        except IntegrityError:
            raise ConflictError(
                said(N_("match {match!r}: another writer appended seq {seq} first; nothing was recorded, run the command again"), match=match_id, seq=entry['seq'])
            ) from None
        except OperationalError as exc:
            raise BusyError(f"match {match_id!r}: database busy, nothing recorded: {_first_line(exc)}") from None
        self.written = _consecutive(ids, stream, top + 1)
        return int(entry["seq"])

    def top_version(self, stream: Any) -> int:
        """The stream's last version (0 when it has none): one indexed read, no decoding."""
        rows = self.app.recorder.select_events(stream, desc=True, limit=1)
        return int(rows[0].originator_version) if rows else 0

    # -- streams of any kind (a match's, a tournament's) ----------------------------------
    #
    # The public stream API: everything outside this module reads and writes streams through
    # these methods, never through ``app`` (tests/contract/test_store_api.py says so).

    def stream_exists(self, stream: Any) -> bool:
        """Whether the stream has any event."""
        return bool(self.app.recorder.select_events(stream, limit=1))

    def load_stream(self, stream: Any, *, upto: int | None = None) -> list[StreamEvent]:
        """The stream's events in version order (those at or below version ``upto``, when
        given), their states decoded (``decode_state``); [] when the stream has none."""
        rows = self.app.recorder.select_events(stream, lte=upto) if upto is not None else \
            self.app.recorder.select_events(stream)
        decode = self.decode_state
        return [StreamEvent(int(r.originator_version), str(r.topic), decode(r.state)) for r in rows]

    def append_events(self, stream: Any, expected_version: int, events: Sequence[Any], *,
                      also: Sequence[Any] = (), what: str = "") -> list[int]:
        """Append domain ``events`` of ``stream`` after ``expected_version`` (the version the
        caller decided them on; 0 for a new stream), with ``also`` (the first events of other
        new streams, e.g. a round's matches) in the same transaction: all or nothing. Their
        notification ids.

        The events carry their versions (``expected_version`` + 1, + 2, ...). A stream that
        moved past ``expected_version``, or a writer that races this one to the same version,
        raises ``ConflictError`` and nothing is written; a new stream (0) that exists already
        raises ``DuplicateMatchError``; a busy database ``BusyError``. ``what`` names the
        stream in those messages. ``written`` is reset (the read model reads the log itself)."""
        from projections.base import N_

        self.written = None
        label = what or str(stream)
        versions = [int(e.originator_version) for e in events]
        if not events or any(e.originator_id != stream for e in events) or \
                versions != list(range(expected_version + 1, expected_version + 1 + len(events))):
            raise ValueError(f"{label}: events of versions {versions} do not follow version {expected_version}")
        top = self.top_version(stream)
        if top != expected_version:
            if expected_version == 0:
                raise DuplicateMatchError(said(N_("{what} is already recorded"), what=label))
            raise ConflictError(said(N_("{what}: another writer got there first; nothing was recorded, "
                                   "run the command again"), what=label))
        to_stored = self.app.mapper.to_stored_event
        try:
            ids = self.app.recorder.insert_events([to_stored(e) for e in (*events, *also)])
        except IntegrityError:
            if expected_version == 0 and self.top_version(stream):  # nothing of ours was written
                raise DuplicateMatchError(said(N_("{what} is already recorded"), what=label)) from None
            raise ConflictError(said(N_("{what}: another writer got there first; nothing was recorded, "
                                   "run the command again"), what=label)) from None
        except OperationalError as exc:
            raise BusyError(said(N_("{what}: database busy, nothing recorded: {error}"), what=label, error=_first_line(exc))) from None
        return list(ids or [])

    def create_stream(self, events: Sequence[Any], *, also: Sequence[Any] = (), what: str = "") -> list[int]:
        """Store a new stream (its first events, from version 1) and ``also`` in one
        transaction: ``append_events`` at version 0."""
        if not events:
            raise ValueError("a new stream needs its first event")
        return self.append_events(events[0].originator_id, 0, events, also=also, what=what)

    def topic_states(self, topics: Sequence[str], after: int = 0, limit: int = 500) -> list[tuple[int, dict[str, Any]]]:
        """(notification id, decoded state) of the stored events of the given topics, after
        notification ``after``, at most ``limit``, in notification order."""
        page = self.app.recorder.select_notifications(after + 1, limit=limit, topics=list(topics))
        return [(n.id, self.decode_state(n.state)) for n in page]

    def raw_notifications(self, after: int, upto: int | None = None, limit: int = 500,
                          connection: sqlite3.Connection | None = None) -> list[tuple[int, Any, int, bytes]]:
        """(notification id, stream id, version, stored state not decoded) after ``after`` and
        at or below ``upto``: for a reader that decodes only the streams it wants
        (``decode_state``). ``connection``: a SQLite reader's own connection to read on (a
        read in WAL mode that waits for no writer of this process), instead of the pool."""
        if connection is not None and not self.is_postgres:
            recorder: Any = self.app.recorder
            convert = recorder.convert_originator_id  # the library's own form of an id
            bound = "" if upto is None else " AND rowid <= ?"
            rows = connection.execute(
                f"SELECT rowid, originator_id, originator_version, state FROM {recorder.events_table_name} "
                f"WHERE rowid > ?{bound} ORDER BY rowid LIMIT ?",
                (after, *(() if upto is None else (upto,)), limit)).fetchall()
            return [(int(nid), convert(oid), int(version), state) for nid, oid, version, state in rows]
        page = self.app.recorder.select_notifications(after + 1, limit=limit, stop=upto)
        return [(n.id, n.originator_id, n.originator_version, n.state) for n in page]

    @property
    def notify_channel(self) -> str | None:
        """PostgreSQL: the channel the library NOTIFYs on every insert (None on SQLite)."""
        return str(getattr(self.app.recorder, "channel_name", "") or "") or None if self.is_postgres else None

    # -- what the token tables (recorder/tokens.py) share with the event store -----------

    @property
    def lock_timeout(self) -> float:
        """SQLite: the seconds a writer waits for the lock (``SQLITE_LOCK_TIMEOUT``)."""
        recorder: Any = self.app.recorder
        return float(getattr(getattr(recorder.datastore, "pool", None), "lock_timeout", None) or 5)

    def pooled_rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """One read of kifu's own tables beside the events, through the library's pooled
        connections (no new database session). ``?`` marks the parameters on both backends."""
        recorder: Any = self.app.recorder
        datastore = recorder.datastore
        if self.is_postgres:
            with datastore.transaction(commit=False) as curs:
                curs.execute(sql.replace("?", "%s"), tuple(params))
                return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in curs.fetchall()]
        with datastore.transaction(commit=False) as c:
            c.execute(sql, tuple(params))
            return [tuple(r) for r in c.fetchall()]

    def pg_connection(self) -> Any:
        """PostgreSQL: a connection from the library's pool (a context manager), for a
        transaction that writes kifu's own tables and an event together (``insert_stored``)."""
        recorder: Any = self.app.recorder
        return recorder.datastore.get_connection()

    def to_stored(self, event: Any) -> Any:
        """A domain event as the library stores it (topic, state encoded): what
        ``insert_stored`` and ``append``'s ``within`` take."""
        return self.app.mapper.to_stored_event(event)

    def insert_stored(self, cursor: Any, stored: Sequence[Any]) -> list[int]:
        """Insert stored events inside the caller's open transaction (a ``sqlite3`` cursor on
        SQLite, a psycopg cursor of ``pg_connection`` on PostgreSQL), with the library's own
        insert (its table lock and NOTIFY on PostgreSQL): their notification ids. The
        backend's IntegrityError is raised as it is (the caller owns the transaction)."""
        recorder: Any = self.app.recorder
        if self.is_postgres:
            recorder._insert_stored_events(cursor, list(stored))
            return list(recorder._fetch_ids_after_insert_events(cursor, list(stored)) or [])
        from eventsourcing.sqlite import SQLiteCursor

        return list(recorder._insert_events(SQLiteCursor(cursor), list(stored)) or [])

    def insert_raw(self, stored: Sequence[Any]) -> list[int]:
        """The library's own insert of stored events, in a transaction of its own, with no
        check of kifu's (benchmarks measure what the library alone pays)."""
        return list(self.app.recorder.insert_events(list(stored)) or [])

    # -- reading -------------------------------------------------------------------------

    def exists(self, match_id: str) -> bool:
        if self._batch is not None:  # what the open batch stored counts too
            return self._exists_in_batch(match_uuid(match_id))
        return bool(self.app.recorder.select_events(match_uuid(match_id), limit=1))

    def _exists_in_batch(self, stream: Any) -> bool:
        recorder: Any = self.app.recorder
        table = recorder.events_table_name
        if self.is_postgres:
            from psycopg.sql import SQL, Identifier

            query = SQL("SELECT 1 FROM {}.{} WHERE originator_id = %s LIMIT 1").format(
                Identifier(recorder.datastore.schema), Identifier(table))
            with self._batch.cursor() as curs:
                curs.execute(query, [stream])
                return curs.fetchone() is not None
        self._batch.execute(f"SELECT 1 FROM {table} WHERE originator_id = ? LIMIT 1", [stream.hex])
        return self._batch.fetchone() is not None

    def load(self, match_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The header and every line of a match, in seq order (the stored states decoded,
        without building domain event objects: see ``decode_state``)."""
        rows = self.app.recorder.select_events(match_uuid(match_id))
        if not rows:
            raise NotFoundError(said(N_("no match {match!r} in {db}"), match=match_id, db=self.safe_db))
        state = self.decode_state
        return state(rows[0].state)["header"], [state(r.state)["entry"] for r in rows[1:]]

    def decode_state(self, data: bytes) -> dict[str, Any]:
        """One stored event's state, as far as kifu reads it (``header``, ``entry``).

        The library's transcoder decodes JSON with an object hook for its own typed values
        (the timestamp), and it does not escape a log line's own dict that happens to look
        like one (``{"_type_": ..., "_data_": ...}``): such a line is stored fine and then
        breaks every read through the mapper. The header and the line are plain JSON from
        the match log, so plain ``json.loads`` reads them back exactly as written, at half the
        cost. Compression or encryption, if configured, still goes through the mapper."""
        mapper = self.app.mapper
        if mapper.cipher is not None:
            data = mapper.cipher.decrypt(data)
        if mapper.compressor is not None:
            data = mapper.compressor.decompress(data)
        return _decode(data)

    def load_timed(self, match_id: str) -> tuple[dict[str, Any], list[tuple[dict[str, Any], datetime]]]:
        """Like ``load``, with the time each line was stored."""
        rows = self.app.recorder.select_events(match_uuid(match_id))
        if not rows:
            raise NotFoundError(said(N_("no match {match!r} in {db}"), match=match_id, db=self.safe_db))
        out = []
        for r in rows[1:]:
            state = self.decode_state(r.state)
            stamp = state["timestamp"]
            when = datetime.fromisoformat(stamp["_data_"] if isinstance(stamp, dict) else stamp)
            out.append((state["entry"], when))
        return self.decode_state(rows[0].state)["header"], out

    def load_since(self, match_id: str, seq: int) -> list[dict[str, Any]]:
        """Lines after ``seq`` (for live follow)."""
        return [self.decode_state(r.state)["entry"] for r in self.app.recorder.select_events(match_uuid(match_id), gt=seq + 1)]

    def last_seq(self, match_id: str) -> int:
        top = self.top_version(match_uuid(match_id))
        if not top:
            raise NotFoundError(said(N_("no match {match!r} in {db}"), match=match_id, db=self.safe_db))
        return top - 1

    def headers(self) -> Iterator[dict[str, Any]]:
        """Every match header, in the order the matches were created."""
        start = 1
        while True:
            page = self.app.recorder.select_notifications(
                start, limit=500, topics=[self._started_topic]
            )
            if not page:
                return
            for notification in page:
                yield self.app.mapper.to_domain_event(notification).header  # type: ignore[attr-defined]
            start = page[-1].id + 1

    def notifications(self, after: int, limit: int = 1000) -> list[tuple[int, Any]]:
        """(notification id, event) after ``after``. The event is a plain record with the
        stored event's ``originator_id``, ``originator_version``, ``timestamp`` and its
        ``header`` or ``entry``: decoded as ``load`` decodes (see ``decode_state``), not through the
        library's mapper."""
        page = self.app.recorder.select_notifications(after + 1, limit=limit)
        out = []
        for n in page:
            state = self.decode_state(n.state)
            stamp = state.pop("timestamp", None)
            if isinstance(stamp, dict):
                stamp = datetime.fromisoformat(stamp["_data_"])
            out.append((n.id, SimpleNamespace(originator_id=n.originator_id, originator_version=n.originator_version,
                                              timestamp=stamp, **state)))
        return out

    def lines_after(
        self,
        after: int,
        limit: int = 1000,
        skip: frozenset[Any] = frozenset(),
    ) -> list[tuple[int, Any, int, dict[str, Any] | None, dict[str, Any] | None]]:
        """(notification id, stream id, version, header or None, line or None) after
        ``after``: the notification log decoded only as far as a read model needs (no domain
        objects), and not at all for the streams in ``skip`` (the caller knows them)."""
        page = self.app.recorder.select_notifications(after + 1, limit=limit)
        out: list[tuple[int, Any, int, dict[str, Any] | None, dict[str, Any] | None]] = []
        state = self.decode_state
        for n in page:
            stream = n.originator_id
            if stream in skip or not n.topic.startswith(MATCH_TOPICS):  # another kind of stream: not read
                out.append((n.id, stream, n.originator_version, None, None))
                continue
            decoded = state(n.state)
            header = decoded.get("header") if n.topic == STARTED_TOPIC else None
            out.append((n.id, stream, n.originator_version, header, decoded.get("entry")))
        return out

    def part_streams(self, part: int, parts: int, upto: int) -> list[tuple[int, Any, int]]:
        """The streams of part ``part`` of ``parts`` that begin at or before notification
        ``upto``: (first notification id, stream id, how many of its events are at or before
        ``upto``), in the order they began. Read from the primary-key index alone (stream,
        version, and the row id that is the notification id on SQLite): no stored state is
        read. Streams of every kind: ``stream_lines`` tells a match from another stream."""
        recorder: Any = self.app.recorder
        table = recorder.events_table_name
        if self.is_postgres:
            from psycopg.rows import tuple_row
            from psycopg.sql import SQL, Identifier

            where, params = part_filter("lower(right(originator_id::text, 1))", "%s", part, parts)
            query = SQL(
                "SELECT min(notification_id), originator_id::text, count(*) FROM {}.{} "
                "WHERE notification_id <= %s" + where + " GROUP BY originator_id"
            ).format(Identifier(recorder.datastore.schema), Identifier(table))
            with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
                curs.execute(query, [upto, *params])
                rows = [(int(first), stream, int(count)) for first, stream, count in curs.fetchall()]
        else:
            where, params = part_filter("lower(substr(originator_id, -1, 1))", "?", part, parts)
            statement = (f"SELECT min(rowid), originator_id, count(*) FROM {table} WHERE rowid <= ?{where} "
                         f"GROUP BY originator_id")
            with recorder.datastore.transaction(commit=False) as c:
                c.execute(statement, [upto, *params])
                rows = [tuple(r) for r in c.fetchall()]
        rows.sort()
        return rows

    def stream_lines(
        self, streams: Sequence[Any], upto: int
    ) -> dict[Any, tuple[dict[str, Any] | None, list[dict[str, Any]]]]:
        """The header and the lines of each of ``streams`` (ids as ``part_streams`` hands them
        out), from their events at or before notification ``upto``, read stream by stream
        through the primary-key index. The header is None for a stream whose first event is
        not a match's ``Started`` (another kind of stream: its events are not decoded); an
        event that carries no line is left out."""
        if not streams:
            return {}
        recorder: Any = self.app.recorder
        table = recorder.events_table_name
        if self.is_postgres:
            from psycopg.rows import tuple_row
            from psycopg.sql import SQL, Identifier

            query = SQL(
                "SELECT originator_id::text, originator_version, topic, state FROM {}.{} "
                "WHERE originator_id = ANY(%s::{}[]) AND notification_id <= %s "
                "ORDER BY originator_id, originator_version"
            ).format(Identifier(recorder.datastore.schema), Identifier(table),
                     Identifier(recorder.datastore.originator_id_type))
            with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
                curs.execute(query, [list(streams), upto])
                rows = [(stream, version, topic, bytes(data)) for stream, version, topic, data in curs.fetchall()]
        else:
            marks = ", ".join("?" * len(streams))
            statement = (f"SELECT originator_id, originator_version, topic, state FROM {table} "
                         f"WHERE originator_id IN ({marks}) AND rowid <= ? ORDER BY originator_id, originator_version")
            with recorder.datastore.transaction(commit=False) as c:
                c.execute(statement, [*streams, upto])
                rows = c.fetchall()
        out: dict[Any, tuple[dict[str, Any] | None, list[dict[str, Any]]]] = {}
        state = self.decode_state
        mapper = self.app.mapper
        line_of = _line if mapper.cipher is None and mapper.compressor is None else self._line
        lines: list[dict[str, Any]] = []
        current: Any = None  # the stream whose lines are being read, when it is a match's
        for stream, version, topic, data in rows:
            if version == 1 or stream not in out:
                header = state(data).get("header") if version == 1 and topic == STARTED_TOPIC else None
                lines = []
                out[stream] = (header if isinstance(header, dict) else None, lines)
                current = stream if isinstance(header, dict) else None
            elif stream == current and topic.startswith(MATCH_TOPICS):
                entry = line_of(data)
                if entry is not None:
                    lines.append(entry)
        return out

    def _line(self, data: bytes) -> dict[str, Any] | None:
        """A stored line's ``entry`` (None: none), through ``decode_state`` (a cipher, a compressor)."""
        entry = self.decode_state(data).get("entry")
        return entry if isinstance(entry, dict) else None

    @staticmethod
    def stream_of(match_id: str) -> Any:
        return match_uuid(match_id)

    def max_notification_id(self, connection: sqlite3.Connection | None = None) -> int:
        """The newest notification id (0 for an empty store). ``connection``: as for
        ``raw_notifications``, a SQLite reader's own connection."""
        if connection is not None and not self.is_postgres:
            recorder: Any = self.app.recorder
            row = connection.execute(f"SELECT MAX(rowid) FROM {recorder.events_table_name}").fetchone()
            return int(row[0] or 0)
        return int(self.app.recorder.max_notification_id() or 0)

    def first_notification_id(self, stream: Any) -> int | None:
        """The notification id of a stream's first event (its match's header), or None."""
        row = self._event_row(("notification_id", "originator_id = %s AND originator_version = 1"),
                              ("rowid", "originator_id = ? AND originator_version = 1"),
                              [stream if self.is_postgres else str(stream).replace("-", "")])
        return None if row is None else int(row[0])


def _consecutive(ids: Sequence[int] | None, stream: Any, version: int) -> tuple[int, int, Any, int] | None:
    """``Store.written`` for events of one stream up to ``version`` stored under ``ids``."""
    if not ids or ids[-1] - ids[0] + 1 != len(ids):
        return None
    return (ids[0], ids[-1], stream, version)


def _without_password(url: str) -> str:
    parts = urlparse(url)
    return f"postgresql://{parts.hostname}:{parts.port or 5432}{parts.path}"


def part_of(stream: Any, parts: int) -> int:
    """Which of ``parts`` parts a stream belongs to (the same in every process, and in the
    database: ``part_filter``): the value of its id's last hex digit modulo ``parts``; an id
    that does not end in a hex digit is of part 0."""
    last = str(stream)[-1:].lower()
    return int(last, 16) % parts if last and last in HEX_DIGITS else 0


def part_filter(last_char: str, mark: str, part: int, parts: int) -> tuple[str, list[str]]:
    """The SQL condition (`` AND ...``) and its parameters that keep the rows of part ``part``
    as ``part_of`` tells them, given the SQL expression of a stream id's last character."""
    if parts <= 1:
        return "", []
    if part == 0:  # every digit of the other parts is out; anything else is in
        others = [d for d in HEX_DIGITS if int(d, 16) % parts != 0]
        return f" AND {last_char} NOT IN ({', '.join([mark] * len(others))})", others
    mine = [d for d in HEX_DIGITS if int(d, 16) % parts == part]
    return f" AND {last_char} IN ({', '.join([mark] * len(mine))})", mine


def _decode(data: bytes | bytearray | memoryview | str) -> dict[str, Any]:
    """A stored state: one JSON object, decoded by the C scanner alone when it is exactly one
    compact object (what the library writes), else by ``json.loads`` (with its checks)."""
    text = data if isinstance(data, str) else bytes(data).decode()
    try:
        obj, end = _scan(text, 0)
    except StopIteration:
        end = -1
    if end != len(text) or not isinstance(obj, dict):
        obj = json.loads(text)
    return obj if isinstance(obj, dict) else dict(obj)


_STAMPED = '{"timestamp":{"_type_":"datetime_iso","_data_":"'  # how the library begins a line's state


def _line(data: bytes | bytearray | memoryview | str) -> dict[str, Any] | None:
    """A stored line's ``entry`` (None: none), as ``_decode(data).get("entry")`` gives it, at
    two thirds of the cost: the state the library writes is the event's timestamp, then the
    entry, so only the entry is scanned when the state is exactly that (``{"timestamp":
    {"_type_": "datetime_iso", "_data_": "..."}, "entry": {...}}``, compact); anything else is
    decoded whole."""
    text = data if isinstance(data, str) else bytes(data).decode()
    if text.startswith(_STAMPED):
        close = text.find('"}', len(_STAMPED))  # the end of the time: an ISO time has no quote
        if close > 0 and text.startswith(',"entry":{', close + 2):
            try:
                obj, end = _scan(text, close + 11)
            except StopIteration:
                end = -1
            if end == len(text) - 1 and text[end] == "}":
                return obj  # type: ignore[no-any-return]
    entry = _decode(text).get("entry")
    return entry if isinstance(entry, dict) else None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
