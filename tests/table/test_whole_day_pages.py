"""The whole day of issue 32's "Done when" once through the pages (tests/table/whole_day.py):
on a real server, the organiser checks players in from the desk (on a phone, 390×844, and a
laptop, 1280×800, at once: one browser context each for the whole day), types the pairings and
the results as at the venue (``kifu``), and the desk shows each round's tables and results, the
no-show, the late entrant, the drop, the standings with their marks in words, then the top cut's
bracket to the champion, on the desk and on the bracket page. Japanese by default (a Japanese
browser, no ``?lang``), English on request; axe-core clean at each step looked at."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.table.conftest import LiveServer
from tests.table.whole_day import (
    DROP, E, FINAL, LATE, NO_SHOW, PLAYERS, SEMIS, concede, ok, open_day, pair_round_one, play, record,
)
from tests.web.conftest import SHOTS

ADMIN = "whole-day-admin"
WAIT = 15_000  # ms: an upper bound for the page (which polls every 2 s) to show a state, not a speed requirement
VIEWPORTS = [(390, 844), (1280, 800)]
AXE_TAGS = {"resultTypes": ["violations"], "runOnly": {
    "type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}
FINAL_ORDER = ["青木", "上田", "佐藤", "木村", "井上", "江口", "大野", "加藤", "工藤"]  # test_whole_day.py's FINAL


def axe_clean(page, what: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, options=AXE_TAGS).response["violations"]
    bad = [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}" for v in found
           if v["impact"] in ("serious", "critical")]
    assert not bad, f"{what}: " + "\n".join(bad)


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page scrolls sideways"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(SHOTS) / f"whole-day-{name}-{page.viewport_size['width']}.png"), full_page=True)


def note(page, player: str):
    return page.locator(f"#standings tr[data-player='{player}'] .desk-notes")


@pytest.mark.browser
def test_the_whole_day_through_the_pages(kifu, db, tmp_path, browser):
    open_day(kifu)
    server = LiveServer(db, ADMIN).start()
    contexts = [browser.new_context(viewport={"width": w, "height": h}, locale="ja-JP") for w, h in VIEWPORTS]
    errors: list[str] = []
    try:
        pages = [c.new_page() for c in contexts]
        desk = f"{server.url}/events/{quote(E)}"
        for page in pages:
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{desk}#token={ADMIN}")
            assert page.evaluate("document.documentElement.lang") == "ja"

        # check-in at the desk: the phone and the laptop share the queue; 工藤 never comes
        for i, name in enumerate(p for p in PLAYERS if p != NO_SHOW):
            page = pages[i % 2]
            page.locator(f"[data-checkin='{name}']").click()
            expect(page.locator(f"#roster li[data-player='{name}'] [data-checked-in]")).to_have_count(1, timeout=WAIT)
        for page in pages:
            page.reload()
            assert page.locator("[data-checkin]").all_inner_texts() == ["チェックイン"]
            assert page.locator(f"[data-checkin='{NO_SHOW}']").count() == 1
            assert "7 / 8" in page.locator("#roster summary").inner_text()
            fits(page)
            axe_clean(page, "the desk at check-in")
            shot(page, "checkin")

        # round 1: the venue's seating, then the results as they come in (the desk follows by itself)
        pair_round_one(kifu, tmp_path)
        for page in pages:
            page.reload()
            expect(page.locator("#round-no-shows")).to_have_text(NO_SHOW, timeout=WAIT)
            expect(page.locator("#round-byes")).to_have_text("木村", timeout=WAIT)
            assert page.locator("article.desk-card").count() == 3
        play(kifu, 1)
        for page in pages:
            expect(page.locator("#round-status [data-status='finished']")).to_contain_text("3", timeout=WAIT)
            expect(page.locator("#round-not-reported")).to_have_text("なし", timeout=WAIT)
        ok(kifu, "round", "close", E)
        for page in pages:
            expect(note(page, NO_SHOW)).to_have_text("欠席", timeout=WAIT)
            expect(page.locator("#standings tbody tr").first).to_contain_text("上田", timeout=WAIT)
            fits(page)
            axe_clean(page, "the desk after round 1")
            shot(page, "round-1")

        # a late entrant for round 2, a drop after it, round 3
        ok(kifu, "event", "register", E, "--player", LATE, "--late")
        for rnd in (2, 3):
            ok(kifu, "round", "pair", E)
            play(kifu, rnd)
            ok(kifu, "round", "close", E)
            if rnd == 2:
                ok(kifu, "event", "drop", E, "--player", DROP)
        for page in pages:
            page.reload()
            rows = page.locator("#standings tbody tr")
            assert [r.get_attribute("data-player") for r in rows.all()] == FINAL_ORDER
            assert note(page, NO_SHOW).inner_text() == "欠席"
            assert note(page, DROP).inner_text() == "第2回戦後ドロップ"
            assert note(page, LATE).inner_text() == "途中参加: 1回戦分の敗北"
            assert note(page, "木村").inner_text() == "不戦勝1" and note(page, "青木").count() == 0
            assert page.locator("#round-dropped").inner_text() == f"{DROP} (第2回戦後)"
            fits(page)
            axe_clean(page, "the desk after the Swiss")
            shot(page, "swiss")

        # the top 4, best of three, to the champion
        ok(kifu, "round", "cut", E, "--top", "4")
        concede(kifu, 4, SEMIS)
        record(kifu, f"{E}-r4-t2-g3", {"type": "result", "by": "主審", "winner": None, "reason": "draw"})
        ok(kifu, "round", "game", E, "--table", "2")
        concede(kifu, 4, [("t2-g4", "A")])
        for page in pages:  # the semifinals on the desk, live
            expect(page.locator("#bracket [data-round='4'] .won")).to_have_count(2, timeout=WAIT)
            assert page.locator("#bracket [data-round='4'] .won").all_inner_texts()[0].split()[1] == "青木"
        ok(kifu, "round", "close", E)
        ok(kifu, "round", "pair", E)
        concede(kifu, 5, FINAL)
        ok(kifu, "round", "close", E)
        for page in pages:
            expect(page.locator("#bracket #champion")).to_contain_text("青木", timeout=WAIT)
            page.goto(f"{desk}/bracket")
            assert page.evaluate("document.documentElement.lang") == "ja"
            assert "優勝" in page.locator("#champion").inner_text() and "青木" in page.locator("#champion").inner_text()
            semis, final = page.locator("#bracket [data-round]").all()
            assert [x.get_attribute("data-player") for x in semis.locator(".won").all()] == ["青木", "佐藤"]
            assert [x.get_attribute("data-player") for x in final.locator(".won").all()] == ["青木"]
            assert [x.inner_text() for x in final.locator(".ev-wins").all()] == ["2", "1"]
            fits(page)
            axe_clean(page, "the bracket page")
            shot(page, "bracket")

        # English on request
        for page in pages:
            page.goto(f"{desk}?lang=en")
            assert page.evaluate("document.documentElement.lang") == "en"
            assert note(page, NO_SHOW).inner_text() == "no-show"
            assert note(page, DROP).inner_text() == "dropped after round 2"
            page.goto(f"{desk}/bracket")  # the choice is remembered
            assert "Champion" in page.locator("#champion").inner_text()
            fits(page)
            axe_clean(page, "the bracket page in English")
        assert errors == []
    finally:
        for c in contexts:
            c.close()
        server.stop()
