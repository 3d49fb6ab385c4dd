"""Real Debian chromium via Playwright: the report file and the server pages as a person
uses them. Screenshots of each game's board go to artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from exports.report import report_html
from tests.web.conftest import SHOTS, TOKEN
from tests.web.matches import GAMES, generated, toy_match

pytestmark = pytest.mark.browser
WAIT = 20_000  # ms; an upper bound for a page to react, not a speed requirement


@pytest.fixture(scope="module")
def toy_report(tmp_path_factory):
    header, entries = toy_match()
    path = tmp_path_factory.mktemp("report") / "toy.html"
    path.write_text(report_html(header, entries), encoding="utf-8")
    return path


def label(page) -> str:
    """The step label as "N / M" (it reads "N / M 行" in Japanese, "line N / M" in English)."""
    n, total = re.findall(r"\d+", page.locator("#step-label").inner_text())[:2]
    return f"step {n} / {total}"


def test_report_arrow_keys_step_the_board(page, toy_report):
    page.goto(toy_report.as_uri() + "#step-7")
    assert label(page) == "step 7 / 7"
    page.keyboard.press("Home")
    assert label(page) == "step 0 / 7"
    assert "score 0" in re.sub(r"\s+", " ", page.locator("#board").inner_text())
    page.keyboard.press("ArrowRight")
    assert label(page) == "step 1 / 7"
    board = re.sub(r"\s+", " ", page.locator("#board").inner_text())
    assert "手番: 佐藤 (B)" in board  # after A's first move it is B's turn
    assert page.locator("#step-1").get_attribute("class").endswith("current")
    assert page.evaluate("location.hash") == "#step-1"
    page.keyboard.press("ArrowRight")  # → goes move to move: line 3 is a note
    assert label(page) == "step 2 / 7"
    page.keyboard.press("ArrowRight")
    assert label(page) == "step 4 / 7"
    page.keyboard.press("Shift+ArrowLeft")  # Shift goes through every line
    assert label(page) == "step 3 / 7"
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("End")
    assert label(page) == "step 7 / 7"
    assert "TOY-2" in page.locator("#board").inner_text()  # the step's violation, highlighted
    page.locator("#step-2 a.jump").click()  # click a move to jump
    assert label(page) == "step 2 / 7"
    page.select_option("#view", "recorded")
    page.locator("#step-4 a.jump").click()
    assert "TOY-1" in page.locator("#board").inner_text()
    page.select_option("#view", "ruled")
    assert "TOY-1" not in page.locator("#board").inner_text()
    assert page.js_errors == []


def test_report_permalink_play_and_no_script_from_annotations(page, toy_report):
    page.goto(toy_report.as_uri() + "#step-3")
    assert label(page) == "step 3 / 7"
    assert "#3" in page.locator("#last-move").inner_text()
    assert page.evaluate("window.__pwned") is None
    assert "<script>window.__pwned = 1</script>" in page.locator("#step-3").inner_text()
    page.keyboard.press("Home")
    page.select_option("#speed", "250")
    page.click("#btn-play")
    expect(page.locator("body")).to_have_attribute("data-step", "7", timeout=WAIT)
    assert "再生" in page.locator("#btn-play").inner_text()


def test_report_reads_without_javascript(browser, toy_report):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(toy_report.as_uri())
    assert not page.locator("#btn-next").is_visible()
    assert page.locator("#moves > li.row").count() == 8
    assert "B played twice" in page.locator("#moves").inner_text()
    page.emulate_media(media="print")
    assert page.locator("#step-2 .print-board").is_visible()
    assert not page.locator("#stepper").is_visible()
    context.close()


def test_server_permalink(page, live):
    page.goto(f"{live.url}/matches/toy-1?step=4&view=recorded")
    assert label(page) == "step 4 / " + label(page).split("/ ")[1]
    assert page.locator("#step-4").get_attribute("class").endswith("current")
    assert "TOY-1" in page.locator("#board").inner_text()
    page.keyboard.press("Shift+ArrowLeft")
    expect(page).to_have_url(re.compile(r"\?step=3&view=recorded$"), timeout=WAIT)
    assert page.evaluate("window.__pwned") is None
    assert page.js_errors == []


def test_live_follow_shows_a_posted_move_without_reload(page, live):
    page.goto(f"{live.url}/matches/gen-gandice?step=0")
    page.keyboard.press("End")
    total = int(label(page).split("/ ")[1])
    page.evaluate("window.__same_document = true")
    with live.client(TOKEN) as c:
        r = c.post("/api/matches/gen-gandice/events", json={"type": "annotate", "on": 1, "by": "live", "text": "ライブ解説"})
        assert r.status_code == 201
    expect(page.locator("body")).to_have_attribute("data-step", str(total + 1), timeout=WAIT)
    assert "ライブ解説" in page.locator(f"#step-{total + 1}").inner_text()
    assert page.evaluate("window.__same_document") is True  # no reload happened


def test_japanese_font_is_installed():
    """Boards are mostly Japanese; without a CJK font chromium draws boxes."""
    import shutil
    import subprocess
    import warnings

    if shutil.which("fc-list") is None:
        warnings.warn("fc-list missing: cannot tell whether a Japanese font is installed", stacklevel=1)
        return
    fonts = subprocess.run(["fc-list", ":lang=ja"], check=False, capture_output=True, text=True).stdout
    if not fonts.strip():
        warnings.warn("no Japanese font: screenshots show boxes (apt-get install fonts-noto-cjk)", stacklevel=1)


@pytest.mark.parametrize("game", GAMES)
def test_screenshot_of_each_game(page, tmp_path, game):
    header, entries = generated(game)
    path = tmp_path / f"{game}.html"
    path.write_text(report_html(header, entries), encoding="utf-8")
    step = (2 * len(entries)) // 3
    page.goto(f"{path.as_uri()}#step-{step}")
    assert label(page) == f"step {step} / {len(entries)}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#stepper").screenshot(path=str(SHOTS / f"{game}.png"))
    assert (SHOTS / f"{game}.png").stat().st_size > 10_000
    assert page.js_errors == []
