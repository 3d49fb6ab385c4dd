"""The pages follow by stream in chromium: the match page and the overlay subscribe
(EventSource), show a posted move without reload and do not poll while nothing happens;
when the stream cannot be held (here: refused, as a proxy might) they fall back to polling
and still show it."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.web.conftest import TOKEN

pytestmark = pytest.mark.browser
WAIT = 20_000
MID = "gen-gandice"


def post(live, text):
    with live.client(TOKEN) as c:
        r = c.post(f"/api/matches/{MID}/events", json={"type": "annotate", "on": 1, "by": "live", "text": text})
        assert r.status_code == 201, r.text
        return r.json()["seq"]


def polls_of(page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda req: seen.append(req.url) if "/poll" in req.url else None)
    return seen


def test_the_match_page_follows_by_stream_and_does_not_poll_when_idle(page, live):
    polls = polls_of(page)
    page.goto(f"{live.url}/matches/{MID}")
    page.keyboard.press("End")  # a finished match opens at its start; following shows the end
    expect(page.locator("html")).to_have_attribute("data-follow", "stream", timeout=WAIT)
    page.evaluate("window.__same_document = true")
    time.sleep(2.5)  # two and a half poll intervals with nothing recorded
    assert len(polls) <= 1  # at most the one look when the stream said "ready"
    seq = post(live, "ストリーム解説")
    expect(page.locator("body")).to_have_attribute("data-step", str(seq), timeout=WAIT)
    assert "ストリーム解説" in page.locator(f"#step-{seq}").inner_text()
    assert page.evaluate("window.__same_document") is True
    assert page.js_errors == []


def test_the_pages_fall_back_to_polling_when_the_stream_is_refused(page, live):
    page.route("**/stream*", lambda route: route.abort())
    page.goto(f"{live.url}/matches/{MID}")
    page.keyboard.press("End")
    expect(page.locator("html")).to_have_attribute("data-follow", "poll", timeout=WAIT)
    seq = post(live, "ポーリング解説")
    expect(page.locator("body")).to_have_attribute("data-step", str(seq), timeout=WAIT)
    assert "ポーリング解説" in page.locator(f"#step-{seq}").inner_text()
    page.goto(f"{live.url}/matches/{MID}/overlay")
    expect(page.locator("html")).to_have_attribute("data-follow", "poll", timeout=WAIT)
    seq = post(live, "オーバーレイ")
    expect(page.locator("body")).to_have_attribute("data-step", str(seq), timeout=WAIT)


def test_the_overlay_follows_by_stream(page, live):
    page.goto(f"{live.url}/matches/{MID}/overlay")
    expect(page.locator("html")).to_have_attribute("data-follow", "stream", timeout=WAIT)
    seq = post(live, "配信")
    expect(page.locator("body")).to_have_attribute("data-step", str(seq), timeout=WAIT)
    assert page.js_errors == []
