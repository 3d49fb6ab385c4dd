"""The read model: incremental catch-up equals a rebuild from nothing, page by page,
transactionally, and it can be deleted at any time."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from projections import readmodel, registry
from projections.readmodel import ReadModel, ReadModelError, catch_up_store, default_path, rebuild
from recorder import service
from recorder.store import Store
from recorder.tools.synth import generate


def toy_header(mid, decks=("闇", "光"), first="A", event="秋の大会", date="2026-11-28"):
    return {"kifu": 1, "game": "toy", "first": first,
            "match": {"id": mid, "event": event, "round": 1, "table": "3", "date": date},
            "players": [{"id": pid, "name": f"名{pid}", "deck": {"name": d, "archetype": d + "系", "cards": []}}
                        for pid, d in zip("ABC", decks)]}


def snapshot(rm: ReadModel):
    return rm.matches()


def test_rows_hold_what_the_issue_lists(store, tmp_path):
    service.create_match(store, toy_header("t1"))
    for pts, by in ((3, "A"), (3, "B"), (3, "A"), (3, "B"), (3, "A"), (1, "B"), (3, "A")):
        service.record(store, "t1", {"type": "score", "by": by, "points": pts})
    with catch_up_store(store) as rm:
        [m] = rm.matches()
    assert {k: m[k] for k in ("id", "game", "event", "round", "table", "date", "players", "decks",
                              "archetypes", "first", "winner", "reason", "steps", "turns", "finished")} == {
        "id": "t1", "game": "toy", "event": "秋の大会", "round": 1, "table": "3", "date": "2026-11-28",
        "players": ["名A", "名B"], "decks": ["闇", "光"], "archetypes": ["闇系", "光系"], "first": "A",
        "winner": "A", "reason": "target", "steps": 7, "turns": 8, "finished": 1}
    assert [(r["player"], r["deck_key"], r["seat"], r["is_first"], r["outcome"]) for r in m["results"]] == [
        ("A", "闇", 1, 1, "win"), ("B", "光", 2, 0, "loss")]
    assert os.path.exists(str(tmp_path / "kifu.readmodel.db"))


def test_incremental_catch_up_equals_rebuild(store, tmp_path):
    """Catch up after every write (as the hook does), with small pages and large, through a
    correction that changes the past and a declared result; then rebuild and compare."""
    path = str(tmp_path / "inc.readmodel.db")
    rm = ReadModel(path)
    small = ReadModel(str(tmp_path / "small.readmodel.db"))
    toy = registry.get("toy")
    for i in range(4):
        header, moves = generate(toy, 11, i)
        store.create(header, moves)
        rm.catch_up(store)
    service.create_match(store, toy_header("live", decks=("ｲｽﾙｷﾞ", "イスルギ")))
    rm.catch_up(store, page=2)
    moves = [(3, "A"), (3, "B"), (3, "A"), (3, "B"), (2, "A"), (3, "B"), (1, "A"), (3, "B")]
    for pts, by in moves:
        service.record(store, "live", {"type": "score", "by": by, "points": pts})
        rm.catch_up(store, page=3)
        small.catch_up(store, page=1)
    assert {m["id"]: m["winner"] for m in rm.matches()}["live"] == "B"
    # the scorekeeper fixes a typo in move 7 (A scored 3, not 1): A reached 10 first; then a judge declares a draw
    service.record(store, "live", {"type": "correct", "on": 7, "by": "judge",
                                   "replace": [{"type": "score", "by": "A", "points": 3}], "text": "typo"})
    rm.catch_up(store)
    assert {m["id"]: m["winner"] for m in rm.matches()}["live"] == "A"
    service.record(store, "live", {"type": "result", "by": "judge", "winner": None, "reason": "time"})
    rm.catch_up(store)
    small.catch_up(store, page=1)
    assert rm.last_id() == store.max_notification_id() == small.last_id()
    with rebuild(store, str(tmp_path / "fresh.readmodel.db")) as fresh:
        assert snapshot(fresh) == snapshot(rm) == snapshot(small)
        live = next(m for m in fresh.matches() if m["id"] == "live")
        assert (live["finished"], live["winner"], live["reason"]) == (1, None, "time")
        assert [r["outcome"] for r in live["results"]] == ["draw", "draw"]
    assert rm.catch_up(store) == 0  # nothing new
    rm.close()
    small.close()


def test_rebuild_replaces_in_place_and_read_model_can_be_deleted(store, tmp_path):
    toy = registry.get("toy")
    for i in range(3):
        store.create(*generate(toy, 5, i))
    with catch_up_store(store) as rm:
        before = rm.matches()
    with rebuild(store) as rm:
        assert rm.matches() == before and rm.path == default_path(store.db)
    assert not [p for p in os.listdir(tmp_path) if ".rebuild-" in p]
    os.remove(default_path(store.db))
    with catch_up_store(store) as rm:
        assert rm.matches() == before


def test_a_failed_page_leaves_the_model_where_it_was(store, tmp_path, monkeypatch):
    toy = registry.get("toy")
    for i in range(3):
        store.create(*generate(toy, 6, i))
    real_rows = readmodel.match_rows
    calls = []

    def flaky(*args, **kwargs):
        calls.append(args[0])
        if len(calls) == 2:
            raise OSError("disk went away")
        return real_rows(*args, **kwargs)

    monkeypatch.setattr(readmodel, "match_rows", flaky)
    rm = readmodel.open_readmodel(store)
    with pytest.raises(OSError):
        rm.catch_up(store)
    assert rm.last_id() == 0 and rm.count() == 0  # rows and position roll back together
    monkeypatch.setattr(readmodel, "match_rows", real_rows)
    rm.catch_up(store)
    assert rm.count() == 3 and rm.last_id() == store.max_notification_id()
    rm.close()


def test_a_read_model_of_another_store_is_refused(store, tmp_path):
    store.create(*generate(registry.get("toy"), 1, 0))
    shared = str(tmp_path / "shared.readmodel.db")
    with catch_up_store(store, shared) as rm:
        assert rm.source() == os.path.abspath(store.db)  # the store it was built from
    other = Store(str(tmp_path / "other.db"))
    try:
        with pytest.raises(ReadModelError, match="--rebuild"):
            catch_up_store(other, shared)
        with rebuild(other, shared) as rm:
            assert rm.count() == 0
    finally:
        other.close()


def test_a_postgresql_store_is_named_without_its_password():
    """The read model's state names the store it was built from (shown when it is refused)."""

    class PgStore(SimpleNamespace):
        safe_db = Store.safe_db

    pg = PgStore(is_postgres=True, db="postgresql://kifu:secret@db.example:5433/event")
    assert readmodel.source_of(pg) == "postgresql://db.example:5433/event"


