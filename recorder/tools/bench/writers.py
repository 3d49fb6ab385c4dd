"""Write throughput with one server and with two on the same store (issue 25: "on PostgreSQL
two servers write more than one"): W scorekeepers' phones in a closed loop (each POSTs its
table's next legal move, with an idempotency key and ``expect``, as soon as the last one was
acknowledged), spread over one ``kifu serve --workers 1`` or over two of them on the same store,
for a fixed number of lines each. The figure is acknowledged POSTs per second with two servers, beside one
server in the same run; each run on a store of its own. On SQLite both servers write through
one file lock, so two cannot write more than one; on PostgreSQL they can.

Run alone: ``python -m recorder.tools.bench.writers [--db postgresql://…] [--writers W]
[--moves M] [--runs N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from recorder.tools.bench import live_clients as clients
from recorder.tools.bench.measure import BenchError, Goal, Runs, figure

HOST = clients.HOST


def _matches(db: str, writers: int, tag: str) -> list[tuple[str, list[dict[str, Any]]]]:
    from recorder.tools.bench.live_load import Plan, prepare

    made = prepare(db, Plan(points=((writers, 0),), modes=(tag,)))
    return made[0, 0, tag]


def throughput(db: str, servers: int, writers: int, moves: int, kifu: Sequence[str], cwd: str,
               env: dict[str, str] | None = None) -> tuple[float, int]:
    """Acknowledged POSTs per second of ``writers`` closed-loop phones spread over ``servers``
    ``kifu serve`` processes on ``db``, each phone posting its table's next ``moves`` lines (or
    all it has, if fewer); counted while every phone still had moves to post; and the number of
    failed POSTs (none expected). The run is judged by counts, never by the wall clock: a busy
    machine makes it slower, not wrong."""
    from recorder.tools.bench.live_load import HEAD_LINES
    from recorder.tools.bench.pages import free_port, server

    matches = _matches(db, writers, f"w{servers}")
    ports = [free_port() for _ in range(servers)]
    todo = {m: lines[1:1 + moves] for m, lines in matches}
    with contextlib.ExitStack() as stack:
        for port in ports:
            argv = [*kifu, "--db", db, "serve", "--host", HOST, "--port", str(port), "--token", clients.TOKEN,
                    "--workers", "1"]
            stack.enter_context(server(argv, port, cwd, env))
        # each table's first line through its server, not counted (a match's first write folds it)
        for i, port in enumerate(ports):
            mine = [(m, lines[:1]) for k, (m, lines) in enumerate(matches) if k % servers == i]
            warm = asyncio.run(clients.post_all(port, mine, HEAD_LINES, (0, 0), time.time() + 600, "warm", pause=False))
            if warm.post_errors:
                raise BenchError(f"writers: warming the tables failed: {warm.post_errors}")

        async def all_servers() -> list[clients.Tally]:
            # no deadline that matters: every phone posts its lines, however long the machine takes
            return list(await asyncio.gather(*(
                clients.post_all(port, [(m, todo[m]) for k, (m, _) in enumerate(matches) if k % servers == i],
                                 HEAD_LINES + 1, (0, 0), time.time() + 3600, f"w{i}", pause=False)
                for i, port in enumerate(ports))))

        start = time.time()
        tallies = asyncio.run(all_servers())
    failed = sum(sum(t.post_errors.values()) for t in tallies)
    # A table that posted its last line leaves fewer phones posting: count only until the first
    # one finished (every phone then still had moves, so the load was the whole closed loop).
    sent = {k: at for t in tallies for k, at in t.posted.items() if k in t.acked}
    per_table: dict[str, list[float]] = {}
    for key, at in sent.items():
        per_table.setdefault(key.split("\t")[0], []).append(at)
    finished = [max(ats) for m, ats in per_table.items() if len(ats) >= len(todo[m])]
    if not finished:
        raise BenchError(f"writers: no table had all of its {moves} lines acknowledged ({failed} POSTs failed)")
    until = min(finished)
    counted = sum(1 for at in sent.values() if at <= until)
    return counted / max(until - start, 1e-6), failed


def bench_writers(b: Any) -> None:
    writers = b.size(64, 4)
    # each phone posts this many lines (a generated table has 30-125): about 4 s of SQLite's rate
    # with 64 phones; the quick run posts a handful, whatever the machine's speed
    moves = b.size(29, 5)
    for backend in b.backends():
        one, two = Runs("POST/s", higher_is_better=True), Runs("POST/s", higher_is_better=True)
        failed = 0
        with b.step(f"writers ({backend}): {writers} phones in a closed loop, one server then two", 2 * b.runs) as advance:
            for r in range(b.runs):
                for servers, runs in ((1, one), (2, two)):
                    db = b.store_url(backend, f"writers-{servers}-{r}")
                    rate, bad = throughput(db, servers, writers, moves, b.kifu, str(b.tmp), b.side_files(db))
                    runs.add(rate)
                    failed += bad
                    advance()
        goal = Goal("on PostgreSQL two servers write more than one (issue 25)", ">=", 1.1) if backend == "postgres" \
            else None
        figure(b.results, f"writers.{backend}.two_servers", section="writers", backend=backend,
               what=f"acknowledged POSTs per second, {writers} closed-loop phones over two kifu serve processes "
                    "(--workers 1 each) on one store",
               runs=two, baseline=("the same phones on one kifu serve --workers 1, same runs", one), goal=goal,
               notes=f"{moves} lines posted by each phone a run (counted until the first phone finished), each run on a store of its own; keyed POSTs with expect; "
                     f"{failed} POSTs failed in all",
               extra={"failed_posts": failed})


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--db", default=None, help="a postgresql:// URL of an empty database (default: SQLite files)")
    p.add_argument("--writers", type=int, default=64)
    p.add_argument("--moves", type=int, default=29, help="lines each phone posts in a run")
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args(argv)
    if a.writers < 1 or not 1 <= a.moves <= 29 or a.runs < 1:
        p.error("--writers ≥ 1, 1 ≤ --moves ≤ 29, --runs ≥ 1")
    from recorder.tools.bench.measure import kifu_argv

    out: dict[str, list[float]] = {"one": [], "two": []}
    with tempfile.TemporaryDirectory(prefix="kifu-writers-") as tmp:
        for r in range(a.runs):
            for servers, key in ((1, "one"), (2, "two")):
                db = a.db or str(Path(tmp) / f"w-{servers}-{r}.db")
                if a.db:  # a fresh schema for each run on the one database given
                    import psycopg

                    with psycopg.connect(a.db, autocommit=True) as con:
                        con.execute("drop schema public cascade")
                        con.execute("create schema public")
                env = {"KIFU_READMODEL": str(Path(tmp) / f"pg-{servers}-{r}.readmodel.db"),
                       "KIFU_BOARD_CACHE": str(Path(tmp) / f"pg-{servers}-{r}.boards.db")} if a.db else None
                rate, failed = throughput(db, servers, a.writers, a.moves, kifu_argv(), tmp, env)
                out[key].append(round(rate, 1))
                print(f"run {r + 1}: {servers} server(s): {rate:.1f} POST/s, {failed} failed", file=sys.stderr)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["bench_writers", "main", "throughput"]
