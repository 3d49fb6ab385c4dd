"""The event-day load: T tables posting a legal move every 5–10 s each through a real
``kifu serve`` (``--workers W``) on 127.0.0.1, while F followers watch the tables' matches,
first subscribed to their streams (server-sent events), then polling once a second as the
pages did before streams — the same server, the same tables, one run.

For each way of following: POST latency (p50 / p99, with the phone's idempotency key and
``expect``), delivery delay (from the moment the POST was sent to the moment a follower has
the line: the SSE event, or the poll answer that shows it; p50 / p95 / p99 over every
(follower, line) pair), the server's CPU (all its processes, from /proc) with the followers
idle (nothing posted) and under load, and the lines a follower never got. A stream follower
does what the page does on each event: one GET of ``/matches/ID/poll`` for the new rows.

The client is one asyncio loop speaking HTTP/1.1 on raw sockets (no thread per follower), in
the benchmark's process; it shares the machine's cores with the server, as a venue laptop
would not. Bounded: every phase has a fixed length, every connection is to 127.0.0.1, and the
server is stopped by its own process id at the end.

    python -m recorder.tools.bench.live_load --tables 32 --followers 200 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

HOST = "127.0.0.1"
TOKEN = "bench-l0ad-token"
GAME = "mushijingi"  # its generated matches run to 70–110 lines: enough moves for minutes of posting
HEAD_LINES = 2  # lines each match holds before the load starts


@dataclass
class Plan:
    tables: int = 32
    followers: int = 200
    seconds: float = 60.0  # posting time of each way of following
    idle: float = 10.0  # followers connected, nothing posted: what idle followers cost
    workers: int | None = None  # kifu serve --workers (default: its own default, the cores)
    every: tuple[float, float] = (5.0, 10.0)  # seconds between two posts of one table
    poll_every: float = 1.0  # the polling follower's interval (the page's POLL_MS)
    grace: float = 3.0  # after the last post, time for the last lines to arrive
    modes: tuple[str, ...] = ("stream", "poll")
    seed: int = 1


@dataclass
class Tally:
    """What one way of following measured."""

    posted: dict[tuple[str, int], float] = field(default_factory=dict)  # (match, seq) -> time sent
    post_ms: list[float] = field(default_factory=list)
    post_errors: dict[str, int] = field(default_factory=dict)
    got: list[tuple[int, str, int, float]] = field(default_factory=list)  # (follower, match, seq, time)
    follows: dict[int, str] = field(default_factory=dict)  # follower -> match
    follower_errors: dict[str, int] = field(default_factory=dict)
    requests: int = 0  # GETs the followers made

    def error(self, where: dict[str, int], what: str) -> None:
        where[what] = where.get(what, 0) + 1


# -- HTTP/1.1 on raw sockets ----------------------------------------------------------------


class Conn:
    """One keep-alive connection."""

    def __init__(self, port: int):
        self.port = port
        self.r: asyncio.StreamReader | None = None
        self.w: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.r, self.w = await asyncio.open_connection(HOST, self.port)

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


# -- the people -----------------------------------------------------------------------------


async def table(port: int, mid: str, lines: list[dict[str, Any]], seq: int, tally: Tally, plan: Plan,
                until: float, rng: random.Random, pause: bool = True) -> None:
    """A scorekeeper's phone: one line every 5–10 s, with a key and ``expect``, retried on a
    503 or a dropped connection with the same key."""
    conn = Conn(port)
    path = f"/api/matches/{quote(mid, safe='')}/events"
    if pause:
        await asyncio.sleep(rng.uniform(0, plan.every[1]))
    for line in lines:
        if time.monotonic() >= until:
            break
        body = json.dumps(line, ensure_ascii=False).encode("utf-8")
        headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json",
                   "Idempotency-Key": f"{mid}:{seq + 1:06d}"}
        sent = time.monotonic()
        tally.posted[(mid, seq + 1)] = time.time()
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
        seq += 1
        if pause:
            await asyncio.sleep(rng.uniform(*plan.every))
    conn.close()


async def stream_follower(port: int, fid: int, mid: str, after: int, tally: Tally, ready: asyncio.Event,
                          stop: asyncio.Event) -> None:
    """A page following by stream: on each event, the page's one GET of the new rows."""
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
        steps = after
        chunks = conn.chunks()
        while not stop.is_set():
            nxt = asyncio.ensure_future(chunks.__anext__())
            halt = asyncio.ensure_future(stop.wait())
            done, _ = await asyncio.wait({nxt, halt}, return_when=asyncio.FIRST_COMPLETED)
            if nxt not in done:
                nxt.cancel()
                break
            halt.cancel()
            buf += nxt.result()
            while b"\n\n" in buf:
                event, buf = buf.split(b"\n\n", 1)
                fields = dict(line.split(": ", 1) for line in event.decode().splitlines()
                              if ": " in line and not line.startswith(":"))
                if fields.get("event") == "ready":
                    ready.set()
                elif "id" in fields:
                    seq = int(fields["id"])
                    tally.got.append((fid, mid, seq, time.time()))
                    if seq > steps:  # what the page does next: fetch the new rows
                        tally.requests += 1
                        await fetcher.request("GET", f"/matches/{q}/poll?after={steps}&view=ruled&lang=ja")
                        steps = seq
    except (OSError, asyncio.IncompleteReadError, StopAsyncIteration, ValueError) as exc:
        tally.error(tally.follower_errors, type(exc).__name__)
        ready.set()
    finally:
        conn.close()
        fetcher.close()


