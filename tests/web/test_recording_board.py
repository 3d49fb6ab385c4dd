"""The board is the input (issue 37): a square, a die or an insect of the board fills the field
of the move being built that wants it, as a chess app takes a piece, then a square. Tapped on
a phone at 390×844; the page marks each piece with the field it fills (data-field, data-value:
docs/recording-page.md), the server in the first paint as the script after every tap."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest
from playwright.sync_api import expect

from recorder.store import Store
from tests.web.test_recording_taps import ADMIN, example, server  # noqa: F401  (the module's server fixture)

pytestmark = pytest.mark.browser
WAIT = 10_000  # ms; an upper bound for the page to react, not a speed requirement


def open_at(browser, server, game: str, seq: int):  # noqa: F811
    header, lines = example(game)
    mid = f"board-{game}-{uuid.uuid4().hex[:6]}"
    store = Store(server.app.state.store.db)
    try:
        store.create(dict(header, match=dict(header["match"], id=mid)), lines[:seq - 1])
    finally:
        store.close()
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  locale="ja-JP", device_scale_factor=1)
    page = context.new_page()
    page.goto(f"{server.url}/matches/{mid}/record#token={ADMIN}")
    expect(page.locator("#rec-types button[aria-pressed=true]")).to_have_count(1, timeout=WAIT)
    return context, page, mid, lines[seq - 1]


def test_a_step_is_two_squares_of_the_board(browser, server):  # noqa: F811
    context, page, mid, line = open_at(browser, server, "variants-war", 38)  # B: b4 -> b3
    try:
        page.locator('#rec-types button[data-type="move"]').tap()
        page.locator('#rec-by button[data-by="B"]').tap()
        source = page.locator('#rec-board [data-pick="b4"]')
        expect(source).to_have_attribute("data-field", "from")  # the empty field that takes a square first
        source.tap()
        expect(page.locator('#rec-form [data-field="from"] button[data-value="b4"]')).to_have_attribute("aria-pressed", "true")
        target = page.locator('#rec-board [data-pick="b3"]')
        expect(target).to_have_attribute("data-field", "to")  # from is filled: the square goes to "to"
        expect(source).not_to_have_attribute("data-field", "from")
        target.tap()
        page.locator('[data-action="record"]').tap()
        expect(page.locator("#rec-steps")).to_have_text(str(line["seq"]), timeout=WAIT)
        got = json.loads(httpx.get(f"{server.url}/api/matches/{mid}/log", timeout=10).text.splitlines()[-1])
        assert {k: got[k] for k in ("type", "by", "from", "to")} == {k: line[k] for k in ("type", "by", "from", "to")}
    finally:
        context.close()


def test_the_first_paint_marks_the_board_as_the_script_does(browser, server):  # noqa: F811
    """A die of Gandice's board marks the attack's die field before any script runs."""
    header, lines = example("gandice")
    seq = next(x["seq"] for x in lines if x["type"] == "attack")
    context, page, mid, line = open_at(browser, server, "gandice", seq)
    try:
        bare = browser.new_context(java_script_enabled=False)
        plain = bare.new_page()
        plain.goto(f"{server.url}/matches/{mid}/record")
        marked = plain.locator("#rec-board [data-pick][data-field]")
        assert marked.count() >= 1
        served = sorted(marked.evaluate_all("es => es.map(e => e.getAttribute('data-pick') + '>' + e.getAttribute('data-field'))"))
        bare.close()
        drawn = sorted(page.locator("#rec-board [data-pick][data-field]").evaluate_all(
            "es => es.map(e => e.getAttribute('data-pick') + '>' + e.getAttribute('data-field'))"))
        assert served == drawn
        die = page.locator(f'#rec-board [data-pick="{line["die"]}"][data-field="die"]')
        die.first.tap()
        expect(page.locator(f'#rec-form [data-field="die"] button[data-value="{line["die"]}"]')).to_have_attribute(
            "aria-pressed", "true")
    finally:
        context.close()