@pytest.mark.parametrize("again", [1, 6])
def test_a_replaced_store_is_noticed_and_projected_anew(tmp_path, again):
    db = str(tmp_path / "k.db")
    s = Store(db)
    for i in range(3):
        s.create(*generate(registry.get("toy"), 2, i))
    catch_up_store(s).close()
    s.close()
    for name in os.listdir(tmp_path):
        if name.startswith("k.db"):
            os.remove(tmp_path / name)
    s = Store(db)
    try:
        for i in range(again):  # fewer events than before, or more: either way it is noticed
            s.create(*generate(registry.get("toy"), 9, i))
        with catch_up_store(s) as rm:
            assert sorted(m["id"] for m in rm.matches()) == [f"gen-toy-9-{i}" for i in range(again)]
            assert rm.last_id() == s.max_notification_id()
    finally:
        s.close()


def test_a_match_the_build_cannot_replay_is_kept_with_its_error(store, monkeypatch):
    store.create(*generate(registry.get("toy"), 3, 0))

    def boom(*a, **k):
        raise RuntimeError("ruleset bug")

    monkeypatch.setattr("projections.readmodel.Replay", boom)
    with catch_up_store(store) as rm:
        [m] = rm.matches()
    assert m["finished"] == 0 and m["error"] == "RuntimeError: ruleset bug" and m["results"][0]["outcome"] is None


