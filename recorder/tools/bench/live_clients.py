"""The people of the event-day load (recorder/tools/bench/live_load.py), each kind in
processes of its own so that the load generator's CPU is counted apart from the server's and
one busy client loop does not delay what it measures: the scorekeepers' phones (one process),
the followers (``clients`` processes, each one asyncio loop speaking HTTP/1.1 on raw sockets,
no thread per follower).

A child is forked with a pipe to the parent. Followers: connect every follower, send
``("ready", ...)``, follow until the parent sends ``"stop"``, send back what each follower got.
Tables: post until the wall-clock time given, send back what was acknowledged. Every socket is
to 127.0.0.1; every wait is bounded; a child whose parent goes away stops (its pipe closes).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

HOST = "127.0.0.1"
TOKEN = "bench-l0ad-token"


@dataclass
class Tally:
    """What one child measured (sent back to the parent as a dict)."""

    posted: dict[str, float] = field(default_factory=dict)  # "match\tseq" -> wall time the POST was sent
    acked: dict[str, dict[str, Any]] = field(default_factory=dict)  # "match\tseq" -> the line acknowledged
    post_ms: list[float] = field(default_factory=list)
    post_errors: dict[str, int] = field(default_factory=dict)
    got: list[tuple[int, str, int, float]] = field(default_factory=list)  # (follower, match, seq, wall time)
    follower_errors: dict[str, int] = field(default_factory=dict)
    requests: int = 0  # GETs the followers made

    def error(self, where: dict[str, int], what: str) -> None:
        where[what] = where.get(what, 0) + 1


class Conn:
    """One keep-alive connection."""

    def __init__(self, port: int):
        self.port = port
        self.r: asyncio.StreamReader | None = None
        self.w: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.r, self.w = await asyncio.open_connection(HOST, self.port, limit=2**20)

    async def head(self) -> tuple[int, dict[str, str]]:
        assert self.r is not None
        status = int((await self.r.readline()).split()[1])
        headers: dict[str, str] = {}
        while True:
            line = (await self.r.readline()).decode("latin-1").strip()
            if not line:
                return status, headers
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", f"Content-Length: {len(body)}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        data = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + body
        for attempt in (0, 1):
            reused = self.w is not None
            if not reused:
                await self.open()
            assert self.r is not None and self.w is not None
            try:
                self.w.write(data)
                await self.w.drain()
                status, head = await self.head()
                break
            except (ConnectionError, IndexError, ValueError):
                # the server closed a connection idle past its keep-alive: open another (what a
                # browser does); the requests sent here are safe to send again
                self.close()
                if not reused or attempt:
                    raise ConnectionResetError("connection closed") from None
        assert self.r is not None
        if "content-length" in head:
            answer = await self.r.readexactly(int(head["content-length"]))
        else:
            answer = b"".join([c async for c in self.chunks()])
        if head.get("connection", "").lower() == "close":
            self.close()
        return status, head, answer

    async def chunks(self) -> Any:
        assert self.r is not None
        while True:
            size = int((await self.r.readline()).strip() or b"0", 16)
            if size == 0:
                await self.r.readline()
                return
            data = await self.r.readexactly(size)
            await self.r.readline()
            yield data

    def close(self) -> None:
        if self.w is not None:
            self.w.close()
        self.r = self.w = None


# -- the phones ---------------------------------------------------------------------------


async def table(port: int, mid: str, lines: list[dict[str, Any]], seq: int, tally: Tally,
                every: tuple[float, float], until: float, rng: random.Random, pause: bool = True,
                least: int = 0) -> None:
    """A scorekeeper's phone: one line every ``every`` seconds, with a key and ``expect``,
    retried on a 503 or a dropped connection with the same key. ``until``: wall-clock time;
    ``least``: lines posted whatever the clock says (a busy machine may start this process after
    ``until``: the quick run is judged by what was posted, not by when)."""
    conn = Conn(port)
    path = f"/api/matches/{quote(mid, safe='')}/events"
    if pause:
        await asyncio.sleep(rng.uniform(0, every[1]))
    for n, line in enumerate(lines):
        if n >= least and time.time() >= until:
            break
        body = json.dumps(line, ensure_ascii=False).encode("utf-8")
        headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json",
                   "Idempotency-Key": f"{mid}:{seq + 1:06d}"}
        sent = time.monotonic()
        tally.posted[f"{mid}\t{seq + 1}"] = time.time()
        status = 0
        for _attempt in range(5):
            try:
                status, head, _ = await conn.request("POST", f"{path}?expect={seq + 1}", headers, body)
            except (OSError, asyncio.IncompleteReadError):
                conn.close()
                tally.error(tally.post_errors, "connection")
                continue
            if status == 503:
                tally.error(tally.post_errors, "503")
                await asyncio.sleep(float(head.get("retry-after", "1")))
                continue
            break
        if status not in (200, 201):
            tally.error(tally.post_errors, str(status))
            break  # the table's record is not what we think: stop this table
        tally.post_ms.append((time.monotonic() - sent) * 1000)
        tally.acked[f"{mid}\t{seq + 1}"] = line
        seq += 1
        if pause:
            await asyncio.sleep(rng.uniform(*every))
    conn.close()


async def post_all(port: int, matches: Sequence[tuple[str, list[dict[str, Any]]]], start: int,
                   every: tuple[float, float], until: float, seed: str, pause: bool = True,
                   least: int = 0) -> Tally:
    tally = Tally()
    await asyncio.gather(*(table(port, mid, list(lines), start, tally, every, until,
                                 random.Random(f"{seed}:{mid}"), pause, least) for mid, lines in matches))
    return tally


# -- the followers ------------------------------------------------------------------------


async def stream_follower(port: int, fid: int, mid: str, after: int, tally: Tally, ready: asyncio.Event,
                          stop: asyncio.Event, fetch: bool) -> None:
    """A page following by stream: on each event, the page's one GET of the new rows
    (exports/templates/_follow.js: ``news`` on each message, one at a time)."""
    conn, fetcher = Conn(port), Conn(port)
    try:
        await conn.open()
        assert conn.w is not None
        q = quote(mid, safe="")
        conn.w.write(f"GET /api/matches/{q}/stream?after={after} HTTP/1.1\r\nHost: {HOST}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        status, _ = await conn.head()
        if status != 200:
            tally.error(tally.follower_errors, f"stream {status}")
            ready.set()
            return
        buf = b""
        steps = top = after
        chunks = conn.chunks()
        halt = asyncio.ensure_future(stop.wait())
        while not stop.is_set():
            nxt = asyncio.ensure_future(chunks.__anext__())
            done, _ = await asyncio.wait({nxt, halt}, return_when=asyncio.FIRST_COMPLETED)
            if nxt not in done:
                nxt.cancel()
                break
            buf += nxt.result()
            now = time.time()
            while b"\n\n" in buf:
                event, buf = buf.split(b"\n\n", 1)
                fields = dict(line.split(": ", 1) for line in event.decode().splitlines()
                              if ": " in line and not line.startswith(":"))
                if fields.get("event") == "ready":
                    ready.set()
                elif "id" in fields:
                    seq = int(fields["id"])
                    tally.got.append((fid, mid, seq, now))
                    top = max(top, seq)
            if fetch and top > steps:  # what the page does next: fetch the new rows
                tally.requests += 1
                await fetcher.request("GET", f"/matches/{q}/poll?after={steps}&view=ruled&lang=ja")
                steps = top
        halt.cancel()
    except (OSError, asyncio.IncompleteReadError, StopAsyncIteration, ValueError) as exc:
        tally.error(tally.follower_errors, type(exc).__name__)
        ready.set()
    finally:
        conn.close()
        fetcher.close()


async def poll_follower(port: int, fid: int, mid: str, steps: int, tally: Tally, every: float,
                        ready: asyncio.Event, stop: asyncio.Event, rng: random.Random) -> None:
    """A page following as before streams: a GET of ``/poll`` ``every`` seconds after the last answer."""
    conn = Conn(port)
    q = quote(mid, safe="")
    await asyncio.sleep(rng.uniform(0, every))
    halt = asyncio.ensure_future(stop.wait())
    try:
        while not stop.is_set():
            status, _, body = await conn.request("GET", f"/matches/{q}/poll?after={steps}&view=ruled&lang=ja")
            tally.requests += 1
            ready.set()
            if status == 200:
                now = time.time()
                top = int(json.loads(body)["steps"])
                tally.got += [(fid, mid, s, now) for s in range(steps + 1, top + 1)]
                steps = max(steps, top)
            else:
                tally.error(tally.follower_errors, f"poll {status}")
            await asyncio.wait({halt}, timeout=every)
    except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
        tally.error(tally.follower_errors, type(exc).__name__)
        ready.set()
    finally:
        halt.cancel()
        conn.close()


async def follow_all(pipe: Any, port: int, mode: str, follows: Sequence[tuple[int, str]], start: int,
                     poll_every: float, fetch: bool, seed: str) -> Tally:
    tally = Tally()
    stop = asyncio.Event()
    rng = random.Random(seed)
    readies = []
    tasks = []
    for n, (fid, mid) in enumerate(follows):
        ready = asyncio.Event()
        readies.append(ready)
        if mode == "stream":
            tasks.append(asyncio.ensure_future(stream_follower(port, fid, mid, start, tally, ready, stop, fetch)))
        else:
            tasks.append(asyncio.ensure_future(poll_follower(port, fid, mid, start, tally, poll_every, ready, stop, rng)))
        if n % 50 == 49:
            await asyncio.sleep(0.02)  # connect in waves, as an audience arrives
    try:
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), timeout=120)
    except TimeoutError:
        tally.error(tally.follower_errors, "not ready in 120 s")
    pipe.send(("ready", len(tally.follower_errors)))
    loop = asyncio.get_running_loop()
    got = asyncio.Event()
    loop.add_reader(pipe.fileno(), got.set)  # the parent's "stop" (or its end: the pipe closes)
    try:
        await got.wait()
    finally:
        loop.remove_reader(pipe.fileno())
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), timeout=30)
    return tally


# -- the children -------------------------------------------------------------------------


def child(pipe: Any, kind: str, args: dict[str, Any]) -> None:
    """The body of a forked child: run one kind of client, send its tally back, exit."""
    try:
        if kind == "tables":
            tally = asyncio.run(post_all(args["port"], args["matches"], args["start"], tuple(args["every"]),
                                         args["until"], args["seed"], args.get("pause", True),
                                         args.get("least", 0)))
        else:
            tally = asyncio.run(follow_all(pipe, args["port"], args["mode"], args["follows"], args["start"],
                                           args["poll_every"], args["fetch"], args["seed"]))
        pipe.send(("done", tally.__dict__, time.process_time()))
    except BaseException as exc:  # told to the parent, which reports it as the run's error
        try:
            pipe.send(("error", f"{type(exc).__name__}: {exc}", 0.0))
        finally:
            os._exit(1)
    finally:
        pipe.close()
    os._exit(0)


def start(kind: str, args: dict[str, Any]) -> tuple[Any, Any]:
    """Fork a child running ``kind`` (``tables`` or ``followers``); its process and the
    parent's end of the pipe."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")  # quick to start; the child runs its own new loop
    mine, theirs = ctx.Pipe()
    proc = ctx.Process(target=child, args=(theirs, kind, args), daemon=True)
    proc.start()
    theirs.close()
    return proc, mine


def receive(pipe: Any, timeout: float, what: str) -> tuple[Any, ...]:
    if not pipe.poll(timeout):
        raise RuntimeError(f"the {what} sent nothing in {timeout:g} s")
    got = pipe.recv()
    if got[0] == "error":
        raise RuntimeError(f"the {what} failed: {got[1]}")
    return tuple(got)


__all__ = ["HOST", "TOKEN", "Conn", "Tally", "post_all", "receive", "start"]
