"""Views at season scale (issue 25 item 2, "every view costs what it shows"): the same
570-match event (10 rounds of 57 tables) in a store holding only it and in a store of
100,000 matches, side by side in one run: the first desk page, a list page with a filter,
``kifu matches --limit 25``, ``kifu standings`` and ``kifu stats --player P``; and the
server's memory after opening 2,000 different match pages. The desk is measured twice: cold
(its violations never kept: each match of the event folded with rule checks) and from what
the read model keeps.

The stores are built once and kept under ``build/bench-views/N-rmV/`` (V: the read model's schema; N: the big store's
matches, ``KIFU_BENCH_VIEWS_MATCHES``; ``--quick``: 150, an event of 1 round and 40 match pages). The event's matches are stored
with ``Store.create``; the big store's other matches are copies of 570 generated templates
made in SQL (each copy a new stream: its header re-encoded with a new id and event, its
lines the template's stored rows under the new stream id), then both read models are
caught up the usual way (paged, every match folded). Building 100,000 with ``Store.create``
would take over an hour on this machine; the copy takes minutes.

Run alone: ``python -m recorder.tools.bench.views [N]`` builds the stores and prints the
figures without the rest of ``make bench``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from recorder.tools.bench.measure import Goal, Runs, figure

EVENT = "春季リーグ2026"
ROUNDS, TABLES = 10, 57  # 570 matches, 114 players
PLAYER = "選手007"
DEFAULT_MATCHES = 100_000
QUICK_MATCHES = 150
QUICK_ROUNDS = 1
PAGES_OPENED = 2_000
WITHIN_2X = Goal("≤ 2× the event-only store", "<=", 2.0)
MB = 1024 * 1024
ROOT = Path(__file__).resolve().parents[3]


def big_size(quick: bool) -> int:
    given = os.environ.get("KIFU_BENCH_VIEWS_MATCHES", "")
    if given.isdigit() and int(given) > ROUNDS * TABLES:
        return int(given)
    return QUICK_MATCHES if quick else DEFAULT_MATCHES


# -- the stores --------------------------------------------------------------------------------------


def _roster() -> list[str]:
    return [f"選手{i:03d}" for i in range(1, 2 * TABLES + 1)]


def _pairs(rnd: int) -> list[tuple[str, str]]:
    """Round ``rnd`` (1-based) of a round robin (the circle method): nobody meets twice."""
    names = _roster()
    fixed, rest = names[0], names[1:]
    k = (rnd - 1) % len(rest)
    turned = rest[k:] + rest[:k]
    seats = [fixed, *turned]
    n = len(seats)
    return [(seats[i], seats[n - 1 - i]) for i in range(n // 2)]


def event_matches(rounds: int = ROUNDS) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The event: 10 rounds of 57 tables, two players a table, games of all four kinds."""
    from projections import registry
    from recorder.tools.synth import generate

    games = ["gandice", "mushijingi", "gurren-lagann", "variants-war"]
    out = []
    i = 0
    for rnd in range(1, rounds + 1):
        for table, (a, b) in enumerate(_pairs(rnd), start=1):
            game = games[(rnd + table) % len(games)]
            options = {"players": 2} if game == "gandice" else {}
            while True:
                header, entries = generate(registry.get(game), 25, i, **options)
                i += 1
                if len(header["players"]) == 2:
                    break
            header["match"].update(id=f"ev-r{rnd:02d}-t{table:02d}", event=EVENT, round=rnd, table=str(table))
            header["players"][0]["name"], header["players"][1]["name"] = a, b
            out.append((header, entries))
    return out


