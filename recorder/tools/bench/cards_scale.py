"""The read model's ``cards`` table at scale, a one-off measure (not a section of ``make bench``:
it takes many minutes): a store of N generated matches (default 100,000: copies, under new
ids, of the benchmark's matches of the four games, ``context.distinct_matches``), then

* the time ``kifu stats --rebuild`` takes to build the read model (less ``kifu stats`` on the
  model it built, as the benchmark's rebuild figure; wall, and the CPU of all its processes), once;
* the ``cards`` table's rows and its size on disk, the table and its two indexes (SQLite's
  ``dbstat``), beside the whole read model's;
* ``kifu stats --cards --game G`` for each game, and ``kifu stats --cards`` of all games:
  wall and CPU time, median of 3 with min–max (each a process of its own, as a user runs it).

Run::

    .venv/bin/python -m recorder.tools.bench.cards_scale [--matches 100000] [--dir DIR]

``--dir`` keeps the store and its read model there (default: a temporary folder, deleted
after). The figures are printed as JSON; docs/stats.md keeps the last ones.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from recorder.tools.bench import measure as m
from recorder.tools.bench.context import distinct_matches, with_id

CARDS_OBJECTS = ("cards", "cards_by_match_id", "cards_by_game_card")
BATCH = 1000  # matches stored in one transaction


def build(db: str, count: int) -> int:
    """A store of ``count`` matches (copies of the benchmark's); its events."""
    from recorder.store import Store

    matches = distinct_matches(False)
    store = Store(db)
    try:
        for start in range(0, count, BATCH):
            with store.batch():
                for k in range(start, min(count, start + BATCH)):
                    header, entries = matches[k % len(matches)]
                    store.create(with_id(header, f"cs{k}-{header['match']['id']}"), entries)
        return store.max_notification_id()
    finally:
        store.close()


def kifu(db: str, *args: str, cwd: str) -> m.Child:
    return m.run_child([sys.executable, "-m", "recorder.cli", "--db", db, *args], env=m.child_env(), cwd=cwd)


def sizes(model: str) -> dict[str, Any]:
    con = sqlite3.connect(model)
    try:
        rows = int(con.execute("select count(*) from cards").fetchone()[0])
        marks = ", ".join("?" for _ in CARDS_OBJECTS)
        cards = int(con.execute(f"select sum(pgsize) from dbstat where name in ({marks})", CARDS_OBJECTS).fetchone()[0])
        whole = int(con.execute("select page_count * page_size from pragma_page_count(), pragma_page_size()").fetchone()[0])
        matches = int(con.execute("select count(*) from matches").fetchone()[0])
        counted = int(con.execute("select count(*) from matches where finished = 1 and error is null").fetchone()[0])
    finally:
        con.close()
    return {"matches": matches, "decided": counted, "cards_rows": rows, "cards_mb": round(cards / 1e6, 1),
            "readmodel_mb": round(whole / 1e6, 1)}


def spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "min": round(min(values), 3), "max": round(max(values), 3)}


def measure(folder: Path, count: int) -> dict[str, Any]:
    db, model = str(folder / "cards-scale.db"), str(folder / "cards-scale.readmodel.db")
    t0 = time.perf_counter()
    events = build(db, count)
    stored = time.perf_counter() - t0
    built = kifu(db, "stats", "--rebuild", "--readmodel", model, cwd=str(folder))
    shown = kifu(db, "stats", "--readmodel", model, cwd=str(folder))
    out: dict[str, Any] = {"events": events, "store_seconds": round(stored, 1),
                           "rebuild_seconds": round(built.wall - shown.wall, 2),
                           "rebuild_events_per_s": round(events / (built.wall - shown.wall)),
                           "rebuild_cpu_seconds": round(built.cpu - shown.cpu, 1),  # its processes' too
                           "stats_seconds": round(shown.wall, 3), **sizes(model), "queries": {}}
    games = sorted({str(h["game"]) for h, _ in distinct_matches(False)})
    for game in [*games, None]:
        runs = [kifu(db, "stats", "--cards", "--readmodel", model, *(("--game", game) if game else ()),
                     cwd=str(folder)) for _ in range(3)]
        out["queries"][game or "all games"] = {"wall": spread([r.wall for r in runs]), "cpu": spread([r.cpu for r in runs])}
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        result = measure(args.dir, args.matches)
    else:
        with tempfile.TemporaryDirectory(prefix="kifu-cards-") as tmp:
            result = measure(Path(tmp), args.matches)
    print(json.dumps(result, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
