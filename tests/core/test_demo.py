"""`make run`, tested: ``python -m recorder.tools.demo --serve`` imports the shipped examples
into a fresh database and serves them. The test starts it on a free port as its own process,
checks that the pages answer (and look right in chromium), records one move through it, and
stops it with Ctrl-C as a person would."""

from __future__ import annotations

import json
import os
import re
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


EVENT = "デモ大会"
SWISS = 3  # the demo's Swiss rounds, all closed; round 4 is the top 4's semifinals (best of three), under way
EVENT_MATCHES = [f"{EVENT}-r{r}-t{t}" for r in range(1, SWISS + 1) for t in (1, 2, 3, 4)] + [
    f"{EVENT}-r4-t{t}-g{g}" for t in (1, 2) for g in (1, 2, 3)]


def demo_table(db: str) -> str:
    """The table make run points the recording page at: a semifinal's first game not started."""
    from recorder import tournament_service
    from recorder.store import Store

    store = Store(db)
    try:
        rnd = tournament_service.state(store, EVENT).round(SWISS + 1)
        return next(s.match for s in rnd.tables if store.last_seq(s.match) == 0)
    finally:
        store.close()


def test_make_run_imports_the_examples_and_serves_them(running):
    proc, base, db = running
    ids = [read_file(str(p))[0]["match"]["id"] for p in EXAMPLES]
    assert len(ids) >= 4
    table = demo_table(db)
    with httpx.Client(base_url=base, timeout=30) as c:
        listing = c.get("/api/matches", params={"per_page": 500}).json()
        served = {m["id"] for m in listing["matches"]}
        assert set(ids) <= served and set(EVENT_MATCHES) <= served
        assert listing["total"] == len(ids) + len(EVENT_MATCHES)
        page = c.get("/matches")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert all(mid in page.text for mid in ids)
        for mid in ids:
            detail = c.get(f"/api/matches/{quote(mid)}").json()
            assert detail["steps"] >= 1, mid
            step = c.get(f"/matches/{quote(mid)}", params={"step": 1})
            assert step.status_code == 200 and "Traceback" not in step.text, mid
        assert c.get(f"/matches/{quote(table)}/record").status_code == 200
        desk = c.get(f"/events/{quote(EVENT)}")
        assert desk.status_code == 200 and all(m in desk.text for m in EVENT_MATCHES[4:])
        # the day in progress: the Swiss closed, the semifinals under way (a table playing, one
        # not started), the standings, the bracket on the desk and on its page
        semis = c.get(f"/api/events/{quote(EVENT)}/rounds/4").json()
        assert semis["closed"] is False and semis["status"]["counts"] == {
            "not_started": 1, "in_progress": 1, "awaiting_ruling": 0, "finished": 0}
        for n in range(1, SWISS + 1):
            assert c.get(f"/api/events/{quote(EVENT)}/rounds/{n}").json()["closed"] is True
        readings = [r["reading"] for r in semis["by_name"]]
        assert readings == sorted(readings) and len(readings) == 4  # 五十音順 (all hiragana here)
        rows = c.get(f"/api/events/{quote(EVENT)}/standings").json()["standings"]
        assert len(rows) == 8 and sum(r["points"] for r in rows) == 3 * 4 * SWISS  # every Swiss table won
        bracket = c.get(f"/api/events/{quote(EVENT)}/bracket").json()
        assert bracket["top"] == 4 and [r["stage"] for r in bracket["rounds"]] == ["semifinal"]
        assert [s["player"] for s in bracket["seeds"]] == [r["player"] for r in rows[:4]]
        assert [[p["wins"] for p in m["players"]] for m in bracket["rounds"][0]["matches"]] == [[1, 0], [0, 0]]
        assert 'id="bracket"' in desk.text and "準決勝" in desk.text
        assert "<ruby>" in c.get(f"/events/{quote(EVENT)}/rounds/4").text
        assert c.get(f"/events/{quote(EVENT)}/bracket").status_code == 200
        # the admin token printed by make run records a move into the demo table
        from recorder.store import Store
        from recorder.tools.demo import opening_move

        reader = Store(db)
        try:
            move = opening_move(reader.load(table)[0])
        finally:
            reader.close()
        r = c.post(f"/api/matches/{quote(table)}/events", json=move, headers={"Authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 201, r.text
        assert r.json()["seq"] == 1 and r.json()["violations"] == []
        assert c.post(f"/api/matches/{quote(table)}/events", json=move).status_code == 401

    proc.send_signal(signal.SIGINT)  # Ctrl-C
    out, err = proc.communicate(timeout=30)
    assert "Traceback" not in err and "Traceback" not in out
    assert f"== importing {len(EXAMPLES)} example match(es) into {db}" in out
    assert re.search(rf"^  token: +{TOKEN}$", out, re.M), out
    assert f"{base}/matches/{quote(table, safe='')}/record#token={TOKEN}" in out
    for mid in ids:
        assert mid in out
    assert f".venv/bin/kifu --db {db} board " in out
    assert f"{base}/events/{quote(EVENT, safe='')}/rounds/4" in out and f"{base}/events/{quote(EVENT, safe='')}/standings" in out
    assert f"{base}/events/{quote(EVENT, safe='')}/bracket" in out
    sheet = Path(db).parent / "demo-round-4.html"
    assert str(sheet) in out and sheet.read_text(encoding="utf-8").count("data:image/png;base64,") == 2


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
        assert len(list(store.headers())) == len(EXAMPLES) + len(EVENT_MATCHES)
        from recorder import tournament_service

        # registered, three rounds paired and closed, the cut: once
        assert tournament_service.state(store, EVENT).steps == 8 + 2 * SWISS + 1
    finally:
        store.close()
    listed = [x for x in out2.splitlines() if x.startswith("  ") and " steps " in x]
    assert len(listed) == len(EXAMPLES)  # the event's tables are on its desk, not in this list


def test_the_demo_event_s_desk_never_contradicts_itself(tmp_path):
    """``kifu event show デモ大会`` lists its tables and says nothing of "no matches"; its
    standings and pairings agree with it."""
    db = str(tmp_path / "kifu.db")
    proc = demo(db)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    env = dict(os.environ, PYTHONPATH=str(ROOT), KIFU_LANG="en")
    run = [sys.executable, "-m", "recorder.cli", "--db", db]
    desk = subprocess.run([*run, "event", "show", EVENT], capture_output=True, text=True, env=env, cwd=ROOT, check=True).stdout
    semis = [f"{EVENT}-r4-t{t}-g1" for t in (1, 2)]  # the open round's tables, each by its first game
    assert all(m in desk for m in semis) and "No matches" not in desk and "No results" not in desk
    assert "Round 4 (Top cut)  [open]" in desk and "Not reported: Table 1, Table 2" in desk
    assert "4/3" not in desk
    shown = json.loads(subprocess.run([*run, "event", "show", EVENT, "--json"], capture_output=True, text=True, env=env,
                                      cwd=ROOT, check=True).stdout)
    assert [r["closed"] for r in shown["rounds"]] == [True, True, True, False]
    assert [p["reading"] for p in shown["players"]][:2] == ["なかむら", "いとう"]


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
                # the day at once: the desk, the standings, the semifinals' pairings, the bracket (ja, then en)
                for lang in ("ja", "en"):
                    for name, path in (("desk", ""), ("standings", "/standings"), ("round", "/rounds/4"),
                                       ("bracket", "/bracket")):
                        page.goto(f"{base}/events/{quote(EVENT)}{path}?lang={lang}")
                        assert page.evaluate("document.documentElement.lang") == lang
                        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, lang)
                        page.screenshot(path=str(shots / f"demo-{name}-{lang}-{width}.png"), full_page=True)
                assert page.locator("#bracket [data-round='4'] [data-player]").count() == 4
                assert errors == []
                page.close()
        finally:
            browser.close()