def build(folder: Path, matches: int, say: Any = print, rounds: int = ROUNDS, quick: bool = False) -> dict[str, Any]:
    """``small.db`` (the event alone) and ``big.db`` (``matches`` matches, the event among
    them), with their read models; kept in ``folder`` and reused when complete."""
    from projections import readmodel
    from recorder.store import Store
    from recorder.tools.bench.context import distinct_matches, with_id

    done = folder / "done.json"
    if done.exists():
        return dict(json.loads(done.read_text(encoding="utf-8")))
    folder.mkdir(parents=True, exist_ok=True)
    stored = folder / "stored.json"  # the event and the templates: the same at every size
    copied = folder / "copied.json"  # big.db complete
    keep = ("stored.json", "small.db", "templates.db") + (("copied.json", "big.db") if copied.exists() else ())
    for name in os.listdir(folder):
        if not stored.exists() or name not in keep:
            os.remove(folder / name)
    info: dict[str, Any] = {"matches": matches}
    t0 = time.perf_counter()
    if stored.exists():
        templates = json.loads(stored.read_text(encoding="utf-8"))
    else:
        small = Store(str(folder / "small.db"))
        for header, entries in event_matches(rounds):
            small.create(header, entries)
        small.close()
        tpl = Store(str(folder / "templates.db"))
        templates = []
        for k, (header, entries) in enumerate(distinct_matches(quick)):
            templates.append(tpl.create(with_id(header, f"tpl-{k}"), entries))
        tpl.close()
        stored.write_text(json.dumps(templates), encoding="utf-8")
    info["stored_seconds"] = round(time.perf_counter() - t0, 1)
    say(f"views: event and templates stored in {info['stored_seconds']} s")
    if copied.exists():
        info["copied_seconds"] = json.loads(copied.read_text(encoding="utf-8"))["seconds"]
    else:
        t0 = time.perf_counter()
        Store(str(folder / "big.db")).close()  # the library's tables
        _copy(folder, templates, matches - rounds * TABLES)
        info["copied_seconds"] = round(time.perf_counter() - t0, 1)
        copied.write_text(json.dumps({"seconds": info["copied_seconds"]}), encoding="utf-8")
    say(f"views: {matches:,} matches in big.db in {info['copied_seconds']} s")
    # The read models of the event and the templates are caught up as users' are; the big
    # one too with KIFU_BENCH_VIEWS_CATCH_UP=1 (an hour at 100,000 on a busy 2-core machine),
    # else its rows are the templates' rows under the copies' ids (what a catch-up writes:
    # a copy's rows are its template's but for the header's id, event and notification id).
    honest = os.environ.get("KIFU_BENCH_VIEWS_CATCH_UP") == "1"
    for name in ("small", "templates", "big"):
        t0 = time.perf_counter()
        if name == "big" and not honest:
            _readmodel_by_copy(folder)
        else:
            store = Store(str(folder / f"{name}.db"))
            readmodel.catch_up_store(store).close()
            store.close()
        info[f"{name}_readmodel_seconds"] = round(time.perf_counter() - t0, 1)
        say(f"views: read model of {name}.db in {info[f'{name}_readmodel_seconds']} s")
    info["big_readmodel"] = "caught up" if honest else "rows copied in SQL from the templates' and the event's"
    con = sqlite3.connect(folder / "big.db")
    info["big_events"] = con.execute("select max(rowid) from stored_events").fetchone()[0]
    con.close()
    info["big_db_mb"] = round(os.path.getsize(folder / "big.db") / MB)
    done.write_text(json.dumps(info, ensure_ascii=False, indent=2), encoding="utf-8")
    return info


