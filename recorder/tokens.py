"""Scoped write tokens and idempotency keys, kept in two small tables of the store's database.

A token is a bearer secret handed to one person: a scorekeeper's token writes to one match
(``--match ID``) or to whatever match is played at one table of an event (``--event E
--table N``); a judge's token writes rulings, penalties and results across one event; an
admin token (and the one ``kifu serve --token`` is started with) writes anywhere. Only a
SHA-256 digest of each token is stored: tokens are 192 random bits, so a fast hash is enough
(no password stretching is needed) and a copy of the database cannot write.

Every written line carries the name of the token that wrote it (``"token": "table-3"``).

Idempotency keys (``kifu_writes``): a phone that queued moves while offline sends each with
a key; the server remembers (match, key) -> seq, so a move sent twice is recorded once and
the second send is answered with the first one's seq. The key is stored in the transaction
that stores the move (``inserter``), with the check that the writing token still stands: no
crash can leave a move without its key or a key without its move.

Both tables live beside the library's own tables: on SQLite in the same file (through
``sqlite3``), on PostgreSQL in the same database (through ``psycopg``). They are not events:
a token is a credential, not part of any match's history.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import re
import secrets
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from projections.base import N_, said
from projections.base import META_TYPES
from projections.errors import KifuError, LogFormatError, NotFoundError
from recorder.store import Store, now_iso

ROLES = ("scorekeeper", "judge", "admin", "player")
ADMIN_NAME = "admin"  # the name lines written with ``kifu serve --token`` carry
PREFIX = "kifu_"
NAME_RE = re.compile(r"^[^\s/\\]{1,64}$")

# What each role may write. A scorekeeper keeps the table's record: moves, notes, disputes,
# corrections, a concession or an agreed result. A judge rules and penalises across the event
# but does not record the table's moves.
SCOREKEEPER_TYPES = frozenset({"annotate", "retract", "dispute", "correct", "appeal", "concede", "result"})
JUDGE_TYPES = frozenset({"ruling", "penalty", "result", "annotate", "retract", "dispute"})

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS kifu_tokens (
        name TEXT PRIMARY KEY, digest TEXT NOT NULL UNIQUE, role TEXT NOT NULL,
        match_id TEXT, event TEXT, table_no TEXT, created TEXT NOT NULL, revoked TEXT)""",
    """CREATE TABLE IF NOT EXISTS kifu_writes (
        match_id TEXT NOT NULL, idem_key TEXT NOT NULL, seq INTEGER, token TEXT,
        created TEXT NOT NULL, PRIMARY KEY (match_id, idem_key))""",
    # A table's token printed on a round sheet writes to that round only, and is revoked when
    # the round closes (recorder/tournament_service.py).
    """CREATE TABLE IF NOT EXISTS kifu_round_tokens (
        name TEXT PRIMARY KEY, event TEXT NOT NULL, round_no INTEGER NOT NULL)""",
    # A player's token (issue 33) writes that player's own reports of their table's result.
    """CREATE TABLE IF NOT EXISTS kifu_player_tokens (
        name TEXT PRIMARY KEY, event TEXT NOT NULL, player TEXT NOT NULL)""",
)


class AuthError(KifuError):
    """A write refused by the token check: ``status`` is 401 (who are you?) or 403 (not yours)."""

    def __init__(self, status: int, message: str):
        self.status = status
        super().__init__(message)


@dataclass(frozen=True)
class TokenInfo:
    """One issued token as listed (never the secret itself)."""

    name: str
    role: str
    match_id: str | None
    event: str | None
    table_no: str | None
    created: str
    revoked: str | None
    player: str | None = None  # a player's token: whose reports it writes

    @property
    def scope(self) -> str:
        if self.role == "admin":
            return "すべての対戦 (all matches)"
        if self.role == "player":
            return f"event {self.event} player {self.player}"
        if self.match_id is not None:
            return f"match {self.match_id}"
        if self.table_no is not None:
            return f"event {self.event} table {self.table_no}"
        return f"event {self.event}"

    def to_json(self) -> dict[str, Any]:
        return dict(asdict(self), scope=self.scope)


@dataclass(frozen=True)
class Grant:
    """Who may write a line: the token's name (recorded on the line) and its role."""

    name: str
    role: str


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# -- the database ----------------------------------------------------------------------------------


