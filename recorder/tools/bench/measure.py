"""The measuring instrument of ``kifu bench``: runs, figures, children, raw baselines.

A *figure* is one thing a user waits for, measured n >= 3 times: its median, its spread
(min-max), the same statistics of a *baseline* measured in the same run (what the machine
does with the same bytes and nothing of kifu), the ratio kifu / baseline in the figure's
unit, and the goal from issue 13. Every figure also keeps its CPU-time twin where one can be
taken (user + system seconds of the process that did the work): on a loaded machine the
wall clock measures the neighbours, the CPU time mostly does not.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from projections.errors import KifuError


@dataclass
class Runs:
    """Values of n runs in one unit; ``cpu`` the same runs computed from CPU time (or empty)."""

    unit: str
    values: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    higher_is_better: bool = False

    def add(self, value: float, cpu: float | None = None) -> None:
        self.values.append(value)
        if cpu is not None:
            self.cpu.append(cpu)


def spread(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {"median": None, "min": None, "max": None, "n": 0}
    return {"median": _round(statistics.median(values)), "min": _round(min(values)),
            "max": _round(max(values)), "n": len(values)}


def _quotient(top: float | None, bottom: float | None) -> bool:
    """Whether top / bottom is a ratio: both measured and finite, the bottom not 0. A rate over
    a time too short to see is infinite (``rate``): two of them have no ratio, not NaN."""
    return top is not None and bottom is not None and math.isfinite(top) and math.isfinite(bottom) and bottom != 0


def sig3(x: float) -> float:
    """Three significant digits (a ratio of 0.0051 stays 0.0051)."""
    return float(f"{x:.3g}")


def _round(x: float) -> float:
    if x == 0 or not isinstance(x, float):
        return x
    magnitude = abs(x)
    digits = 1 if magnitude >= 100 else 3 if magnitude >= 1 else 5
    return round(x, digits)


@dataclass(frozen=True)
class Goal:
    """A goal of issue 13. ``on``: "ratio" (kifu / baseline), "median" (the figure itself), or
    the id of another figure (kifu's median / that figure's median)."""

    text: str
    op: str  # "<=" or ">="
    value: float
    on: str = "ratio"


def rate(amount: float, seconds: float) -> float:
    return amount / seconds if seconds > 0 else float("inf")


def figure(
    results: dict[str, Any],
    fid: str,
    *,
    section: str,
    what: str,
    runs: Runs,
    baseline: tuple[str, Runs] | None = None,
    goal: Goal | None = None,
    backend: str | None = None,
    notes: str = "",
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Add one figure to ``results["figures"]`` and return it."""
    fig: dict[str, Any] = {"section": section, "what": what, "backend": backend, "unit": runs.unit,
                           "higher_is_better": runs.higher_is_better, **spread(runs.values)}
    if runs.cpu:
        fig["cpu"] = spread(runs.cpu)
    fig["baseline"] = None
    fig["ratio"] = None
    if baseline is not None:
        label, base = baseline
        fig["baseline"] = {"what": label, "unit": base.unit, **spread(base.values)}
        if base.cpu:
            fig["baseline"]["cpu"] = spread(base.cpu)
        if _quotient(fig["median"], fig["baseline"]["median"]):
            fig["ratio"] = sig3(fig["median"] / fig["baseline"]["median"])
            if runs.cpu and base.cpu and _quotient(fig["cpu"]["median"], fig["baseline"]["cpu"]["median"]):
                fig["cpu_ratio"] = sig3(fig["cpu"]["median"] / fig["baseline"]["cpu"]["median"])
    fig["goal"] = None
    if goal is not None:
        fig["goal"] = {"text": goal.text, "op": goal.op, "value": goal.value, "on": goal.on,
                       "met": _met(results, fig, goal)}
    fig["notes"] = notes
    if extra:
        fig.update(extra)
    results.setdefault("figures", {})[fid] = fig
    return fig


def _met(results: dict[str, Any], fig: dict[str, Any], goal: Goal) -> bool | None:
    if goal.on == "ratio":
        value = fig["ratio"]
    elif goal.on == "median":
        value = fig["median"]
    else:
        other = results.get("figures", {}).get(goal.on)
        if not other or not other.get("median") or fig["median"] is None:
            return None
        value = fig["median"] / other["median"]
        fig["goal_value"] = sig3(value)
    if value is None or not math.isfinite(value):  # a rate over a time too short to see: not a measure
        return None
    return bool(value <= goal.value) if goal.op == "<=" else bool(value >= goal.value)


