"""Benchmarks of the paths that write or read the store: ``kifu import``, ``service.record``,
the read-model rebuild and ``kifu stats``, each beside the raw database doing the same rows."""

from __future__ import annotations

import os
import sqlite3
import statistics
import sys
from functools import partial
from typing import Any

from recorder.tools.bench import measure as m
from recorder.tools.bench.context import Bench, distinct_matches, line_of, long_match, with_id, write_log
from recorder.tools.bench.measure import Goal, Runs, figure, rate

IMPORT_GOAL = Goal("≥ 0.30 of raw executemany", ">=", 0.30)
RSS_GOAL = Goal("peak RSS ≤ 1.5× the parsed log", "<=", 1.5)
RECORD_GOAL = Goal("≥ 0.3 of raw INSERT+COMMIT", ">=", 0.3)
REBUILD_GOAL = Goal("≥ 100,000 ev/s", ">=", 100_000, on="median")
STATS_GOAL = Goal("< 1 s at 100,000 matches", "<=", 1.0, on="median")
PARSE_ONLY = "import json, sys\nwith open(sys.argv[1], encoding='utf-8') as f:\n    data = [json.loads(line) for line in f]\n"
PARSED_SIZE = (
    "import json, sys, tracemalloc\ntracemalloc.start()\n"
    "with open(sys.argv[1], encoding='utf-8') as f:\n    data = [json.loads(line) for line in f]\n"
    "print(tracemalloc.get_traced_memory()[0])\n"
)
MB = 1024 * 1024


# -- kifu import ---------------------------------------------------------------------------------------


def bench_import(b: Bench) -> None:
    header, moves = long_match(b.size(10_000, 500))
    log = b.tmp / "import-long.jsonl"
    write_log(log, header, moves)
    events = len(moves) + 1  # rows stored: the header's event and one per line
    for backend in b.backends():
        kifu, cpu_ok = Runs("ev/s", higher_is_better=True), True
        base = Runs("rows/s", higher_is_better=True)
        with b.step(f"kifu import, {len(moves):,} lines ({backend})", 2 * b.runs) as advance:
            urls = []
            for i in range(b.runs):
                url = b.store_url(backend, f"import-{i}")
                urls.append(url)
                child = b.kifu_child("import", str(log), db=url)
                kifu.add(rate(events, child.wall), rate(events, child.cpu) if cpu_ok else None)
                advance()
            if backend == "sqlite":
                schema, rows = m.sqlite_rows(urls[0])
                for i in range(b.runs):
                    wall, cpu = m.sqlite_executemany(b.path(f"raw-import-{i}.db"), schema, rows)
                    base.add(rate(len(rows), wall), rate(len(rows), cpu))
                    advance()
                b.shared["seek_db"] = urls[0]  # type: ignore[assignment]
            else:
                rows = m.pg_rows(urls[0])
                for i in range(b.runs):
                    wall, cpu = m.pg_executemany(urls[i], rows)
                    base.add(rate(len(rows), wall), rate(len(rows), cpu))
                    advance()
        figure(b.results, f"import.{backend}.long", section="import", backend=backend,
               what=f"kifu import of one {len(moves):,}-line gandice log (subprocess: file → store → read model)",
               runs=kifu, baseline=(f"raw executemany of the same {len(rows):,} stored rows, one transaction", base),
               goal=IMPORT_GOAL,
               notes="kifu includes its process start-up and the read-model catch-up; CPU rates are the child's "
                     "user+system time (kifu) and this process's (raw).")
        lib = Runs("ev/s", higher_is_better=True)
        with b.step(f"the library's mapper and insert of the same events ({backend})", b.runs) as advance:
            for i in range(b.runs):
                lib.add(*_library_bulk(b, backend, header, moves, i))
                advance()
        figure(b.results, f"import.{backend}.library_floor", section="import", backend=backend,
               what=f"the library alone: its mapper and one insert_events of the same {events:,} events (in-process)",
               runs=lib, baseline=(f"raw executemany of the same {len(rows):,} stored rows, one transaction", base),
               notes="what Store.create pays the library, from lines already parsed and validated: the floor under "
                     "any import that keeps the library as the store (no parsing, no read model, no start-up)")


