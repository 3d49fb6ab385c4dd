"""Live follow pushed: ``GET /api/matches/ID/stream`` and ``GET /api/events/EVENT/stream``
(server-sent events), fed by one watcher of the store per server process.

The watcher (``Hub``) is the only thing that asks the store what is new, whatever the number
of followers: on SQLite one ``MAX(rowid)`` of the notification log every ``interval`` seconds
(0.15 by default, about 20 µs on a connection of its own), on PostgreSQL a ``LISTEN`` on the library's notification channel (the
library's recorder sends ``NOTIFY`` with every insert), so a write made by any process, on
any host, reaches the followers of every process. New notifications are read once, decoded
only for the streams somebody follows, and handed to each follower's queue. A follower
waits on its own ``asyncio.Event``: an idle follower has no timer and does no work; the one
keep-alive comment every ``keepalive`` seconds is sent by the watcher to all at once. The
watcher sleeps (no queries at all) while nobody follows.

One match's stream: one event per new line, ``id: SEQ``, ``data:`` the line as recorded
(JSON). ``Last-Event-ID`` (what the browser's EventSource sends when it reconnects) or
``?after=N`` says where to resume; the lines after it are read from the store first, then the
live ones follow, each sent once, in seq order. A follower too slow to keep up (its queue over
``BACKLOG``) is closed; its EventSource reconnects from its last id and catches up from the
store. The first thing sent is ``event: ready`` (the page's sign that the stream is held:
behind a proxy that buffers it never arrives, and the page falls back to polling).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

INTERVAL = 0.15  # seconds between two looks at the notification log (SQLite)
KEEPALIVE = 15.0  # seconds between keep-alive comments
BACKLOG = 2000  # lines queued for one follower before it is let go (it reconnects and catches up)
RETRY_MS = 2000  # the reconnect delay the browser is told
MAX_SEQ = 2**62  # a resume point past every line of every match
HEADERS = {"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"}


class Follower:
    """One open stream: what the watcher hands it, and the event that wakes it."""

    __slots__ = ("dropped", "items", "ping", "wake")

    def __init__(self) -> None:
        self.items: deque[tuple[int, Any]] = deque()
        self.wake = asyncio.Event()
        self.ping = False
        self.dropped = False

    def put(self, key: int, item: Any) -> None:
        if len(self.items) >= BACKLOG:
            self.dropped = True
        else:
            self.items.append((key, item))
        self.wake.set()


class Hub:
    """The one watcher of the store in this process (see the module's docstring)."""

    def __init__(self, store: Any, interval: float = INTERVAL, keepalive: float = KEEPALIVE):
        self.store = store
        self.interval = interval
        self.keepalive = keepalive
        self.matches: dict[Any, set[Follower]] = {}  # stream id -> followers of that match
        self.events: dict[str, set[Follower]] = {}  # event name -> followers of the event's desk
        self.event_of: dict[Any, str] = {}  # stream id -> event, for the streams of followed events
        self.match_of: dict[Any, str] = {}  # stream id -> match id, for the same
        self.seen: int | None = None  # the last notification id handed out
        self.task: asyncio.Task[None] | None = None
        self.nudge: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listener: threading.Thread | None = None
        self.stopping = threading.Event()
        self.looks = 0  # how many times the store was asked
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

    async def follow_event(self, event: str, streams: Iterable[tuple[Any, str]]) -> Follower:
        await self._start()
        for stream, mid in streams:
            self.event_of[stream] = event
            self.match_of[stream] = mid
        f = Follower()
        self.events.setdefault(event, set()).add(f)
        return f

    def leave_match(self, stream: Any, f: Follower) -> None:
        fs = self.matches.get(stream)
        if fs is not None:
            fs.discard(f)
            if not fs:
                del self.matches[stream]

    def leave_event(self, event: str, f: Follower) -> None:
        fs = self.events.get(event)
        if fs is not None:
            fs.discard(f)
            if not fs:
                del self.events[event]
                for s in [s for s, e in self.event_of.items() if e == event]:
                    del self.event_of[s]
                    self.match_of.pop(s, None)

    def poke(self) -> None:
        """A write of this process: look now rather than at the next interval."""
        if self.nudge is not None and self.loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                self.loop.call_soon_threadsafe(self.nudge.set)

    # -- the watcher -------------------------------------------------------------------

    async def _run(self) -> None:
        assert self.nudge is not None
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
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.nudge.wait(), max(0.0, wait))
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

    def _sqlite_top(self) -> int:
        """The notification log's last id, read on a connection of the watcher's own: a read
        in WAL mode waits for no writer (the library's pool would make it wait for this
        process's writes), so it is asked on the event loop without a thread hand-off."""
        if self.con is None:
            self.con = sqlite3.connect(self.store.db, timeout=0.05, isolation_level=None, check_same_thread=False)
        row = self.con.execute(f"SELECT MAX(rowid) FROM {self.store.app.recorder.events_table_name}").fetchone()
        return int(row[0] or 0)

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
            page = await run_in_threadpool(self._read, self.seen, top, want, bool(self.events))
            if not page:
                break
            for nid, stream, entry, header in page:
                self.seen = nid
                if header is not None:
                    ev = (header.get("match") or {}).get("event")
                    if ev in self.events:  # a new match of a followed event
                        self.event_of[stream] = ev
                        self.match_of[stream] = header["match"]["id"]
                        for f in self.events[ev]:
                            f.put(nid, {"match": header["match"]["id"], "seq": 0})
                    continue
                if entry is None:
                    continue
                for f in self.matches.get(stream, ()):
                    f.put(int(entry["seq"]), entry)
                ev = self.event_of.get(stream)
                if ev is not None:
                    for f in self.events.get(ev, ()):
                        f.put(nid, {"match": self.match_of.get(stream), "seq": entry["seq"]})
            self.seen = max(self.seen or 0, page[-1][0])

    def _read(self, after: int, top: int, want: set[Any], headers: bool) -> list[tuple[int, Any, Any, Any]]:
        """Notifications after ``after`` up to ``top``, decoded only for the wanted streams
        (and the first event of every stream, its header, when an event is followed)."""
        rows = self.store.app.recorder.select_notifications(after + 1, limit=500, stop=top)
        out: list[tuple[int, Any, Any, Any]] = []
        for n in rows:
            stream = n.originator_id
            if stream in want:
                out.append((n.id, stream, self.store._state(n.state).get("entry"), None))
            elif headers and n.originator_version == 1:
                out.append((n.id, stream, None, self.store._state(n.state).get("header")))
            else:
                out.append((n.id, stream, None, None))
        return out

    def _listen(self) -> None:
        """PostgreSQL: wake the watcher on every NOTIFY of the library's channel."""
        import psycopg

        channel = self.store.app.recorder.channel_name
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
        if raw is not None and raw.strip().isascii() and raw.strip().isdigit():
            # a seq past any match's length resumes at its end (SQLite's integers stop at 2**63)
            return min(int(raw.strip()), MAX_SEQ)
    return None


