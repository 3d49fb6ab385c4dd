"""The recording page by keyboard alone: a Gandice summon (three dice, a face each) recorded
with Tab, Space and Enter; focus stays visible on the control just used after every press,
never dropped to <body>; the accessibility tree names each face button's group with its die;
the legal-move list offers the choice, never invented dice faces."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.web.conftest import TOKEN

pytestmark = pytest.mark.browser
WAIT = 20_000  # ms; an upper bound for a page to react, not a speed requirement


def focused(page) -> str:
    return page.evaluate("""(() => { const a = document.activeElement;
        return a && a !== document.body ? (a.id || a.getAttribute('data-value') || a.textContent || a.tagName) : 'BODY'; })()""")


def test_a_summon_recorded_by_keyboard_alone(browser, live):
    with live.client(TOKEN) as c:  # a fresh Gandice match: its first line is a summon of three dice
        header = c.get("/api/matches/gen-gandice").json()["header"]
    live.app.state.store.create(dict(header, match=dict(header["match"], id="kb-gandice")), [])
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live.url}/matches/kb-gandice/record#token={TOKEN}")
    rows = page.locator("#rec-fields .rec-map-row")
    expect(rows).to_have_count(3, timeout=WAIT)
    snapshot = page.locator("#rec-fields").aria_snapshot()
    for die in rows.evaluate_all("rs => rs.map(r => r.getAttribute('data-key'))"):
        assert f'group "{die}"' in snapshot  # each die names the group of its face buttons
    legal = page.locator("#rec-legal button").all_inner_texts()
    assert legal and not any("(" in t for t in legal)  # the choice, no invented faces
    presses = 0

    def press(key: str) -> None:
        nonlocal presses
        page.keyboard.press(key)
        presses += 1
        assert focused(page) != "BODY", f"focus lost after {key}"

    press("Tab")  # the first stop: the skip link to the form
    assert focused(page) == "rec-skip"
    press("Enter")
    assert page.evaluate("document.activeElement.closest('#rec-fields') !== null")  # the move's first field
    for die in range(3):
        while page.evaluate("(() => { const r = document.activeElement.closest('.rec-map-row'); "
                            f"return r !== document.querySelectorAll('#rec-fields .rec-map-row')[{die}]; }})()"):
            press("Tab")
            assert presses < 40, focused(page)
        press("ArrowRight")  # the second face: 逆立ち
        press("Space")
        assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
        assert page.evaluate("document.activeElement.matches(':focus-visible')")
    while focused(page) != "rec-send":
        press("Tab")
        assert presses < 40, focused(page)
    press("Enter")
    assert presses <= 15, f"{presses} key presses for a 3-die summon"
    expect(page.locator("#rec-result")).to_contain_text("#1", timeout=WAIT)
    assert focused(page) == "rec-send"
    with live.client() as c:
        lines = c.get("/api/matches/kb-gandice/log").text.splitlines()[1:]
    assert len(lines) == 1 and set(json.loads(lines[0])["rolls"].values()) == {"handstand"}
    context.close()
