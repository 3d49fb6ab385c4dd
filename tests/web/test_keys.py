"""The match page's keys do what they say: Space on a control is the control's (it opens the
result, it does not start autoplay); Space elsewhere plays; the language link opens the other
language at the step on screen; the chart's points are reached with Tab and stepped with the
arrow keys, Enter jumps the board to a point."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
WAIT = 20_000  # ms; an upper bound for a page to react, not a speed requirement


@pytest.fixture
def match_page(browser, readonly):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{readonly.url}/matches/gen-gurren-lagann")  # finished: opens at 0, result folded
    expect(page.locator("body")).to_have_attribute("data-step", "0", timeout=WAIT)
    yield page
    context.close()


def tab_to(page, selector: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_space_on_the_result_opens_it_and_does_not_play(match_page):
    page = match_page
    tab_to(page, "#match-result summary")
    page.keyboard.press("Space")
    expect(page.locator("#match-result details.spoiler")).to_have_attribute("open", "")
    assert "▶" in page.locator("#btn-play").inner_text()  # not playing
    page.wait_for_timeout(1500)  # autoplay's first step would come within its 1 s interval
    assert page.locator("body").get_attribute("data-step") == "0"


def test_space_elsewhere_plays(match_page):
    page = match_page
    page.locator("h1").click()
    page.keyboard.press("Space")
    expect(page.locator("#btn-play")).to_contain_text("⏸")
    page.keyboard.press("Space")
    expect(page.locator("#btn-play")).to_contain_text("▶")


def test_the_language_link_keeps_the_step(match_page):
    page = match_page
    page.locator("h1").click()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    # wait for the state the three presses lead to, not for the first change (issue 38: reading the
    # step after the first press had landed, then expecting it after the third, raced the page)
    step = "3"
    expect(page.locator("body")).to_have_attribute("data-step", step, timeout=WAIT)
    page.locator("#lang-link").click()
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.locator("body")).to_have_attribute("data-step", step, timeout=WAIT)
    assert f"step={step}" in page.url


def test_chart_points_by_keyboard(match_page):
    page = match_page
    tab_to(page, "#chart circle[data-chart-step]")
    assert page.locator("#chart circle[tabindex='0']").count() == 1  # one tab stop for the chart
    first = int(page.evaluate("document.activeElement.getAttribute('data-chart-step')"))
    page.keyboard.press("ArrowRight")
    expect(page.locator("body")).not_to_have_attribute("data-step", str(first), timeout=WAIT)
    now = page.evaluate("document.activeElement.getAttribute('data-chart-step')")
    assert now is not None and int(now) > first  # focus moved to the next point, the board followed
    expect(page.locator("body")).to_have_attribute("data-step", now, timeout=WAIT)
    page.keyboard.press("End")
    last = page.evaluate("document.activeElement.getAttribute('data-chart-step')")
    expect(page.locator("body")).to_have_attribute("data-step", last, timeout=WAIT)
    page.keyboard.press("Home")
    expect(page.locator("body")).to_have_attribute("data-step", "0", timeout=WAIT)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    target = page.evaluate("document.activeElement.getAttribute('data-chart-step')")
    page.locator("h1").click()
    page.keyboard.press("Home")
    expect(page.locator("body")).to_have_attribute("data-step", "0", timeout=WAIT)
    tab_to(page, "#chart circle[data-chart-step]")  # the tab stop is the point at or before the step
    assert page.evaluate("document.activeElement.getAttribute('data-chart-step')") == "0"
    page.locator("#match-result summary").click()  # the result opened: every point can be reached
    page.locator(f"#chart circle[data-chart-step='{target}']").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("body")).to_have_attribute("data-step", target, timeout=WAIT)
    name = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert name and ":" in name  # the player, the counter, the value and the turn
