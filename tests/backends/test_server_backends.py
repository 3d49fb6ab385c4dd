"""The replay server on both backends, and live follow across two server processes.

Two real `kifu serve` processes share one store: a move POSTed to one appears on a match
page served by the other (the page polls `/matches/ID/poll`; the server extends its cached
replay from the store), on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
KIFU = str(Path(sys.executable).parent / "kifu")
EXAMPLE = ROOT / "examples" / "gandice-example.jsonl"
MATCH = "gandice-reiwa-example"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    def __init__(self, url: str, token: str):
        self.port = free_port()
        env = dict(os.environ, KIFU_DB=url)
        self.proc = subprocess.Popen([KIFU, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--token", token],
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(300):  # until the port answers (bounded; not a speed check)
            if self.proc.poll() is not None:
                raise AssertionError(f"kifu serve exited: {self.proc.stderr.read()}")
            try:
                httpx.get(self.base + "/api/matches", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.05)
        raise AssertionError("kifu serve did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def two_servers(backend_url):
    res = subprocess.run([KIFU, "import", str(EXAMPLE)], env=dict(os.environ, KIFU_DB=backend_url),
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    servers = [Served(backend_url, "t0ken"), Served(backend_url, "t0ken")]
    yield servers
    for s in servers:
        s.stop()


def test_server_contract_and_live_follow_across_processes(two_servers):
    one, two = two_servers
    listing = httpx.get(two.base + "/api/matches").json()
    assert [m["id"] for m in listing["matches"]] == [MATCH]
    steps = httpx.get(f"{two.base}/api/matches/{MATCH}").json()["steps"]
    board = httpx.get(f"{two.base}/api/matches/{MATCH}/board", params={"step": 5, "view": "ruled"}).json()
    assert board["game"] == "gandice" and board["step"] == 5
    assert httpx.get(f"{two.base}/api/matches/nope").status_code == 404
    assert httpx.get(f"{two.base}/api/matches/{MATCH}/board", params={"step": 9999}).status_code == 404
    note = {"type": "annotate", "by": "解説", "on": 1, "text": "別プロセスからのメモ"}
    assert httpx.post(f"{one.base}/api/matches/{MATCH}/events", json=note).status_code == 401
    # the second server's page has seen the match at `steps`; now a move arrives via the first
    assert httpx.get(f"{two.base}/matches/{MATCH}/poll", params={"after": steps}).json()["steps"] == steps
    posted = httpx.post(f"{one.base}/api/matches/{MATCH}/events", json=note,
                        headers={"Authorization": "Bearer t0ken"})
    assert posted.status_code == 201, posted.text
    assert posted.json()["seq"] == steps + 1
    seen = None
    for _ in range(100):  # the page polls every second; give it a bounded number of polls
        seen = httpx.get(f"{two.base}/matches/{MATCH}/poll", params={"after": steps}).json()
        if seen["steps"] == steps + 1:
            break
        time.sleep(0.1)
    assert seen["steps"] == steps + 1
    assert "別プロセスからのメモ" in seen["moves"]
    log = httpx.get(f"{two.base}/api/matches/{MATCH}/log").text
    assert log.splitlines()[-1].count("別プロセスからのメモ") == 1
