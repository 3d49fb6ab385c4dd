"""A store has an identity, not a path (issue 35 item 1): the read model names the store's id
and its position, so a store folder moved, copied or restored with its read model keeps working
without a rebuild, and a read model of another store is still refused."""

from __future__ import annotations

import json
import shutil
import sqlite3
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from projections import readmodel
from projections.readmodel import ReadModel, ReadModelError, catch_up_store
from recorder.store import Store
from tests.store.conftest import EVENT, fill, half_example

READS = (
    ("matches", "--json"),
    ("log", "gandice-reiwa-example"),
    ("board", "half", "--json"),
    ("stats", "--json"),
    ("standings", EVENT, "--json"),
    ("event", EVENT),
    ("stats", "--meta", "--json"),
)
PAGES = ("/", "/matches", "/stats", "/matches/half", "/events", f"/events/{quote(EVENT)}",
         f"/events/{quote(EVENT)}/standings")


def _reads(run, db) -> list[str]:
    outs = []
    for args in READS:
        code, out, err = run(db, *args)
        assert code == 0, (args, err)
        assert "projected anew" not in err and "built from" not in err
        outs.append(out)
    return outs


def _pages(db) -> list[str]:
    store = Store(str(db))
    try:
        client = TestClient(readmodel_app(store))
        texts = []
        for path in PAGES:
            got = client.get(path)
            assert got.status_code == 200, (path, got.text[:300])
            texts.append(got.text)
        return texts
    finally:
        store.close()


def readmodel_app(store):
    from recorder.web.server import create_app

    return create_app(store)


def _record_next(run, db, line: str) -> None:
    code, out, err = run(db, "record", "half", line)
    assert code == 0, err


@pytest.mark.parametrize("how", ["mv", "cp -r"])
def test_a_store_folder_moved_or_copied_keeps_its_read_model(run, tmp_path, monkeypatch, how):
    old = tmp_path / "kifu-data"
    old.mkdir()
    fill(run, str(old / "kifu.db"), tmp_path)
    before = _reads(run, str(old / "kifu.db"))
    new = tmp_path / "srv" / "kifu"
    new.parent.mkdir()
    if how == "mv":
        shutil.move(str(old), str(new))
    else:
        shutil.copytree(old, new)
    db = str(new / "kifu.db")
    monkeypatch.setattr(ReadModel, "_reset", lambda self: pytest.fail("projected anew"))
    monkeypatch.setattr(ReadModel, "_rebuild_by_parts", lambda *a, **k: pytest.fail("projected anew"))
    assert _reads(run, db) == before
    _pages(db)
    _, line = half_example(tmp_path)
    _record_next(run, db, line)  # a write catches the moved model up: one line, no rebuild
    with ReadModel(str(new / "kifu.readmodel.db")) as rm:
        row = next(m for m in rm.matches() if m["id"] == "half")
        assert row["steps"] == 11
        assert rm.source() == str(new / "kifu.db")  # where it lies now
        store = Store(db)
        try:
            assert rm._get("store_id") == store.identity()
        finally:
            store.close()
    if how == "cp -r":  # the original still works as it was
        assert _reads(run, str(old / "kifu.db")) == before


def test_a_store_folder_restored_from_a_copy_keeps_its_read_model(run, tmp_path, monkeypatch):
    live = tmp_path / "kifu-data"
    live.mkdir()
    db = str(live / "kifu.db")
    fill(run, db, tmp_path)
    saved = tmp_path / "saved"
    shutil.copytree(live, saved)  # the store closed: a folder backup
    before = _reads(run, db)
    _, line = half_example(tmp_path)
    _record_next(run, db, line)  # the live store moves on after the backup
    shutil.rmtree(live)  # the disk is lost
    shutil.copytree(saved, tmp_path / "restored")
    monkeypatch.setattr(ReadModel, "_reset", lambda self: pytest.fail("projected anew"))
    monkeypatch.setattr(ReadModel, "_rebuild_by_parts", lambda *a, **k: pytest.fail("projected anew"))
    restored = str(tmp_path / "restored" / "kifu.db")
    assert _reads(run, restored) == before
    _pages(restored)
    _record_next(run, restored, line)


def test_a_newer_read_model_over_an_older_store_is_projected_anew_not_trusted(run, tmp_path):
    """The store put back from a backup, the read model left as it was (ahead of it): the model's
    position is not an event of the store any more, so it is projected anew, never served."""
    live = tmp_path / "d"
    live.mkdir()
    db = str(live / "kifu.db")
    fill(run, db, tmp_path)
    shutil.copy(db, tmp_path / "old.db")
    _, line = half_example(tmp_path)
    _record_next(run, db, line)
    for suffix in ("", "-wal", "-shm"):
        p = live / f"kifu.db{suffix}"
        if p.exists():
            p.unlink()
    shutil.copy(tmp_path / "old.db", db)
    code, out, err = run(db, "matches", "--json")
    assert code == 0, err
    half = next(m for m in json.loads(out) if m["id"] == "half")
    assert half["steps"] == 10  # the store's, not the model's 11


