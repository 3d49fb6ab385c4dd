"""`kifu serve` in several processes on one store (SQLite; PostgreSQL too when the suite runs
with one): a move POSTed to one server reaches the stream followers and the event desks of
another (each process's watcher looks at the shared notification log, or LISTENs), and
`--workers 2` serves one port from two processes. Real processes on 127.0.0.1,
stopped at the end; every wait is bounded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.backends.conftest import backend_url  # noqa: F401 (a fixture)
from tests.web.conftest import free_port
from tests.web.sse import Follower

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gandice-example.jsonl"
MATCH = "gandice-reiwa-example"
EVENT = "令和版ルール 対戦例"  # the example's event
TOKEN = "w0rkers-s3cret"
NOTE = {"type": "annotate", "by": "解説", "on": 1, "text": "別プロセスから"}


def kifu(*args: str, db: str) -> list[str]:
    return [sys.executable, "-m", "recorder.cli", "--db", db, *args]


def env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), KIFU_TOKEN="")


class Served:
    """One `kifu serve` process (with its workers), stopped by its own process id."""

    def __init__(self, db: str, workers: int, cwd: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            kifu("serve", "--host", "127.0.0.1", "--port", str(self.port), "--token", TOKEN,
                 "--workers", str(workers), db=db),
            env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
            cwd=str(cwd))  # a PostgreSQL store's side files (read model, board snapshots) go here
        for _ in range(600):  # until the port answers (bounded; not a speed check)
            if self.proc.poll() is not None:
                raise AssertionError(f"kifu serve exited: {self.proc.stderr.read()}")
            try:
                httpx.get(self.url + f"/api/matches/{MATCH}", timeout=2)
                return
            except httpx.TransportError:
                time.sleep(0.05)
        self.stop()
        raise AssertionError("kifu serve did not start")

    def post(self, key: str) -> int:
        r = httpx.post(f"{self.url}/api/matches/{MATCH}/events", json=NOTE, timeout=30,
                       headers={"Authorization": f"Bearer {TOKEN}", "Idempotency-Key": key})
        assert r.status_code == 201, r.text
        return int(r.json()["seq"])

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # the server and its workers, nothing else
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)


@pytest.fixture
def any_db(backend_url):  # noqa: F811 (the fixture imported above)
    """The same, on SQLite and on PostgreSQL (where the watcher LISTENs for the library's NOTIFY)."""
    return _imported(backend_url)


def _imported(db: str) -> str:
    res = subprocess.run(kifu("import", str(EXAMPLE), db=db), env=env(), capture_output=True, text=True, timeout=120,
                         cwd=os.path.dirname(db) if "://" not in db else None)
    assert res.returncode == 0, res.stderr
    return db


def test_a_move_posted_to_one_server_reaches_the_followers_of_another(any_db, tmp_path):
    one = Served(any_db, 1, tmp_path)
    try:
        two = Served(any_db, 1, tmp_path)
    except BaseException:
        one.stop()
        raise
    followers: list[Follower] = []
    try:
        start = httpx.get(f"{two.url}/api/matches/{MATCH}", timeout=10).json()["steps"]
        followers = [Follower(f"{s.url}/api/matches/{MATCH}/stream", params={"after": start}) for s in (one, two)]
        desks = [Follower(f"{s.url}/api/events/{EVENT}/stream") for s in (one, two)]  # the judges' desks
        for f in followers + desks:
            assert f.next()["event"] == "ready"
        seqs = [one.post("one:0000001"), two.post("two:0000001"), one.post("one:0000002")]
        assert seqs == [start + 1, start + 2, start + 3]
        for f in followers:  # each server's follower sees every line, whichever server took it
            got = [f.next() for _ in seqs]
            assert [int(e["id"]) for e in got] == seqs
            assert all(e["data"]["text"] == NOTE["text"] for e in got)
        for f in desks:  # and each server's desk hears of each line of its event's match
            assert [f.next()["data"] for _ in seqs] == [{"match": MATCH, "seq": s} for s in seqs]
        followers += desks
        # a retry sent to the other server answers with the first one's seq and records nothing
        r = httpx.post(f"{two.url}/api/matches/{MATCH}/events", json=NOTE, timeout=30,
                       headers={"Authorization": f"Bearer {TOKEN}", "Idempotency-Key": "one:0000002"})
        assert r.status_code == 200 and r.json()["seq"] == start + 3 and r.json()["repeated"] is True
    finally:
        for f in followers:
            f.closed = True
        one.stop()
        two.stop()
        for f in followers:
            f.close()


def test_workers_serve_one_port_and_every_follower_hears_every_write(any_db, tmp_path):
    served = Served(any_db, 2, tmp_path)
    followers: list[Follower] = []
    try:
        start = httpx.get(f"{served.url}/api/matches/{MATCH}", timeout=10).json()["steps"]
        # several streams: the kernel hands connections to either worker
        followers = [Follower(f"{served.url}/api/matches/{MATCH}/stream", params={"after": start}) for _ in range(6)]
        for f in followers:
            assert f.next()["event"] == "ready"
        seqs = [served.post(f"w:{i:08d}") for i in range(4)]
        assert seqs == list(range(start + 1, start + 5))
        for f in followers:
            assert [int(f.next()["id"]) for _ in seqs] == seqs
    finally:
        for f in followers:
            f.closed = True
        served.stop()
        for f in followers:
            f.close()