def _library_bulk(b: Bench, backend: str, header: dict[str, Any], moves: list[dict[str, Any]],
                  i: int) -> tuple[float, float]:
    """(ev/s wall, ev/s CPU) of the library's mapper and one insert_events of a whole log."""
    from recorder.store import Store, event_for

    store = Store(b.store_url(backend, f"import-lib-{i}"))
    try:
        store.create(with_id(header, f"lib-{i}"))
        stream = store.stream_of(f"lib-{i}")
        to_stored = store.to_stored

        def go() -> None:
            stored = [to_stored(event_for(stream, j + 2, entry)) for j, entry in enumerate(moves)]
            store.insert_raw(stored)

        wall, cpu, _ = m.timed(go)
    finally:
        store.close()
    return rate(len(moves), wall), rate(len(moves), cpu)


def bench_import_big(b: Bench) -> None:
    header, moves = long_match(b.size(100_000, 2_000))
    log = b.tmp / "import-big.jsonl"
    size = write_log(log, header, moves)
    wall, rss = Runs("s"), Runs("MB")
    base_wall, parse_rss = Runs("s"), Runs("MB")
    with b.step(f"kifu import, {len(moves):,} lines: time and peak RSS", 3 * b.runs) as advance:
        first = None
        for i in range(b.runs):  # interleaved: the import, then the parse-only process
            db = b.path(f"import-big-{i}.db")
            child = b.kifu_child("import", str(log), db=db)
            wall.add(child.wall, child.cpu)
            rss.add(child.max_rss / MB)
            first = first or db
            advance()
            parse = m.run_child([sys.executable, "-c", PARSE_ONLY, str(log)])
            parse_rss.add(parse.max_rss / MB)
            advance()
        schema, rows = m.sqlite_rows(first or "")
        for i in range(b.runs):
            w, c = m.sqlite_executemany(b.path(f"raw-big-{i}.db"), schema, rows)
            base_wall.add(w, c)
            advance()
        parsed = int(m.run_child([sys.executable, "-c", PARSED_SIZE, str(log)]).stdout.strip()) / MB
    tiny = b.tmp / "import-tiny.jsonl"
    write_log(tiny, header, moves[:1])
    floor = b.kifu_child("import", str(tiny), db=b.path("import-tiny.db")).max_rss / MB
    peak = statistics.median(rss.values)
    figure(b.results, "import.sqlite.big.time", section="import", backend="sqlite",
           what=f"kifu import of a {len(moves):,}-line log: wall time",
           runs=wall, baseline=(f"raw executemany of the same {len(rows):,} rows", base_wall),
           notes=f"file {size / MB:.1f} MB; kifu includes start-up and the read-model catch-up")
    figure(b.results, "import.sqlite.big.rss", section="import", backend="sqlite",
           what=f"kifu import of a {len(moves):,}-line log: peak RSS of the process",
           runs=rss, baseline=("peak RSS of a process that only json.loads every line of the file", parse_rss),
           goal=RSS_GOAL,
           notes="peak RSS (ru_maxrss from wait4) of a fresh child per run, started by a small spawner process "
                 "so the benchmark's own memory is not counted; extra: the same import of a one-line log (the "
                 "process floor) and the parsed lines' size by tracemalloc. kifu's parser interns the keys of "
                 "the lines it reads (logformat._pairs), which plain json.loads does not: its parsed log is "
                 "smaller than the baseline's",
           extra={"parsed_tracemalloc_mb": round(parsed, 1), "kifu_import_floor_mb": round(floor, 1),
                  "ratio_to_parsed_tracemalloc": m.sig3(peak / parsed) if parsed else None,
                  "ratio_above_floor_to_parsed_tracemalloc": m.sig3((peak - floor) / parsed) if parsed else None})


# -- service.record ------------------------------------------------------------------------------------


def _record_runs(b: Bench, store: Any, backend: str, header: dict[str, Any], moves: list[dict[str, Any]],
                 length: int, steady: int, advance: Any) -> tuple[Runs, Runs]:
    """First call and steady state of ``service.record`` onto fresh copies of a ``length``-line
    match, stored by the fast path and caught up by the read model (as ``kifu import`` leaves
    a match: no board-snapshot file yet)."""
    from recorder import hooks, service

    first, steady_runs = Runs("ms"), Runs("moves/s", higher_is_better=True)
    for i in range(b.runs):
        mid = f"rec-{length}-{i}"
        store.create(with_id(header, mid), moves[:length])
        hooks.after_write(store)  # the read model has it, as after `kifu import` (not timed)
        _settle(store.db)  # PostgreSQL: the bulk insert's autovacuum now, not in the timed calls
        wall, cpu, _ = m.timed(partial(service.record, store, mid, line_of(moves[length])))
        first.add(wall * 1000, cpu * 1000)
        walls, cpus = [], []
        for entry in moves[length + 1: length + 1 + steady]:
            wall, cpu, _ = m.timed(partial(service.record, store, mid, line_of(entry)))
            walls.append(wall)
            cpus.append(cpu)
        steady_runs.add(rate(len(walls), sum(walls)), rate(len(cpus), sum(cpus)))
        advance()
    return first, steady_runs


