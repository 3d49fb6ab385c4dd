"""The answer to a move (記録しました, a refusal, a rule's flag) and the lines waiting to be sent
stand in the board's title row, beside 「盤面」: at 390×844 and 1280×800 they cover no control of
the suggestions, the form or the board (issue 37: the answer box once floated over the form's
bottom), and a tap on them shows all of the answer, another folds it back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import json

from tests.web.conftest import ROOT, TOKEN

pytestmark = pytest.mark.browser
WAIT = 20_000  # ms; an upper bound for a page to react, not a speed requirement

# The controls the answer's box overlaps (their rectangles meet its rectangle), by what they are.
COVERED = """() => {
  const n = document.querySelector('.rec-notes').getBoundingClientRect();
  const meet = r => r.width > 0 && r.height > 0 && r.left < n.right && r.right > n.left && r.top < n.bottom && r.bottom > n.top;
  return [...document.querySelectorAll('#rec-legal button, #rec-form button, #rec-form select, #rec-form input, #rec-board [data-pick], #rec-board')]
    .filter(e => meet(e.getBoundingClientRect())).map(e => e.id || e.getAttribute('data-value') || e.getAttribute('data-pick') || e.tagName);
}"""


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}])
def test_the_answer_covers_nothing_of_the_move_and_opens_on_a_tap(browser, live, viewport):
    lines = [json.loads(x) for x in (ROOT / "examples" / "gurren-lagann-example.jsonl").read_text("utf-8").splitlines() if x]
    mid = f"answer-{viewport['width']}"  # mid-match: a battle to record
    live.app.state.store.create(dict(lines[0], match=dict(lines[0]["match"], id=mid)), [x for x in lines[1:] if x["seq"] < 47])
    context = browser.new_context(viewport=viewport, locale="ja-JP", has_touch=True)
    page = context.new_page()
    page.goto(f"{live.url}/matches/{mid}/record#token={TOKEN}")
    expect(page.locator("#rec-types button[aria-pressed=true]")).to_have_count(1, timeout=WAIT)
    steps = int(page.locator("#rec-steps").inner_text())
    page.evaluate("() => document.querySelector('[data-move]').click()")
    page.evaluate("() => document.getElementById('rec-send').click()")
    expect(page.locator("#rec-result")).to_contain_text(f"#{steps + 1}", timeout=WAIT)
    for at in ("top", "scrolled"):
        if at == "scrolled":  # the form scrolled under the sticky board: still nothing under the answer
            page.evaluate("() => document.getElementById('rec-send').scrollIntoView({block: 'end'})")
        assert page.evaluate(COVERED) == [], at
        assert page.locator(".rec-notes").bounding_box()["height"] <= 32
    box = page.locator(".rec-notes")
    page.locator("#rec-result").tap()
    expect(box).to_have_class("rec-notes open")
    assert page.evaluate("() => { const e = document.querySelector('.rec-notes'); return e.scrollHeight <= e.clientHeight + 1; }")
    page.locator("#rec-result").tap()
    expect(box).to_have_class("rec-notes")
    context.close()
