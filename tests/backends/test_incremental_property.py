"""Property (issue 13): whatever the order of appends, rulings, corrections and catch-ups,
through one process or two, the incremental engine gives what a full replay and a rebuild
give: the same boards and violations at every step, the same read-model rows. On SQLite and
PostgreSQL."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import boardcache
from projections.errors import KifuError
from projections.readmodel import ReadModel, rebuild
from projections.replay import Replay
from recorder import service
from recorder.store import Store


def toy_header(mid: str) -> dict:
    return {"kifu": 1, "game": "toy", "match": {"id": mid, "event": "春", "date": "2026-11-30"}, "rules": "toy/1",
            "players": [{"id": "A", "name": "山田", "deck": {"name": "闇"}},
                        {"id": "B", "name": "佐藤", "deck": {"name": "光"}}], "first": "A"}


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("new"), st.just(0), st.just(0)),
        st.tuples(st.just("move"), st.integers(0, 3), st.integers(0, 4)),  # 0 and 4 break TOY-2
        st.tuples(st.just("moves"), st.integers(0, 3), st.integers(20, 60)),  # a burst, past checkpoints
        st.tuples(st.just("annotate"), st.integers(0, 3), st.integers(1, 999)),
        st.tuples(st.just("dispute"), st.integers(0, 3), st.integers(1, 999)),
        st.tuples(st.just("rule"), st.integers(0, 3), st.integers(0, 3)),
        st.tuples(st.just("correct"), st.integers(0, 3), st.integers(1, 999)),
        st.tuples(st.just("catch_up"), st.integers(1, 9), st.just(0)),
        st.tuples(st.just("other_process"), st.just(0), st.just(0)),
    ),
    min_size=1,
    max_size=30,
)


def _moves_of(entries):
    return [e for e in entries if e["type"] in ("score", "pass")]


def run_ops(url: str, tmp: str, ops) -> None:
    os.environ["KIFU_BOARD_CACHE"] = os.path.join(tmp, "boards.db")
    stores = [Store(url)]
    rm = ReadModel(os.path.join(tmp, "inc.db"))
    ids: list[str] = []
    try:
        for kind, a, b in ops:
            s = stores[-1]
            if kind == "new":
                mid = f"m{len(ids)}-{os.getpid()}"
                service.create_match(s, toy_header(mid))
                ids.append(mid)
                continue
            if kind == "catch_up":
                rm.catch_up(s, page=a)
                continue
            if kind == "other_process":  # a new Store object has no head folds: as a new process
                stores.append(Store(url))
                continue
            if not ids:
                continue
            mid = ids[a % len(ids)]
            _, entries = s.load(mid)
            n = len(entries)
            by = "AB"[n % 2]
            if kind == "move":
                line = {"type": "score", "by": by, "points": b}
            elif kind == "moves":
                for i in range(b):
                    service.record(s, mid, {"type": "score", "by": "AB"[(n + i) % 2], "points": 1 + i % 3})
                continue
            elif kind == "annotate" and n:
                line = {"type": "annotate", "by": "解説", "on": 1 + b % n, "text": "注"}
            elif kind == "dispute" and _moves_of(entries):
                on = _moves_of(entries)[b % len(_moves_of(entries))]["seq"]
                line = {"type": "dispute", "by": "B", "on": on, "claim": "点数が違う"}
            elif kind == "rule" and any(e["type"] == "dispute" for e in entries):
                d = [e for e in entries if e["type"] == "dispute"][-1]
                line = {"type": "ruling", "by": "田中", "dispute": d["seq"], "text": "裁定",
                        "decision": "overturned" if b else "upheld", "level": "head"}
                if b:
                    line["replace"] = [{"type": "score", "by": "A", "points": b}]
                    line["rewind"] = b == 3
            elif kind == "correct" and _moves_of(entries):
                on = _moves_of(entries)[b % len(_moves_of(entries))]["seq"]
                line = {"type": "correct", "by": "記録係", "on": on, "text": "誤記",
                        "replace": [{"type": "pass", "by": "AB"[b % 2]}]}
            else:
                continue
            before = s.load(mid)[1]
            try:
                service.record(s, mid, line)
            except KifuError:
                assert s.load(mid)[1] == before  # a refusal writes nothing
        rm.catch_up(stores[0], page=4)
        for mid in ids:
            for s in stores:
                head = service.head(s, mid)
                header, entries = s.load(mid)
                full = Replay(header, entries)
                assert head.steps == full.steps
                assert head.violations() == full.violations()
                for step in range(full.steps + 1):
                    assert head.board_json(step) == full.board_json(step), (mid, step)
        with rebuild(stores[0], os.path.join(tmp, "fresh.db")) as fresh:
            assert fresh.matches() == rm.matches()
            for table in ("sides", "pairs"):  # what the statistics count, kept with each match
                query = f"select * from {table} order by 1, 2, 3, 4, 5, 6, 7, 8, 9"
                assert fresh.db.execute(query).fetchall() == rm.db.execute(query).fetchall(), table
            assert fresh.report() == rm.report()
    finally:
        rm.close()
        for s in stores:
            s.close()
        os.environ.pop("KIFU_BOARD_CACHE", None)


def test_incremental_engine_equals_full_replay_and_rebuild(backend_url, tmp_path_factory, monkeypatch):
    monkeypatch.setattr(boardcache, "MIN_LINES", 30)  # exercise the board-snapshot file on short matches

    @settings(max_examples=25, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(OPS)
    def run(ops):
        tmp = str(tmp_path_factory.mktemp("inc"))
        url = backend_url if not backend_url.endswith(".db") else os.path.join(tmp, "k.db")
        if url.startswith("postgresql://"):  # a fresh database per example: ids are per run
            import uuid

            import psycopg

            name = f"kifu_{uuid.uuid4().hex[:12]}"
            with psycopg.connect(backend_url, autocommit=True) as con:
                con.execute(f"create database {name}")
            url = backend_url.rsplit("/", 1)[0] + f"/{name}"
        run_ops(url, tmp, ops)

    run()
