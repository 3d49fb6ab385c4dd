"""Live follow pushed: ``GET /api/matches/ID/stream`` and ``GET /api/events/EVENT/stream``
(server-sent events), fed by one watcher of the store per server process.

The watcher (``Hub``) is the only thing that asks the store what is new, whatever the number
of followers: on SQLite one ``MAX(rowid)`` of the notification log every ``interval`` seconds
(0.05 by default, about 20 µs on a connection of its own, on the event loop), on PostgreSQL a
``LISTEN`` on the library's notification channel (the library's recorder sends ``NOTIFY`` with
every insert), so a write made by any process, on any host, reaches the followers of every
process. New notifications are read once, decoded only for the streams somebody follows, and
each new line is encoded once, as the bytes of its SSE event: every follower of that match is
handed the same bytes object (nothing is serialised per follower). A follower waits on its own
``asyncio.Event``: an idle follower has no timer, no task of its own beyond its connection, and
does no work; the one keep-alive comment every ``keepalive`` seconds is sent by the watcher to
all at once. The watcher sleeps (no queries at all) while nobody follows.

One match's stream: one event per new line, ``id: SEQ``, ``data:`` the line as recorded
(JSON). ``Last-Event-ID`` (what the browser's EventSource sends when it reconnects) or
``?after=N`` says where to resume; the lines after it are read from the store first, then the
live ones follow, each sent once, in seq order. A follower too slow to keep up (its queue over
``BACKLOG``) is closed; its EventSource reconnects from its last id and catches up from the
store. The first thing sent is ``event: ready`` (the page's sign that the stream is held:
behind a proxy that buffers it never arrives, and the page falls back to polling).

An event's stream finds the event's matches in the read model, through its event index
(``projections/listing.py: event_matches``), never by reading the store's every match; a match
created later is noticed by its header, when the watcher reads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from projections.names import name_key
from recorder.web.common import count_of

INTERVAL = 0.05  # seconds between two looks at the notification log (SQLite; a write of this process pokes at once)
KEEPALIVE = 15.0  # seconds between keep-alive comments
BACKLOG = 2000  # lines queued for one follower before it is let go (it reconnects and catches up)
RETRY_MS = 2000  # the reconnect delay the browser is told
MAX_SEQ = 2**62  # a resume point past every line of every match
READ_ON_LOOP = 64  # new notifications read on the event loop itself; more are read in a thread
HEADERS = {"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"}
PING = b": keep-alive\n\n"


def encode(data: Any, key: int | None = None, name: str | None = None) -> bytes:
    """One SSE event, as the bytes sent (made once per line, whatever the followers)."""
    head = f"id: {key}\n" if key is not None else ""
    head += f"event: {name}\n" if name else ""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        return (head + "data: " + text + "\n\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (from a hostile path): escaped, or the stream would break
        return (head + "data: " + json.dumps(data, ensure_ascii=True, separators=(",", ":")) + "\n\n").encode("ascii")


class Follower:
    """One open stream: the events the watcher hands it (shared bytes), and what wakes it."""

    __slots__ = ("dropped", "gone", "items", "ping", "wake")

    def __init__(self) -> None:
        self.items: deque[tuple[int, bytes]] = deque()
        self.wake = asyncio.Event()
        self.ping = False
        self.dropped = False  # too far behind: let go (it reconnects and catches up from the store)
        self.gone = False  # the client went away

    def put(self, key: int, chunk: bytes) -> None:
        if len(self.items) >= BACKLOG:
            self.dropped = True
        else:
            self.items.append((key, chunk))
        self.wake.set()


class Hub:
    """The one watcher of the store in this process (see the module's docstring)."""

    def __init__(self, store: Any, interval: float = INTERVAL, keepalive: float = KEEPALIVE):
        self.store = store
        self.interval = interval
        self.keepalive = keepalive
        self.matches: dict[Any, set[Follower]] = {}  # stream id -> followers of that match
        self.events: dict[str, set[Follower]] = {}  # event key (name_key) -> followers of the event's desk
        self.event_of: dict[Any, str] = {}  # stream id -> event key, for the streams of followed events
        self.match_of: dict[Any, str | None] = {}  # stream id -> match id, for the same (None: the event's own stream)
        self.seen: int | None = None  # the last notification id handed out
        self.task: asyncio.Task[None] | None = None
        self.nudge: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listener: threading.Thread | None = None
        self.stopping = threading.Event()
        self.looks = 0  # how many times the store was asked
        self.encoded = 0  # how many events were encoded (once per line, not per follower)
        self.con: sqlite3.Connection | None = None

    # -- followers ---------------------------------------------------------------------

    def busy(self) -> bool:
        return bool(self.matches or self.events)

    async def _start(self) -> None:
        """Before a follower is added: make sure the watcher runs and knows where the log ends
        (a follower reads from the store what came before that point itself)."""
        if self.nudge is None:
            self.loop = asyncio.get_running_loop()
            self.nudge = asyncio.Event()
        if not self.busy():
            top = await self._top()
            if not self.busy():  # nobody came meanwhile (their start has set it already)
                self.seen = top
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())
            if self.store.is_postgres and self.listener is None:
                self.listener = threading.Thread(target=self._listen, name="kifu-listen", daemon=True)
                self.listener.start()
        self.nudge.set()

    async def follow_match(self, stream: Any) -> Follower:
        await self._start()
        f = Follower()
        self.matches.setdefault(stream, set()).add(f)
        return f

    async def follow_event(self, event: str, streams: Iterable[tuple[Any, str | None]]) -> Follower:
        await self._start()
        key = name_key(event)
        for stream, mid in streams:
            self.event_of[stream] = key
            self.match_of[stream] = mid
        f = Follower()
        self.events.setdefault(key, set()).add(f)
        return f

    def leave_match(self, stream: Any, f: Follower) -> None:
        fs = self.matches.get(stream)
        if fs is not None:
            fs.discard(f)
            if not fs:
                del self.matches[stream]

    def leave_event(self, event: str, f: Follower) -> None:
        key = name_key(event)
        fs = self.events.get(key)
        if fs is not None:
            fs.discard(f)
            if not fs:
                del self.events[key]
                for s in [s for s, e in self.event_of.items() if e == key]:
                    del self.event_of[s]
                    self.match_of.pop(s, None)

    def poke(self) -> None:
        """A write of this process: look now rather than at the next interval."""
        if self.nudge is not None and self.loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                self.loop.call_soon_threadsafe(self.nudge.set)

    # -- the watcher -------------------------------------------------------------------

    async def _run(self) -> None:
        assert self.nudge is not None and self.loop is not None
        last_ping = time.monotonic()
        while True:
            if not self.busy():
                self.nudge.clear()
                await self.nudge.wait()  # nobody follows: no queries at all
                last_ping = time.monotonic()
                continue
            wait = self.keepalive - (time.monotonic() - last_ping)
            if not self.store.is_postgres:
                wait = min(wait, self.interval)
            # a timer handle, not wait_for: no task is made for each look
            timer = self.loop.call_later(max(0.0, wait), self.nudge.set)
            await self.nudge.wait()
            timer.cancel()
            self.nudge.clear()
            if time.monotonic() - last_ping >= self.keepalive:
                last_ping = time.monotonic()
                for fs in (*self.matches.values(), *self.events.values()):
                    for f in fs:
                        f.ping = True
                        f.wake.set()
            try:
                await self._look()
            except Exception:  # a busy or restarting database: look again next time
                await asyncio.sleep(self.interval)

    def _connection(self) -> sqlite3.Connection:
        """The watcher's own connection (SQLite): a read in WAL mode waits for no writer (the
        library's pool would make it wait for this process's writes), so it is asked on the
        event loop without a thread hand-off."""
        if self.con is None:
            self.con = sqlite3.connect(self.store.db, timeout=0.05, isolation_level=None, check_same_thread=False)
        return self.con

    def _sqlite_top(self) -> int:
        return self.store.max_notification_id(self._connection())

    async def _top(self) -> int:
        if self.store.is_postgres:
            return int(await run_in_threadpool(self.store.max_notification_id))
        try:
            return self._sqlite_top()
        except sqlite3.Error:  # a checkpoint or a recovery in the way: in a thread, with patience
            return int(await run_in_threadpool(self.store.max_notification_id))

    async def _look(self) -> None:
        self.looks += 1
        top = await self._top()
        while self.seen is not None and top > self.seen and self.busy():
            want = set(self.matches) | set(self.event_of)
            headers = bool(self.events)
            if not self.store.is_postgres and top - self.seen <= READ_ON_LOOP:
                try:  # a few lines (the usual case): read here, on the watcher's connection
                    page = self._read_sqlite(self.seen, top, want, headers)
                except sqlite3.Error:
                    page = await run_in_threadpool(self._read, self.seen, top, want, headers)
            else:
                page = await run_in_threadpool(self._read, self.seen, top, want, headers)
            if not page:
                break
            for nid, stream, entry, header in page:
                self.seen = nid
                if header is not None:
                    key = name_key((header.get("match") or {}).get("event"))
                    if key in self.events:  # a new match of a followed event
                        self.event_of[stream] = key
                        self.match_of[stream] = header["match"]["id"]
                        chunk = encode({"match": header["match"]["id"], "seq": 0}, nid)
                        for f in self.events[key]:
                            f.put(nid, chunk)
                    continue
                if entry is None:
                    continue
                ev = self.event_of.get(stream)
                if ev is not None and self.match_of.get(stream) is None:  # a line of the event's own stream
                    if self.events.get(ev):
                        said = {"line": entry.get("type"), "seq": entry.get("seq")}
                        if "table" in entry:  # a report or an extension: the one table it is about
                            said["table"] = entry.get("table")
                        chunk = encode(said, nid)
                        for f in self.events[ev]:
                            f.put(nid, chunk)
                    continue
                fs = self.matches.get(stream)
                if fs:
                    seq = int(entry["seq"])
                    chunk = encode(entry, seq)  # once, for every follower of the match
                    self.encoded += 1
                    for f in fs:
                        f.put(seq, chunk)
                ev = self.event_of.get(stream)
                if ev is not None and self.events.get(ev):
                    chunk = encode({"match": self.match_of.get(stream), "seq": entry["seq"]}, nid)
                    for f in self.events[ev]:
                        f.put(nid, chunk)
            self.seen = max(self.seen or 0, page[-1][0])

    def _decoded(self, nid: int, stream: Any, version: int, state: bytes, want: set[Any],
                 headers: bool) -> tuple[int, Any, Any, Any]:
        if stream in want:
            found = self.store.decode_state(state)  # a match's line (entry), or one of an event's own (line)
            return (nid, stream, found.get("entry") or found.get("line"), None)
        if headers and version == 1:
            return (nid, stream, None, self.store.decode_state(state).get("header"))
        return (nid, stream, None, None)

    def _read_sqlite(self, after: int, top: int, want: set[Any], headers: bool) -> list[tuple[int, Any, Any, Any]]:
        """The same as ``_read``, on the watcher's own connection (no thread, no pool lock)."""
        rows = self.store.raw_notifications(after, top, 500, connection=self._connection())
        return [self._decoded(nid, stream, version, state, want, headers) for nid, stream, version, state in rows]

    def _read(self, after: int, top: int, want: set[Any], headers: bool) -> list[tuple[int, Any, Any, Any]]:
        """Notifications after ``after`` up to ``top``, decoded only for the wanted streams
        (and the first event of every stream, its header, when an event is followed)."""
        rows = self.store.raw_notifications(after, top, 500)
        return [self._decoded(nid, stream, version, state, want, headers) for nid, stream, version, state in rows]

    def _listen(self) -> None:
        """PostgreSQL: wake the watcher on every NOTIFY of the library's channel."""
        import psycopg

        channel = self.store.notify_channel
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.store.db, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f'LISTEN "{channel}"')
                    self.poke()  # whatever came while we were not listening
                    while not self.stopping.is_set():
                        for _ in conn.notifies(timeout=1.0, stop_after=1):
                            self.poke()
            except Exception:
                self.stopping.wait(1.0)  # the database went away: listen again in a second

    def close(self) -> None:
        self.stopping.set()
        if self.task is not None:
            self.task.cancel()
        if self.con is not None:
            self.con.close()
            self.con = None


