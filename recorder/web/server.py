"""The replay server (``kifu serve``): a Starlette app over one Store.

Pages (match list, match page with step-through and live follow, recording page) and a JSON
API. The match page is the report's template with boards fetched per step instead of
embedded. Replays are cached per (match, view) and extended with ``store.load_since`` so
stepping and live follow never replay from the start. Reads are public; writes need the
bearer token given by ``--token`` or ``KIFU_TOKEN`` (without one the server is read-only).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import anyio
from anyio import to_thread
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route

from exports import i18n, pages, security
from recorder.web import desk, event, players, recording, stream, viewer
from recorder.web.common import count_of
from recorder.web.common import json_response as _json
from exports.timeline import summary
from projections.base import N_, at, said
from projections.errors import (
    ConflictError,
    KifuError,
    LogFormatError,
    NotFoundError,
)
from projections.replay import VIEWS, Replay
from projections.secrecy import PublicReplay
from recorder import lists, logformat, service, tokens
from recorder.store import BusyError, Store

MAX_BODY = 64 * 1024  # one event object; a whole deck list fits many times over
POLL_MS = 1000
SHUTDOWN_S = 3  # seconds open streams are given when the server stops (their browsers reconnect elsewhere)
RETRY_AFTER = 1  # seconds a client is told to wait when the database is busy (503)
# Writes run on threads of their own (not the 40 shared by every page request): a burst of
# page requests waiting for the replays' lock must not leave a scorekeeper's POST waiting
# for a thread (measured: 256 tables + 2,000 followers, POST p99 2.7 s when they shared).
WRITE_THREADS = 16


def busy_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "the database is locked or busy", on either backend: a 503."""
    import sqlite3

    from eventsourcing.persistence import OperationalError

    found: list[type[BaseException]] = [BusyError, OperationalError, sqlite3.OperationalError]
    try:
        import psycopg

        found.append(psycopg.OperationalError)
    except ImportError:  # SQLite only
        pass
    return tuple(found)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return logformat.clip(text.splitlines()[0], 200)


REPLAYS_KEPT = 128  # replays (match, view) a server keeps; KIFU_SERVER_REPLAYS overrides


def _kept_from_env(name: str, default: int) -> int:
    given = os.environ.get(name, "")
    return int(given) if given.isdigit() else default


