"""The replay page through a real ``kifu serve`` (uvicorn on 127.0.0.1), beside a bare
Starlette + Jinja page of the same size served by uvicorn in the same run.

The client keeps its connections alive (one ``http.client`` connection per thread) and asks
for the match page at seeded random steps, at concurrency 1 and 8.
"""

from __future__ import annotations

import http.client
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

from recorder.logformat import read_file
from recorder.tools.bench.cli_paths import short_example
from recorder.tools.bench.context import Bench, long_match, with_id
from recorder.tools.bench.measure import BenchError, Goal, Runs, child_env, figure

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextmanager
def server(argv: Sequence[str], port: int, cwd: str,
           env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """A server process, up when this yields, stopped (by its own pid) after. ``env``: more
    environment (a PostgreSQL store's side files)."""
    log = open(os.path.join(cwd, f"server-{port}.log"), "w+b")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(list(argv), stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=child_env(env), cwd=cwd)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection(HOST, port, timeout=5)
                conn.request("GET", "/")
                conn.getresponse().read()
                conn.close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    err = log.read().decode("utf-8", "replace")
                    raise BenchError(f"server {' '.join(argv[:3])}… did not start: {err.strip()[-300:]}") from None
                time.sleep(0.1)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a running process (Linux /proc; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def fetch(port: int, path: str) -> bytes:
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        body = resp.read()
        if resp.status != 200:
            raise BenchError(f"GET {path}: HTTP {resp.status}: {body[:200]!r}")
        return body
    finally:
        conn.close()


def load(port: int, paths: Sequence[str], concurrency: int) -> tuple[float, list[float]]:
    """(wall seconds, latencies) of asking for every path once, ``concurrency`` at a time,
    each thread on its own keep-alive connection."""
    todo = iter(paths)
    lock = threading.Lock()
    latencies: list[float] = []
    errors: list[str] = []
    start_line = threading.Barrier(concurrency + 1)

    def worker() -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=120)
        start_line.wait()
        try:
            while True:
                with lock:
                    path = next(todo, None)
                if path is None:
                    return
                t = time.perf_counter()
                conn.request("GET", path)
                resp = conn.getresponse()
                resp.read()
                took = time.perf_counter() - t
                if resp.status != 200:
                    errors.append(f"GET {path}: HTTP {resp.status}")
                    return
                with lock:
                    latencies.append(took)
        except OSError as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            conn.close()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(concurrency)]
    for t in threads:
        t.start()
    start_line.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    if errors:
        raise BenchError(errors[0])
    return wall, latencies


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_pages(b: Bench) -> None:
    from exports.matchview import WINDOW
    from recorder.store import Store

    length = b.size(10_000, 1_000)
    db = b.path("pages.db")
    store = Store(db)
    header, entries = read_file(short_example())
    short_id = store.create(header, entries)
    lheader, lmoves = long_match(length)
    long_id = store.create(with_id(lheader, "long-page"), lmoves[:length])
    # A match long enough to fill the move list's window (WINDOW lines): the page of any longer
    # match has the same parts, so this is what "independent of length" compares with. The
    # 26-line example shows a shorter list, and so a smaller page.
    window = 3 * WINDOW
    window_id = store.create(with_id(lheader, "window-page"), lmoves[:window])
    store.close()
    matches = {"short": (short_id, len(entries)), "window": (window_id, window), "long": (long_id, length)}
    requests = {1: b.size(60, 10), 8: b.size(160, 24)}
    kport, bport = free_port(), free_port()
    kifu_argv = [*b.kifu, "--db", db, "serve", "--port", str(kport)]
    bare_argv = [sys.executable, "-m", "recorder.tools.bench.barepage", "--port", str(bport)]
    total = len(matches) * len(requests) * b.runs * 2
    with b.step("replay page through kifu serve and a bare Starlette page", total) as advance, \
            server(kifu_argv, kport, str(b.tmp)) as kproc, server(bare_argv, bport, str(b.tmp)) as bproc:
        for name, (mid, steps) in matches.items():
            rng = random.Random(5)
            base = f"/matches/{quote(mid, safe='')}?step="
            for step in (steps // 2, steps):  # warm: the server's first request of a match folds it
                fetch(kport, f"{base}{step}")
            size = len(fetch(kport, f"{base}{steps // 2}"))
            bare_size = len(fetch(bport, f"/page?bytes={size}"))
            for conc, count in requests.items():
                kifu, bare = Runs("req/s", higher_is_better=True), Runs("req/s", higher_is_better=True)
                p50, p95, bp50, bp95, server_ms = [], [], [], [], []
                for _ in range(b.runs):  # interleaved: kifu, then the bare page
                    paths = [f"{base}{rng.randrange(steps + 1)}" for _ in range(count)]
                    cpu = cpu_seconds(kproc.pid)
                    wall, lat = load(kport, paths, conc)
                    server_ms.append((cpu_seconds(kproc.pid) - cpu) / count * 1000)
                    kifu.add(count / wall, count / max(server_ms[-1] * count / 1000, 1e-9))
                    p50.append(pct(lat, 0.5) * 1000)
                    p95.append(pct(lat, 0.95) * 1000)
                    advance()
                    cpu = cpu_seconds(bproc.pid)
                    wall, lat = load(bport, [f"/page?bytes={size}&step={i}" for i in range(count)], conc)
                    bare.add(count / wall, count / max(cpu_seconds(bproc.pid) - cpu, 1e-9))
                    bp50.append(pct(lat, 0.5) * 1000)
                    bp95.append(pct(lat, 0.95) * 1000)
                    advance()
                fid = f"pages.sqlite.{name}.c{conc}"
                goal = None
                if name == "long":
                    goal = Goal(f"per-step cost independent of match length (≥ 0.8× the {window}-line match's rate)",
                                ">=", 0.8, on=f"pages.sqlite.window.c{conc}")
                figure(b.results, fid, section="pages", backend="sqlite",
                       what=f"replay page at a random step, {steps:,}-line match, concurrency {conc}",
                       runs=kifu, baseline=(f"bare Starlette+Jinja page of {bare_size // 1024} KiB, uvicorn", bare),
                       goal=goal,
                       notes=f"{count} requests a run over keep-alive connections; kifu page {size // 1024} KiB; "
                             "CPU rates are requests per second of the server process's CPU time (/proc)",
                       extra={"p50_ms": _med(p50), "p95_ms": _med(p95), "baseline_p50_ms": _med(bp50),
                              "baseline_p95_ms": _med(bp95), "server_cpu_ms_per_request": _med(server_ms),
                              "page_bytes": size, "baseline_page_bytes": bare_size})


def _med(values: Sequence[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


__all__: list[Any] = ["bench_pages"]
