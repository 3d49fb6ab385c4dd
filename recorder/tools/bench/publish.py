"""What publishing an event costs (issue 34 item 4): ``kifu event publish E -o DIR`` of the
bench's 570-match event (10 rounds of 57 tables, 114 players, the round robin of the views
section, here a tournament of one game: gandice) beside ``kifu report`` of the same matches
one by one, in the same run; then a second publish after one new match, which must cost
what is new.

Each run starts from a copy of the same store (its read model caught up, as the writes keep
it): the event with every match but the last table of the last round. It publishes into an
empty folder (seconds, files, MB written), records the last match (``Store.create``, then
the read model's catch-up the way every write runs it), and publishes again into the same
folder (seconds, files and bytes written: the new match's replays, the pages that show its
result, the statistics). The baseline is ``kifu report M -o FILE`` of every match of the
event, one process each, as a venue writes them today.

The targets (docs/tournament.md "Publishing"): the first publish within ``FIRST_SECONDS``
seconds and ``SITE_MB`` MB on this 2-core machine; the second within a tenth of the first.
The quick (smoke) run of ``tests/core/test_bench.py``: one round of two tables, the command
run through its CLI entry in the bench's own process (``kifu_run``).
tests/core/test_bench.py holds the quick run to the counts (what the second publish
rewrites), never to a time.

Run alone: ``python -m recorder.tools.bench.publish [--quick]``.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from recorder.tools.bench.context import Bench
from recorder.tools.bench.measure import Goal, Runs, figure

EVENT = "春季リーグ2026"
GAME = "gandice"
ROUNDS, TABLES = 10, 57  # 570 matches, 114 players: the views section's event
QUICK_ROUNDS, QUICK_TABLES = 1, 2
FIRST_SECONDS = 60.0  # the first publish of the 570-match event, seconds (median)
SITE_MB = 100.0  # what it writes, MB
AGAIN_RATIO = 0.1  # the second publish after one new match, against the first
MB = 1024 * 1024


def sizes(quick: bool) -> tuple[int, int]:
    return (QUICK_ROUNDS, QUICK_TABLES) if quick else (ROUNDS, TABLES)


def roster(tables: int) -> list[str]:
    return [f"選手{i:03d}" for i in range(1, 2 * tables + 1)]


def pairs(rnd: int, tables: int) -> list[tuple[str, str]]:
    """Round ``rnd`` of a round robin (the circle method): nobody meets twice."""
    names = roster(tables)
    fixed, rest = names[0], names[1:]
    k = (rnd - 1) % len(rest)
    seats = [fixed, *rest[k:], *rest[:k]]
    n = len(seats)
    return [(seats[i], seats[n - 1 - i]) for i in range(n // 2)]


def match_id(rnd: int, table: int) -> str:
    from projections import tournament as T

    return T.match_id(EVENT, rnd, str(table), 1, 1)


def event_log(rounds: int, tables: int) -> list[dict[str, Any]]:
    """The tournament's log as ``kifu event export`` writes it: the header, every player
    registered, each round paired and closed."""
    at = "2026-04-12T10:00:00Z"
    from projections import registry

    ruleset = registry.get(GAME)
    header = {"kifu": 1, "kind": "event", "event": {
        "name": EVENT, "game": GAME, "rules": f"{ruleset.name}/{ruleset.version}", "rounds": rounds, "format": "bo1",
        "round_minutes": 50, "tiebreaks": ["omw", "gw", "ogw"], "house_rules": {"unfinished_game": "draw"}, "seed": 25,
        "date": "2026-04-12", "lists": "open", "cut_format": "bo3"}}
    lines: list[dict[str, Any]] = [{"type": "register", "player": p, "deck": None} for p in roster(tables)]
    for rnd in range(1, rounds + 1):
        lines.append({"type": "pair", "round": rnd, "method": "import", "byes": [], "at": at,
                      "tables": [{"table": str(t), "players": [a, b], "match": match_id(rnd, t)}
                                 for t, (a, b) in enumerate(pairs(rnd, tables), start=1)]})
        lines.append({"type": "close", "round": rnd, "at": at})
    return [header, *({"seq": i, **line} for i, line in enumerate(lines, start=1))]


def event_matches(rounds: int, tables: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every match of the event: a generated two-player game of ``GAME`` at each table."""
    from projections import registry
    from recorder.tools.synth import generate

    out = []
    i = 0
    for rnd in range(1, rounds + 1):
        for table, (a, b) in enumerate(pairs(rnd, tables), start=1):
            while True:
                header, entries = generate(registry.get(GAME), 25, i, players=2)
                i += 1
                if len(header["players"]) == 2:
                    break
            header["match"].update(id=match_id(rnd, table), event=EVENT, round=rnd, table=str(table),
                                   date="2026-04-12")
            header["players"][0]["name"], header["players"][1]["name"] = a, b
            out.append((header, entries))
    return out