class _Db:
    """A DB-API connection to the store's database, with ``?`` placeholders on both backends."""

    def __init__(self, store: Store):
        self.pg = store.is_postgres
        if self.pg:
            import psycopg

            self.con: Any = psycopg.connect(store.db, connect_timeout=5)
        else:
            self.con = sqlite3.connect(store.db, timeout=10)
        for stmt in SCHEMA:
            self._exec_retry(stmt)
        self.con.commit()

    def _exec_retry(self, stmt: str) -> None:
        # Two processes creating the tables at once race on PostgreSQL's catalog.
        for attempt in range(5):
            try:
                self.con.execute(stmt)
                return
            except Exception as exc:
                if attempt == 4 or ("concurrently" not in str(exc) and "already exists" not in str(exc)):
                    raise
                self.con.rollback()

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        if self.pg:
            sql = sql.replace("?", "%s")
        return self.con.execute(sql, params)

    def is_duplicate(self, exc: BaseException) -> bool:
        if isinstance(exc, sqlite3.IntegrityError):
            return True
        return type(exc).__name__ in ("UniqueViolation", "IntegrityError")


@contextlib.contextmanager
def connect(store: Store) -> Iterator[_Db]:
    db = _Db(store)
    try:
        yield db
        db.con.commit()
    except BaseException:
        db.con.rollback()
        raise
    finally:
        db.con.close()


# -- issuing, listing, revoking ----------------------------------------------------------------


def issue(
    store: Store,
    role: str = "scorekeeper",
    match_id: str | None = None,
    event: str | None = None,
    table: str | None = None,
    name: str | None = None,
    player: str | None = None,
) -> tuple[str, TokenInfo]:
    """A new token (the secret, shown once) and its stored description."""
    if role not in ROLES:
        raise LogFormatError([said(N_("--role: must be one of {roles}, not {role!r}"), roles=', '.join(ROLES), role=role)])
    if player is not None and role != "player":
        raise LogFormatError([N_("--player: a player's token is --event E --player NAME (role player)")])
    if role == "player":
        if event is None or player is None or match_id is not None or table is not None:
            raise LogFormatError([N_("--player: a player's token is for one player of one event: give --event E --player NAME")])
    elif role == "scorekeeper":
        if match_id is None and (event is None or table is None):
            raise LogFormatError([N_("--match: a scorekeeper's token needs --match ID, or --event E with --table N")])
        if match_id is not None and (event is not None or table is not None):
            raise LogFormatError([N_("--match: give either --match or --event/--table, not both")])
    elif role == "judge":
        if event is None or match_id is not None or table is not None:
            raise LogFormatError([N_("--event: a judge's token is for one whole event: give --event E only")])
    elif match_id is not None or event is not None or table is not None:
        raise LogFormatError([N_("--role: an admin token writes everywhere: give no --match, --event or --table")])
    if match_id is not None and not store.exists(match_id):
        raise NotFoundError(said(N_("no match {match!r} in {db}"), match=match_id, db=store.safe_db))
    if name is not None and not NAME_RE.fullmatch(name):
        raise LogFormatError([said(N_("--name: {name!r}: 1 to 64 characters, no spaces or slashes"), name=name)])
    secret = PREFIX + secrets.token_urlsafe(24)
    with connect(store) as db:
        if name is None:
            name = _free_name(db, role, match_id, event, table)
        elif name == ADMIN_NAME or db.execute("SELECT 1 FROM kifu_tokens WHERE name = ?", (name,)).fetchone():
            raise LogFormatError([said(N_("--name: a token named {name!r} already exists"), name=name)])
        info = TokenInfo(name, role, match_id, event, None if table is None else str(table), now_iso(), None, player)
        db.execute(
            "INSERT INTO kifu_tokens (name, digest, role, match_id, event, table_no, created, revoked) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
            (info.name, digest(secret), info.role, info.match_id, info.event, info.table_no, info.created),
        )
        if player is not None:
            db.execute("INSERT INTO kifu_player_tokens (name, event, player) VALUES (?, ?, ?)", (name, event, player))
    return secret, info


def _with_players(db: _Db, rows: list[Any]) -> list[TokenInfo]:
    players = dict(db.execute("SELECT name, player FROM kifu_player_tokens").fetchall())
    return [TokenInfo(name=r[0], role=r[1], match_id=r[2], event=r[3], table_no=r[4], created=r[5], revoked=r[6],
                      player=players.get(r[0])) for r in rows]