def _event(data: Any, key: int | None = None, name: str | None = None) -> str:
    head = f"id: {key}\n" if key is not None else ""
    head += f"event: {name}\n" if name else ""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (from a hostile path): escaped, or the stream would break
            text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return head + "data: " + text + "\n\n"


async def _tail(request: Request, hub: Hub, f: Follower, first: list[str], last: int) -> AsyncIterator[str]:
    """What a follower is sent after ``first``: the watcher's items with a key over ``last``."""
    for chunk in first:
        yield chunk
    while True:
        await f.wake.wait()
        f.wake.clear()
        out = []
        while f.items:
            key, item = f.items.popleft()
            if key > last:
                last = key
                out.append(_event(item, key))
        if f.ping and not out:
            out.append(": keep-alive\n\n")
        f.ping = False
        if out:
            yield "".join(out)
        if f.dropped:
            return


async def match_stream(request: Request, hub: Hub, match_id: str) -> Response:
    """``GET /api/matches/ID/stream``: see the module's docstring."""
    store = hub.store
    await run_in_threadpool(store.last_seq, match_id)  # an unknown match is a 404 before the stream opens
    stream = store.stream_of(match_id)
    after = resume_point(request)

    async def body() -> AsyncIterator[str]:
        f = await hub.follow_match(stream)
        try:
            start: int = after if after is not None else await run_in_threadpool(store.last_seq, match_id)
            lines = await run_in_threadpool(store.load_since, match_id, start)
            top = start + len(lines)
            first = [f"retry: {RETRY_MS}\n" + _event({"match": match_id, "steps": top}, name="ready")]
            first += [_event(e, int(e["seq"])) for e in lines]
            async for chunk in _tail(request, hub, f, first, top):
                yield chunk
        finally:
            hub.leave_match(stream, f)

    return StreamingResponse(body(), media_type="text/event-stream", headers=HEADERS)


def event_stream(request: Request, hub: Hub, event: str, matches: list[str]) -> Response:
    """``GET /api/events/EVENT/stream``: one event per new line of any match of the event,
    ``data: {"match", "seq"}`` and the notification id as its id (the desk refreshes on it;
    a reconnect is answered with ``ready`` and the desk refreshes once)."""
    store = hub.store

    async def body() -> AsyncIterator[str]:
        f = await hub.follow_event(event, [(store.stream_of(m), m) for m in matches])
        try:
            first = [f"retry: {RETRY_MS}\n" + _event({"event": event, "matches": len(matches)}, name="ready")]
            async for chunk in _tail(request, hub, f, first, 0):
                yield chunk
        finally:
            hub.leave_event(event, f)

    return StreamingResponse(body(), media_type="text/event-stream", headers=HEADERS)


__all__ = ["Follower", "Hub", "event_stream", "match_stream", "resume_point"]
