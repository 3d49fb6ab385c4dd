"""The event-day load: T tables posting a legal move every 5–10 s each through a real
``kifu serve --workers W`` on 127.0.0.1, while F followers watch the tables' matches, first
subscribed to their streams (server-sent events), then polling once a second as the pages did
before streams — the same server, one run. T and F grow along a ladder of points (up to 256
tables and 2,000 followers), so the figures show where p99 degrades.

For each point and way of following: POST latency (p50 / p99, with the phone's idempotency key
and ``expect``), delivery delay (from the moment the POST was sent to the moment a follower has
the line: the SSE event, or the poll answer that shows it; p50 / p95 / p99 over every
(follower, line) pair), the server's CPU (all its processes, from /proc) with the followers
idle (nothing posted) and under load, the load generator's CPU apart, the lines a follower
never got (``missed``) and the followers that missed any (``behind``), and what was lost: at
the end every match is exported and each acknowledged line must be stored as it was sent, once
(``lost``). A stream follower does what the page does on each event (exports/templates/
_follow.js): one GET of ``/matches/ID/poll`` for the new rows.

The clients run in processes of their own (recorder/tools/bench/live_clients.py): one for the
phones, ``clients`` for the followers. They share the machine's cores with the server, as a
venue laptop would not; their CPU is reported beside the server's, and the machine's load
average before and after each phase (other work on the machine shows there). Bounded: every
phase has a fixed length, every connection is to 127.0.0.1, and the server and the clients
are stopped by their own process ids at the end.

    python -m recorder.tools.bench.live_load --points 32x200,256x2000 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from recorder.tools.bench import live_clients as clients
from recorder.tools.bench.live_clients import HOST, TOKEN

GAME = "mushijingi"  # its generated matches run to 70–110 lines: enough moves for minutes of posting
HEAD_LINES = 2  # lines each match holds before the load starts
LADDER = ((32, 200), (64, 500), (128, 1000), (256, 2000))  # (tables, followers) of a full run
POST_P99_GOAL, DELIVERY_P99_GOAL = 250.0, 300.0  # ms (issue 25)


@dataclass
class Plan:
    points: tuple[tuple[int, int], ...] = LADDER
    seconds: float = 30.0  # posting time of each point and way of following
    idle: float = 5.0  # followers connected, nothing posted: what idle followers cost
    quiet: float = 2.0  # nobody connected: the server alone
    workers: int | None = 2  # kifu serve --workers (None: its own default, the cores)
    every: tuple[float, float] = (5.0, 10.0)  # seconds between two posts of one table
    poll_every: float = 1.0  # the polling follower's interval (the page's POLL_MS)
    grace: float = 3.0  # after the last post, time for the last lines to arrive
    modes: tuple[str, ...] = ("stream", "poll")
    clients: int = 2  # processes the followers are spread over
    fetch: bool = True  # a stream follower fetches the new rows on each event, as the page does
    seed: int = 1
    least: int = 0  # lines each table posts whatever the clock says (the quick run: counts, not time)


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


def prepare(db: str, plan: Plan, runs: int = 1) -> dict[tuple[int, int, str], list[tuple[str, list[dict[str, Any]]]]]:
    """The matches of each run, point and way of following, created with their first lines;
    the lines each table will post."""
    from projections import registry
    from recorder.store import Store
    from recorder.tools.bench.context import line_of
    from recorder.tools.synth import generate

    store = Store(db)
    out: dict[tuple[int, int, str], list[tuple[str, list[dict[str, Any]]]]] = {}
    try:
        for r in range(runs):
            for p, (tables, followers) in enumerate(plan.points):
                for m, mode in enumerate(plan.modes):
                    out[r, p, mode] = []
                    for t in range(tables):
                        header, entries = generate(registry.get(GAME), plan.seed, p * 100_000 + m * 10_000 + t)
                        header["match"]["id"] = f"live-r{r + 1}-{tables}x{followers}-{mode}-t{t + 1}"
                        store.create(header, entries[:HEAD_LINES])
                        out[r, p, mode].append((header["match"]["id"], [line_of(e) for e in entries[HEAD_LINES:]]))
    finally:
        store.close()
    return out


def stored(port: int, mid: str) -> list[dict[str, Any]]:
    """A match's lines as the server exports them (its log, without the header)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request("GET", f"/api/matches/{quote(mid, safe='')}/log")
        text = conn.getresponse().read().decode("utf-8")
    finally:
        conn.close()
    return [json.loads(line) for line in text.splitlines()[1:] if line.strip()]