def test_a_read_model_in_a_missing_directory_says_which(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(ReadModelError, match=f"read model {missing}/rm.db: directory {missing} does not exist"):
        ReadModel(str(missing / "rm.db"))


def test_a_read_model_of_another_layout_is_projected_anew(store, tmp_path):
    """An older kifu's read model (schema 1: no event or player keys) is replaced on opening,
    position included: the new model reads the store from its start."""
    store.create(*generate(registry.get("toy"), 3, 0))
    path = str(tmp_path / "old.readmodel.db")
    con = sqlite3.connect(path)
    con.executescript("""
        create table matches (id text primary key, stream text, game text, winner text);
        create table results (match_id text, player text, outcome text);
        create table state (key text primary key, value text);
        insert into matches values ('gone', 's', 'toy', 'A');
        insert into state values ('schema', '1'), ('last_notification_id', '99');
    """)
    con.commit()
    con.close()
    with catch_up_store(store, path) as rm:
        assert [m["id"] for m in rm.matches()] == ["gen-toy-3-0"]
        assert rm.last_id() == store.max_notification_id()


@pytest.mark.parametrize("layout", ["the previous kifu's", "a later kifu's"])
def test_a_read_model_of_this_store_in_another_layout_is_projected_anew(store, tmp_path, layout):
    """Upgrading (or going back) kifu: the model was up to date with this very store in its
    own layout; the new layout is filled from the store's start, not left empty."""
    for i in range(2):
        store.create(*generate(registry.get("toy"), 5, i))
    path = str(tmp_path / "rm.db")
    catch_up_store(store, path).close()
    con = sqlite3.connect(path)
    if layout == "a later kifu's":
        con.executescript("drop table sides; drop table pairs;"
                          "create table sides (match_id text, note text); create table pairs (note text);"
                          "update state set value = '99' where key = 'schema'")
    else:
        con.execute("update state set value = '2' where key = 'schema'")
    con.commit()
    con.close()
    with catch_up_store(store, path) as rm:
        assert [m["id"] for m in rm.matches()] == ["gen-toy-5-0", "gen-toy-5-1"]
        assert rm.report()["matches"] + rm.report()["unfinished"] == 2


def one_match_model(store, tmp_path) -> tuple[str, list]:
    """A read model of one generated match: (its path, its match rows)."""
    store.create(*generate(registry.get("toy"), 6, 0))
    path = str(tmp_path / "rm.db")
    with catch_up_store(store, path) as rm:
        return path, rm.matches()


def test_a_read_model_that_lost_its_state_is_projected_again(store, tmp_path):
    path, before = one_match_model(store, tmp_path)
    con = sqlite3.connect(path)
    con.execute("drop table state")
    con.commit()
    con.close()
    with catch_up_store(store, path) as rm:
        assert rm.matches() == before and rm.last_id() == store.max_notification_id()


def test_the_server_threads_share_one_read_model(store, tmp_path):
    """The server opens the read model once and catches it up from its worker threads."""
    import threading

    store.create(*generate(registry.get("toy"), 4, 0))
    rm = ReadModel(str(tmp_path / "rm.db"))
    failed = []
    worker = threading.Thread(target=lambda: failed.extend([] if rm.catch_up(store) else ["nothing read"]))
    worker.start()
    worker.join()
    assert failed == [] and rm.count() == 1
    rm.close()


def test_default_path(monkeypatch):
    monkeypatch.delenv("KIFU_READMODEL", raising=False)
    assert default_path("/x/event.db") == "/x/event.readmodel.db"
    assert default_path("kifu.sqlite") == "kifu.readmodel.sqlite"
    assert default_path("data/kifu") == "data/kifu.readmodel.db"
    assert default_path("postgresql://u:p@h/k") == "kifu.readmodel.db"
    assert default_path("postgres://u:p@h/k") == "kifu.readmodel.db"  # libpq's short scheme too
    monkeypatch.setenv("KIFU_READMODEL", "/tmp/rm.db")
    assert default_path("/x/event.db") == "/tmp/rm.db"


def test_a_locked_read_model_is_one_clear_error(store, tmp_path):
    store.create(*generate(registry.get("toy"), 4, 0))
    path = str(tmp_path / "locked.readmodel.db")
    holder = ReadModel(path)
    holder.db.conn.execute("PRAGMA busy_timeout = 0")
    holder.db.execute("BEGIN IMMEDIATE")  # another process is writing
    other = ReadModel(path)
    other.db.conn.execute("PRAGMA busy_timeout = 0")
    try:
        with pytest.raises(ReadModelError, match="locked"):
            other.catch_up(store)
    finally:
        holder.db.rollback()
        holder.close()
    other.catch_up(store)
    assert other.count() == 1
    holder = ReadModel(path)
    holder.db.execute("BEGIN IMMEDIATE")
    try:
        assert other.catch_up(store) == 0  # nothing new: no write lock asked for, no wait
    finally:
        holder.db.rollback()
        holder.close()
    other.close()


def _ops():
    from hypothesis import strategies as st

    op = st.one_of(
        st.tuples(st.just("new"), st.integers(0, 2), st.integers(0, 2)),
        st.tuples(st.just("move"), st.integers(0, 9), st.integers(1, 3)),
        st.tuples(st.just("catch_up"), st.integers(1, 7), st.just(0)),
    )
    return st.lists(op, min_size=1, max_size=25)


def test_any_interleaving_of_writes_and_catch_ups_equals_a_rebuild():
    """Property: whatever the order of new matches, moves and catch-ups (at any page size),
    the read model ends equal to one rebuilt from nothing."""
    import tempfile

    from hypothesis import HealthCheck, given, settings

    decks = ("闇", "ﾔﾐ", "光")

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_ops())
    def run(ops):
        with tempfile.TemporaryDirectory() as tmp:
            s = Store(os.path.join(tmp, "k.db"))
            rm = ReadModel(os.path.join(tmp, "inc.db"))
            ids: list[str] = []
            try:
                for kind, a, b in ops:
                    if kind == "new":
                        mid = f"m{len(ids)}"
                        service.create_match(s, toy_header(mid, decks=(decks[a], decks[b])))
                        ids.append(mid)
                    elif kind == "move" and ids:
                        mid = ids[a % len(ids)]
                        _, entries = s.load(mid)
                        by = "AB"[len(entries) % 2]
                        service.record(s, mid, {"type": "score", "by": by, "points": b})
                    elif kind == "catch_up":
                        rm.catch_up(s, page=a)
                rm.catch_up(s, page=3)
                with rebuild(s, os.path.join(tmp, "fresh.db")) as fresh:
                    assert fresh.matches() == rm.matches()
            finally:
                rm.close()
                s.close()

    run()