# -- the responses ---------------------------------------------------------------------


def resume_point(request: Request) -> int | None:
    """Where a follower resumes: ``Last-Event-ID`` (a reconnect) before ``?after=``."""
    for raw in (request.headers.get("last-event-id"), request.query_params.get("after")):
        seq = count_of(raw)
        if seq is not None:
            # a seq past any match's length resumes at its end (SQLite's integers stop at 2**63)
            return min(seq, MAX_SEQ)
    return None


Opening = Callable[[], Awaitable[tuple[Follower, list[bytes], int]]]


class EventStream(Response):
    """A ``text/event-stream`` response fed by the watcher. Not Starlette's StreamingResponse:
    that one runs two tasks per connection and encodes each chunk for each follower; here the
    connection's own task sends the shared bytes it is handed, and one waiting ``receive``
    notices the client leaving (no per-follower timer, nothing done while nothing happens)."""

    media_type = "text/event-stream"

    def __init__(self, opening: Opening, leave: Callable[[Follower], None]):
        self.opening = opening
        self.leave = leave
        self.status_code = 200
        self.background = None
        self.init_headers(HEADERS)  # no body: no Content-Length

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        f, first, last = await self.opening()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            f.gone = True
            f.wake.set()

        watcher = asyncio.ensure_future(watch())
        try:
            await send({"type": "http.response.body", "body": b"".join(first), "more_body": True})
            while not f.gone:
                await f.wake.wait()
                f.wake.clear()
                out = []
                items = f.items
                while items:
                    key, chunk = items.popleft()
                    if key > last:
                        last = key
                        out.append(chunk)
                if f.ping and not out:
                    out.append(PING)
                f.ping = False
                if f.gone:
                    break
                if out:
                    await send({"type": "http.response.body", "body": out[0] if len(out) == 1 else b"".join(out),
                                "more_body": True})
                if f.dropped:
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    break
        except OSError:  # the client went away mid-write
            pass
        finally:
            watcher.cancel()
            self.leave(f)