async def poll_follower(port: int, fid: int, mid: str, steps: int, tally: Tally, plan: Plan, ready: asyncio.Event,
                        stop: asyncio.Event, rng: random.Random) -> None:
    """A page following as before streams: a GET of ``/poll`` a second after the last answer."""
    conn = Conn(port)
    q = quote(mid, safe="")
    await asyncio.sleep(rng.uniform(0, plan.poll_every))
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
            with_stop = asyncio.ensure_future(stop.wait())
            await asyncio.wait({with_stop}, timeout=plan.poll_every)
            with_stop.cancel()
    except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
        tally.error(tally.follower_errors, type(exc).__name__)
        ready.set()
    finally:
        conn.close()


# -- the server -----------------------------------------------------------------------------


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process and its children (the uvicorn workers)."""
    from recorder.tools.bench.pages import cpu_seconds

    total = cpu_seconds(pid)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            total += cpu_seconds(int(entry))
    return total


def prepare(db: str, plan: Plan) -> dict[str, list[tuple[str, list[dict[str, Any]]]]]:
    """The matches of each way of following, created with their first lines; the lines each
    table will post."""
    from projections import registry
    from recorder.store import Store
    from recorder.tools.bench.context import line_of
    from recorder.tools.synth import generate

    store = Store(db)
    out: dict[str, list[tuple[str, list[dict[str, Any]]]]] = {}
    try:
        for m, mode in enumerate(plan.modes):
            out[mode] = []
            for t in range(plan.tables):
                header, entries = generate(registry.get(GAME), plan.seed, m * 10_000 + t)
                header["match"]["id"] = f"live-{mode}-t{t + 1}"
                store.create(header, entries[:HEAD_LINES])
                out[mode].append((header["match"]["id"], [line_of(e) for e in entries[HEAD_LINES:]]))
    finally:
        store.close()
    return out


# -- one way of following -------------------------------------------------------------------


async def phase(port: int, pid: int, mode: str, matches: list[tuple[str, list[dict[str, Any]]]],
                plan: Plan) -> dict[str, Any]:
    rng = random.Random(f"{plan.seed}:{mode}")
    tally = Tally()
    load_before = os.getloadavg()[0]
    stop = asyncio.Event()
    readies = [asyncio.Event() for _ in range(plan.followers)]
    followers: list[asyncio.Task[None]] = []
    # Warm: each table's first line, not measured (a match's first write through a server
    # loads and folds it once; with few posts a run's p99 would be that first write).
    warm = Tally()
    await asyncio.gather(*(table(port, mid, lines[:1], HEAD_LINES, warm, plan, time.monotonic() + 60,
                                 random.Random(0), pause=False) for mid, lines in matches))
    if warm.post_errors or len(warm.post_ms) != len(matches):
        raise RuntimeError(f"warming the tables failed: {warm.post_errors}")
    start = HEAD_LINES + 1
    await asyncio.sleep(1.0)
    cpu_q, t_q = tree_cpu(pid), time.monotonic()
    await asyncio.sleep(min(plan.idle, 5.0))
    quiet_cores = (tree_cpu(pid) - cpu_q) / (time.monotonic() - t_q)  # the server alone, nobody following
    for fid in range(plan.followers):
        mid = matches[fid % len(matches)][0]
        tally.follows[fid] = mid
        if mode == "stream":
            followers.append(asyncio.create_task(stream_follower(port, fid, mid, start, tally, readies[fid], stop)))
        else:
            followers.append(asyncio.create_task(
                poll_follower(port, fid, mid, start, tally, plan, readies[fid], stop, rng)))
        if fid % 50 == 49:
            await asyncio.sleep(0.05)  # connect in waves, as an audience arrives
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), timeout=120)
    await asyncio.sleep(1.0)
    cpu0, t0 = tree_cpu(pid), time.monotonic()
    requests0 = tally.requests
    await asyncio.sleep(plan.idle)
    idle_cores = (tree_cpu(pid) - cpu0) / (time.monotonic() - t0)
    idle_requests = (tally.requests - requests0) / (time.monotonic() - t0)
    until = time.monotonic() + plan.seconds
    cpu1, t1, client1 = tree_cpu(pid), time.monotonic(), time.process_time()
    tables = [asyncio.create_task(table(port, mid, list(lines[1:]), start, tally, plan, until,
                                        random.Random(f"{plan.seed}:{mode}:{mid}")))
              for mid, lines in matches]
    await asyncio.wait_for(asyncio.gather(*tables), timeout=plan.seconds + 120)
    load_cores = (tree_cpu(pid) - cpu1) / (time.monotonic() - t1)
    client_cores = (time.process_time() - client1) / (time.monotonic() - t1)
    await asyncio.sleep(plan.grace + (plan.poll_every if mode == "poll" else 0))
    stop.set()
    await asyncio.wait_for(asyncio.gather(*followers, return_exceptions=True), timeout=30)
    out = summarise(mode, tally, plan, quiet_cores, idle_cores, idle_requests, load_cores, client_cores)
    out["machine_load_average"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]  # a shared machine shows here
    return out


def pct(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def summarise(mode: str, tally: Tally, plan: Plan, quiet_cores: float, idle_cores: float, idle_requests: float,
              load_cores: float, client_cores: float) -> dict[str, Any]:
    first: dict[tuple[int, str, int], float] = {}
    for fid, mid, seq, at in tally.got:
        first.setdefault((fid, mid, seq), at)
    delays = [(at - tally.posted[(mid, seq)]) * 1000 for (fid, mid, seq), at in first.items()
              if (mid, seq) in tally.posted]
    by_match: dict[str, list[int]] = {}
    for mid, seq in tally.posted:
        by_match.setdefault(mid, []).append(seq)
    owed = sum(len(by_match.get(mid, [])) for mid in tally.follows.values())
    missed = owed - sum(1 for (fid, mid, seq) in first if (mid, seq) in tally.posted)
    twice = len(tally.got) - len(first) if mode == "stream" else 0
    per_1000 = 1000 / plan.followers if plan.followers else 0
    return {
        "mode": mode, "tables": plan.tables, "followers": plan.followers, "seconds": plan.seconds,
        "posts": len(tally.post_ms), "post_p50_ms": pct(tally.post_ms, 0.5), "post_p99_ms": pct(tally.post_ms, 0.99),
        "post_errors": tally.post_errors,
        "deliveries": len(delays), "delivery_p50_ms": pct(delays, 0.5), "delivery_p95_ms": pct(delays, 0.95),
        "delivery_p99_ms": pct(delays, 0.99), "missed": missed, "delivered_twice": twice,
        "follower_errors": tally.follower_errors,
        "server_cores_quiet": round(quiet_cores, 4), "server_cores_idle": round(idle_cores, 4),
        "server_cores_idle_per_1000_followers": round(max(0.0, idle_cores - quiet_cores) * per_1000, 4),
        "follower_requests_per_s_idle": round(idle_requests, 1),
        "server_cores_load": round(load_cores, 3), "client_cores_load": round(client_cores, 3),
    }


# -- the whole run ---------------------------------------------------------------------------


def run_load(db: str, plan: Plan, kifu: Sequence[str], cwd: str) -> list[dict[str, Any]]:
    """Prepare the matches, start ``kifu serve`` (in ``cwd``, where a PostgreSQL store's side
    files go), measure each way of following, stop it."""
    from recorder.tools.bench.pages import free_port, server

    matches = prepare(db, plan)
    port = free_port()
    argv = [*kifu, "--db", db, "serve", "--host", HOST, "--port", str(port), "--token", TOKEN]
    if plan.workers:
        argv += ["--workers", str(plan.workers)]
    out = []
    with server(argv, port, cwd) as proc:  # started and stopped by its own pid (pages.py)
        for mode in plan.modes:
            out.append(asyncio.run(phase(port, proc.pid, mode, matches[mode], plan)))
    return out


def bench_live(b: Any) -> None:
    """The ``live`` section of ``kifu bench``: figures for following by stream, with polling
    (as before) as their baseline, on each backend of the run."""
    from recorder.tools.bench.measure import Goal, Runs, figure

    plan = Plan(tables=b.size(32, 8), followers=b.size(200, 40), seconds=b.size(60, 8), idle=b.size(10, 3))
    repeats = 3  # each figure a median of 3 whole runs, each on a store of its own
    for backend in b.backends():
        loads: list[tuple[dict[str, Any], dict[str, Any]]] = []
        with b.step(f"event-day load [{backend}]: {plan.tables} tables, {plan.followers} followers, "
                    f"{repeats} runs", repeats) as advance:
            for r in range(repeats):
                db = b.store_url(backend, f"live{r}")
                with b.in_process_side_files(db):  # the matches are created in this process
                    stream, poll = run_load(db, plan, b.kifu, str(b.tmp))
                loads.append((stream, poll))
                advance()
        note = (f"{plan.tables} tables posting every {plan.every[0]:g}–{plan.every[1]:g} s for {plan.seconds:g} s, "
                f"{plan.followers} followers, {repeats} runs; kifu serve with its default workers; baseline: the "
                f"same followers polling once a second, in the same runs")
        for key, what, unit, goal in (
            ("post_p99_ms", "event-day load: POST p99", "ms", Goal("≤ 250 ms", "<=", 250, on="median")),
            ("delivery_p99_ms", "event-day load: delivery p99", "ms", Goal("≤ 300 ms", "<=", 300, on="median")),
            ("server_cores_load", "event-day load: server CPU", "cores", None),
            ("server_cores_idle_per_1000_followers", "idle followers: server CPU per 1,000", "cores",
             Goal("< 0.02 core", "<=", 0.02, on="median")),
        ):
            runs, base = Runs(unit), Runs(unit)
            for stream, poll in loads:
                if stream[key] is not None:
                    runs.add(float(stream[key]))
                if poll[key] is not None:
                    base.add(float(poll[key]))
            figure(b.results, f"live.{backend}.{key}", section="live", backend=backend, what=what, runs=runs,
                   baseline=("polling once a second", base), goal=goal, notes=note,
                   extra={"runs": [{"stream": s, "poll": p} for s, p in loads]})


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=32)
    p.add_argument("--followers", type=int, default=200)
    p.add_argument("--seconds", type=float, default=60.0, help="posting time of each way of following")
    p.add_argument("--idle", type=float, default=10.0, help="seconds of idle followers before posting starts")
    p.add_argument("--workers", type=int, default=None, help="kifu serve --workers (default: its default, the cores)")
    p.add_argument("--modes", default="stream,poll", help="stream, poll or both (comma-separated)")
    p.add_argument("--db", default=None, help="a postgresql:// URL (an empty database) or a new SQLite file; default a temporary file")
    p.add_argument("-o", "--output", default=None, help="write the results as JSON here")
    a = p.parse_args(argv)
    if a.tables < 1 or a.followers < 0 or not 0 < a.seconds <= 3600 or not 0 <= a.idle <= 600:
        p.error("--tables ≥ 1, --followers ≥ 0, 0 < --seconds ≤ 3600, 0 ≤ --idle ≤ 600")
    from recorder.tools.bench.measure import kifu_argv

    plan = Plan(tables=a.tables, followers=a.followers, seconds=a.seconds, idle=a.idle, workers=a.workers,
                modes=tuple(m.strip() for m in a.modes.split(",") if m.strip()))
    with tempfile.TemporaryDirectory(prefix="kifu-live-") as tmp:
        db = a.db or str(Path(tmp) / "live.db")
        results = run_load(db, plan, kifu_argv(), tmp)
    text = json.dumps({"plan": plan.__dict__, "results": results}, ensure_ascii=False, indent=2)
    print(text)
    if a.output:
        Path(a.output).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["Plan", "bench_live", "main", "run_load"]