def build(folder: Path, quick: bool) -> tuple[Path, tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The store of the event with every match but the last (its read model caught up), and
    the last match."""
    from projections import readmodel
    from recorder import tournament_service
    from recorder.store import Store

    rounds, tables = sizes(quick)
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "event.db"
    log = folder / "event.jsonl"
    log.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in event_log(rounds, tables)),
                   encoding="utf-8")
    matches = event_matches(rounds, tables)
    store = Store(str(db))
    try:
        tournament_service.import_log(store, str(log))
        for header, entries in matches[:-1]:
            store.create(header, entries)
        readmodel.catch_up_store(store).close()
    finally:
        store.close()
    return db, matches[-1]


def copy_store(db: Path, to: Path) -> Path:
    """The store and its read model, copied (each run starts from the same bytes)."""
    to.mkdir(parents=True, exist_ok=True)
    for p in db.parent.glob(db.stem + ".*"):
        if p.suffix in (".db", ".db-wal", ".db-shm") or ".readmodel." in p.name:
            shutil.copy2(p, to / p.name)
    return to / db.name


def files_of(folder: Path) -> dict[str, tuple[int, int]]:
    """{relative path: (size, mtime_ns)} of every file of a site."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()}


def add_match(db: Path, match: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    """The last match recorded, and the listeners every write runs (the read model's catch-up)."""
    from recorder import hooks
    from recorder.store import Store

    store = Store(str(db))
    try:
        store.create(*match)
        hooks.after_write(store)
    finally:
        store.close()


def kifu_run(bench: Bench, *args: str, db: str) -> tuple[float, float]:
    """(wall, CPU seconds) of ``kifu --db DB ARGS``: a process of its own as a user runs it;
    in the quick (smoke) run, the same CLI entry in this process (a dozen processes would
    cost the quick run more than the rest of its sections' children)."""
    if not bench.quick:
        child = bench.kifu_child(*args, db=db)
        return child.wall, child.cpu
    import contextlib
    import io

    from recorder import cli
    from recorder.tools.bench.measure import timed

    def call() -> int:
        saved = sys.argv
        sys.argv = ["kifu", "--db", db, *args]
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                cli.main()
        except SystemExit as exc:
            return int(exc.code or 0)
        finally:
            sys.argv = saved
        return 0

    wall, cpu, code = timed(call)
    if code:
        raise RuntimeError(f"kifu {' '.join(args)}: exit {code}")
    return wall, cpu


def bench_publish(bench: Bench) -> None:
    rounds, tables = sizes(bench.quick)
    total = rounds * tables
    root = bench.tmp / "publish"
    with bench.step("publish: the event's store", 1) as advance:
        db, last = build(root / "base", bench.quick)
        advance()
    first, again, reports = Runs("s"), Runs("s"), Runs("s")
    site_mb, again_files, again_kb = Runs("MB"), Runs("files"), Runs("KB")
    counts: dict[str, Any] = {}
    with bench.step("publish: runs", bench.runs * (total + 2)) as advance:
        for run in range(bench.runs):
            work = root / f"run{run}"
            store = copy_store(db, work)
            site = work / "site"
            first.add(*kifu_run(bench, "event", "publish", EVENT, "-o", str(site), db=str(store)))
            advance()
            before = files_of(site)
            site_mb.add(sum(s for s, _ in before.values()) / MB)
            add_match(store, last)
            again.add(*kifu_run(bench, "event", "publish", EVENT, "-o", str(site), db=str(store)))
            advance()
            after = files_of(site)
            written = sorted(k for k in after if k not in before or after[k][1] != before[k][1])
            again_files.add(len(written))
            again_kb.add(sum(after[k][0] for k in written) / 1024)
            counts = {"files": len(after), "first_files": len(before), "again_written": written,
                      "again_replays_written": sum(k.rsplit("/", 1)[-1].startswith("match-") for k in written),
                      "matches": total}
            # the baseline: kifu report of every match, one process each
            out = work / "reports"
            out.mkdir()
            wall = cpu = 0.0
            report_bytes = 0
            for rnd in range(1, rounds + 1):
                for t in range(1, tables + 1):
                    target = out / f"r{rnd}-t{t}.html"
                    w, c = kifu_run(bench, "report", match_id(rnd, t), "-o", str(target), db=str(store))
                    wall += w
                    cpu += c
                    report_bytes += target.stat().st_size
                    advance()
            reports.add(wall, cpu)
            counts["reports_mb"] = round(report_bytes / MB, 2)
            shutil.rmtree(work)
    label = f"kifu report of the {total} matches one by one"
    what = f"kifu event publish of a {total}-match event (ja and en, {counts['first_files'] - 1} pages)"
    figure(bench.results, "publish.sqlite.first", section="publish", what=what, runs=first,
           baseline=(label, reports), goal=Goal(f"≤ {FIRST_SECONDS:.0f} s", "<=", FIRST_SECONDS, on="median"),
           extra={"files": counts["first_files"], "reports_mb": counts["reports_mb"]})
    figure(bench.results, "publish.sqlite.mb", section="publish", what=f"MB the first publish writes ({total} matches)",
           runs=site_mb, goal=Goal(f"≤ {SITE_MB:.0f} MB", "<=", SITE_MB, on="median"),
           notes=f"kifu report of each match, one language: {counts['reports_mb']} MB")
    figure(bench.results, "publish.sqlite.again", section="publish",
           what="kifu event publish again after one new match", runs=again,
           baseline=("the first publish", first),
           goal=Goal(f"≤ {AGAIN_RATIO}× the first publish", "<=", AGAIN_RATIO),
           extra={"again_files": again_files.values[-1], "again_kb": round(again_kb.values[-1], 1),
                  "again_replays_written": counts["again_replays_written"],
                  "again_written": counts["again_written"], "files": counts["files"]})


def main(argv: list[str]) -> None:
    import tempfile

    from rich.console import Console
    from rich.progress import Progress

    quick = "--quick" in argv
    results: dict[str, Any] = {"figures": {}}
    with tempfile.TemporaryDirectory(prefix="kifu-bench-publish-") as tmp, Progress(transient=True) as progress:
        t0 = time.perf_counter()
        bench_publish(Bench(results, Path(tmp), quick, None, progress))
        results["seconds"] = round(time.perf_counter() - t0, 1)
    Console().print_json(json.dumps(results, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