def bench_record(b: Bench) -> None:
    from recorder import service
    from recorder.store import Store

    grow = b.size(300, 30)
    lengths = [10, 1_000, 10_000] if not b.quick else [10, 600, 1_000]
    steady = b.size(50, 10)
    header, moves = long_match(max(lengths) + steady + 10)
    for backend in b.backends():
        url = b.store_url(backend, "record")
        with b.in_process_side_files(url):
            store = Store(url)
            try:
                growing, base = Runs("moves/s", higher_is_better=True), Runs("rows/s", higher_is_better=True)
                with b.step(f"service.record, a match growing 0 → {grow} ({backend})", 2 * b.runs) as advance:
                    for i in range(b.runs):
                        mid = f"grow-{i}"
                        service.create_match(store, with_id(header, mid))
                        walls, cpus = [], []
                        for entry in moves[:grow]:
                            wall, cpu, _ = m.timed(partial(service.record, store, mid, line_of(entry)))
                            walls.append(wall)
                            cpus.append(cpu)
                        growing.add(rate(grow, sum(walls)), rate(grow, sum(cpus)))
                        advance()
                    for i in range(b.runs):
                        costs = _raw_insert_commit(b, backend, url, i, grow)
                        base.add(rate(len(costs), sum(w for w, _ in costs)), rate(len(costs), sum(c for _, c in costs)))
                        advance()
                b.shared[f"record_raw_{backend}"] = base
                lib = Runs("rows/s", higher_is_better=True)
                for i in range(b.runs):
                    costs = _library_insert(store, header, moves[:grow], f"lib-{i}")
                    lib.add(rate(len(costs), sum(w for w, _ in costs)), rate(len(costs), sum(c for _, c in costs)))
                figure(b.results, f"record.{backend}.library_insert", section="record", backend=backend,
                       what=f"the library's own insert of one stored event, a match growing 0 → {grow}",
                       runs=lib, baseline=("raw INSERT+COMMIT per row, the same stored rows", base),
                       notes="the library's own insert_events([event]) per line: what the library itself pays "
                             "per append (its transaction, and on PostgreSQL its table lock and notify), the "
                             "floor under service.record")
                label = "raw INSERT+COMMIT per row, the same stored rows"
                short_id = f"record.{backend}.grow"
                figure(b.results, short_id, section="record", backend=backend,
                       what=f"service.record (in-process), a match growing 0 → {grow}",
                       runs=growing, baseline=(label, base), goal=RECORD_GOAL,
                       notes="each call: validate, name check, rule check on the head fold, append, board file, "
                             "read-model catch-up (the hook every kifu face registers)")
                for length in lengths:
                    with b.step(f"service.record onto {length:,} lines ({backend})", b.runs) as advance:
                        first, steady_runs = _record_runs(b, store, backend, header, moves, length, steady, advance)
                    figure(b.results, f"record.{backend}.at{length}", section="record", backend=backend,
                           what=f"service.record onto a {length:,}-line match, steady state ({steady} moves after the first)",
                           runs=steady_runs, baseline=(label, base),
                           goal=RECORD_GOAL if length < 1000 else Goal(
                               "cost within 2× of a short match (rate ≥ 0.5× the growing match's)", ">=", 0.5, on=short_id),
                           notes="the match was stored by the fast path (then, on PostgreSQL, VACUUM ANALYZE, as "
                                 "autovacuum would soon after); moves/s over the steady calls")
                    figure(b.results, f"record.{backend}.at{length}.first", section="record", backend=backend,
                           what=f"service.record onto a {length:,}-line match: the first call in a process",
                           runs=first, notes="loads the match, seeds the head fold (board-snapshot file if any), records")
            finally:
                store.close()


def _library_insert(store: Any, header: dict[str, Any], moves: list[dict[str, Any]], mid: str) -> list[tuple[float, float]]:
    """(wall, cpu) of the library's insert_events of each line's stored event, one at a time."""
    from recorder.store import event_for

    store.create(with_id(header, mid))
    stream = store.stream_of(mid)
    to_stored = store.to_stored
    costs = []
    for i, entry in enumerate(moves):
        stored = to_stored(event_for(stream, i + 2, dict(entry, seq=i + 1)))
        wall, cpu, _ = m.timed(partial(store.insert_raw, [stored]))
        costs.append((wall, cpu))
    return costs


