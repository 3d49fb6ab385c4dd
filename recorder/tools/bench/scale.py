"""Benchmarks of kifu's cost as the store grows (issue 25): the peak memory of ALL the processes
of ``kifu stats --rebuild`` (a rebuild forks one per core) and its wall time at three store sizes,
and ``kifu import`` of a folder of many small logs against one big log, in events/s (on PostgreSQL
too with ``--pg``).

Each figure stands beside a baseline measured in the same run: with ``KIFU_BENCH_BASELINE`` set
to another checkout of kifu (``/work/main``, say), the same command run with that checkout's
code (a checkout that stays put while the benchmark runs: ``git archive COMMIT | tar -x -C DIR``,
not a branch someone may merge into meanwhile); without it, for the rebuild, a catch-up of the same store into an empty model (pages of
``readmodel.BATCH`` notifications: bounded by the page, not the store), and for the folder, one
big log imported by the same code. Sizes are configurable (environment):

- ``KIFU_BENCH_REBUILD_COPIES``: copies of the 570 distinct matches in each of the three stores,
  comma-separated (default ``3,10,30``: about 121k, 404k and 1.2M events; ``--quick``: ``1,2,3``);
- ``KIFU_BENCH_FOLDER_FILES``: small logs in the folder (default 10,000; quick: 200), each the
  first ``SMALL_LINES`` lines of a generated match;
- ``KIFU_BENCH_BIG_LINES``: the big log's lines (default 100,000; quick: 2,000).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from recorder.tools.bench import measure as m
from recorder.tools.bench.context import Bench, distinct_matches, long_match, with_id, write_log
from recorder.tools.bench.measure import Goal, Runs, figure, rate

MB = 1024 * 1024
SMALL_LINES = 33  # lines of each small log: 34 events, as the folder (337k events / 10,000)
RSS_GOAL = Goal("peak RSS of all processes ≤ 300 MB at every store size (issue 25)", "<=", 300, on="median")
TREE = Path(__file__).resolve().parents[3]  # the checkout this benchmark runs from


def _ints(name: str, default: str) -> list[int]:
    return [int(x) for x in os.environ.get(name, default).split(",") if x.strip()]


def _baseline_tree() -> Path | None:
    given = os.environ.get("KIFU_BENCH_BASELINE")
    return Path(given).resolve() if given else None


def tree_child(b: Bench, tree: Path, *args: str, db: str) -> dict[str, Any]:
    """``kifu --db DB ARGS`` with the code of checkout ``tree``, measured by ``treerss`` (the
    peak of the sum of every process's resident set, sampled, and the largest single one)."""
    sampler = Path(__file__).with_name("treerss.py")
    env = m.child_env(b.side_files(db))
    env["PYTHONPATH"] = str(tree)
    argv = [sys.executable, "-S", str(sampler), "--", sys.executable, "-m", "recorder.cli", "--db", db, *args]
    out = m.run_child(argv, env=env, cwd=str(b.tmp))
    got = json.loads(out.stdout)
    if got["code"] != 0:
        raise m.BenchError(f"kifu {' '.join(args)} ({tree}) exited {got['code']}: {got['stderr'][-500:]}")
    return got


def _grow(store: Any, matches: list[Any], upto: int, have: int) -> None:
    for k in range(have, upto):
        for header, entries in matches:
            store.create(with_id(header, f"sc{k}-{header['match']['id']}"), entries)


def bench_rebuild_rss(b: Bench) -> None:
    """``kifu stats --rebuild`` at three store sizes: peak RSS of all its processes, and wall."""
    from recorder.store import Store

    sizes = _ints("KIFU_BENCH_REBUILD_COPIES", "1,2,3" if b.quick else "3,10,30")
    matches = distinct_matches(b.quick)
    old = _baseline_tree()
    db = b.path("scale.db")
    store = Store(db)
    have = 0
    try:
        for copies in sizes:
            with b.step(f"rebuild memory: store of {copies * len(matches):,} matches", 2 * b.runs + 1) as advance:
                _grow(store, matches, copies, have)
                have = max(have, copies)
                events = store.max_notification_id()
                advance()
                rss, wall, base_rss, base_wall = Runs("MB"), Runs("s"), Runs("MB"), Runs("s")
                for i in range(b.runs):  # interleaved: ours, then the baseline
                    got = tree_child(b, TREE, "stats", "--rebuild", "--readmodel", b.path(f"rss-{events}-{i}.db"), db=db)
                    rss.add(got["peak_tree_rss"] / MB)
                    wall.add(got["wall"], got["cpu"])
                    advance()
                    if old is not None:
                        got = tree_child(b, old, "stats", "--rebuild", "--readmodel", b.path(f"rss-old-{events}-{i}.db"),
                                         db=db)
                    else:
                        got = tree_child(b, TREE, "stats", "--readmodel", b.path(f"rss-cu-{events}-{i}.db"), db=db)
                    base_rss.add(got["peak_tree_rss"] / MB)
                    base_wall.add(got["wall"], got["cpu"])
                    advance()
            label = (f"the same command with the code of {old}" if old is not None
                     else "kifu stats catching up the same store into an empty model (paged)")
            what = f"{copies * len(matches):,} matches, {events:,} events"
            figure(b.results, f"rebuild_rss.sqlite.{events}", section="rebuild_rss", backend="sqlite",
                   what=f"kifu stats --rebuild, peak RSS of all its processes: {what}",
                   runs=rss, baseline=(label, base_rss), goal=RSS_GOAL,
                   notes="the sum of the resident sets of the command and every process it forked, sampled "
                         "every 50 ms from /proc (treerss.py); a rebuild runs one process per core from "
                         "20,000 events")
            figure(b.results, f"rebuild_rss.sqlite.{events}.wall", section="rebuild_rss", backend="sqlite",
                   what=f"kifu stats --rebuild, wall time: {what}", runs=wall, baseline=(label, base_wall),
                   notes="subprocess, start-up included; CPU: the command's and its children's")
    finally:
        store.close()


def bench_folder_import(b: Bench) -> None:
    """``kifu import DIR`` of many small logs against ``kifu import`` of one big log, ev/s."""
    files = _ints("KIFU_BENCH_FOLDER_FILES", "200" if b.quick else "10000")[0]
    big_lines = _ints("KIFU_BENCH_BIG_LINES", "2000" if b.quick else "100000")[0]
    matches = distinct_matches(b.quick)
    folder = b.tmp / "folder"
    folder.mkdir(exist_ok=True)
    small_events = 0
    for k in range(files):
        header, entries = matches[k % len(matches)]
        lines = entries[:SMALL_LINES]
        write_log(folder / f"log-{k:05d}.jsonl", with_id(header, f"fd{k}-{header['match']['id']}"), lines)
        small_events += len(lines) + 1
    header, moves = long_match(big_lines)
    big = b.tmp / "folder-big.jsonl"
    write_log(big, header, moves)
    big_events = len(moves) + 1
    old = _baseline_tree()
    trees = [("kifu", TREE)] + ([("baseline", old)] if old is not None else [])
    backends = b.backends()
    runs = {(backend, name, what): Runs("ev/s", higher_is_better=True)
            for backend in backends for name, _ in trees for what in ("folder", "big")}
    with b.step(f"kifu import of {files:,} small logs and of one {big_lines:,}-line log",
                2 * len(trees) * len(backends) * b.runs) as advance:
        for i in range(b.runs):
            for backend in backends:
                for name, tree in trees:
                    for what, path, events in (("folder", folder, small_events), ("big", big, big_events)):
                        db = b.store_url(backend, f"fold-{name}-{what}-{i}")  # a new store each run
                        got = tree_child(b, tree, "import", str(path), db=db)
                        runs[backend, name, what].add(rate(events, got["wall"]), rate(events, got["cpu"]))
                        advance()
    note = (f"subprocesses, start-up and the read model's catch-up included; each run into a new store; the "
            f"folder: {files:,} logs of the four games ({small_events:,} events, the first {SMALL_LINES} lines of "
            f"generated matches), the big log: one gandice match ({big_events:,} events); CPU: the command's and "
            f"its worker processes' (a folder is read and checked in one worker per core while the command writes)")
    for backend in backends:
        figure(b.results, f"folder_import.{backend}.folder", section="folder_import", backend=backend,
               what=f"kifu import of a folder of {files:,} small logs, events/s",
               runs=runs[backend, "kifu", "folder"],
               baseline=(f"kifu import of one {big_lines:,}-line log, same code", runs[backend, "kifu", "big"]),
               goal=Goal("a folder at least as fast as one big log, in events/s (issue 25)", ">=", 1.0), notes=note)
        if old is not None:
            figure(b.results, f"folder_import.{backend}.folder_vs_baseline", section="folder_import", backend=backend,
                   what=f"kifu import of the same folder of {files:,} small logs, events/s",
                   runs=runs[backend, "kifu", "folder"],
                   baseline=(f"the same command with the code of {old}", runs[backend, "baseline", "folder"]),
                   notes=note)
            figure(b.results, f"folder_import.{backend}.big_vs_baseline", section="folder_import", backend=backend,
                   what=f"kifu import of one {big_lines:,}-line log, events/s",
                   runs=runs[backend, "kifu", "big"],
                   baseline=(f"the same command with the code of {old}", runs[backend, "baseline", "big"]),
                   notes=note)