def _free_name(db: _Db, role: str, match_id: str | None, event: str | None, table: str | None) -> str:
    if match_id is not None:
        base = f"match-{match_id}"
    elif role == "player":
        base = f"{event}-player"
    elif table is not None:
        base = f"{event}-table-{table}"
    elif role == "judge":
        base = f"{event}-judge"
    else:
        base = "admin-token"
    base = re.sub(r"[\s/\\]+", "_", base)[:56]
    taken = {row[0] for row in db.execute("SELECT name FROM kifu_tokens").fetchall()}
    n = 1
    name = base
    while name in taken or name == ADMIN_NAME:
        n += 1
        name = f"{base}-{n}"
    return name


def list_tokens(store: Store, include_revoked: bool = True) -> list[TokenInfo]:
    with connect(store) as db:
        rows = db.execute(
            "SELECT name, role, match_id, event, table_no, created, revoked FROM kifu_tokens ORDER BY created, name"
        ).fetchall()
        out = _with_players(db, rows)
    return out if include_revoked else [t for t in out if t.revoked is None]


def revoke(store: Store, name: str) -> TokenInfo:
    with connect(store) as db:
        row = db.execute(
            "SELECT name, role, match_id, event, table_no, created, revoked FROM kifu_tokens WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            raise NotFoundError(said(N_("no token named {name!r} (kifu token list shows them)"), name=name))
        info = _with_players(db, [row])[0]
        if info.revoked is None:
            info = TokenInfo(info.name, info.role, info.match_id, info.event, info.table_no, info.created, now_iso(),
                             info.player)
            db.execute("UPDATE kifu_tokens SET revoked = ? WHERE name = ?", (info.revoked, name))
    return info


def issue_for_round(store: Store, event: str, round_no: int, table: str) -> tuple[str, TokenInfo]:
    """A scorekeeper's token for one table of one round (a round sheet's QR code)."""
    secret, info = issue(store, "scorekeeper", event=event, table=table)
    with connect(store) as db:
        db.execute("INSERT INTO kifu_round_tokens (name, event, round_no) VALUES (?, ?, ?)", (info.name, event, round_no))
    return secret, info


def revoke_round(store: Store, event: str, round_no: int) -> list[str]:
    """Revoke every token issued for a round's tables (the round closed). Returns their names."""
    with connect(store) as db:
        names = [r[0] for r in db.execute(
            "SELECT t.name FROM kifu_tokens t JOIN kifu_round_tokens r ON r.name = t.name "
            "WHERE r.event = ? AND r.round_no = ? AND t.revoked IS NULL", (event, round_no)).fetchall()]
        stamp = now_iso()
        for name in names:
            db.execute("UPDATE kifu_tokens SET revoked = ? WHERE name = ?", (stamp, name))
    return names


def _round_scope(store: Store, info: TokenInfo, header: Mapping[str, Any]) -> str | None:
    """A round's table token writes to matches of that round only."""
    if info.role != "scorekeeper" or info.table_no is None:
        return None
    with connect(store) as db:
        row = db.execute("SELECT round_no FROM kifu_round_tokens WHERE name = ?", (info.name,)).fetchone()
    rnd = (header.get("match") or {}).get("round")
    if row is not None and rnd != row[0]:
        return f"token {info.name!r} writes to table {info.table_no} of round {row[0]} only, not round {rnd}"
    return None


def player_of(store: Store, name: str) -> str | None:
    """The player a player's token (by its name) is for."""
    rows = _rows(store, "SELECT player FROM kifu_player_tokens WHERE name = ?", (name,))
    return str(rows[0][0]) if rows else None


def has_tokens(store: Store) -> bool:
    return bool(_rows(store, "SELECT 1 FROM kifu_tokens WHERE revoked IS NULL LIMIT 1", ()))


# -- authorising one write -------------------------------------------------------------------------


def bearer(authorization: str | None) -> str | None:
    scheme, _, value = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def find(store: Store, secret: str) -> TokenInfo | None:
    rows = _rows(store, "SELECT name, role, match_id, event, table_no, created, revoked FROM kifu_tokens WHERE digest = ?",
                 (digest(secret),))
    return TokenInfo(*rows[0]) if rows else None


def _holder(store: Store, admin_token: str | None, authorization: str | None) -> Grant | TokenInfo:
    """Who holds the bearer token of ``authorization``: the server's admin (a Grant), or a stored
    token not revoked; else AuthError (401 or 403, one line: a server nobody can write to says it
    is read-only)."""
    secret = bearer(authorization)
    if secret is None:
        if not admin_token and not has_tokens(store):
            raise AuthError(403, N_("this server is read-only: start it with --token or KIFU_TOKEN, or issue tokens with `kifu token new`"))
        raise AuthError(401, N_("a bearer token is needed to write"))
    if admin_token and hmac.compare_digest(secret.encode(), admin_token.encode()):
        return Grant(ADMIN_NAME, "admin")
    info = find(store, secret)
    if info is None:
        raise AuthError(401, N_("unknown token"))
    if info.revoked is not None:
        raise AuthError(403, said(N_("token {token!r} was revoked at {when}"), token=info.name, when=info.revoked))
    return info


def authorize(
    store: Store, admin_token: str | None, authorization: str | None, header: Mapping[str, Any], line: Mapping[str, Any]
) -> Grant:
    """Who writes ``line`` to the match of ``header``, or AuthError (401 or 403, one line)."""
    info = _holder(store, admin_token, authorization)
    if isinstance(info, Grant):
        return info
    allowed_why = permits(info, header, line) or _round_scope(store, info, header)
    if allowed_why is not None:
        raise AuthError(403, allowed_why)
    return Grant(info.name, info.role)


def permits(info: TokenInfo, header: Mapping[str, Any], line: Mapping[str, Any]) -> str | None:
    """None if ``info`` may write ``line`` to this match, else the one-line reason it may not."""
    if info.role == "admin":
        return None
    m = header.get("match") or {}
    mid, event, table = m.get("id"), m.get("event"), m.get("table")
    kind = line.get("type")
    if info.role == "player":
        return said(N_("token {token!r} is a player's token: it writes its player's reports only"), token=info.name)
    if info.role == "judge":
        if event != info.event:
            return f"token {info.name!r} is a judge's token for event {info.event!r}, not for match {mid!r}"
        if kind not in JUDGE_TYPES:
            return f"token {info.name!r} is a judge's token: it writes rulings, penalties and results, not {kind!r}"
        return None
    if info.match_id is not None and info.match_id != mid:
        return f"token {info.name!r} writes to match {info.match_id!r} only, not {mid!r}"
    if info.match_id is None and (event != info.event or table is None or str(table) != info.table_no):
        return f"token {info.name!r} writes to table {info.table_no} of {info.event!r} only, not match {mid!r}"
    if kind in META_TYPES and kind not in SCOREKEEPER_TYPES:
        return f"token {info.name!r} is a scorekeeper's token: a {kind!r} needs a judge's token"
    return None


def authorize_event(store: Store, admin_token: str | None, authorization: str | None, event: str,
                    *, player: str | None = None) -> Grant:
    """Who writes a line of an event's own stream: a report of ``player`` (that player's own
    token, or an admin's), or a judge's line (``player`` None: a check-in or a time extension
    at the desk; the event's judge token, or an admin's); else AuthError (401 or 403, one line).
    ``authorize_desk`` is this, for the desk's lines."""
    info = _holder(store, admin_token, authorization)
    if isinstance(info, Grant):
        return info
    if info.role == "admin":
        return Grant(info.name, info.role)
    if info.event is None or _event_key(info.event) != _event_key(event):
        raise AuthError(403, said(N_("token {token!r} is not for event {event!r}"), token=info.name, event=event))
    if player is None:
        if info.role != "judge":
            raise AuthError(403, said(N_("token {token!r} is a {role}'s token: the desk of {event!r} needs an admin's "
                                         "token or a judge's token for {event!r}"),
                                      token=info.name, role=info.role, event=event))
        return Grant(info.name, info.role)
    if info.role != "player":
        raise AuthError(403, said(N_("token {token!r} is a {role}'s token: a player reports with their own token"),
                                  token=info.name, role=info.role))
    mine = player_of(store, info.name)
    if mine is None or _event_key(mine) != _event_key(player):
        raise AuthError(403, said(N_("token {token!r} is {mine!r}'s: it does not report for {player!r}"),
                                  token=info.name, mine=mine, player=player))
    return Grant(info.name, info.role)


def _event_key(name: str) -> str:
    import unicodedata

    return " ".join(unicodedata.normalize("NFKC", name).split())


# -- idempotency keys and the keyed write ---------------------------------------------------------

KEY_RE = re.compile(r"^[A-Za-z0-9._:-]{8,100}$")


def check_key(key: str) -> str:
    if not KEY_RE.fullmatch(key):
        raise LogFormatError([N_("Idempotency-Key: 8 to 100 letters, digits or . _ : -")])
    return key


class KeyTaken(Exception):
    """The key was stored by another write between our look and our insert (a retry racing
    its original): nothing of ours was written; the caller answers with the stored seq."""


_READY: weakref.WeakSet[Store] = weakref.WeakSet()  # stores whose two tables this process has made sure of


def _ensure(store: Store) -> None:
    if store not in _READY:
        with connect(store):
            pass
        _READY.add(store)


def _rows(store: Store, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """One read through the library's pooled connections (no new database session)."""
    _ensure(store)
    return store.pooled_rows(sql, params)


def stored_seq(store: Store, match_id: str, key: str) -> int | None:
    """The seq a key's write was stored at, or None (a key of the old scheme's claim that was
    never settled, ``seq`` NULL, counts as free: ``_key_sql`` takes it over)."""
    rows = _rows(store, "SELECT seq FROM kifu_writes WHERE match_id = ? AND idem_key = ?", (match_id, key))
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


def _key_sql(pg: bool) -> tuple[str, str]:
    mark = "%s" if pg else "?"
    return (f"DELETE FROM kifu_writes WHERE match_id = {mark} AND idem_key = {mark} AND seq IS NULL",
            f"INSERT INTO kifu_writes (match_id, idem_key, seq, token, created) VALUES ({mark}, {mark}, {mark}, {mark}, {mark})")


def _revoked(rows: list[Any]) -> Any:
    if not rows:
        return None
    row = rows[0]
    return next(iter(row.values())) if isinstance(row, dict) else row[0]


def inserter(store: Store, match_id: str, key: str | None, token: str | None) -> Callable[[Any], Sequence[int]]:
    """What ``Store.append`` inserts a line with: one transaction holding the token check
    (a token revoked meanwhile writes nothing), the idempotency key with the seq it is stored
    at, and the event itself. A crash anywhere leaves either all three or none."""

    def check_token(execute: Callable[[str, tuple[Any, ...]], Any], lock: str = "") -> None:
        # PostgreSQL: FOR SHARE holds the token's row until this write commits, so a revocation
        # (a round closing) waits for it: the line is stored before the close, or refused after.
        # SQLite: BEGIN IMMEDIATE already holds every other writer off.
        if token is None or token == ADMIN_NAME:
            return
        when = _revoked(execute("SELECT revoked FROM kifu_tokens WHERE name = ?" + lock, (token,)).fetchall())
        if when is not None:
            raise AuthError(403, said(N_("token {token!r} was revoked at {when}"), token=token, when=when))

    def sqlite_insert(stored: Any) -> Sequence[int]:
        import sqlite3 as _sqlite3

        from eventsourcing.persistence import IntegrityError as EsIntegrity
        from eventsourcing.persistence import OperationalError as EsOperational

        seq = stored.originator_version - 1
        try:
            with _writer(store) as con:
                c: Any = con.cursor()
                c.execute("BEGIN IMMEDIATE")  # the write lock first: no stale read to upgrade
                try:
                    check_token(lambda sql, p: (c.execute(sql, p), c)[1])
                    if key is not None:
                        drop, add = _key_sql(False)
                        c.execute(drop, (match_id, key))
                        try:
                            c.execute(add, (match_id, key, seq, token, now_iso()))
                        except _sqlite3.IntegrityError:
                            raise KeyTaken(key) from None
                    hook("after-key")
                    try:
                        ids = store.insert_stored(c, [stored])  # the library's own insert
                    except _sqlite3.IntegrityError as exc:
                        raise EsIntegrity(exc) from exc
                    hook("before-commit")
                    con.execute("COMMIT")
                except BaseException:
                    if con.in_transaction:
                        con.execute("ROLLBACK")
                    raise
        except _sqlite3.OperationalError as exc:
            raise EsOperational(exc) from exc
        hook("after-commit")
        return list(ids or [])

    def pg_insert(stored: Any) -> Sequence[int]:
        import psycopg

        from eventsourcing.persistence import IntegrityError as EsIntegrity
        from eventsourcing.persistence import OperationalError as EsOperational

        seq = stored.originator_version - 1
        try:
            with store.pg_connection() as conn, conn.transaction(), conn.cursor() as curs:
                check_token(lambda sql, p: curs.execute(sql.replace("?", "%s"), p), " FOR SHARE")
                if key is not None:
                    drop, add = _key_sql(True)
                    curs.execute(drop, (match_id, key))
                    try:
                        with conn.transaction():  # a savepoint: the unique violation is ours to read
                            curs.execute(add, (match_id, key, seq, token, now_iso()))
                    except psycopg.errors.UniqueViolation:
                        raise KeyTaken(key) from None
                hook("after-key")
                try:
                    ids = store.insert_stored(curs, [stored])  # the library's lock, NOTIFY, insert
                except psycopg.errors.UniqueViolation as exc:
                    raise EsIntegrity(exc) from exc
                hook("before-commit")
        except psycopg.OperationalError as exc:  # lock timeout, connection lost
            raise EsOperational(exc) from exc
        hook("after-commit")
        return list(ids or [])

    _ensure(store)
    return pg_insert if store.is_postgres else sqlite_insert


_WRITERS: weakref.WeakKeyDictionary[Store, tuple[threading.Lock, sqlite3.Connection]] = weakref.WeakKeyDictionary()
_WRITERS_LOCK = threading.Lock()


@contextlib.contextmanager
def _writer(store: Store) -> Iterator[sqlite3.Connection]:
    """This process's one connection for keyed writes to a SQLite store, one write at a time.

    Not the library's pool: its connections interlock readers with a writer, so a write
    waiting for another process's lock (``kifu serve --workers``) would hold up every read of
    this process for as long. A write on this connection holds up nobody but the next write.
    The lock timeout is the store's (``SQLITE_LOCK_TIMEOUT``)."""
    with _WRITERS_LOCK:
        found = _WRITERS.get(store)
        if found is None:
            timeout = store.lock_timeout
            con = sqlite3.connect(store.db, timeout=timeout, isolation_level=None, check_same_thread=False)
            found = _WRITERS[store] = (threading.Lock(), con)
            weakref.finalize(store, con.close)  # closed with the store it writes to
    lock, con = found
    with lock:
        yield con


def hook(point: str) -> None:
    """A point between the steps of a keyed write; tests make it fail (monkeypatch)."""


def once(
    store: Store, match_id: str, key: str | None, token: str | None,
    write: Callable[[Callable[[Any], Sequence[int]]], tuple[int, list[Any]]],
) -> tuple[int, list[Any], bool]:
    """Run ``write`` (which appends one line through the inserter it is given, see
    ``inserter``, and returns (seq, violations)) at most once per (match, key). Returns (seq,
    violations, fresh); a key already stored returns its write's seq, no violations and
    ``fresh`` False, whatever ``expect`` the retry carries. The key is stored in the same
    transaction as the line, so it is stored if and only if the line is."""
    if key is not None:
        check_key(key)
        done = stored_seq(store, match_id, key)
        if done is not None:
            return done, [], False
    try:
        seq, found = write(inserter(store, match_id, key, token))
    except KeyTaken:
        done = stored_seq(store, match_id, key) if key is not None else None
        if done is None:  # the racing write's key row is gone again: cannot happen, rows are never deleted
            from projections.errors import ConflictError

            raise ConflictError(said(N_("match {match!r}: the write with this key is still in progress; try again"), match=match_id)) from None
        return done, [], False
    except KifuError as exc:
        from projections.errors import ConflictError

        # a retry whose original was stored meanwhile (it raced us to the seq): its answer
        done = stored_seq(store, match_id, key) if key is not None and isinstance(exc, ConflictError) else None
        if done is None:
            raise
        return done, [], False
    return seq, found, True


def authorize_desk(store: Store, admin_token: str | None, authorization: str | None, event: str) -> Grant:
    """Who writes a line of the tournament ``event`` at the desk (a check-in): the server's
    admin token, an admin token, or a judge's token for that event (``authorize_event``)."""
    return authorize_event(store, admin_token, authorization, event)


__all__ = [
    "ADMIN_NAME", "ROLES", "AuthError", "Grant", "KeyTaken", "TokenInfo", "authorize", "authorize_desk", "authorize_event", "check_key",
    "digest", "inserter", "issue", "list_tokens", "once", "permits", "revoke", "stored_seq",
]
