"""No spoilers: a finished match opened at step 0 (the server page and the report file) shows
nothing of its result until the reader opens it: not in the header, not in the counter chart
(no point or segment after the step on screen), not on paper before the moves end. Stepping on
draws the chart as far as the board; opening the result draws it whole."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from exports.report import report_html
from tests.web.matches import generated

pytestmark = pytest.mark.browser
WAIT = 20_000  # ms; an upper bound for a page to react, not a speed requirement
GAME = "gurren-lagann"  # its chart (damage received) ends with the loser's line at the top


def visible_chart_steps(page) -> list[int]:
    return page.evaluate("""Array.from(document.querySelectorAll('#chart [data-at]'))
        .filter(el => getComputedStyle(el).display !== 'none').map(el => +el.getAttribute('data-at'))""")


def axis_top(page) -> tuple[int, int]:
    """The y axis's top label, and the highest value among the points shown (1 at least)."""
    return page.evaluate("""[+document.querySelector('#chart text[data-tick="top"]').textContent,
        Math.max(1, ...Array.from(document.querySelectorAll('#chart circle[data-value]'))
            .filter(c => getComputedStyle(c).display !== 'none').map(c => +c.getAttribute('data-value')))]""")


def result_words(page) -> str:
    return page.evaluate("document.querySelector('#print-result').textContent").split("：")[-1].split(": ")[-1].strip()


def check_step_zero(page) -> None:
    expect(page.locator("body")).to_have_attribute("data-step", "0", timeout=WAIT)
    words = result_words(page)
    assert words and words not in page.locator("body").inner_text()  # the result is nowhere on screen
    assert page.locator("#match-result details.spoiler").count() == 1
    assert page.locator(".viol-count").filter(visible=True).count() == 0  # counts are folded with it
    drawn = page.evaluate("document.querySelectorAll('#chart [data-at]').length")
    assert drawn > 10 and set(visible_chart_steps(page)) == {0}
    label, known = axis_top(page)
    assert label == known  # the axis does not hint at how high the hidden part goes
    page.emulate_media(media="print")
    printed = page.locator("body").inner_text()
    assert "{…}" not in printed and "結果を表示" not in printed  # no JSON toggles, no fold that cannot open
    assert set(visible_chart_steps(page)) == {0}
    assert printed.rstrip().endswith(words)  # on paper the result comes only after every line
    assert printed.count(words) == 1
    page.emulate_media(media="screen")


def check_stepping_and_reveal(page) -> None:
    page.keyboard.press("ArrowRight")
    expect(page.locator("body")).not_to_have_attribute("data-step", "0", timeout=WAIT)
    step = int(page.locator("body").get_attribute("data-step"))
    shown = visible_chart_steps(page)
    assert shown and max(shown) <= step
    label, known = axis_top(page)
    assert label == known
    page.locator("#match-result summary").click()  # reveal: the whole chart
    words = result_words(page)
    expect(page.locator("#match-result")).to_contain_text(words)
    total = page.evaluate("document.querySelectorAll('#chart [data-at]').length")
    # the chart is redrawn on the <details>' toggle event, which comes after the click returns
    page.wait_for_function("n => document.querySelectorAll('#chart [data-at]:not(.later)').length === n", arg=total, timeout=WAIT)
    assert len(visible_chart_steps(page)) == total
    label, highest = axis_top(page)
    assert label == highest and highest > known  # the whole match: its axis reaches the end's values


def test_server_page_at_step_zero_reveals_nothing(browser, readonly):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{readonly.url}/matches/gen-{GAME}")  # finished, no spoiler setting: opens at 0
    check_step_zero(page)
    check_stepping_and_reveal(page)
    context.close()


def test_report_at_step_zero_reveals_nothing(browser, tmp_path):
    header, entries = generated(GAME)
    path = tmp_path / "report.html"
    path.write_text(report_html(header, entries), encoding="utf-8")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(path.as_uri())
    check_step_zero(page)
    check_stepping_and_reveal(page)
    context.close()


def test_server_draws_the_chart_only_up_to_the_step():
    """Without a browser: the chart the server sends at step N hides every later point."""
    import re

    from exports import pages
    from exports.matchview import prepare
    from projections.replay import Replay

    header, entries = generated(GAME)
    mv = prepare(Replay(header, entries, "ruled"), "ja")
    ctx = pages.match_context(mv, mode="report", step=10, link=str, config={}, spoiler_free=True)
    elements = re.findall(r'<(?:line|circle) class="(series|pt)( later)?"[^>]*?data-at="(\d+)"', str(ctx["chart"]))
    assert len(elements) > 10
    assert all((int(at) > 10) == bool(later) for _kind, later, at in elements)
    shown = [int(v) for at, v in re.findall(r'<circle class="pt"[^>]*?data-at="(\d+)"[^>]*?data-value="(\d+)"', str(ctx["chart"]))]
    top = int(re.search(r'data-top="(\d+)"', str(ctx["chart"])).group(1))
    assert shown and top == max(1, *shown)
    whole = pages.match_context(mv, mode="report", step=10, link=str, config={}, spoiler_free=False)
    assert " later" not in str(whole["chart"])