def test_a_read_model_of_another_store_is_refused(run, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    fill(run, str(a / "kifu.db"), tmp_path)
    assert run(str(b / "kifu.db"), "import", str(half_example(tmp_path)[0]))[0] == 0
    model = str(a / "kifu.readmodel.db")
    code, out, err = run(str(b / "kifu.db"), "stats", "--readmodel", model)
    assert code != 0
    assert f"read model {model} was built from store" in err and str(a / "kifu.db") in err and "--rebuild" in err
    assert len(err.strip().splitlines()) == 1
    # the same model moved beside the other store (another store's folder mixed in): refused too
    for rm in list(readmodel._OPEN.values()):  # b's own model, kept open by its write
        rm.close()
    readmodel._OPEN.clear()
    for suffix in ("", "-wal", "-shm"):
        (b / f"kifu.readmodel.db{suffix}").unlink(missing_ok=True)
    shutil.copy(model, b / "kifu.readmodel.db")
    code, out, err = run(str(b / "kifu.db"), "matches", "--json")
    assert code != 0 and "was built from store" in err
    code, _, err = run(str(b / "kifu.db"), "stats", "--rebuild")
    assert code == 0, err  # the way out it names works


def test_an_earlier_kifus_read_model_of_another_store_is_refused(tmp_path):
    """A model written before stores had an id names a path: another store's is still refused."""
    a, b = Store(str(tmp_path / "a.db")), Store(str(tmp_path / "b.db"))
    try:
        from recorder.tools.synth import generate
        from projections import registry

        a.create(*generate(registry.get("toy"), 1, 0))
        b.create(*generate(registry.get("toy"), 1, 1))
        path = str(tmp_path / "shared.readmodel.db")
        catch_up_store(a, path).close()
        con = sqlite3.connect(path)
        with con:
            con.execute("delete from state where key in ('store_id', 'position')")
        con.close()
        with pytest.raises(ReadModelError, match=r"was built from .*a\.db, not .*b\.db"):
            catch_up_store(b, path)
    finally:
        a.close()
        b.close()


def test_the_store_records_its_id_once_and_keeps_it(tmp_path):
    db = str(tmp_path / "k.db")
    s = Store(db)
    try:
        assert s.identity(create=False) is None  # a new, empty store: none until asked
        first = s.identity()
    finally:
        s.close()
    s = Store(db)
    try:
        assert s.identity(create=False) == first == s.identity()
        assert s.max_notification_id() == 0  # not an event: the stream history is untouched
    finally:
        s.close()


def test_postgresql_a_copied_database_keeps_its_read_model_and_another_is_refused(pg_url, tmp_path, monkeypatch):
    """On PostgreSQL the read model is a file beside (KIFU_READMODEL): the database restored
    under another name (here: CREATE DATABASE … TEMPLATE) keeps it; another database's is refused."""
    import psycopg

    from recorder.tools.synth import generate
    from projections import registry

    model = str(tmp_path / "kifu.readmodel.db")
    s = Store(pg_url)
    try:
        for i in range(3):
            s.create(*generate(registry.get("toy"), 2, i))
        catch_up_store(s, model).close()
        sid = s.identity()
    finally:
        s.close()
    base, name = pg_url.rsplit("/", 1)
    copy_name = f"{name}_restored"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as con:
        con.execute(f"create database {copy_name} template {name}")
    restored = Store(f"{base}/{copy_name}")
    monkeypatch.setattr(ReadModel, "_reset", lambda self: pytest.fail("projected anew"))
    monkeypatch.setattr(ReadModel, "_rebuild_by_parts", lambda *a, **k: pytest.fail("projected anew"))
    try:
        assert restored.identity() == sid
        restored.create(*generate(registry.get("toy"), 2, 9))
        with catch_up_store(restored, model) as rm:
            assert sorted(m["id"] for m in rm.matches()) == sorted(
                [f"gen-toy-2-{i}" for i in range(3)] + ["gen-toy-2-9"])
    finally:
        restored.close()
    other = Store(_other_pg(pg_url))
    try:
        other.create(*generate(registry.get("toy"), 1, 0))
        with pytest.raises(ReadModelError, match="was built from store"):
            catch_up_store(other, model)
    finally:
        other.close()


def _other_pg(url: str) -> str:
    from tests.backends.conftest import _pg_database

    return _pg_database()
