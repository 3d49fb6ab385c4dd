"""The day on the pages (issue 32 items 3 and 7): the desk's check-in button and its route
(``POST /api/events/E/checkin``: an admin's or the event's judge's token, refusals in one line),
no-shows and readings on the desk, the round page and the standings; in chromium at 390 and
1280 px, ja and en, axe-core clean."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from tests.web.conftest import SHOTS, LiveServer

E = "夏の大会"
ADMIN = "day-admin-t0ken"
PLAYERS = [("中村", "なかむら"), ("伊藤", "いとう"), ("佐藤", "サトウ"), ("小林", "こばやし"), ("山田", "やまだ"),
           ("高橋", None)]
GOJUON = ["伊藤", "小林", "佐藤", "中村", "山田", "高橋"]  # 高橋 has no reading: after the read names


def _open(db: str) -> None:
    from recorder import tournament_service
    from recorder.store import Store

    store = Store(db)
    try:
        tournament_service.open_event(store, E, "mushijingi", 3, seed=11, checkin=True)
        for name, reading in PLAYERS:
            tournament_service.register(store, E, name, reading=reading)
    finally:
        store.close()


@pytest.fixture
def day(tmp_path):
    db = str(tmp_path / "kifu.db")
    _open(db)
    server = LiveServer(db, ADMIN).start()
    try:
        yield server, db
    finally:
        server.stop()


def _post(server, player: str, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{server.url}/api/events/{quote(E)}/checkin", json={"player": player}, headers=headers,
                      timeout=30)


def test_the_checkin_route_needs_an_admin_or_the_event_s_judge(day):
    from recorder import tokens
    from recorder.store import Store

    server, db = day
    store = Store(db)
    judge, _ = tokens.issue(store, role="judge", event=E)
    other, _ = tokens.issue(store, role="judge", event="別の大会")
    keeper, _ = tokens.issue(store, role="scorekeeper", event=E, table="1")
    store.close()
    assert _post(server, "中村", None).status_code == 401
    assert _post(server, "中村", "kifu_nobody").status_code == 401
    for secret in (other, keeper):
        r = _post(server, "中村", secret)
        assert r.status_code == 403 and E in r.json()["error"]
    r = _post(server, "中村", judge)
    assert r.status_code == 201 and r.json()["type"] == "checkin" and r.json()["by"] == "夏の大会-judge"
    r = _post(server, "中村", ADMIN)
    assert r.status_code == 400 and "checked in already" in r.text
    assert _post(server, "誰", ADMIN).status_code == 404
    assert httpx.post(f"{server.url}/api/events/{quote(E)}/checkin", content=b"[1]",
                      headers={"Authorization": f"Bearer {ADMIN}"}, timeout=30).status_code == 400
    assert httpx.post(f"{server.url}/api/events/{quote(E)}/checkin", json={"name": "伊藤"},
                      headers={"Authorization": f"Bearer {ADMIN}"}, timeout=30).status_code == 400
    assert _post(server, "伊藤", ADMIN).status_code == 201
    api = httpx.get(f"{server.url}/api/events/{quote(E)}", timeout=30)
    assert api.status_code == 200


def _pair(db: str) -> None:
    from recorder import tournament_service
    from recorder.store import Store

    store = Store(db)
    try:
        tournament_service.pair(store, E)
    finally:
        store.close()


@pytest.mark.browser
@pytest.mark.parametrize(("width", "lang"), [(390, "ja"), (1280, "en")])
def test_check_in_from_the_desk_then_the_round_and_the_standings(day, browser, width, lang):
    from axe_playwright_python.sync_playwright import Axe

    server, db = day
    ctx = browser.new_context(viewport={"width": width, "height": 844})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    desk = f"{server.url}/events/{quote(E)}?lang={lang}"
    page.goto(f"{desk}#token={ADMIN}")
    roster = page.locator("#roster li")
    assert [li.get_attribute("data-player") for li in roster.all()] == GOJUON
    assert page.locator("#roster ruby rt").first.inner_text() == "いとう"
    axe_options = {"resultTypes": ["violations"], "runOnly": {
        "type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}
    for name in ("中村", "伊藤", "佐藤", "小林"):
        page.locator(f"[data-checkin='{name}']").click()
        page.locator(f"#roster li[data-player='{name}'] [data-checked-in]").wait_for()
    assert page.locator("[data-checkin]").count() == 2  # 山田 and 高橋 are not here
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    found = Axe().run(page, context={"include": [[".ev-desk"]]}, options=axe_options).response["violations"]
    assert not [v["id"] for v in found if v["impact"] in ("serious", "critical")]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(SHOTS) / f"day-desk-checkin-{lang}-{width}.png"), full_page=True)
    _pair(db)
    page.goto(desk)
    page.locator("#round-no-shows").wait_for()
    assert set(page.locator("#round-no-shows").inner_text().split(", ")) == {"山田", "高橋"}
    assert page.locator("[data-checkin]").count() == 0 and page.locator("#roster [data-no-show]").count() == 2
    page.goto(f"{server.url}/events/{quote(E)}/rounds/1?lang={lang}")
    names = [tr.get_attribute("data-player") for tr in page.locator("#by-name tbody tr").all()]
    assert names == [n for n in GOJUON if n not in ("山田", "高橋")]
    assert page.locator("#by-name ruby").count() == 4
    page.screenshot(path=str(Path(SHOTS) / f"day-round-{lang}-{width}.png"), full_page=True)
    found = Axe().run(page, options=axe_options).response["violations"]
    assert not [v["id"] for v in found if v["impact"] in ("serious", "critical")]
    page.goto(f"{server.url}/events/{quote(E)}/standings?lang={lang}")
    assert page.locator("tr[data-player='山田'] [data-no-show]").count() == 1
    found = Axe().run(page, options=axe_options).response["violations"]
    assert not [v["id"] for v in found if v["impact"] in ("serious", "critical")]
    page.screenshot(path=str(Path(SHOTS) / f"day-standings-{lang}-{width}.png"), full_page=True)
    assert errors == []
    ctx.close()


def test_a_late_entrant_s_page_shows_the_rounds_missed(day):
    from recorder import tournament_service
    from recorder.store import Store

    server, db = day
    store = Store(db)
    try:
        tournament_service.checkin(store, E, "中村")
        tournament_service.checkin(store, E, "伊藤")
        tournament_service.pair(store, E)
        tournament_service.register(store, E, "田中", reading="たなか", late=True)
    finally:
        store.close()
    data = httpx.get(f"{server.url}/api/events/{quote(E)}/players/{quote('田中')}", timeout=30).json()
    assert data["reading"] == "たなか" and data["rounds"] == [
        {"round": 1, "table": None, "closed": False, "opponent": None, "games": [], "outcome": "missed", "score": "0-2"}]
    assert data["standing"]["missed"] == 1 and data["standing"]["record"] == "0-1-0"
    page = httpx.get(f"{server.url}/events/{quote(E)}/players/{quote('田中')}?lang=en", timeout=30).text
    assert "loss (before a late entry) (0-2)" in page and "<rt>たなか</rt>" in page