class Kept(OrderedDict[Any, Any]):
    """A dict that keeps at most ``keep`` entries, the least recently used let go first (a
    ``get`` that finds one counts as a use)."""

    def __init__(self, keep: int):
        super().__init__()
        self.keep = keep
        self.evicted = 0  # how many were let go (what a test and a curious operator count)

    def get(self, key: Any, default: Any = None) -> Any:
        if key in self:
            self.move_to_end(key)
            return self[key]
        return default

    def put(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > max(self.keep, 0):
            self.popitem(last=False)
            self.evicted += 1


class MatchCache:
    """Replays per (match, view), kept current from the store: at most ``keep`` of them (the
    least recently used are let go and folded again when asked for), so browsing every match
    of a season costs the memory of the last few. The list summaries are only made for the
    server's fallback list (a read model it cannot use)."""

    def __init__(self, store: Store, keep: int | None = None):
        self.store = store
        self.lock = threading.RLock()
        self.replays = Kept(keep if keep is not None else _kept_from_env("KIFU_SERVER_REPLAYS", REPLAYS_KEPT))
        self.summaries: dict[str, dict[str, Any]] = {}
        self.order: list[str] = []
        self.by_uuid: dict[Any, str] = {}
        self.seen = 0

    def replay(self, match_id: str, view: str, fresh: bool = True) -> Replay:
        """The match's replay in ``view``; for a reader who may not see its event's closed deck
        lists (recorder/lists.py), its public twin (projections/secrecy.py), kept beside it."""
        with self.lock:
            rep = self.replays.get((match_id, view))
            if rep is None:
                header, entries = self.store.load(match_id)
                rep = Replay(header, entries, view)
                self.replays.put((match_id, view), rep)
            elif fresh:
                rep.extend(self.store.load_since(match_id, rep.steps))
            if not lists.header_hidden(self.store, rep.header):
                return rep
            pub = self.replays.get((match_id, view, "public"))
            if pub is None or pub.steps > rep.steps:
                pub = PublicReplay.of(rep)
                self.replays.put((match_id, view, "public"), pub)
            elif pub.steps < rep.steps:
                pub.extend(rep.entries[pub.steps:])
            return pub  # type: ignore[no-any-return]

    def list(self) -> list[dict[str, Any]]:
        """Every match's summary, in creation order; only changed matches are recomputed."""
        with self.lock:
            top = self.store.max_notification_id()
            if top != self.seen:
                dirty: set[str] = set()
                while self.seen < top:
                    page = self.store.notifications(self.seen, limit=1000)
                    if not page:
                        break
                    for nid, event in page:
                        self.seen = nid
                        header = getattr(event, "header", None)
                        if header is not None:
                            mid = header["match"]["id"]
                            self.by_uuid[event.originator_id] = mid
                            if mid not in self.summaries:
                                self.order.append(mid)
                            dirty.add(mid)
                        elif event.originator_id in self.by_uuid:
                            dirty.add(self.by_uuid[event.originator_id])
                for mid in dirty:
                    rep = self.replay(mid, "ruled")
                    self.summaries[mid] = summary(rep.header, rep)
            return [self.summaries[m] for m in self.order if m in self.summaries]


def asked_lang(request: Request) -> str | None:
    """The language an API request asks for, as a page chooses it (``?lang=``, the cookie, the
    browser's ``Accept-Language``), or None when it says none: a script is answered in English,
    the language of the code, and the recording page's posts in the page's language."""
    given = (request.query_params.get("lang"), request.cookies.get(viewer.LANG_COOKIE),
             request.headers.get("accept-language"))
    return viewer.lang_of(request) if any(given) else None


def answer(request: Request, exc: BaseException) -> str:
    """What an error says to an API request: in the language it asks for, else in English."""
    lang = asked_lang(request)
    said = i18n.said_of(exc)
    return said if lang is None else i18n.translate(lang, said)


def conflict_detail(cache: Any, match_id: str, expect: str | None) -> dict[str, Any]:
    """What a 409 carries besides its message: the lines recorded since the writer's ``expect``
    (so a phone whose queue stopped can show both versions)."""
    if not expect or not str(expect).isdigit():
        return {}
    try:
        with cache.lock:
            rep = cache.replay(match_id, "ruled")
            since = [dict(e) for e in rep.entries[int(expect) - 1:]]
    except Exception:
        return {}
    return {"recorded": since, "steps": len(rep.entries)}


def create_app(store: Store | str | None, token: str | None = None) -> Starlette:
    store = store if isinstance(store, Store) else Store(store)
    token = token or os.environ.get("KIFU_TOKEN") or None
    cache = MatchCache(store)
    hub = stream.Hub(store)
    writes = anyio.CapacityLimiter(WRITE_THREADS)
    headers = Kept(4096)  # match id -> its header, for the writes' token check (about 2 KB each)
    headers_lock = threading.Lock()
    writers: dict[str, threading.Lock] = {}
    writers_lock = threading.Lock()

    @contextlib.contextmanager
    def writing(match_id: str) -> Iterator[None]:
        with writers_lock:
            lock = writers.setdefault(match_id, threading.Lock())
        with lock:
            yield

    def view_of(request: Request) -> str:
        view = request.query_params.get("view") or "ruled"
        if view not in VIEWS:
            raise HTTPException(400, f"view must be ruled or recorded, not {view!r}")
        return view

    def step_of(request: Request, rep: Replay, name: str = "step") -> int:
        raw = request.query_params.get(name)
        if raw in (None, ""):
            return rep.steps
        try:
            step = int(raw)
        except ValueError:
            raise HTTPException(404, f"no step {raw!r} in match {rep.header['match']['id']!r}") from None
        if not 0 <= step <= rep.steps:
            raise HTTPException(404, f"step {step} is out of range 0..{rep.steps} in match {rep.header['match']['id']!r}")
        return step

    def listing(request: Request) -> tuple[list[dict[str, Any]], int, int, int]:
        rows, total, page, per, _ = viewer.filtered(request, store, cache.list)  # paged in SQL
        return rows, total, page, per

    def locked(fn: Callable[[Request], Response]) -> Callable[[Request], Response]:
        """Replays fold lazily and keep cursors, so one request at a time touches them."""

        def run(request: Request) -> Response:
            with cache.lock:
                return fn(request)

        run.__name__ = fn.__name__
        return run

    # -- pages -------------------------------------------------------------------------------

    def home(request: Request) -> Response:
        return RedirectResponse("/matches")

    # -- API ---------------------------------------------------------------------------------

    def api_list(request: Request) -> Response:
        rows, total, page, per = listing(request)
        return _json({"matches": rows, "total": total, "page": page, "per_page": per})

    def api_match(request: Request) -> Response:
        rep = cache.replay(request.path_params["id"], view_of(request))
        out = summary(rep.header, rep)
        out["header"] = rep.header
        out["violations"] = [v.to_json() for v in rep.violations()]
        return _json(out)

    def api_log(request: Request) -> Response:
        rep = cache.replay(request.path_params["id"], "recorded")
        text = "\n".join(logformat.export_lines(rep.header, rep.entries)) + "\n"
        return PlainTextResponse(text, media_type="application/x-ndjson; charset=utf-8")

    def api_board(request: Request) -> Response:
        rep = cache.replay(request.path_params["id"], view_of(request))
        step = step_of(request, rep)
        with cache.lock:
            return _json(rep.board_json(step))

    async def api_post(request: Request) -> Response:
        body = await _read_body(request)
        try:  # one parser for every log line: limits, duplicates, NaN, surrogates (recorder.logformat)
            line = logformat.loads_object(body.decode("utf-8"), "body", N_("one JSON object (an event without seq)"))
        except UnicodeDecodeError as exc:
            raise LogFormatError([at("body: encoding", said(N_("not UTF-8 (byte 0x{byte:02x} at byte {at})"),
                                                            byte=body[exc.start], at=exc.start + 1))]) from None
        if "seq" in line:
            raise LogFormatError([at("body: seq", N_("must not be given (the server assigns it)"))])
        expect = request.query_params.get("expect")
        mid = request.path_params["id"]
        key = request.headers.get("idempotency-key") or None

        def auth() -> tokens.Grant:
            # a header never changes: no need to wait for the pages' lock, nor to fold the
            # match when its replay was let go (256 tables outnumber the replays kept)
            with headers_lock:
                header = headers.get(mid)
            if header is None:
                first = store.load_stream(store.stream_of(mid), upto=1)
                if first:
                    header = first[0].state["header"]
                else:  # no such match: the pages' one answer for that (a 404)
                    with cache.lock:
                        header = cache.replay(mid, "ruled", fresh=False).header
                with headers_lock:
                    headers.put(mid, header)
            return tokens.authorize(store, token, request.headers.get("authorization"), header, line)

        try:
            grant = await to_thread.run_sync(auth, limiter=writes)
        except tokens.AuthError as exc:
            return _json({"error": answer(request, exc)}, exc.status, {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None)
        line["token"] = grant.name

        def write(within: Callable[[Any], Any]) -> tuple[int, list[Any]]:
            if expect not in (None, "") and not expect.isdigit():
                raise ConflictError(said(N_("match {mid!r}: expect must be the seq the line will get, not {expect!r}"),
                                         mid=mid, expect=expect))
            # The one record path decides on the head fold it keeps per match (service._HEADS):
            # one writer per match at a time here, but not the pages' lock: a write waiting for
            # the database (another process holding it) holds up no page and no other table.
            with writing(mid):
                return service.record(store, mid, line, expect=int(expect) if expect else None, within=within)

        try:  # the line, its token check and its key in one transaction (tokens.inserter)
            seq, found, fresh = await to_thread.run_sync(tokens.once, store, mid, key, grant.name, write, limiter=writes)
        except tokens.AuthError as exc:  # revoked while the line was on its way
            return _json({"error": answer(request, exc)}, exc.status)
        except BusyError:
            raise
        except ConflictError as exc:
            return _json({"error": answer(request, exc), **conflict_detail(cache, mid, expect)}, 409)
        hub.poke()  # this process's followers hear of it now, not at the next look
        lang = asked_lang(request)  # an API answers in English unless a language is asked for (the page's cookie)
        said_found = [v.to_json() if lang is None else i18n.violation_json(lang, v) for v in found]
        return _json({"seq": seq, "violations": said_found, "repeated": not fresh}, 201 if fresh else 200)

    # -- live follow (recorder/web/stream.py) --------------------------------------------------

    async def api_stream(request: Request) -> Response:
        return await stream.match_stream(request, hub, request.path_params["id"])

    async def api_event_stream(request: Request) -> Response:
        event = request.path_params["event"]
        return stream.event_stream(request, hub, event, await run_in_threadpool(stream.event_match_ids, cache, event))

    # -- errors ------------------------------------------------------------------------------

    def error(request: Request, status: int, message: str, extra: Mapping[str, Any] | None = None) -> Response:
        if request.url.path.startswith("/api/") or request.url.path.endswith(("/frame", "/poll")):
            lang = asked_lang(request)  # English unless a language is asked for (the page's cookie, ?lang=)
            if lang is not None:
                message = i18n.translate(lang, message)
                if extra and "problems" in extra:
                    extra = dict(extra, problems=[i18n.translate(lang, p) for p in extra["problems"]])
            return _json({"error": logformat.clip(message, 500), **(extra or {})}, status)
        lang = viewer.lang_of(request)
        message = logformat.clip(i18n.translate(lang, message), 500)  # one short line, whatever id or value it quotes
        return HTMLResponse(pages.render("error.html", {"status": status, "message": message}, lang), status)

    async def on_http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error(request, exc.status_code, str(exc.detail))

    async def on_busy(request: Request, exc: Exception) -> Response:
        """A database locked or busy for longer than its lock timeout: nothing was written, and
        the same request a moment later will do (the phone's queue retries with its key)."""
        import sqlite3

        if isinstance(exc, sqlite3.OperationalError) and not any(w in str(exc) for w in ("locked", "busy")):
            return error(request, 500, f"database error: {_first_line(exc)}")
        resp = error(request, 503, f"database busy, nothing recorded; retry in {RETRY_AFTER} s: {_first_line(exc)}")
        resp.headers["Retry-After"] = str(RETRY_AFTER)
        return resp

    async def on_kifu(request: Request, exc: Exception) -> Response:
        if isinstance(exc, BusyError):
            return await on_busy(request, exc)
        if isinstance(exc, NotFoundError):
            return error(request, 404, i18n.said_of(exc))
        if isinstance(exc, ConflictError):
            return error(request, 409, i18n.said_of(exc))
        if isinstance(exc, LogFormatError):
            return error(request, 400, exc.problems[0] if exc.problems else str(exc), {"problems": [logformat.clip(p, 500) for p in exc.problems[:10]]})
        return error(request, 400, i18n.said_of(exc))

    routes = [
        Route("/", home),
        *viewer.routes(store, cache, locked),  # list, match page, frame, moves, poll, overlay, stats
        Route("/api/matches", locked(api_list)),
        Route("/api/matches/{id}", locked(api_match)),
        Route("/api/matches/{id}/log", locked(api_log)),
        Route("/api/matches/{id}/board", locked(api_board)),
        Route("/api/matches/{id}/events", api_post, methods=["POST"]),
        Route("/api/matches/{id}/stream", api_stream),
        Route("/api/events/{event}/stream", api_event_stream),
    ]
    routes += desk.routes(cache, locked)  # the event desk (recorder/web/desk.py, rows in exports/desk.py)
    routes += event.routes(cache, locked)  # the tournament's standings, pairings, players (recorder/web/event.py)
    routes += event.checkin_routes(store, token)  # the desk's check-in button
    routes += recording.routes(cache, store, token, locked)  # the recording page (recorder/web/recording.py)
    routes += players.routes(cache, token, locked, hub.poke, answer)  # players' pages, reports, the clock (recorder/web/players.py)
    busy: dict[Any, Any] = {exc: on_busy for exc in busy_errors()}
    app = Starlette(routes=routes, exception_handlers={HTTPException: on_http, KifuError: on_kifu, **busy},
                    lifespan=_closing(hub))
    app.add_middleware(security.SecurityHeaders)  # CSP with per-request nonces, nosniff, framing
    app.add_middleware(GZipMiddleware, minimum_size=1000)  # text/event-stream is never compressed (Starlette's default)
    app.add_middleware(lists.Readers, store=store, admin_token=token)  # who may see closed deck lists
    app.state.cache = cache
    app.state.hub = hub
    app.state.store = store
    return app


def _closing(hub: stream.Hub) -> Callable[[Starlette], Any]:
    """The app's lifespan: the store's watcher stops with the server."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        try:
            yield
        finally:
            hub.close()

    return lifespan


async def _read_body(request: Request) -> bytes:
    length = request.headers.get("content-length")
    if (count_of(length) or 0) > MAX_BODY:
        raise HTTPException(413, f"request body over {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HTTPException(413, f"request body over {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _q(text: str) -> str:
    from urllib.parse import quote

    return quote(str(text), safe="")


def app_from_env() -> Starlette:
    """The app of one worker process of ``kifu serve --workers N`` (uvicorn imports it by
    name in each process): the store and the token come from the environment ``serve`` set."""
    return create_app(os.environ.get("KIFU_SERVE_DB") or None, os.environ.get("KIFU_TOKEN") or None)


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def serve(db: str | None, host: str = "127.0.0.1", port: int = 8000, token: str | None = None,
          announce: Callable[[str], None] = print, workers: int = 1, lang: str | None = None) -> None:
    """Run the server until interrupted, printing its URL first. With ``workers`` over 1,
    that many processes share the port and the store (each with its own caches and its own
    watcher of the store, recorder/web/stream.py); a write in any reaches the followers of all."""
    import uvicorn

    from recorder.store import resolve_db

    # the start line in the reader's language, as the CLI speaks: ``lang`` (--lang), else the environment
    reader = i18n.pick(lang) if lang else i18n.from_environment()
    writable = N_("writes need the token") if (token or os.environ.get("KIFU_TOKEN")) else N_("read-only (no --token)")
    url = f"http://{host}:{port}/matches"
    if workers <= 1:
        app = create_app(db, token)
        announce(i18n.translate(reader, said(N_("kifu replay server: {url}  ({writable}; Ctrl-C to stop)"),
                                             url=url, writable=writable)))
        uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, timeout_graceful_shutdown=SHUTDOWN_S)
        return
    Store(resolve_db(db)).close()  # a bad database is one line here, not one per worker
    os.environ["KIFU_SERVE_DB"] = resolve_db(db)
    if token:
        os.environ["KIFU_TOKEN"] = token
    announce(i18n.translate(reader, said(N_("kifu replay server: {url}  ({writable}; {n} workers; Ctrl-C to stop)"),
                                         url=url, writable=writable, n=workers)))
    uvicorn.run("recorder.web.server:app_from_env", factory=True, host=host, port=port, workers=workers,
                log_level="warning", access_log=False, timeout_graceful_shutdown=SHUTDOWN_S)


__all__ = ["Kept", "MatchCache", "app_from_env", "create_app", "default_workers", "serve"]