async def match_stream(request: Request, hub: Hub, match_id: str) -> Response:
    """``GET /api/matches/ID/stream``: see the module's docstring."""
    store = hub.store
    await run_in_threadpool(store.last_seq, match_id)  # an unknown match is a 404 before the stream opens
    stream = store.stream_of(match_id)
    after = resume_point(request)

    async def opening() -> tuple[Follower, list[bytes], int]:
        f = await hub.follow_match(stream)  # first, so that no line falls between the read and the follow
        try:
            start: int = after if after is not None else await run_in_threadpool(store.last_seq, match_id)
            lines = await run_in_threadpool(store.load_since, match_id, start)
        except BaseException:
            hub.leave_match(stream, f)
            raise
        top = start + len(lines)
        first = [f"retry: {RETRY_MS}\n".encode() + encode({"match": match_id, "steps": top}, name="ready")]
        first += [encode(e, int(e["seq"])) for e in lines]
        return f, first, top

    return EventStream(opening, lambda f: hub.leave_match(stream, f))


def event_match_ids(cache: Any, event: str) -> list[str]:
    """The ids of an event's matches, from the read model through its event index (what the
    desk shows, its name compared as ``name_key`` does); the server's own summaries only when
    the read model cannot be used (locked, another store's, damaged), as the desk does."""
    from projections import listing, readmodel

    try:
        rm = readmodel.catch_up_store(cache.store)
    except (readmodel.ReadModelError, sqlite3.Error):
        key = name_key(event)
        with cache.lock:
            return [s["id"] for s in cache.list() if name_key(s.get("event")) == key]
    try:
        return [mid for mid, _ in listing.event_matches(rm.db.conn, event)]
    finally:
        rm.close()


def event_stream(request: Request, hub: Hub, event: str, matches: list[str]) -> Response:
    """``GET /api/events/EVENT/stream``: one event per new line of any match of the event,
    ``data: {"match", "seq"}``, and per new line of the event's own stream (a pairing, a close,
    a report, an extension), ``data: {"line", "seq"}`` (and ``table`` for a report or an
    extension), each with the notification id as its id
    (the desk, the clock and a player's page refresh on it; a reconnect is answered with
    ``ready`` and they refresh once)."""
    store = hub.store
    from recorder.ids import tournament_uuid

    async def opening() -> tuple[Follower, list[bytes], int]:
        followed: list[tuple[Any, str | None]] = [(store.stream_of(m), m) for m in matches]
        f = await hub.follow_event(event, [*followed, (tournament_uuid(event), None)])
        first = [f"retry: {RETRY_MS}\n".encode() + encode({"event": event, "matches": len(matches)}, name="ready")]
        return f, first, 0

    return EventStream(opening, lambda f: hub.leave_event(event, f))


__all__ = ["EventStream", "Follower", "Hub", "encode", "event_match_ids", "event_stream", "match_stream",
           "resume_point"]