@pytest.mark.parametrize("tables", [
    ["create table matches (id integer primary key, score real)"],  # a table of kifu's name, another shape
    ["create table players (name text)", "insert into players values ('山田')"],
])
def test_another_programs_database_is_refused_and_left_as_it_was(store, tmp_path, tables):
    """--readmodel pointed at another program's SQLite file: one clear line, and the file is
    not written to (no kifu tables, no WAL), not even by kifu stats --rebuild."""
    path = str(tmp_path / "theirs.db")
    con = sqlite3.connect(path)
    for sql in tables:
        con.execute(sql)
    con.commit()
    con.close()
    before = Path(path).read_bytes()
    with pytest.raises(ReadModelError, match=r"theirs\.db: not a kifu read model \(it has tables kifu did not make: (matches|players)\)"):
        catch_up_store(store, path)
    with pytest.raises(ReadModelError, match="not a kifu read model"):
        rebuild(store, path)
    assert Path(path).read_bytes() == before
    assert not os.path.exists(path + "-wal")


def test_a_database_with_many_foreign_tables_names_five_of_them(store, tmp_path):
    path = str(tmp_path / "theirs.db")
    con = sqlite3.connect(path)
    for name in "abcdefg":
        con.execute(f"create table t_{name} (x)")
    con.commit()
    con.close()
    with pytest.raises(ReadModelError) as caught:
        catch_up_store(store, path)
    assert "(it has tables kifu did not make: t_a, t_b, t_c, t_d, t_e);" in str(caught.value)


def test_a_model_that_lost_its_state_after_analyze_is_still_ours(store, tmp_path):
    """SQLite's own tables (sqlite_stat1 after ANALYZE) are not another program's."""
    path, before = one_match_model(store, tmp_path)
    con = sqlite3.connect(path)
    con.execute("analyze")
    con.execute("drop table state")
    con.commit()
    assert con.execute("select count(*) from sqlite_master where name = 'sqlite_stat1'").fetchone()[0] == 1
    con.close()
    with catch_up_store(store, path) as rm:
        assert rm.matches() == before
