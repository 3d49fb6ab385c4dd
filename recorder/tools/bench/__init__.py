"""``make bench`` / ``kifu bench``: the paths users hit, each beside its baseline.

Each figure is the median of at least three runs with its spread (min-max), next to a
baseline measured in the same run (raw sqlite3 / psycopg on the same rows, a bare
Starlette+Jinja page of the same size, the bare imports of a Python process, …), and the
ratio kifu / baseline in the figure's unit. ``bench/results.json`` keeps every figure; the
README's table is generated from it (``kifu bench --readme``). Nothing here asserts a speed:
benchmarks report, tests test.

Sections (``--only``): startup, folds, import, import_big, record, record_cli, seek, rebuild,
rebuild_rss, folder_import, stats, pages, record_page, recording (the examples re-entered by taps in
chromium), views, live, writers, publish (an event's static site beside ``kifu report`` of its matches; rebuild_rss and folder_import: the store's size and a
folder of logs, in ``scale``; their sizes and an old checkout to compare with are set by
environment variables there). The order matters a little: start-up runs first because later figures compare
with ``kifu --help`` and ``kifu board`` on a short match.
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from recorder.tools.bench import measure
from recorder.tools.bench.context import Bench

SECTIONS: dict[str, str] = {
    "startup": "recorder.tools.bench.cli_paths:bench_startup",
    "folds": "recorder.tools.bench.folds:bench_folds",
    "import": "recorder.tools.bench.store_paths:bench_import",
    "import_big": "recorder.tools.bench.store_paths:bench_import_big",
    "record": "recorder.tools.bench.store_paths:bench_record",
    "record_cli": "recorder.tools.bench.cli_paths:bench_record_cli",
    "seek": "recorder.tools.bench.cli_paths:bench_seek",
    "rebuild": "recorder.tools.bench.store_paths:bench_rebuild",
    "rebuild_rss": "recorder.tools.bench.scale:bench_rebuild_rss",
    "folder_import": "recorder.tools.bench.scale:bench_folder_import",
    "stats": "recorder.tools.bench.store_paths:bench_stats",
    "pages": "recorder.tools.bench.pages:bench_pages",
    "record_page": "recorder.tools.bench.record_page:bench_record_page",
    "recording": "recorder.tools.bench.recording:bench_recording",
    "views": "recorder.tools.bench.views:bench_views",
    "live": "recorder.tools.bench.live_load:bench_live",
    "writers": "recorder.tools.bench.writers:bench_writers",
    "publish": "recorder.tools.bench.publish:bench_publish",
}


def _section(name: str) -> Callable[[Bench], None]:
    import importlib

    module, _, fn = SECTIONS[name].partition(":")
    return getattr(importlib.import_module(module), fn)  # type: ignore[no-any-return]


def machine() -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"python": platform.python_version(), "sqlite": sqlite3.sqlite_version, "cpus": os.cpu_count(),
            "platform": platform.platform(), "load_average_at_start": [round(x, 2) for x in load] if load else None}


def run(output: Path, quick: bool = False, pg: str | None = None, only: list[str] | None = None,
        console: Console | None = None) -> dict[str, Any]:
    """Measure, print the table, write ``output``; return the results."""
    if console is None:
        console = Console(stderr=True)
        if not console.is_terminal:  # a log file: room for the whole table
            console = Console(stderr=True, width=200)
    names = list(SECTIONS) if not only else [n for n in SECTIONS if n in only]
    unknown = sorted(set(only or []) - set(SECTIONS))
    if unknown:
        raise ValueError(f"unknown section(s) {', '.join(unknown)} (known: {', '.join(SECTIONS)})")
    results: dict[str, Any] = {
        "kifu_bench": 2,
        "started": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "quick": quick,
        "sections": names,
        "machine": machine(),
        "durability": {"sqlite": measure.SQLITE_DURABILITY, "postgres": None},
        "figures": {},
    }
    started = time.perf_counter()
    results["compiled"] = compile_kifu()
    measure.Spawner.current = measure.Spawner()  # before the benchmark holds any match in memory
    try:
        _run(results, names, output, quick, pg, console)
    finally:
        measure.Spawner.current.close()
        measure.Spawner.current = None
    results["seconds"] = round(time.perf_counter() - started, 1)
    show(console, results)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    console.print(f"written to {output} ({results['seconds']} s)")
    return results


def compile_kifu(root: Path | None = None) -> int:
    """Byte-compile kifu's own modules, as an installed package's are (pip compiles a wheel's
    modules when it installs them; an editable install writes them at the first run). The
    children the benchmark starts do not write bytecode (PYTHONDONTWRITEBYTECODE, so that no
    run changes what the next one finds), and without this every start-up figure would pay for
    compiling kifu from source in every child (about a third of ``kifu board``). Returns how
    many packages compiled. ``root``: another tree of kifu (the previous release the rebuild is
    compared with, recorder/tools/bench/previous.py), else this checkout."""
    import compileall

    root = root or Path(__file__).resolve().parents[3]
    done = 0
    for package in ("recorder", "projections", "exports"):
        if (root / package).is_dir():
            done += bool(compileall.compile_dir(str(root / package), quiet=2, workers=1))
    return done


def _run(results: dict[str, Any], names: list[str], output: Path, quick: bool, pg: str | None,
         console: Console) -> None:
    with tempfile.TemporaryDirectory(prefix="kifu-bench-") as tmp, Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True,
    ) as progress:
        bench = Bench(results, Path(tmp), quick, pg, progress)
        overall = progress.add_task("kifu bench", total=len(names))
        for name in names:
            progress.update(overall, description=f"kifu bench: {name}")
            t0 = time.perf_counter()
            _section(name)(bench)
            results.setdefault("section_seconds", {})[name] = round(time.perf_counter() - t0, 1)
            progress.advance(overall)
        _durability(bench)


def _durability(bench: Bench) -> None:
    """What each backend promised at commit time, read from the stores themselves."""
    sqlite_db = next((str(p) for p in sorted(bench.tmp.glob("*.db")) if ".readmodel." not in p.name
                      and ".boards." not in p.name and not p.name.startswith("raw-")), None)
    if sqlite_db:
        pragmas = measure.sqlite_pragmas(sqlite_db)
        bench.results["durability"]["sqlite"] = (
            f"SQLite: journal_mode={pragmas['journal_mode']}, synchronous={pragmas['synchronous']} "
            f"(the store's; the raw baselines set WAL and FULL)")
    if bench.pg:
        settings = measure.pg_settings(bench.pg)
        text = (f"PostgreSQL {settings['server_version']}: synchronous_commit={settings['synchronous_commit']}, "
                f"fsync={settings['fsync']}, wal_sync_method={settings['wal_sync_method']}")
        if settings["fsync"] != "on":
            text += " — NOT the same durability as SQLite with synchronous=FULL: start the server with fsync=on"
        bench.results["durability"]["postgres"] = text


def show(console: Console, results: dict[str, Any]) -> None:
    from rich.table import Table

    m = results["machine"]
    table = Table(title=f"kifu bench — Python {m['python']}, SQLite {m['sqlite']}, {m['cpus']} CPUs"
                        + (" (quick)" if results["quick"] else ""))
    for column, justify in (("what", "left"), ("kifu (median, min–max)", "right"), ("CPU", "right"),
                            ("baseline", "right"), ("ratio", "right"), ("goal", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for f in results["figures"].values():
        table.add_row(f"{f['what']}" + (f" [{f['backend']}]" if f.get("backend") == "postgres" else ""),
                      value_text(f), cpu_text(f), baseline_text(f), ratio_text(f), goal_text(f))
    console.print(table)
    for backend, text in results["durability"].items():
        if text:
            console.print(f"durability ({backend}): {text}")


def fmt(x: float | None, unit: str, scale_of: float | None = None) -> str:
    """A value with its unit; seconds under one (judged on ``scale_of``, default ``x``) in ms."""
    if x is None:
        return "—"
    if unit == "s" and (scale_of if scale_of is not None else x) < 1:
        x, unit = x * 1000, "ms"
    if abs(x) >= 100:
        text = f"{x:,.0f}"
    elif abs(x) >= 10:
        text = f"{x:,.1f}"
    else:
        text = f"{x:,.2f}"
    return f"{text} {unit}"


def value_text(f: dict[str, Any]) -> str:
    """median (min–max), the three in one scale."""
    unit, med = f["unit"], f["median"]

    def bare(x: float | None) -> str:
        return fmt(x, unit, med).rsplit(" ", 1)[0]

    return f"{fmt(med, unit)} ({bare(f['min'])}–{bare(f['max'])})"


def cpu_text(f: dict[str, Any]) -> str:
    cpu = f.get("cpu")
    return fmt(cpu["median"], f["unit"]) if cpu else ""


def baseline_text(f: dict[str, Any]) -> str:
    base = f.get("baseline")
    if not base:
        return ""
    return f"{fmt(base['median'], base['unit'])} ({base['what']})"


def ratio_text(f: dict[str, Any]) -> str:
    return f"{f['ratio']:.3g}×" if f.get("ratio") is not None else ""


def goal_text(f: dict[str, Any]) -> str:
    goal = f.get("goal")
    if not goal:
        return ""
    met = {True: "met", False: "NOT met", None: "?"}[goal["met"]]
    return f"{goal['text']}: {met}"


__all__ = ["SECTIONS", "run", "show"]
