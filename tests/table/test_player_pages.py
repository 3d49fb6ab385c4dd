"""A player's own page and the round clock in a real browser (issue 33): the page opened before
round 2 is paired shows the new table, without a reload, within 2 s of ``kifu round pair`` at a
phone's width; a report sent from it and the opponent's reach it; the clock counts down, opened
mid-round shows the time left (±1 s), follows a new round without a reload, marks an extended
table, and its countdown is at least 20 vw high. axe-core clean, Japanese and English.

Every wait is for a state (Playwright's expect); its timeout is a ceiling, not a pause."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import expect

from recorder import reports, tokens, tournament_service
from recorder.store import Store
from tests.web.conftest import SHOTS, LiveServer

E = "秋季大会"
PLAYERS = ["山田", "佐藤", "鈴木", "田中"]
KIFU = str(Path(sys.executable).parent / "kifu")


def kifu(db: str, *args: str) -> str:
    done = subprocess.run([KIFU, "--db", db, *args], capture_output=True, text=True, timeout=120,
                          env={"KIFU_LANG": "en", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def axe_clean(page) -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={
        "resultTypes": ["violations"],
        "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}).response
    found = [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}" for v in results["violations"]
             if v["impact"] in ("serious", "critical")]
    assert not found, "\n".join(found)


def parse_clock(text: str) -> int:
    parts = [int(x) for x in text.strip().split(":")]
    return parts[0] * 3600 + parts[1] * 60 + parts[2] if len(parts) == 3 else parts[0] * 60 + parts[1]


# -- a player's page ---------------------------------------------------------------------------


@pytest.fixture
def round_one_done(tmp_path):
    """Round 1 paired, both tables reported by their players, closed; round 2 not paired."""
    db = str(tmp_path / "kifu.db")
    store = Store(db)
    tournament_service.open_event(store, E, "mushijingi", 3, seed=5)
    for p in PLAYERS:
        tournament_service.register(store, E, p)
    pairing = tournament_service.pair(store, E)
    for t in pairing["tables"]:
        a, b = t["players"]
        reports.report(store, E, a, "win")
        reports.report(store, E, b, "loss")
    tournament_service.close(store, E)
    secrets = {p: tokens.issue(store, "player", event=E, player=p)[0] for p in PLAYERS}
    server = LiveServer(db, None).start()
    yield server, store, db, secrets
    server.stop()
    store.close()


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_player_page_shows_the_new_table_without_a_reload(round_one_done, browser, lang):
    server, store, db, secrets = round_one_done
    me = "山田"
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.url}/events/{quote(E)}/me?lang={lang}#token={secrets[me]}")
    expect(page.locator("#me-waiting")).to_be_visible(timeout=10_000)
    expect(page.locator("html")).to_have_attribute("data-follow", "stream", timeout=10_000)
    assert "token=" not in page.url  # the token is taken out of the address bar
    page.evaluate("window.__notReloaded = true")
    kifu(db, "round", "pair", E)
    seat = tournament_service.state(store, E).round(2).table_of(me)
    assert seat is not None
    expect(page.locator("#me-table")).to_have_text(seat.table, timeout=2_000)
    opponent = next(p for p in seat.players if p != me)
    expect(page.locator("#me-opponent")).to_have_text(opponent)
    assert page.evaluate("window.__notReloaded") is True
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    left = parse_clock(page.locator("#me-clock").inner_text())
    assert 49 * 60 <= left <= 50 * 60
    axe_clean(page)
    # a report from the page; the opponent's (from their phone) reaches it without a reload
    page.locator("#me-form input[value=win]").check()
    page.locator("#me-form select[name=games]").select_option("1-0")
    page.locator("#me-send").click()
    expect(page.locator("#me-status")).to_have_attribute("data-status", "waiting", timeout=10_000)
    r = httpx.post(f"{server.url}/api/events/{quote(E)}/report", json={"player": opponent, "result": "loss"},
                   headers={"Authorization": f"Bearer {secrets[opponent]}"}, timeout=20)
    assert r.status_code == 201 and r.json()["status"] == "agreed", r.text
    expect(page.locator("#me-status")).to_have_attribute("data-status", "agreed", timeout=10_000)
    assert page.evaluate("window.__notReloaded") is True
    assert [x["type"] for x in tournament_service.load(store, E)[1]].count("report") == 6  # 4 in round 1, 2 now
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(SHOTS) / f"event-me-{lang}-390.png"), full_page=True)
    axe_clean(page)
    assert errors == []
    ctx.close()


@pytest.mark.browser
def test_the_player_page_without_a_token_says_what_it_needs(round_one_done, browser):
    server, *_ = round_one_done
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.url}/events/{quote(E)}/me?lang=en")
    expect(page.locator("#me-note")).to_contain_text("needs your player's link")
    axe_clean(page)
    page.close()


def test_the_player_view_answers_the_player_s_token_only(round_one_done):
    server, store, _, secrets = round_one_done
    url = f"{server.url}/api/events/{quote(E)}/me"
    assert httpx.get(url, timeout=20).status_code == 401
    judge = tokens.issue(store, "judge", event=E)[0]
    assert httpx.get(url, headers={"Authorization": f"Bearer {judge}"}, timeout=20).status_code == 403
    data = httpx.get(url, headers={"Authorization": f"Bearer {secrets['鈴木']}"}, timeout=20).json()
    assert data["player"] == "鈴木" and data["round"]["number"] == 1 and data["round"]["closed"] is True
    assert data["standing"]["points"] in (0, 3)


# -- the round clock ---------------------------------------------------------------------------

ELAPSED = timedelta(minutes=7, seconds=13)


@pytest.fixture
def mid_round(tmp_path):
    """An event whose round 1 was paired 7 min 13 s ago (its log imported with that time)."""
    paired = datetime.now(UTC) - ELAPSED
    at = paired.isoformat(timespec="microseconds").replace("+00:00", "Z")
    header = {"kifu": 1, "kind": "event", "event": {"name": E, "game": "mushijingi", "rules": "mushijingi/3", "rounds": 3,
              "format": "bo1", "round_minutes": 50, "tiebreaks": ["omw", "gw", "ogw"],
              "house_rules": {"unfinished_game": "draw"}, "seed": 5, "date": None}}
    lines = [{"seq": i + 1, "type": "register", "player": p, "at": at} for i, p in enumerate(PLAYERS)]
    lines.append({"seq": 5, "type": "pair", "round": 1, "method": "import", "byes": [], "at": at, "tables": [
        {"table": "1", "players": PLAYERS[:2], "match": f"{E}-r1-t1"},
        {"table": "2", "players": PLAYERS[2:], "match": f"{E}-r1-t2"}]})
    path = tmp_path / "event.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in [header, *lines]) + "\n", encoding="utf-8")
    db = str(tmp_path / "kifu.db")
    store = Store(db)
    tournament_service.import_log(store, str(path))
    server = LiveServer(db, None).start()
    yield server, store, db, paired
    server.stop()
    store.close()


@pytest.mark.browser
@pytest.mark.parametrize(("lang", "width"), [("ja", 1280), ("en", 390)])
def test_the_clock_opened_mid_round_counts_down_and_follows(mid_round, browser, lang, width):
    server, store, db, paired = mid_round
    ctx = browser.new_context(viewport={"width": width, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.url}/events/{quote(E)}/clock?lang={lang}")
    big = page.locator("#clock-time")
    expect(big).to_have_text(re.compile(r"^\d+:\d\d$"), timeout=10_000)
    # opened mid-round: the time left from the paired time read from the event's stream
    _, lines = tournament_service.load(store, E)
    end = datetime.fromisoformat(lines[-1]["at"].replace("Z", "+00:00")) + timedelta(minutes=50)
    before = datetime.now(UTC)
    shown = parse_clock(big.inner_text())
    after = datetime.now(UTC)
    assert math.ceil((end - after).total_seconds()) - 1 <= shown <= math.ceil((end - before).total_seconds()) + 1
    assert 42 * 60 + 40 <= shown <= 42 * 60 + 48  # 50:00 - 7:13, give or take the test's own run
    # it counts down
    expect(big).not_to_have_text(big.inner_text(), timeout=3_000)
    assert parse_clock(big.inner_text()) < shown
    # readable across a room: the countdown's height is at least a fifth of the screen's width
    size = page.evaluate("parseFloat(getComputedStyle(document.getElementById('clock-time')).fontSize)")
    assert size >= 0.20 * page.evaluate("window.innerWidth")
    colors = page.evaluate("[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.getElementById('clock-time')).color]")
    assert colors == ["rgb(0, 0, 0)", "rgb(255, 255, 255)"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    axe_clean(page)
    page.evaluate("window.__notReloaded = true")
    # a judge extends table 2: the clock marks it with its own time
    kifu(db, "round", "extend", E, "--table", "2", "--minutes", "5", "--reason", "デッキチェック")
    ext = page.locator("#clock-ext li[data-table='2']")
    expect(ext).to_be_visible(timeout=5_000)
    expect(ext).to_contain_text("+5")
    own = parse_clock(ext.locator(".t").inner_text())
    assert abs(own - (parse_clock(big.inner_text()) + 300)) <= 1
    axe_clean(page)
    # the round closes, the next is paired: the clock follows without a reload
    kifu(db, "round", "close", E, *(["--unreported", "draw"] if "--unreported" in kifu(db, "round", "close", "--help")
                                    else []))
    expect(page.locator("#clock-note")).to_contain_text("1", timeout=5_000)
    kifu(db, "round", "pair", E)
    expect(page.locator("#clock-round")).to_contain_text("2", timeout=5_000)
    expect(big).to_have_text(re.compile(r"^(50:00|49:[5][0-9])$"), timeout=5_000)
    assert page.locator("#clock-ext li").count() == 0
    assert page.evaluate("window.__notReloaded") is True
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(SHOTS) / f"event-clock-{lang}-{width}.png"))
    axe_clean(page)
    assert errors == []
    ctx.close()


def test_the_clock_data_says_where_the_round_ends(mid_round):
    server, store, _, paired = mid_round
    reports.extend(store, E, "1", 4, "長い裁定")
    data = httpx.get(f"{server.url}/api/events/{quote(E)}/clock", timeout=20).json()
    ends = datetime.fromisoformat(data["round"]["ends_at"].replace("Z", "+00:00"))
    assert abs((ends - (paired + timedelta(minutes=50))).total_seconds()) < 0.01
    assert 42 * 60 < data["round"]["remaining"] <= 42 * 60 + 47 + 1
    assert [(e["table"], e["minutes"], e["reasons"]) for e in data["round"]["extended"]] == [("1", 4, ["長い裁定"])]


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_judge_extends_a_table_from_the_desk_page(mid_round, browser, lang):
    server, store, db, _ = mid_round
    judge = tokens.issue(store, "judge", event=E, name=f"主審-{lang}")[0]
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(f"{server.url}/events/{quote(E)}?lang={lang}")
    page.locator("#desk-extend-box summary").click()
    form = page.locator("#desk-extend")
    form.locator("select[name=table]").select_option("2")
    form.locator("input[name=minutes]").fill("4")
    form.locator("input[name=reason]").fill("デッキチェック")
    form.locator("input[name=token]").fill(judge)
    axe_clean(page)
    form.locator("button[type=submit]").click()
    expect(page.locator("#round-extended [data-table='2']")).to_contain_text("+4", timeout=10_000)
    line = [x for x in tournament_service.load(store, E)[1] if x["type"] == "extend"]
    assert [(x["table"], x["minutes"], x["reason"], x["by"]) for x in line] == [("2", 4, "デッキチェック", f"主審-{lang}")]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    axe_clean(page)
    ctx.close()
