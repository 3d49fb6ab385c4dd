"""`make run`, tested: ``python -m recorder.tools.demo --serve`` imports the shipped examples
into a fresh database and serves them. The test starts it on a free port as its own process,
checks that the pages answer (and look right in chromium), records one move through it, and
stops it with Ctrl-C as a person would."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from recorder.logformat import read_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.jsonl"))
TOKEN = "demo-t0ken"
CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def demo(db: str, *args: str, **kw):
    env = dict(os.environ, KIFU_TOKEN=TOKEN, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    env.pop("KIFU_DB", None)
    return subprocess.Popen([sys.executable, "-m", "recorder.tools.demo", "--db", db, *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def wait_until_up(proc: subprocess.Popen, url: str) -> None:
    """Until the server answers (bounded; this is not a speed check) or the process ends."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the demo ended with {proc.returncode} before serving:\n{out}\n{err}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    pytest.fail("the demo server did not answer within 120 s")


@pytest.fixture
def running(tmp_path):
    db = str(tmp_path / "kifu.db")
    port = free_port()
    proc = demo(db, "--serve", "--port", str(port))
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(proc, f"{base}/matches")
        yield proc, base, db
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_make_run_imports_the_examples_and_serves_them(running):
    proc, base, db = running
    ids = [read_file(str(p))[0]["match"]["id"] for p in EXAMPLES]
    assert len(ids) >= 4
    with httpx.Client(base_url=base, timeout=30) as c:
        listing = c.get("/api/matches", params={"per_page": 500}).json()
        served = {m["id"] for m in listing["matches"]}
        assert set(ids) <= served and "demo-gandice-table-1" in served
        assert listing["total"] == len(ids) + 1
        page = c.get("/matches")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert all(mid in page.text for mid in ids)
        for mid in ids:
            detail = c.get(f"/api/matches/{quote(mid)}").json()
            assert detail["steps"] >= 1, mid
            step = c.get(f"/matches/{quote(mid)}", params={"step": 1})
            assert step.status_code == 200 and "Traceback" not in step.text, mid
        table = c.get("/matches/demo-gandice-table-1/record")
        assert table.status_code == 200
        desk = c.get(f"/events/{quote('デモ大会')}")
        assert desk.status_code == 200 and "demo-gandice-table-1" in desk.text
        # the admin token printed by make run records a move into the demo table
        move = {"type": "summon", "by": "A", "rolls": {"ギダン": "special", "美雅羅": "normal", "爪牙": "side"}}
        r = c.post("/api/matches/demo-gandice-table-1/events", json=move, headers={"Authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 201, r.text
        assert r.json()["seq"] == 1
        assert c.post("/api/matches/demo-gandice-table-1/events", json=move).status_code == 401

    proc.send_signal(signal.SIGINT)  # Ctrl-C
    out, err = proc.communicate(timeout=30)
    assert "Traceback" not in err and "Traceback" not in out
    assert f"== importing {len(EXAMPLES)} example match(es) into {db}" in out
    assert f"token:     {TOKEN}" in out
    assert f"{base}/matches/demo-gandice-table-1/record#token={TOKEN}" in out
    for mid in ids:
        assert mid in out
    assert f".venv/bin/kifu --db {db} board " in out


def test_make_run_twice_on_the_same_database(tmp_path):
    """The second `make run` finds the examples already there: no error, nothing doubled."""
    db = str(tmp_path / "kifu.db")
    first = demo(db)
    out1, err1 = first.communicate(timeout=300)
    assert first.returncode == 0, err1
    second = demo(db)
    out2, err2 = second.communicate(timeout=300)
    assert second.returncode == 0, err2
    assert "Traceback" not in err2
    from recorder.store import Store

    store = Store(db)
    try:
        assert len(list(store.headers())) == len(EXAMPLES) + 1
    finally:
        store.close()
    listed = [x for x in out2.splitlines() if x.startswith("  ") and " steps " in x]
    assert len(listed) == len(EXAMPLES) + 1


def test_make_run_with_a_database_in_a_missing_folder_is_one_line(tmp_path):
    proc = demo(str(tmp_path / "no" / "such" / "kifu.db"))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2
    assert "Traceback" not in out + err
    assert out.strip().splitlines() == [f"kifu: {tmp_path}/no/such/kifu.db: directory {tmp_path}/no/such does not exist"]


@pytest.mark.browser
def test_make_run_pages_in_chromium(running, tmp_path):
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium) first")
    from playwright.sync_api import sync_playwright

    _, base, _ = running
    mid = read_file(str(EXAMPLES[0]))[0]["match"]["id"]
    shots = ROOT / "artifacts" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            for width, height in ((390, 844), (1280, 800)):
                page = browser.new_page(viewport={"width": width, "height": height})
                errors: list[str] = []
                page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
                page.goto(f"{base}/matches")
                assert page.locator(f"a[href*='{mid}']").count() >= 1
                page.goto(f"{base}/matches/{quote(mid)}?step=1")
                assert page.locator("#board").count() == 1
                page.screenshot(path=str(shots / f"demo-{width}.png"))
                assert errors == []
                page.close()
        finally:
            browser.close()