def lost_lines(port: int, matches: Sequence[tuple[str, Any]], acked: dict[str, dict[str, Any]]) -> int:
    """Acknowledged lines not stored as sent, and lines stored that nobody acknowledged (twice)."""
    by_match: dict[str, dict[int, dict[str, Any]]] = {}
    for key, line in acked.items():
        mid, at = key.split("\t")
        by_match.setdefault(mid, {})[int(at)] = line
    lost = 0
    for mid, _ in matches:
        entries = {int(e["seq"]): e for e in stored(port, mid)}
        want = by_match.get(mid, {})
        for n, line in want.items():
            got = entries.get(n)
            if got is None or any(got.get(k) != v for k, v in line.items()):
                lost += 1
        lost += max(0, len(entries) - (HEAD_LINES + 1 + len(want)))  # + 1: the warm-up line
    return lost


# -- one point, one way of following ----------------------------------------------------------


def phase(port: int, pid: int, mode: str, matches: list[tuple[str, list[dict[str, Any]]]], followers: int,
          plan: Plan) -> dict[str, Any]:
    load_before = os.getloadavg()[0]
    # Warm: each table's first line, not measured (a match's first write through a server
    # loads and folds it once; with few posts a run's p99 would be that first write).
    warm = asyncio.run(clients.post_all(port, [(m, lines[:1]) for m, lines in matches], HEAD_LINES, (0, 0),
                                        time.time() + 60, "warm", pause=False))
    if warm.post_errors or len(warm.post_ms) != len(matches):
        raise RuntimeError(f"warming the tables failed: {warm.post_errors}")
    start = HEAD_LINES + 1
    time.sleep(min(plan.quiet, 0.5))
    cpu_q, t_q = tree_cpu(pid), time.monotonic()
    time.sleep(plan.quiet)
    quiet_cores = (tree_cpu(pid) - cpu_q) / (time.monotonic() - t_q)  # the server alone, nobody following
    follows = [(fid, matches[fid % len(matches)][0]) for fid in range(followers)]
    kids = []
    try:
        for c in range(max(1, min(plan.clients, followers))):
            kids.append(clients.start("followers", {
                "port": port, "mode": mode, "follows": follows[c::plan.clients], "start": start,
                "poll_every": plan.poll_every, "fetch": plan.fetch, "seed": f"{plan.seed}:{mode}:{c}"}))
        for _, pipe in kids:
            clients.receive(pipe, 150, "followers")  # ("ready", errors)
        time.sleep(min(plan.idle, 1.0))
        cpu0, t0 = tree_cpu(pid), time.monotonic()
        time.sleep(plan.idle)
        idle_cores = (tree_cpu(pid) - cpu0) / (time.monotonic() - t0)
        from recorder.tools.bench.pages import cpu_seconds

        def client_cpu() -> float:
            return sum(cpu_seconds(p.pid) for p, _ in kids)

        until = time.time() + plan.seconds
        cpu1, t1, client1 = tree_cpu(pid), time.monotonic(), client_cpu()
        phones = clients.start("tables", {"port": port, "matches": [(m, lines[1:]) for m, lines in matches],
                                          "start": start, "every": plan.every, "until": until,
                                          "seed": f"{plan.seed}:{mode}", "least": plan.least})
        kids.append(phones)
        client1 += cpu_seconds(phones[0].pid)
        _, posted, _ = clients.receive(phones[1], plan.seconds + 120, "tables")
        load_cores = (tree_cpu(pid) - cpu1) / (time.monotonic() - t1)
        client_cores = (client_cpu() - client1) / (time.monotonic() - t1)
        time.sleep(plan.grace + (plan.poll_every if mode == "poll" else 0))
        tallies = []
        for _, pipe in kids[:-1]:
            pipe.send("stop")
        for _, pipe in kids[:-1]:
            tallies.append(clients.receive(pipe, 60, "followers")[1])
    finally:
        for proc, pipe in kids:
            pipe.close()
            proc.join(10)
            if proc.is_alive():
                proc.kill()
                proc.join(5)
    tally = clients.Tally(**posted)
    for t in tallies:
        tally.got += [tuple(g) for g in t["got"]]
        tally.requests += t["requests"]
        for k, v in t["follower_errors"].items():
            tally.follower_errors[k] = tally.follower_errors.get(k, 0) + v
    out = summarise(mode, tally, dict(follows), plan, followers, len(matches))
    out.update({"server_cores_quiet": round(quiet_cores, 4), "server_cores_idle": round(idle_cores, 4),
                "server_cores_idle_per_1000_followers":
                    round(max(0.0, idle_cores - quiet_cores) * 1000 / followers, 4) if followers else None,
                "server_cores_load": round(load_cores, 3), "client_cores_load": round(client_cores, 3),
                "lost": lost_lines(port, matches, tally.acked),
                "machine_load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)]})
    return out


def pct(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def summarise(mode: str, tally: clients.Tally, follows: dict[int, str], plan: Plan, followers: int,
              tables: int) -> dict[str, Any]:
    first: dict[tuple[int, str, int], float] = {}
    for fid, mid, seq, at in tally.got:
        first.setdefault((fid, mid, seq), at)
    acked: dict[str, list[int]] = {}
    for key in tally.acked:
        match, n = key.split("\t")
        acked.setdefault(match, []).append(int(n))
    delays = []
    missed = 0
    behind: set[int] = set()
    for fid, mid in follows.items():
        for seq in acked.get(mid, []):
            when = first.get((fid, mid, seq))
            if when is None:
                missed += 1
                behind.add(fid)
            else:
                delays.append((when - tally.posted[f"{mid}\t{seq}"]) * 1000)
    return {
        "mode": mode, "tables": tables, "followers": followers, "seconds": plan.seconds,
        "posts": len(tally.post_ms), "post_p50_ms": pct(tally.post_ms, 0.5), "post_p99_ms": pct(tally.post_ms, 0.99),
        "post_errors": tally.post_errors,
        "deliveries": len(delays), "delivery_p50_ms": pct(delays, 0.5), "delivery_p95_ms": pct(delays, 0.95),
        "delivery_p99_ms": pct(delays, 0.99), "missed": missed, "behind": len(behind),
        "delivered_twice": len(tally.got) - len(first) if mode == "stream" else 0,
        "follower_errors": tally.follower_errors, "follower_requests": tally.requests,
    }


# -- the whole run ---------------------------------------------------------------------------


def run_load(db: str, plan: Plan, kifu: Sequence[str], cwd: str, runs: int = 1) -> list[list[dict[str, Any]]]:
    """Prepare the matches, start ``kifu serve`` (in ``cwd``, where a PostgreSQL store's side
    files go), measure each point and way of following ``runs`` times (each run on matches of
    its own), stop it. One list of phases per run."""
    from recorder.tools.bench.pages import free_port, server

    matches = prepare(db, plan, runs)
    port = free_port()
    argv = [*kifu, "--db", db, "serve", "--host", HOST, "--port", str(port), "--token", TOKEN]
    if plan.workers:
        argv += ["--workers", str(plan.workers)]
    out: list[list[dict[str, Any]]] = []
    with server(argv, port, cwd) as proc:  # started and stopped by its own pid (pages.py)
        for r in range(runs):
            out.append([phase(port, proc.pid, mode, matches[r, p, mode], followers, plan)
                        for p, (_, followers) in enumerate(plan.points) for mode in plan.modes])
    return out


def holds(results: Sequence[dict[str, Any]]) -> bool:
    return all(r["post_p99_ms"] is not None and r["post_p99_ms"] <= POST_P99_GOAL and r["delivery_p99_ms"] is not None
               and r["delivery_p99_ms"] <= DELIVERY_P99_GOAL and not r["missed"] and not r["lost"] for r in results)


def ladder(runs: Sequence[list[dict[str, Any]]], plan: Plan, mode: str) -> dict[str, str | None]:
    """The largest point where every run met the goals, and the first where one did not."""
    held, broke = None, None
    for tables, followers in plan.points:
        at = [r for run in runs for r in run if r["mode"] == mode and (r["tables"], r["followers"]) == (tables, followers)]
        if holds(at) and broke is None:
            held = f"{tables}x{followers}"
        elif broke is None:
            broke = f"{tables}x{followers}"
    return {"holds_up_to": held, "degrades_at": broke}


FIGURES = (  # key, what, unit, goal (on the largest point only: the event day)
    ("post_p50_ms", "POST p50", "ms", None),
    ("post_p99_ms", "POST p99", "ms", ("≤ 250 ms", "<=", POST_P99_GOAL)),
    ("delivery_p50_ms", "delivery p50", "ms", None),
    ("delivery_p99_ms", "delivery p99", "ms", ("≤ 300 ms", "<=", DELIVERY_P99_GOAL)),
    ("server_cores_load", "server CPU", "cores", None),
    ("missed", "lines a follower missed", "lines", ("0", "<=", 0)),
    ("lost", "acknowledged lines lost or doubled", "lines", ("0", "<=", 0)),
)


def bench_live(b: Any) -> None:
    """The ``live`` section of ``kifu bench``: figures for following by stream along the
    ladder of points, with polling (as before) as their baseline, on each backend of the run."""
    from recorder.tools.bench.measure import Goal, Runs, figure

    if b.quick:  # the test suite's run: every path taken, in a few seconds
        # one worker: a second one's start costs seconds (tests/web/test_workers.py covers two)
        plan = Plan(points=((2, 4),), seconds=0.5, idle=0.1, quiet=0.05, every=(0.1, 0.2), poll_every=0.2,
                    grace=0.2, clients=1, workers=1, least=2)
    else:
        plan = Plan()
    repeats = 3  # each figure a median of 3 whole runs, each on a store of its own
    for backend in b.backends():
        runs: list[list[dict[str, Any]]] = []
        with b.step(f"event-day load [{backend}]: {len(plan.points)} points up to "
                    f"{plan.points[-1][0]} tables + {plan.points[-1][1]} followers, {repeats} runs", repeats) as advance:
            # each run on a store and a server of its own; the quick run (the test suite's) on
            # one, its runs on matches of their own: a server's start costs more than its runs
            for r in range(1 if b.quick else repeats):
                db = b.store_url(backend, f"live{r}")
                with b.in_process_side_files(db):  # the matches are created in this process
                    runs += run_load(db, plan, b.kifu, str(b.tmp), runs=repeats if b.quick else 1)
                advance(repeats if b.quick else 1)
        b.results.setdefault("live_ladder", {})[backend] = {m: ladder(runs, plan, m) for m in plan.modes}
        note = (f"tables posting every {plan.every[0]:g}–{plan.every[1]:g} s for {plan.seconds:g} s; kifu serve "
                f"--workers {plan.workers or 'default'}; {repeats} runs{'' if b.quick else ', each on a store of its own'}; clients in "
                f"{plan.clients} + 1 processes of their own; baseline: the same followers polling every "
                f"{plan.poll_every:g} s, in the same runs; goals ≤ {POST_P99_GOAL:g} / ≤ {DELIVERY_P99_GOAL:g} ms "
                f"on the largest point; stream holds up to {b.results['live_ladder'][backend]['stream']}")
        for p, (tables, followers) in enumerate(plan.points):
            last = p == len(plan.points) - 1
            pair = [(next(r for r in run if r["mode"] == "stream" and r["tables"] == tables and r["followers"] == followers),
                     next(r for r in run if r["mode"] == "poll" and r["tables"] == tables and r["followers"] == followers))
                    for run in runs]
            keys = list(FIGURES)
            if last:
                keys.append(("server_cores_idle_per_1000_followers", "idle followers: server CPU per 1,000",
                             "cores", ("< 0.02 core", "<=", 0.02)))
            for key, what, unit, goal in keys:
                mine, base = Runs(unit), Runs(unit)
                for stream, poll in pair:
                    if stream[key] is not None:
                        mine.add(float(stream[key]))
                    if poll[key] is not None:
                        base.add(float(poll[key]))
                figure(b.results, f"live.{backend}.{tables}x{followers}.{key}", section="live", backend=backend,
                       what=f"event-day load {tables} tables + {followers} followers: {what}", runs=mine,
                       baseline=("polling", base),
                       goal=Goal(goal[0], goal[1], goal[2], on="median") if goal and last else None,
                       notes=note, extra={"runs": [{"stream": s, "poll": q} for s, q in pair]} if key == "post_p99_ms" else None)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--points", default=",".join(f"{t}x{f}" for t, f in LADDER),
                   help="TABLESxFOLLOWERS,... (the ladder; default %(default)s)")
    p.add_argument("--seconds", type=float, default=30.0, help="posting time of each point and way of following")
    p.add_argument("--idle", type=float, default=5.0, help="seconds of idle followers before posting starts")
    p.add_argument("--workers", type=int, default=2, help="kifu serve --workers (0: its default, the cores)")
    p.add_argument("--clients", type=int, default=2, help="processes the followers are spread over")
    p.add_argument("--modes", default="stream,poll", help="stream, poll or both (comma-separated)")
    p.add_argument("--no-fetch", action="store_true", help="stream followers do not fetch the rows on each event")
    p.add_argument("--db", default=None, help="a postgresql:// URL (an empty database) or a new SQLite file; default a temporary file")
    p.add_argument("-o", "--output", default=None, help="write the results as JSON here")
    a = p.parse_args(argv)
    try:
        points = tuple((int(t), int(f)) for t, f in (pt.lower().split("x") for pt in a.points.split(",") if pt))
    except ValueError:
        p.error("--points: TABLESxFOLLOWERS,... (e.g. 32x200,256x2000)")
    if not points or any(t < 1 or f < 0 for t, f in points) or not 0 < a.seconds <= 3600 or not 0 <= a.idle <= 600:
        p.error("--points tables ≥ 1 and followers ≥ 0, 0 < --seconds ≤ 3600, 0 ≤ --idle ≤ 600")
    from recorder.tools.bench.measure import kifu_argv

    plan = Plan(points=points, seconds=a.seconds, idle=a.idle, workers=a.workers or None, clients=max(1, a.clients),
                fetch=not a.no_fetch, modes=tuple(m.strip() for m in a.modes.split(",") if m.strip()))
    with tempfile.TemporaryDirectory(prefix="kifu-live-") as tmp:
        db = a.db or str(Path(tmp) / "live.db")
        results = run_load(db, plan, kifu_argv(), tmp)[0]
    text = json.dumps({"plan": plan.__dict__, "results": results}, ensure_ascii=False, indent=2)
    print(text)
    if a.output:
        Path(a.output).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["LADDER", "Plan", "bench_live", "main", "run_load"]