def _readmodel_by_copy(folder: Path) -> None:
    """big.readmodel.db from the read models of templates.db and small.db: each match of
    big.db gets its template's rows (or the event match's own) under its id, stream, event
    and the notification id of its header; the state says it is caught up to big.db's end."""
    from projections import readmodel
    from recorder.store import Store

    path = folder / "big.readmodel.db"
    readmodel.ReadModel(str(path)).close()  # the schema
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("pragma synchronous = off")
    for name, schema in (("big.db", "big"), ("templates.readmodel.db", "tpl"), ("small.readmodel.db", "ev")):
        con.execute(f"attach database '{folder / name}' as {schema}")
    con.execute("create temp table cp (new_id text, stream text, source text, event text, event_key text, "
                "round integer, tbl text, created integer)")
    by_stream = {}
    for schema in ("tpl", "ev"):
        for mid, stream in con.execute(f"select id, stream from {schema}.matches"):
            by_stream[stream] = (schema, mid)
    rows = []
    for nid, stream_hex, state in con.execute(
            "select rowid, originator_id, state from big.stored_events where originator_version = 1 order by rowid"):
        header = json.loads(state)["header"]
        meta = header["match"]
        stream = str(uuid.UUID(stream_hex))
        if stream in by_stream:  # an event match, as stored in small.db
            rows.append((meta["id"], stream, "ev:" + meta["id"], meta.get("event"), None, None, None, nid))
            continue
        tpl_id = meta["id"].split("-", 1)[1]
        rows.append((meta["id"], stream, "tpl:" + tpl_id, meta.get("event"), None, meta.get("round"),
                     meta.get("table"), nid))
    from projections.names import name_key

    con.execute("begin")
    con.executemany("insert into cp values (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(r[0], r[1], r[2], r[3], name_key(r[3]), r[5], r[6], r[7]) for r in rows])
    cols = [c[1] for c in con.execute("pragma main.table_info(matches)")]
    own = {"id": "cp.new_id", "stream": "cp.stream", "created": "cp.created"}
    copied = {"event": "cp.event", "event_key": "cp.event_key", "round": "cp.round", "table": "cp.tbl"}
    for schema in ("tpl", "ev"):
        pick = ", ".join(own.get(c) or (copied.get(c) if schema == "tpl" else None) or f't."{c}"' for c in cols)
        on = f"'{schema}:' || t.id = cp.source"
        con.execute(f"insert into main.matches ({', '.join(chr(34) + c + chr(34) for c in cols)}) "
                    f"select {pick} from cp join {schema}.matches t on {on}")
        for table in ("results", "sides", "pairs"):
            tcols = [c[1] for c in con.execute(f"pragma main.table_info({table})")]
            pick = ", ".join("cp.new_id" if c == "match_id" else f't."{c}"' for c in tcols)
            con.execute(f"insert into main.{table} select {pick} from cp join {schema}.{table} t "
                        f"on '{schema}:' || t.match_id = cp.source")
    con.execute("commit")
    con.close()
    store = Store(str(folder / "big.db"))
    try:
        with readmodel.ReadModel(str(path)) as rm, rm.db.conn:
            rm.db.conn.executemany("insert or replace into state (key, value) values (?, ?)", [
                ("last_notification_id", str(store.max_notification_id())), ("source", readmodel.source_of(store)),
                ("first_event", readmodel.first_event(store))])
    finally:
        store.close()


def _copy(folder: Path, templates: list[str], fillers: int) -> None:
    """Fill big.db: half the copies, the event (as stored in small.db), the other half."""
    from recorder.ids import match_uuid

    con = sqlite3.connect(folder / "big.db", isolation_level=None)
    con.execute("pragma synchronous = off")
    con.execute(f"attach database '{folder / 'templates.db'}' as tpl")
    con.execute(f"attach database '{folder / 'small.db'}' as ev")
    headers = dict(con.execute("select originator_id, state from tpl.stored_events where originator_version = 1"))
    topic = con.execute("select topic from tpl.stored_events where originator_version = 1 limit 1").fetchone()[0]

    def copy_one(schema: str, source: str, new_id: str | None, event: str | None) -> None:
        state = headers[source] if schema == "tpl" else con.execute(
            "select state from ev.stored_events where originator_id = ? and originator_version = 1", [source]).fetchone()[0]
        stream = source
        if new_id is not None:
            data = json.loads(state)
            data["header"]["match"].update(id=new_id, event=event, round=None, table=None)
            state = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            stream = match_uuid(new_id).hex
        con.execute("insert into stored_events (originator_id, originator_version, topic, state) values (?, 1, ?, ?)",
                    [stream, topic, state])
        con.execute(f"insert into stored_events (originator_id, originator_version, topic, state) select ?, "
                    f"originator_version, topic, state from {schema}.stored_events where originator_id = ? "
                    f"and originator_version > 1 order by originator_version", [stream, source])

    streams = [match_uuid(t).hex for t in templates]
    con.execute("begin")
    for k in range(fillers):
        if k == fillers // 2:
            for (source,) in con.execute("select originator_id from ev.stored_events where originator_version = 1 "
                                         "order by rowid").fetchall():
                copy_one("ev", source, None, None)
        i, copy = k % len(streams), k // len(streams)
        copy_one("tpl", streams[i], f"c{copy}-{templates[i]}", f"週末大会{copy:03d}")
        if k % 10_000 == 9_999:
            con.execute("commit")
            con.execute("begin")
    con.execute("commit")
    con.close()


# -- the figures -------------------------------------------------------------------------------------

CHILD = r"""
import json, resource, sys, time
from starlette.testclient import TestClient
from recorder.web.server import create_app
db, paths = sys.argv[1], sys.argv[2:]
app = create_app(db)
out = []
with TestClient(app) as client:
    for path in paths:
        t0 = time.perf_counter()
        r = client.get(path)
        assert r.status_code == 200, (path, r.status_code, r.text[:300])
        out.append(time.perf_counter() - t0)
print(json.dumps({"seconds": out, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def _requests(db: str, paths: list[str]) -> tuple[list[float], int]:
    from recorder.tools.bench.measure import child_env, run_child

    child = run_child([sys.executable, "-c", CHILD, db, *paths], env=child_env({"PYTHONPATH": str(ROOT)}))
    got = json.loads(child.stdout.strip().splitlines()[-1])
    return got["seconds"], int(got["rss"])


def _kifu(db: str, *args: str) -> float:
    from recorder.tools.bench.measure import child_env, kifu_argv, run_child

    child = run_child([*kifu_argv(), "--db", db, *args], env=child_env({"PYTHONPATH": str(ROOT)}))
    return child.wall


def measure_all(folder: Path, runs: int = 3, say: Any = print) -> dict[str, tuple[Runs, Runs]]:
    """Each figure on the small and on the big store, interleaved, ``runs`` times."""
    from urllib.parse import quote

    ev = quote(EVENT)
    dbs = {"small": str(folder / "small.db"), "big": str(folder / "big.db")}
    def cold(db: str) -> float:
        """The desk of an event no desk has seen (imported, or the read model just rebuilt): the
        violations kept in the read model (projections/deskrows.py) are forgotten first, so each
        run folds the event's matches with rule checks once."""
        con = sqlite3.connect(db.replace(".db", ".readmodel.db"))
        with con:
            con.execute("delete from checked")
        con.close()
        return _requests(db, [f"/events/{ev}"])[0][0]

    cases: dict[str, Any] = {
        # desk_cold first: its last run leaves the violations kept, as any desk opened once does
        "desk_cold": cold,
        "desk": lambda db: _requests(db, [f"/events/{ev}"])[0][0],
        "list_event": lambda db: _requests(db, ["/matches?per_page=1", f"/matches?event={ev}&round=2"])[0][1],
        "list_player": lambda db: _requests(db, ["/matches?per_page=1", f"/api/matches?player={quote(PLAYER)}"])[0][1],
        "matches": lambda db: _kifu(db, "matches", "--limit", "25"),
        "standings": lambda db: _kifu(db, "standings", EVENT),
        "stats_player": lambda db: _kifu(db, "stats", "--player", PLAYER),
    }
    out: dict[str, tuple[Runs, Runs]] = {}
    for name, fn in cases.items():
        small, big = Runs("s"), Runs("s")
        for _ in range(runs):
            small.add(fn(dbs["small"]))
            big.add(fn(dbs["big"]))
        out[name] = (small, big)
        say(f"views: {name}: small {sorted(small.values)} big {sorted(big.values)}")
    return out


def pages_memory(folder: Path, count: int) -> tuple[float, int]:
    """(seconds, peak RSS bytes) of one server opening ``count`` different match pages."""
    con = sqlite3.connect(folder / "big.readmodel.db")
    ids = [r[0] for r in con.execute("select id from matches order by created limit ?", [count])]
    con.close()
    from urllib.parse import quote

    seconds, rss = _requests(str(folder / "big.db"), [f"/matches/{quote(i)}" for i in ids])
    return sum(seconds), rss


WHAT = {
    "desk_cold": "the first /events/NAME (the judges' desk) of a fresh server, its violations never kept "
                 "(an imported event: every match folded with rule checks)",
    "desk": "the first /events/NAME (the judges' desk) of a fresh server (the violations kept in the read model "
            "by the record path or an earlier desk)",
    "list_event": "/matches?event=NAME&round=2 (one page, after a first request)",
    "list_player": "/api/matches?player=P (one page, after a first request)",
    "matches": "kifu matches --limit 25 (subprocess)",
    "standings": "kifu standings NAME (subprocess, an event without a tournament stream)",
    "stats_player": "kifu stats --player P (subprocess)",
}


def store_folder(matches: int, quick: bool = False) -> Path:
    """Where the stores are kept: per size and per read-model schema (stores built by an older
    kifu would be measured with its old tables: a desk with no kept violations)."""
    from projections.readmodel import SCHEMA_VERSION

    return ROOT / "build" / "bench-views" / f"{'quick-' if quick else ''}{matches}-rm{SCHEMA_VERSION}"


def bench_views(b: Any) -> None:
    matches = big_size(b.quick)
    rounds = QUICK_ROUNDS if b.quick else ROUNDS
    folder = store_folder(matches, b.quick)
    with b.step(f"views: building a store of {matches:,} matches (cached in {folder})", 1) as advance:
        t0 = time.perf_counter()
        info = build(folder, matches, say=lambda _: None, rounds=rounds, quick=b.quick)
        info["this_run_seconds"] = round(time.perf_counter() - t0, 1)  # ~0 when the stores were cached
        advance()
    b.results.setdefault("setup", {})["views"] = info
    with b.step("views: the event in both stores", 7) as advance:
        found = measure_all(folder, b.runs, say=lambda _: advance())
    for name, (small, big) in found.items():
        figure(b.results, f"views.sqlite.{name}", section="views", backend="sqlite",
               what=f"{WHAT[name]}, {matches:,} matches in the store", runs=big,
               baseline=(f"the same on a store holding only the {rounds * TABLES}-match event", small),
               goal=WITHIN_2X)
    pages = b.size(PAGES_OPENED, 40)
    mem, wall = Runs("MB"), []
    with b.step(f"views: {pages:,} different match pages in one server", b.runs) as advance:
        for _ in range(b.runs):
            seconds, rss = pages_memory(folder, pages)
            mem.add(rss / MB)
            wall.append(round(seconds, 1))
            advance()
    figure(b.results, "views.sqlite.pages_memory", section="views", backend="sqlite",
           what=f"server peak RSS after opening {pages:,} different match pages of a {matches:,}-match store",
           runs=mem, goal=Goal("≤ 300 MB", "<=", 300, on="median"), extra={"request_seconds": wall})


def main(argv: list[str]) -> None:
    given = [a for a in argv if a.isdigit()]
    matches = int(given[0]) if given else big_size(False)
    folder = store_folder(matches)
    t0 = time.perf_counter()
    info = build(folder, matches)
    print(json.dumps(info, ensure_ascii=False), f"({time.perf_counter() - t0:.0f} s)")
    if "--build-only" in argv:
        return
    for name, (small, big) in measure_all(folder).items():
        s, g = sorted(small.values), sorted(big.values)
        print(f"{WHAT[name]}: event only {s[1]:.3f} s ({s[0]:.3f}–{s[-1]:.3f}), "
              f"{matches:,} matches {g[1]:.3f} s ({g[0]:.3f}–{g[-1]:.3f}), ratio {g[1] / s[1]:.2f}")
    seconds, rss = pages_memory(folder, PAGES_OPENED)
    print(f"{PAGES_OPENED} match pages: {seconds:.0f} s, peak RSS {rss / MB:.0f} MB")


if __name__ == "__main__":
    main(sys.argv[1:])