def _raw_insert_commit(b: Bench, backend: str, url: str, i: int, count: int) -> list[tuple[float, float]]:
    if backend == "sqlite":
        schema, rows = m.sqlite_rows(url)
        return m.sqlite_insert_commit(b.path(f"raw-record-{i}.db"), schema, rows[-count:])
    rows = m.pg_rows(url)
    return m.pg_insert_commit(url, rows[-count:])


# -- read model -----------------------------------------------------------------------------------------


def _fill(store: Any, matches: list[Any], copies: int, prefix: str) -> int:
    events = 0
    for k in range(copies):
        for header, entries in matches:
            store.create(with_id(header, f"{prefix}{k}-{header['match']['id']}"), entries)
            events += len(entries) + 1
    return events


def _own_cpu() -> float:
    """CPU seconds of this process and of its children that ended (a rebuild's parts)."""
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _server_cpu(backend: str) -> float | None:
    """CPU seconds the PostgreSQL server's processes have used (the ones that ended counted in
    the postmaster's), read from /proc; None for SQLite (no server) or without /proc."""
    if backend != "postgres" or not os.path.isdir("/proc"):
        return None
    tick, total = os.sysconf("SC_CLK_TCK"), 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
                name, _, rest = f.read().partition(") ")
        except OSError:
            continue
        if name.endswith("(postgres"):
            fields = rest.split()
            total += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return total / tick


def _settle(url: str) -> None:
    """After a bulk fill, let PostgreSQL's autovacuum work happen now, not during the timed
    runs (it would, seconds after the fill, on the same two cores): ``VACUUM ANALYZE``."""
    if url.startswith(("postgresql://", "postgres://")):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")


def bench_rebuild(b: Bench) -> None:
    from projections import readmodel
    from recorder.store import Store

    matches = distinct_matches(b.quick)
    copies = b.size(3, 1)
    for backend in b.backends():
        url = b.store_url(backend, "rebuild")
        store = Store(url)
        parts = max(2, readmodel.rebuild_parts())  # the figure compares n processes with one
        kifu, one, base = (Runs("ev/s", higher_is_better=True) for _ in range(3))
        busy: list[tuple[float, float, float]] = []  # (wall, kifu CPU, database server CPU) of each n-process run
        try:
            with b.step(f"read-model rebuild ({backend})", 3 * b.runs + 1) as advance:
                _fill(store, matches, copies, "rb")
                _settle(url)
                advance()
                events = store.max_notification_id()
                for i in range(b.runs):
                    for runs, processes in ((kifu, parts), (one, 1)):
                        path = b.path(f"rebuild-{backend}-{processes}-{i}.readmodel.db")
                        os.environ["KIFU_REBUILD_PARTS"] = str(processes)
                        server, ours = _server_cpu(backend), _own_cpu()
                        try:
                            wall, cpu, rm = m.timed(partial(readmodel.rebuild, store, path))
                        finally:
                            os.environ.pop("KIFU_REBUILD_PARTS", None)
                        if processes > 1:
                            after = _server_cpu(backend)
                            busy.append((wall, _own_cpu() - ours, 0.0 if server is None or after is None else after - server))
                        rm.close()
                        runs.add(rate(events, wall), None if processes > 1 else rate(events, cpu))
                        advance()
                    w, c, n = m.sqlite_read_decode(url) if backend == "sqlite" else m.pg_read_decode(url)
                    base.add(rate(n, w), rate(n, c))
                    advance()
            if backend == "sqlite":
                _fold_floor(b, store, events)
        finally:
            store.close()
        used = parts if events >= readmodel.PARALLEL_FROM else 1
        extra = None
        if busy:
            wall, ours, server = (statistics.median(x[i] for x in busy) for i in range(3))
            extra = {"kifu_cpu_s": round(ours, 2), "server_cpu_s": round(server, 2) if backend == "postgres" else None,
                     "cores_busy": round((ours + server) / wall, 2), "cores": os.cpu_count()}
        figure(b.results, f"rebuild.{backend}", section="rebuild", backend=backend, extra=extra,
               what=f"read-model rebuild (in-process, {f'{used} folding processes and the writing one' if used > 1 else 'one process'}), {len(matches) * copies:,} matches of the "
                    f"four games, {events:,} events",
               runs=kifu, baseline=("read every stored event once and json.loads it (raw driver)", base),
               goal=REBUILD_GOAL, notes="readmodel.rebuild into a new file each run; the read model is SQLite on both "
                                        "backends; no CPU figure: the work is spread over processes; on "
                                        "PostgreSQL the store is VACUUM ANALYZEd after the fill, before the timed "
                                        "runs (what autovacuum does seconds later, on the same cores)")
        figure(b.results, f"rebuild.{backend}.one_process", section="rebuild", backend=backend,
               what="the same rebuild in one process (KIFU_REBUILD_PARTS=1)",
               runs=one, baseline=("read every stored event once and json.loads it (raw driver)", base),
               notes="what a machine with one core gets; the figure above divided by this one is what the "
                     "processes bring")
    from recorder.tools.bench.previous import bench_command_rebuild

    bench_command_rebuild(b, matches, copies)


