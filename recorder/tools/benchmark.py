"""``make bench`` / ``kifu bench``: what the store and the replay engine do on this machine.

One run prints one table and writes the same figures as JSON. Every kifu figure stands next
to the limit it is measured against (raw sqlite3 for rows of the same size), so a ratio says
how much of the machine kifu uses. Nothing here asserts a speed: benchmarks report, tests test.
"""

from __future__ import annotations

import json
import os
import platform
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from projections import registry
from projections.replay import Replay
from recorder.logformat import dumps
from recorder.store import Store
from recorder.tools.synth import generate

GAME = "gandice"


def _timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _import_all(store: Store, matches: list[Any]) -> None:
    for header, moves in matches:
        store.create(header, moves)


def _cold_seek(store: Store, match_id: str, step: int) -> None:
    Replay(*store.load(match_id)).board_json(step)


def _cold_cached_seek(store: Store, match_id: str, step: int) -> None:
    from recorder.service import cached_replay

    header, entries = store.load(match_id)
    cached_replay(store, match_id, header, entries, "ruled").board_json(step)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def raw_executemany(rows: list[tuple[bytes, int, str, bytes]], path: str) -> float:
    """Rows/s of one executemany in one transaction, WAL, same schema shape as the store."""
    con = sqlite3.connect(path)
    con.execute("pragma journal_mode=wal")
    con.execute("create table e (id blob, v integer, topic text, state blob, primary key (id, v))")
    def insert_all() -> None:
        con.executemany("insert into e values (?,?,?,?)", rows)
        con.commit()

    seconds = _timed(insert_all)
    con.close()
    return len(rows) / seconds


def raw_insert_commit(rows: list[tuple[bytes, int, str, bytes]], path: str) -> float:
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("pragma journal_mode=wal")
    con.execute("create table e (id blob, v integer, topic text, state blob, primary key (id, v))")

    def run() -> None:
        for row in rows:
            con.execute("begin")
            con.execute("insert into e values (?,?,?,?)", row)
            con.execute("commit")

    seconds = _timed(run)
    con.close()
    return len(rows) / seconds


def _pg_database(base: str) -> str:
    """A fresh database on the server ``base`` points at (benchmarks never reuse one)."""
    import uuid

    import psycopg

    name = f"kifu_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as con:
        con.execute(f"create database {name}")
    return base.rsplit("/", 1)[0] + f"/{name}"