# -- children ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Child:
    """What one finished child process cost."""

    wall: float  # seconds
    cpu: float  # user + system seconds of the child (and anything it waited for)
    max_rss: int  # bytes, peak resident set of the child
    code: int
    stdout: str
    stderr: str


def kifu_argv() -> list[str]:
    """The ``kifu`` command of this environment (the console script beside this Python)."""
    script = Path(sys.executable).parent / "kifu"
    if script.exists():
        return [str(script)]
    found = shutil.which("kifu")
    if found:
        return [found]
    return [sys.executable, "-c", "from recorder.cli import main; main()"]


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("KIFU_DB", "KIFU_READMODEL", "KIFU_BOARD_CACHE", "KIFU_TOKEN", "KIFU_DEBUG")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra or {})
    return env


class Spawner:
    """Children are started by a small helper process (``spawner.py``), so that their peak
    RSS is their own and not the benchmark's memory at the fork. Start it early, while the
    benchmark is still small; without one, children are started from this process."""

    current: Spawner | None = None

    def __init__(self) -> None:
        script = Path(__file__).with_name("spawner.py")
        self.proc = subprocess.Popen([sys.executable, "-S", str(script)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def run(self, argv: Sequence[str], env: dict[str, str], cwd: str | None) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"argv": list(argv), "env": env, "cwd": cwd}) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline() or '{"error": "the spawner stopped"}')
        if "error" in answer:
            raise BenchError(f"{' '.join(argv[:4])}…: {answer['error']}")
        return answer

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()


def run_child(argv: Sequence[str], env: dict[str, str] | None = None, cwd: str | None = None,
              check: bool = True) -> Child:
    """Run a command to the end and measure it: wall clock, the child's own CPU time and
    peak RSS (``wait4``), so other processes on the machine never count."""
    env = env or child_env()
    if Spawner.current is not None:
        a = Spawner.current.run(argv, env, cwd)
        result = Child(a["wall"], a["cpu"], a["max_rss"], a["code"], a["stdout"], a["stderr"])
    else:
        from recorder.tools.bench.spawner import run_one

        a = run_one({"argv": list(argv), "env": env, "cwd": cwd})
        result = Child(a["wall"], a["cpu"], a["max_rss"], a["code"], a["stdout"], a["stderr"])
    if check and result.code != 0:
        raise BenchError(f"{' '.join(argv[:4])}… exited {result.code}: {result.stderr.strip()[-500:]}")
    return result


class BenchError(KifuError):
    """A measured command failed: the figure would be meaningless."""


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(wall seconds, CPU seconds of this process, result) of one call."""
    cpu = time.process_time()
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, time.process_time() - cpu, result


# -- raw baselines: the same rows, nothing of kifu ----------------------------------------------------

Row = tuple[Any, ...]
SQLITE_DURABILITY = "SQLite: journal_mode=WAL, synchronous=FULL"


def sqlite_rows(path: str) -> tuple[str, list[Row]]:
    """The schema and every row of a kifu SQLite store's events table, as stored."""
    con = sqlite3.connect(path)
    try:
        schema = con.execute("select sql from sqlite_master where name = 'stored_events'").fetchone()[0]
        rows = con.execute(
            "select originator_id, originator_version, topic, state from stored_events order by rowid"
        ).fetchall()
    finally:
        con.close()
    return schema, rows


def sqlite_pragmas(path: str) -> dict[str, Any]:
    """The journal mode and synchronous level a fresh connection to the store gets."""
    con = sqlite3.connect(path)
    try:
        return {"journal_mode": con.execute("pragma journal_mode").fetchone()[0],
                "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(
                    con.execute("pragma synchronous").fetchone()[0])}
    finally:
        con.close()


def _raw_sqlite(path: str, schema: str) -> sqlite3.Connection:
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("pragma journal_mode=wal")
    con.execute("pragma synchronous=full")
    con.execute(schema)
    return con


INSERT_SQLITE = "insert into stored_events (originator_id, originator_version, topic, state) values (?,?,?,?)"


def sqlite_executemany(path: str, schema: str, rows: list[Row]) -> tuple[float, float]:
    """(wall, cpu) of one executemany of ``rows`` in one transaction (WAL, synchronous=FULL)."""
    con = _raw_sqlite(path, schema)
    try:
        def go() -> None:
            con.execute("begin")
            con.executemany(INSERT_SQLITE, rows)
            con.execute("commit")

        wall, cpu, _ = timed(go)
    finally:
        con.close()
    return wall, cpu