def _fold_floor(b: Bench, store: Any, events: int) -> None:
    """The rules' share of a rebuild: every match of the store folded to its end (the boards and
    results a row needs, without rule checks), from lines already in memory. A rebuild cannot
    be faster than this however the rest is done."""
    from projections.replay import Replay

    loaded = [store.load(h["match"]["id"]) for h in store.headers()]
    runs = Runs("ev/s", higher_is_better=True)
    with b.step("rebuild floor: folding every match", b.runs) as advance:
        for _ in range(b.runs):
            def fold_all() -> None:
                for header, entries in loaded:
                    rep = Replay(header, entries, checks=False)
                    rep.result()
            wall, cpu, _ = m.timed(fold_all)
            runs.add(rate(events, wall), rate(events, cpu))
            advance()
    figure(b.results, "rebuild.sqlite.fold_floor", section="rebuild", backend="sqlite",
           what="the folds alone of the rebuild's matches (in memory, no store, no read model)",
           runs=runs, notes="Replay(checks=False) to the last step of every match, in one process: the rules' floor "
                            "of a one-process rebuild (a rebuild in n processes folds 1/n of the matches in each)")


def bench_stats(b: Bench) -> None:
    from projections import readmodel
    from recorder.store import Store

    from recorder.tools.bench.cli_paths import floors

    floors(b)
    small, big = b.size(10_000, 200), b.size(100_000, 2_000)
    matches = distinct_matches(b.quick)
    db = b.path("stats.db")
    store = Store(db)
    with b.step(f"kifu stats: building {small:,} matches", 2) as advance:
        copies = -(-small // len(matches))
        pool = (matches * copies)[:small]
        events = 0
        for k, (header, entries) in enumerate(pool):
            store.create(with_id(header, f"st{k}-{header['match']['id']}"), entries)
            events += len(entries) + 1
        advance()
        wall, cpu, rm = m.timed(lambda: readmodel.catch_up_store(store, readmodel.default_path(db)))
        rm.close()
        advance()
    store.close()
    b.results.setdefault("setup", {})["stats_catch_up"] = {
        "matches": small, "events": events, "seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
        "events_per_s": round(events / wall), "note": "one catch-up of the read model after the fast import path"}
    help_runs = b.shared.get("help")
    for count in (small, big):
        if count == big:
            _multiply_readmodel(readmodel.default_path(db), big // small)
        runs = Runs("s")
        with b.step(f"kifu stats over {count:,} matches", b.runs) as advance:
            for _ in range(b.runs):
                child = b.kifu_child("stats", db=db)
                runs.add(child.wall, child.cpu)
                advance()
        figure(b.results, f"stats.sqlite.{count}", section="stats", backend="sqlite",
               what=f"kifu stats over {count:,} matches (subprocess, read model caught up)",
               runs=runs, baseline=("kifu --help (the process floor)", help_runs) if help_runs else None,
               goal=STATS_GOAL if count == big else None,
               notes="" if count == small else
               f"the store holds {small:,} matches; the read model's rows were copied in SQL to {count:,} "
               f"(building {count:,} stored matches would take most of the benchmark's time)")


def _multiply_readmodel(path: str, factor: int) -> None:
    """Copies of every read-model row under new ids, so statistics run over ``factor`` times
    as many matches (the store itself is not touched)."""
    con = sqlite3.connect(path)
    try:
        with con:
            for table, where in (("matches", "id"), ("results", "match_id"), ("sides", "match_id"),
                                 ("pairs", "match_id")):
                cols = [r[1] for r in con.execute(f"pragma table_info({table})")]
                for k in range(1, factor):
                    sel = ", ".join(f"{c} || '~{k}'" if c in ("id", "stream", "match_id") else f'"{c}"' for c in cols)
                    con.execute(f"insert into {table} ({', '.join(map(_q, cols))}) select {sel} from {table} "
                                f"where {where} not like '%~%'")
    finally:
        con.close()


def _q(name: str) -> str:
    return f'"{name}"'