def measure_store(url: str, matches: list[Any], long: tuple[Any, Any], live: tuple[Any, Any], seeks: int) -> dict[str, Any]:
    """Bulk import, live append and cold seek on one store (for the PostgreSQL column)."""
    events = sum(len(m) for _, m in matches)
    store = Store(url)
    import_rate = events / _timed(lambda: [store.create(h, m) for h, m in matches])
    mid = store.create(*long)
    rng = random.Random(3)
    cold_ms = [
        _timed(lambda: Replay(*store.load(mid)).board_json(rng.randrange(len(long[1]) + 1))) * 1000
        for _ in range(max(3, seeks // 100))
    ]
    live_id = store.create(live[0], [])
    moves = live[1]
    append_rate = len(moves) / _timed(lambda: [store.append(live_id, {k: v for k, v in m.items() if k != "seq"}) for m in moves])
    store.close()
    return {"bulk_events_per_s": round(import_rate), "append_moves_per_s": round(append_rate),
            "cold_load_and_seek_median_ms": round(statistics.median(cold_ms), 1)}


def run(output: Path, quick: bool = False, pg: str | None = None) -> dict[str, Any]:
    console = Console()
    ruleset = registry.get(GAME)
    n_matches = 40 if quick else 300
    long_events = 2_000 if quick else 10_000
    seeks = 200 if quick else 1_000
    appends = 200 if quick else 1_000
    results: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "sqlite": sqlite3.sqlite_version,
                    "cpus": os.cpu_count(), "platform": platform.platform()},
        "game": GAME,
    }
    with tempfile.TemporaryDirectory() as tmp, console.status("benchmarking…") as status:
        status.update("generating matches")
        matches = [generate(ruleset, 7, i) for i in range(n_matches)]
        events = sum(len(m) for _, m in matches)
        payloads = [dumps(e).encode() for _, moves in matches for e in moves]
        avg_bytes = sum(map(len, payloads)) / len(payloads)
        rows = [(os.urandom(16), i, "recorder.domain:Match.MoveRecorded", p) for i, p in enumerate(payloads)]

        status.update("raw sqlite3 executemany")
        raw_rate = statistics.median(raw_executemany(rows, f"{tmp}/raw{i}.db") for i in range(3))

        status.update("kifu bulk import")
        rates = []
        for attempt in range(3):
            store = Store(f"{tmp}/bulk{attempt}.db")
            seconds = _timed(partial(_import_all, store, matches))
            rates.append(events / seconds)
            store.close()
        import_rate = statistics.median(rates)

        status.update(f"one {long_events}-event match")
        header, moves = generate(ruleset, 11, 0, min_events=long_events)
        store = Store(f"{tmp}/long.db")
        mid = store.create(header, moves)
        load_s = _timed(lambda: store.load(mid))
        h, entries = store.load(mid)
        replay = Replay(h, entries)
        first_full_s = _timed(lambda: replay.board(replay.steps))
        rng = random.Random(3)
        seek_ms = []
        for _ in range(seeks):
            step = rng.randrange(replay.steps + 1)
            seek_ms.append(_timed(partial(replay.board_json, step)) * 1000)
        mid_step = replay.steps // 2
        replay.board(mid_step)
        def seek(step: int) -> float:
            return _timed(lambda: replay.board_json(step)) * 1000

        forward_ms = [seek(s) for s in range(mid_step, mid_step + 200)]
        back_ms = [seek(s) for s in range(mid_step + 200, mid_step, -1)]
        cold_ms = []
        for _ in range(5 if quick else 10):
            step = rng.randrange(len(entries) + 1)
            cold_ms.append(_timed(partial(_cold_seek, store, mid, step)) * 1000)
        _cold_cached_seek(store, mid, 0)  # the first call writes the snapshot file
        cached_ms = [_timed(partial(_cold_cached_seek, store, mid, rng.randrange(len(entries) + 1))) * 1000
                     for _ in range(5 if quick else 10)]

        status.update("append one move at a time")
        live_header, live_moves = generate(ruleset, 13, 0, min_events=appends)
        live = Store(f"{tmp}/live.db")
        live_id = live.create(live_header, [])
        live_moves = live_moves[:appends]
        seconds = _timed(lambda: [live.append(live_id, {k: v for k, v in m.items() if k != "seq"}) for m in live_moves])
        append_rate = len(live_moves) / seconds
        raw_live = raw_insert_commit(rows[:appends], f"{tmp}/rawlive.db")
        sqlite_side = measure_store(f"{tmp}/side.db", matches, (header, moves), (live_header, live_moves), seeks)
        pg_side = None
        if pg:
            status.update("the same on PostgreSQL")
            pg_side = measure_store(_pg_database(pg), matches, (header, moves), (live_header, live_moves), seeks)
        store.close()
        live.close()

    results["bulk_import"] = {
        "matches": n_matches, "events": events, "avg_event_bytes": round(avg_bytes, 1),
        "raw_executemany_rows_per_s": round(raw_rate), "kifu_events_per_s": round(import_rate),
        "ratio": round(import_rate / raw_rate, 3),
    }
    results["seek"] = {
        "events": len(entries), "load_ms": round(load_s * 1000, 1), "first_full_replay_ms": round(first_full_s * 1000, 1),
        "random_seek_median_ms": round(statistics.median(seek_ms), 3), "random_seek_p99_ms": round(_pct(seek_ms, 0.99), 3),
        "step_forward_median_ms": round(statistics.median(forward_ms), 3), "step_back_median_ms": round(statistics.median(back_ms), 3),
        "cold_load_and_seek_median_ms": round(statistics.median(cold_ms), 1),
        "cold_load_and_seek_with_snapshot_file_median_ms": round(statistics.median(cached_ms), 1),
    }
    results["append"] = {
        "moves": len(live_moves), "kifu_moves_per_s": round(append_rate), "raw_insert_commit_per_s": round(raw_live),
        "ratio": round(append_rate / raw_live, 3),
    }
    results["backends"] = {"sqlite": sqlite_side, "postgres": pg_side}
    show(console, results)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    console.print(f"written to {output}")
    return results


def show(console: Console, r: dict[str, Any]) -> None:
    table = Table(title=f"kifu bench — {r['game']}, Python {r['machine']['python']}, SQLite {r['machine']['sqlite']}")
    table.add_column("what")
    table.add_column("kifu", justify="right")
    table.add_column("limit", justify="right")
    table.add_column("ratio", justify="right")
    b, s, a = r["bulk_import"], r["seek"], r["append"]
    table.add_row(f"bulk import ({b['matches']} matches, {b['events']} events, ~{b['avg_event_bytes']:.0f} B)",
                  f"{b['kifu_events_per_s']:,} ev/s", f"{b['raw_executemany_rows_per_s']:,} rows/s (raw executemany)", f"{b['ratio']:.2f}")
    table.add_row(f"append one move at a time ({a['moves']})", f"{a['kifu_moves_per_s']:,} /s",
                  f"{a['raw_insert_commit_per_s']:,} /s (raw INSERT+COMMIT)", f"{a['ratio']:.2f}")
    table.add_row(f"load a {s['events']}-event match", f"{s['load_ms']} ms", "", "")
    table.add_row("first full replay", f"{s['first_full_replay_ms']} ms", "", "")
    table.add_row("board at a random step (median / p99)", f"{s['random_seek_median_ms']} / {s['random_seek_p99_ms']} ms", "", "")
    table.add_row("step forward / back (median)", f"{s['step_forward_median_ms']} / {s['step_back_median_ms']} ms", "", "")
    table.add_row("cold: load + board at a random step", f"{s['cold_load_and_seek_median_ms']} ms", "", "")
    table.add_row("cold, with the board-snapshot file", f"{s['cold_load_and_seek_with_snapshot_file_median_ms']} ms", "", "")
    console.print(table)
    sides = r["backends"]
    both = Table(title="the same run on each backend")
    both.add_column("what")
    both.add_column("SQLite", justify="right")
    both.add_column("PostgreSQL", justify="right")
    pg = sides["postgres"] or {}
    for key, label in (("bulk_events_per_s", "bulk import, events/s"), ("append_moves_per_s", "append one move, /s"),
                       ("cold_load_and_seek_median_ms", "cold load + seek, ms (median)")):
        both.add_row(label, f"{sides['sqlite'][key]:,}", f"{pg[key]:,}" if pg else "not measured (no --pg)")
    console.print(both)
