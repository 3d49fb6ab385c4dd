"""Benchmarks of commands that are a new process each time: start-up, ``kifu record`` onto a
long match, and the first seek of a cold process with and without the board-snapshot file."""

from __future__ import annotations

import json
import os
import random
import sys

from recorder.logformat import read_file
from recorder.tools.bench import measure as m
from recorder.tools.bench.context import Bench, line_of, long_match, with_id
from recorder.tools.bench.measure import Goal, Runs, figure

STARTUP_GOAL = Goal("≤ 1.3× the imports alone", "<=", 1.3)
IMPORTS_ONLY = "import eventsourcing, typer, jinja2"
# What any command that opens a store imports of the library: its application and persistence.
IMPORTS_STORE = "import eventsourcing.application, eventsourcing.sqlite, typer, jinja2"
SHORT_EXAMPLE = "examples/gandice-example.jsonl"


def short_example() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", SHORT_EXAMPLE))


def bench_startup(b: Bench) -> None:
    from recorder.store import Store

    db = b.path("startup.db")
    header, entries = read_file(short_example())
    store = Store(db)
    mid = store.create(header, entries)
    store.close()
    b.kifu_child("board", mid, db=db)  # the read model and any side file exist before timing
    n = max(b.runs, b.size(15, 3))  # short runs on a shared machine: more of them
    help_, board, base, store_floor = Runs("s"), Runs("s"), Runs("s"), Runs("s")
    with b.step("CLI start-up", 4 * n) as advance:
        for _ in range(n):  # interleaved, so a burst of load falls on all three alike
            child = m.run_child([*b.kifu, "--help"])
            help_.add(child.wall, child.cpu)
            advance()
            child = b.kifu_child("board", mid, db=db)
            board.add(child.wall, child.cpu)
            advance()
            child = m.run_child([sys.executable, "-c", IMPORTS_ONLY])
            base.add(child.wall, child.cpu)
            advance()
            child = m.run_child([sys.executable, "-c", IMPORTS_STORE])
            store_floor.add(child.wall, child.cpu)
            advance()
    b.shared["help"] = help_
    b.shared["board_short"] = board
    label = f'python -c "{IMPORTS_ONLY}"'
    figure(b.results, "startup.help", section="startup", what="kifu --help", runs=help_,
           baseline=(label, base), goal=STARTUP_GOAL)
    figure(b.results, "startup.board", section="startup", what=f"kifu board on a short match ({len(entries)} lines)",
           runs=board, baseline=(label, base), goal=STARTUP_GOAL)
    figure(b.results, "startup.board_vs_store_imports", section="startup",
           what=f"kifu board on a short match ({len(entries)} lines), beside the library's store imports",
           runs=board, baseline=(f'python -c "{IMPORTS_STORE}"', store_floor),
           notes="the same kifu board runs, against what opening any store imports of the library "
                 "(its application and SQLite persistence): the part of start-up that is kifu's own")


def floors(b: Bench) -> None:
    """The process floors later figures compare with (measured once per run)."""
    if "help" not in b.shared or "board_short" not in b.shared:
        bench_startup(b)


def bench_record_cli(b: Bench) -> None:
    from recorder.store import Store

    floors(b)
    length = b.size(10_000, 1_000)
    calls = max(b.runs, b.size(5, 3))
    header, moves = long_match(length + calls + 10)
    db = b.path("record-cli.db")
    store = Store(db)
    mid = store.create(with_id(header, "rec-cli"), moves[:length])
    store.close()
    runs = Runs("s")
    with b.step(f"kifu record onto {length:,} lines (subprocess)", calls + 1) as advance:
        # the first call folds the match once and writes the board-snapshot file beside the store
        warm = b.kifu_child("record", mid, json.dumps(line_of(moves[length]), ensure_ascii=False), db=db)
        advance()
        for entry in moves[length + 1: length + 1 + calls]:
            child = b.kifu_child("record", mid, json.dumps(line_of(entry), ensure_ascii=False), db=db)
            runs.add(child.wall, child.cpu)
            advance()
    help_runs = b.shared.get("help")
    figure(b.results, f"record_cli.sqlite.at{length}", section="record",  backend="sqlite",
           what=f"kifu record onto a {length:,}-line match (a new process each call)",
           runs=runs, baseline=("kifu --help (the process floor)", help_runs) if help_runs else None,
           notes=f"after one warm-up call ({warm.wall:.2f} s) that wrote the board-snapshot file")


def bench_seek(b: Bench) -> None:
    from recorder.store import Store

    floors(b)
    length = b.size(10_000, 1_000)
    header, moves = long_match(length)
    db = b.path("seek.db")
    store = Store(db)
    mid = store.create(with_id(header, "seek"), moves[:length])
    store.close()
    boards = b.path("seek.boards.db")
    n = max(b.runs, b.size(15, 3))  # short runs on a shared machine: more of them
    rng = random.Random(3)
    with_file, without = Runs("s"), Runs("s")
    with b.step(f"first seek of a cold process, {length:,} lines", 2 * n + 1) as advance:
        b.kifu_child("board", mid, "--at", "1", "--json", db=db)  # writes the file and the read model
        advance()
        for _ in range(n):
            at = str(rng.randrange(length + 1))
            child = b.kifu_child("board", mid, "--at", at, "--json", db=db)
            with_file.add(child.wall, child.cpu)
            advance()
            for suffix in ("", "-wal", "-shm", "-journal"):
                if os.path.exists(boards + suffix):
                    os.remove(boards + suffix)
            child = b.kifu_child("board", mid, "--at", at, "--json", db=db)
            without.add(child.wall, child.cpu)
            advance()
    short = b.shared.get("board_short")
    base = ("kifu board on a short match (the same command, nothing to fold)", short) if short else None
    figure(b.results, f"seek.sqlite.at{length}.with_file", section="seek", backend="sqlite",
           what=f"kifu board --at N --json, {length:,}-line match, board-snapshot file present",
           runs=with_file, baseline=base, notes="random N; a new process each call")
    figure(b.results, f"seek.sqlite.at{length}.without_file", section="seek", backend="sqlite",
           what=f"kifu board --at N --json, {length:,}-line match, no board-snapshot file",
           runs=without, baseline=base, notes="the file deleted before each call (the call writes it again)")