def sqlite_insert_commit(path: str, schema: str, rows: list[Row]) -> list[tuple[float, float]]:
    """(wall, cpu) of each INSERT+COMMIT of one row (WAL, synchronous=FULL)."""
    con = _raw_sqlite(path, schema)
    costs = []
    try:
        for row in rows:
            def go(row: Row = row) -> None:
                con.execute("begin")
                con.execute(INSERT_SQLITE, row)
                con.execute("commit")

            wall, cpu, _ = timed(go)
            costs.append((wall, cpu))
    finally:
        con.close()
    return costs


def sqlite_read_decode(path: str) -> tuple[float, float, int]:
    """(wall, cpu, events) of reading the whole notification log once and decoding each state
    with ``json.loads``: the floor of any read model that reads each event once."""
    con = sqlite3.connect(path)
    try:
        def go() -> int:
            n = 0
            for (state,) in con.execute("select state from stored_events order by rowid"):
                json.loads(state)
                n += 1
            return n

        wall, cpu, n = timed(go)
    finally:
        con.close()
    return wall, cpu, n


# -- PostgreSQL ---------------------------------------------------------------------------------------


def pg_database(base: str) -> str:
    """A fresh, empty database on the server ``base`` points at (never reused)."""
    import uuid

    import psycopg

    name = f"kifu_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as con:
        con.execute(f"create database {name}")
    return base.rsplit("/", 1)[0] + f"/{name}"


def pg_settings(url: str) -> dict[str, str]:
    import psycopg

    with psycopg.connect(url) as con:
        return {name: str(con.execute(f"show {name}").fetchone()[0])  # type: ignore[index]
                for name in ("fsync", "synchronous_commit", "wal_sync_method", "server_version")}


def pg_events_table(con: Any) -> str:
    """The library's events table (``kifu_events``: the application's name + ``_events``)."""
    row = con.execute(
        "select table_schema, table_name from information_schema.columns where column_name = 'notification_id' "
        "and table_name like '%\\_events' order by table_name limit 1").fetchone()
    if row is None:
        raise BenchError("no events table in the PostgreSQL store")
    return f'"{row[0]}"."{row[1]}"'


def pg_rows(url: str) -> list[Row]:
    import psycopg

    with psycopg.connect(url) as con:
        table = pg_events_table(con)
        return list(con.execute(
            f"select originator_id, originator_version, topic, state from {table} order by notification_id"
        ).fetchall())


def _pg_raw_table(con: Any) -> str:
    import uuid

    name = f"raw_{uuid.uuid4().hex[:8]}"
    con.execute(f"create table {name} (like {pg_events_table(con)} including all)")
    con.commit()
    return name


def pg_executemany(url: str, rows: list[Row]) -> tuple[float, float]:
    """(wall, cpu) of one psycopg ``executemany`` of ``rows`` in one transaction."""
    import psycopg

    with psycopg.connect(url) as con:
        table = _pg_raw_table(con)

        def go() -> None:
            with con.cursor() as cur:
                cur.executemany(
                    f"insert into {table} (originator_id, originator_version, topic, state) values (%s,%s,%s,%s)",
                    rows)
            con.commit()

        wall, cpu, _ = timed(go)
    return wall, cpu


def pg_insert_commit(url: str, rows: list[Row]) -> list[tuple[float, float]]:
    import psycopg

    costs = []
    with psycopg.connect(url) as con:
        table = _pg_raw_table(con)
        for row in rows:
            def go(row: Row = row) -> None:
                con.execute(
                    f"insert into {table} (originator_id, originator_version, topic, state) values (%s,%s,%s,%s)",
                    row)
                con.commit()

            wall, cpu, _ = timed(go)
            costs.append((wall, cpu))
    return costs


def pg_read_decode(url: str) -> tuple[float, float, int]:
    import psycopg

    with psycopg.connect(url) as con:
        table = pg_events_table(con)

        def go() -> int:
            n = 0
            with con.cursor(name="bench_read") as cur:  # server-side: streamed, as a catch-up pages
                cur.itersize = 1000
                cur.execute(f"select state from {table} order by notification_id")
                for (state,) in cur:
                    json.loads(bytes(state))
                    n += 1
            return n

        wall, cpu, n = timed(go)
    return wall, cpu, n
