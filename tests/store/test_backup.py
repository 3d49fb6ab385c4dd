"""``kifu backup`` / ``kifu restore`` (issue 35 item 2): a consistent copy of a live SQLite store
while ``kifu serve`` keeps writing, that opens, verifies and holds every write acknowledged
before the backup began; a restore (the command, or the files copied into place) that opens
without a rebuild; PostgreSQL pointed to pg_dump in one line."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from projections import registry
from projections.readmodel import ReadModel
from recorder.store import Store
from recorder.tools.synth import generate
from tests.store.conftest import fill, half_example

TOKEN = "backup-t0ken"
TABLES = 16


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _kifu(db: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, KIFU_LANG="en")
    env.pop("KIFU_READMODEL", None)
    return subprocess.run([sys.executable, "-m", "recorder.cli", "--db", db, *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


class Table(threading.Thread):
    """A scorekeeper's phone: posts its match's lines one by one until told to stop, keeping the
    seq of each line the server acknowledged and when."""

    def __init__(self, url: str, match_id: str, lines: list[dict], stop: threading.Event):
        super().__init__(daemon=True)
        self.url, self.match_id, self.lines, self.stop = url, match_id, lines, stop
        self.acked: list[tuple[int, float, dict]] = []  # (seq, when acknowledged, line)
        self.failure: str | None = None

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=30, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
            for i, line in enumerate(self.lines):
                if self.stop.is_set():
                    return
                seq = i + 1
                for _ in range(20):
                    r = c.post(f"/api/matches/{self.match_id}/events?expect={seq}", json=line,
                               headers={"Idempotency-Key": f"{self.match_id}:{seq:06d}"})
                    if r.status_code != 503:
                        break
                    time.sleep(float(r.headers.get("retry-after", "0.1")))
                if r.status_code not in (200, 201):
                    self.failure = f"{self.match_id} seq {seq}: {r.status_code} {r.text[:200]}"
                    return
                self.acked.append((seq, time.monotonic(), line))


def _wait(what: str, done, tries: int = 2400) -> None:
    for _ in range(tries):  # a state, not a time: bounded only so a broken server fails the test
        if done():
            return
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def test_a_backup_under_16_writing_tables_holds_every_acknowledged_write(tmp_path):
    db = str(tmp_path / "live" / "kifu.db")
    os.makedirs(os.path.dirname(db))
    store = Store(db)
    matches = []
    try:
        for i in range(TABLES):
            header, moves = generate(registry.get("gandice"), 35, i)
            header["match"]["id"] = f"t{i + 1:02d}"
            store.create(header, [])
            matches.append((header["match"]["id"], [{k: v for k, v in m.items() if k != "seq"} for m in moves]))
    finally:
        store.close()
    port = _free_port()
    env = dict(os.environ, KIFU_LANG="en")
    env.pop("KIFU_READMODEL", None)
    server = subprocess.Popen([sys.executable, "-m", "recorder.cli", "--db", db, "serve", "--port", str(port),
                               "--token", TOKEN, "--workers", "1"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    stop = threading.Event()
    tables: list[Table] = []
    try:
        def up() -> bool:
            try:
                return httpx.get(f"{url}/api/matches", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        _wait("the server answers", up)
        tables = [Table(url, mid, lines, stop) for mid, lines in matches]
        for t in tables:
            t.start()
        _wait("every table has written a few lines", lambda: all(len(t.acked) >= 3 for t in tables) or any(t.failure for t in tables))
        assert not [t.failure for t in tables if t.failure]
        began = time.monotonic()
        before = {(t.match_id, seq): line for t in tables for seq, when, line in list(t.acked) if when < began}
        os.makedirs(tmp_path / "bk")
        done = _kifu(db, "backup", str(tmp_path / "bk" / "kifu.db"))
        assert done.returncode == 0, done.stderr
        assert "backed up" in done.stdout and "read model" in done.stdout
        counts = {t.match_id: len(t.acked) for t in tables}
        _wait("the tables write on after the backup",
              lambda: any(len(t.acked) > counts[t.match_id] for t in tables) or any(t.failure for t in tables))
    finally:
        stop.set()
        for t in tables:
            t.join(30)
        server.terminate()
        server.wait(30)
    assert not [t.failure for t in tables if t.failure]
    backup = str(tmp_path / "bk" / "kifu.db")
    assert os.path.exists(str(tmp_path / "bk" / "kifu.readmodel.db"))
    verified = _kifu(backup, "verify")
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.strip().splitlines()[-1] == "whole"
    copy = Store(backup)
    try:
        held = {mid: copy.load(mid)[1] for mid, _ in matches}
    finally:
        copy.close()
    assert len(before) >= TABLES * 3
    for (mid, seq), line in before.items():
        got = held[mid][seq - 1] if len(held[mid]) >= seq else None
        assert got is not None, f"{mid} seq {seq} was acknowledged before the backup began and is not in it"
        assert {k: got[k] for k in line} == line
    # every line of the copy is a line the server acknowledged: a prefix of each table's record
    for t in tables:
        acked = {seq: line for seq, _, line in t.acked}
        for seq, line in enumerate(held[t.match_id], 1):
            assert {k: line[k] for k in acked[seq]} == acked[seq]


@pytest.fixture
def no_rebuild(monkeypatch):
    monkeypatch.setattr(ReadModel, "_reset", lambda self: pytest.fail("projected anew"))
    monkeypatch.setattr(ReadModel, "_rebuild_by_parts", lambda *a, **k: pytest.fail("projected anew"))


def _matches(run, db) -> list[dict]:
    code, out, err = run(db, "matches", "--json")
    assert code == 0 and "projected anew" not in err, err
    return json.loads(out)


def test_kifu_restore_puts_a_backup_in_place_without_a_rebuild(run, tmp_path, monkeypatch):
    live = tmp_path / "live"
    live.mkdir()
    db = str(live / "kifu.db")
    fill(run, db, tmp_path)
    backup = str(tmp_path / "kifu-backup.db")
    code, out, err = run(db, "backup", backup)
    assert code == 0, err
    before = _matches(run, db)
    _, line = half_example(tmp_path)
    assert run(db, "record", "half", line)[0] == 0  # the store moves on after the backup
    # a store that holds events is not overwritten without --force
    code, _, err = run(db, "restore", backup)
    assert code == 2 and "--force" in err and len(err.strip().splitlines()) == 1
    monkeypatch.setattr(ReadModel, "_reset", lambda self: pytest.fail("projected anew"))
    monkeypatch.setattr(ReadModel, "_rebuild_by_parts", lambda *a, **k: pytest.fail("projected anew"))
    elsewhere = str(tmp_path / "new-host" / "kifu.db")
    os.makedirs(os.path.dirname(elsewhere))
    code, out, err = run(elsewhere, "restore", backup)
    assert code == 0, err
    assert _matches(run, elsewhere) == before
    assert run(elsewhere, "record", "half", line)[0] == 0
    assert run(elsewhere, "verify")[0] == 0


def test_a_backup_copied_into_place_opens_without_a_rebuild(run, tmp_path, monkeypatch):
    live = tmp_path / "live"
    live.mkdir()
    db = str(live / "kifu.db")
    fill(run, db, tmp_path)
    assert run(db, "backup", str(tmp_path / "b.db"))[0] == 0
    before = _matches(run, db)
    place = tmp_path / "restored"
    place.mkdir()
    shutil.copy(tmp_path / "b.db", place / "kifu.db")  # the docs' way: both files into place
    shutil.copy(tmp_path / "b.readmodel.db", place / "kifu.readmodel.db")
    monkeypatch.setattr(ReadModel, "_reset", lambda self: pytest.fail("projected anew"))
    monkeypatch.setattr(ReadModel, "_rebuild_by_parts", lambda *a, **k: pytest.fail("projected anew"))
    assert _matches(run, str(place / "kifu.db")) == before


def test_a_backup_never_writes_over_a_file(run, tmp_path):
    db = str(tmp_path / "kifu.db")
    fill(run, db, tmp_path)
    (tmp_path / "there.db").write_text("precious")
    code, _, err = run(db, "backup", str(tmp_path / "there.db"))
    assert code == 2 and "exists" in err and len(err.strip().splitlines()) == 1
    assert (tmp_path / "there.db").read_text() == "precious"


def test_restore_refuses_what_is_not_a_store(run, tmp_path):
    (tmp_path / "notes.txt").write_text("not a database")
    code, _, err = run(str(tmp_path / "kifu.db"), "restore", str(tmp_path / "notes.txt"))
    assert code == 2 and "not a kifu store" in err and len(err.strip().splitlines()) == 1


def test_postgresql_is_pointed_to_pg_dump(run, pg_url, tmp_path):
    code, _, err = run(pg_url, "backup", str(tmp_path / "b.db"))
    assert code == 2 and "pg_dump" in err and "docs/deploy.md" in err and len(err.strip().splitlines()) == 1
    assert "secret" not in err and not (tmp_path / "b.db").exists()


def test_restore_into_a_directory_that_is_not_there_is_one_line(run, tmp_path):
    db = str(tmp_path / "kifu.db")
    fill(run, db, tmp_path)
    assert run(db, "backup", str(tmp_path / "b.db"))[0] == 0
    code, _, err = run(str(tmp_path / "gone" / "kifu.db"), "restore", str(tmp_path / "b.db"))
    assert code == 2 and "does not exist" in err and len(err.strip().splitlines()) == 1
