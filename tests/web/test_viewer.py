"""The viewer as a person uses it, in Debian's chromium at a phone, a laptop and a 1080p
screen: no sideways scrolling on any page, notation (not raw fields) in the move list, the
ruled caption and header matching the ruled board, spoiler-free opening, flip, the chart's
points against the board JSON, the overlay following a move POSTed through the API, Japanese
by default. Screenshots of every page at the three sizes go to artifacts/screenshots/."""

from __future__ import annotations

import glob
import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from recorder import logformat
from tests.web.conftest import ROOT, SHOTS, TOKEN, LiveServer, fill

pytestmark = pytest.mark.browser
WAIT = 20_000  # ms; an upper bound for a page to react, not a speed requirement
SIZES = ((390, 844), (1280, 800), (1920, 1080))
DISPUTED = "gl-sample-2026-disputed"  # line 88 is overturned: the views differ, and so do the results


@pytest.fixture(scope="module")
def viewer_db(tmp_path_factory):
    from recorder.store import Store

    path = str(tmp_path_factory.mktemp("viewer") / "kifu.db")
    store = Store(path)
    fill(store)
    for f in sorted(glob.glob(str(ROOT / "examples" / "*.jsonl"))):
        header, entries = logformat.read_file(f)
        store.create(header, entries)
    store.close()
    return path


@pytest.fixture(scope="module")
def server(viewer_db):
    srv = LiveServer(viewer_db, TOKEN).start()
    yield srv
    srv.stop()


def new_page(browser, width=1280, height=800, locale="ja-JP", **kw):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale, **kw)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # type: ignore[attr-defined]
    return context, page


def at(page) -> tuple[int, int]:
    """(step shown, steps) from the step label, whatever the language."""
    n, total = re.findall(r"\d+", page.locator("#step-label").inner_text())[:2]
    return int(n), int(total)


def wait_step(page, n: int) -> None:
    # (expect polls from Playwright's side: the pages' CSP forbids the eval wait_for_function needs)
    expect(page.locator("body")).to_have_attribute("data-step", str(n), timeout=WAIT)


def no_overflow(page) -> None:
    sw, iw = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert sw <= iw, f"{page.url}: {sw}px wide in a {iw}px window"


def pages_to_visit(server) -> dict[str, str]:
    return {
        "list": "/matches",
        "list-results": "/matches?game=gandice",
        "match-gandice": "/matches/gandice-reiwa-example?step=12",
        "match-mushijingi": "/matches/mj-example-1?step=30",
        "match-gurren-lagann": f"/matches/{DISPUTED}?step=88",
        "match-variants-war": "/matches/vw-example-1?step=60",
        "match-toy": "/matches/toy-1",
        "overlay": "/matches/vw-example-1/overlay?step=60&bg=green",
        "stats": "/stats",
        "events": "/events",
        "event": "/events/" + quote("ヴァリアンツ＝ウォー 始まりの地カップ"),
        "record": "/matches/toy-1/record",
        "error": "/matches/nope",
    }


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_page_fits_the_screen_and_is_japanese(browser, server, size):
    context, page = new_page(browser, *size)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, url in pages_to_visit(server).items():
        page.goto(server.url + url)
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == "ja", name
        no_overflow(page)
        page.screenshot(path=str(SHOTS / f"{name}-{size[0]}x{size[1]}.png"))
    assert page.js_errors == []
    context.close()


def test_english_on_request(browser, server):
    context, page = new_page(browser, locale="en-US")  # Accept-Language: en-US
    page.goto(f"{server.url}/matches")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("h1").inner_text() == "Matches"
    context.close()
    context, page = new_page(browser)
    page.goto(f"{server.url}/matches/gandice-reiwa-example?lang=en")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "play" in page.locator("#btn-play").inner_text()
    page.goto(f"{server.url}/matches")  # the choice is remembered
    assert page.evaluate("document.documentElement.lang") == "en"
    page.click("#lang-link")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.locator("h1").inner_text() == "対局一覧"
    context.close()


def test_move_list_reads_as_notation_not_fields(browser, server):
    context, page = new_page(browser)
    page.goto(f"{server.url}/matches/gandice-reiwa-example?step=5")
    texts = page.locator("#moves li.move .text").all_inner_texts()
    assert len(texts) > 10
    for t in texts:
        assert "=" not in t and "{" not in t and "rolls" not in t, t
    assert any("ギダン" in t for t in texts)
    caption = page.locator("#last-move").inner_text()
    assert caption.startswith("#5 ") and "=" not in caption
    raw = page.locator("#step-5 details.raw")
    raw.locator("summary").click()  # the raw line is one click away
    assert '"seq": 5' in raw.locator("code").inner_text()
    context.close()


def test_ruled_caption_and_header_match_the_ruled_board(browser, server):
    context, page = new_page(browser)
    with server.client() as c:
        ruled = c.get(f"/api/matches/{DISPUTED}/board", params={"step": 88}).json()
        recorded_end = c.get(f"/api/matches/{DISPUTED}/board", params={"view": "recorded"}).json()
        ruled_end = c.get(f"/api/matches/{DISPUTED}/board").json()
    page.goto(f"{server.url}/settings?spoilers=show&next=/matches/{DISPUTED}%3Fstep%3D88")
    caption = page.locator("#last-move").inner_text()
    assert caption.startswith("#88 裁定後:") and "b6→b5" in caption  # the ruled move, not the voided one
    assert "b6→c6" not in caption
    assert ruled["view"] == "ruled" and ruled_end["result"] is None
    assert "対局中" in page.locator("#match-result").inner_text()
    assert page.locator("#board .b-result").count() == 0
    page.select_option("#view", "recorded")
    expect(page.locator("body")).to_have_attribute("data-view", "recorded", timeout=WAIT)
    assert "b6→c6" in page.locator("#last-move").inner_text()
    winner = recorded_end["result"]["winner"]
    name = {"A": "シモン使い", "B": "ヴィラル使い"}[winner]
    assert f"{name} の勝ち" in page.locator("#match-result").inner_text()
    page.keyboard.press("End")
    wait_step(page, recorded_end["step"])
    assert f"{name} の勝ち" in page.locator("#board .b-result").inner_text()
    assert "手番" not in page.locator("#board .b-status").inner_text()  # nobody is to play once decided
    assert page.js_errors == []
    context.close()


def test_spoiler_free_by_default_and_the_setting_sticks(browser, server):
    context, page = new_page(browser)
    page.goto(f"{server.url}/matches?game=gandice")
    assert page.locator("#match-list .c-result").first.inner_text().strip() == "—"
    page.goto(f"{server.url}/matches/gandice-reiwa-example")
    assert at(page)[0] == 0  # a finished match opens at its start
    assert not page.locator("#match-result .res-text").is_visible()  # the result is folded away
    page.goto(f"{server.url}/matches?game=gandice")
    page.click("#spoiler-toggle")
    assert "勝ち" in page.locator("#match-list").inner_text()
    page.goto(f"{server.url}/matches/gandice-reiwa-example")
    n, total = at(page)
    assert n == total and page.locator("#match-result .res-text").is_visible()
    page.goto(f"{server.url}/matches/{DISPUTED}?view=ruled")  # in progress: opens at the newest line
    assert at(page)[0] == at(page)[1]
    context.close()


def test_arrows_go_move_to_move_and_shift_goes_through_notes(browser, server):
    context, page = new_page(browser)
    page.goto(f"{server.url}/matches/gandice-reiwa-example?step=0")
    with server.client() as c:
        lines = [__import__("json").loads(x) for x in c.get("/api/matches/gandice-reiwa-example/log").text.splitlines()[1:]]
    notes = {e["seq"] for e in lines if e["type"] in ("annotate", "dispute", "retract", "appeal")}
    assert notes, "the example has notes"
    seen = []
    for _ in range(8):
        before = page.evaluate("document.body.getAttribute('data-step')")
        page.keyboard.press("ArrowRight")  # the board may come from the server: wait for it
        page.wait_for_function("was => document.body.getAttribute('data-step') !== was", arg=before)
        seen.append(int(page.evaluate("document.body.getAttribute('data-step')")))
    assert not notes & set(seen) and seen == sorted(seen)
    page.keyboard.press("Home")
    for _ in range(len(lines)):
        page.keyboard.press("Shift+ArrowRight")
    wait_step(page, len(lines))
    # click a move's text, not only its number
    page.locator("#step-3 .text").click()
    wait_step(page, 3)
    # go to turn N: the board the turn's first line was played on
    page.fill("#turn-input", "2")
    page.click("#turn-form button")
    first = page.locator("#moves li.row[data-turn='2']").first.get_attribute("data-step")
    wait_step(page, int(first) - 1)
    assert page.js_errors == []
    context.close()


def test_flip_puts_the_other_seat_nearest(browser, server):
    context, page = new_page(browser)
    page.goto(f"{server.url}/matches/vw-example-1?step=60")

    def last_player() -> str:
        return page.locator("#board .players > .player").last.locator(".p-head").inner_text()

    def first_row_label() -> str:
        return page.locator("#board table.grid tr").nth(1).locator("th").first.inner_text()

    before, row = last_player(), first_row_label()
    page.keyboard.press("f")
    assert last_player() != before and first_row_label() != row
    assert page.locator("#seat").input_value() in last_player()
    page.keyboard.press("ArrowRight")  # the next board keeps the perspective
    expect(page.locator("body")).not_to_have_attribute("data-step", "60", timeout=WAIT)
    assert last_player() != before
    page.select_option("#seat", "B")
    assert "(B)" in last_player()
    page.select_option("#seat", "A")
    assert "(A)" in last_player()
    context.close()


@pytest.mark.parametrize("match", ["gandice-reiwa-example", "mj-example-1", "gl-sample-2026", "vw-example-1"])
def test_chart_points_match_the_board_json(browser, server, match):
    context, page = new_page(browser)
    page.goto(f"{server.url}/matches/{match}?step=0")
    chart = page.locator("#chart")
    counter = chart.get_attribute("data-counter")
    points = page.evaluate("""Array.from(document.querySelectorAll('#chart circle')).map(c =>
        [+c.getAttribute('data-chart-step'), c.getAttribute('data-player'), +c.getAttribute('data-value')])""")
    assert len(points) >= 4
    with server.client() as c:
        boards = {s: c.get(f"/api/matches/{match}/board", params={"step": s}).json() for s in {p[0] for p in points}}
    for step, player, value in points:
        assert boards[step]["players"][player][counter] == value, (step, player)
    step, _, _ = points[len(points) // 2]
    page.locator(f"#chart circle[data-chart-step='{step}']").first.dispatch_event("click")
    wait_step(page, step)
    context.close()


def test_overlay_follows_a_move_posted_through_the_api(browser, server):
    context, page = new_page(browser, 1920, 1080)
    page.goto(f"{server.url}/matches/toy-1/overlay?bg=green")
    assert page.locator("nav").count() == 0  # no chrome
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 177, 64)"
    before = int(page.evaluate("document.body.getAttribute('data-step')"))
    with server.client(TOKEN) as c:
        r = c.post("/api/matches/toy-1/events", json={"type": "score", "by": "A", "points": 5})
        assert r.status_code == 201, r.text
    wait_step(page, before + 1)
    assert f"#{before + 1}" in page.locator("#ov-caption").inner_text()
    no_overflow(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "overlay-live-1920x1080.png"))
    assert page.js_errors == []
    context.close()


def test_phone_opens_with_the_board_in_view(browser, server):
    context, page = new_page(browser, 390, 844)
    page.goto(f"{server.url}/matches/{DISPUTED}?step=88")
    assert page.evaluate("window.scrollY") == 0  # the page was not scrolled to the move list
    box = page.locator("#board").bounding_box()
    assert box["y"] < 844 and box["width"] <= 390
    context.close()


def test_dark_mode_follows_the_system(browser, server):
    context, page = new_page(browser, color_scheme="dark")
    page.goto(f"{server.url}/matches")
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(x) for x in re.findall(r"\d+", bg)[:3])
    assert r + g + b < 150, bg
    page.screenshot(path=str(SHOTS / "list-dark-1280x800.png"))
    context.close()


def test_report_file_header_follows_the_view_and_opens_spoiler_free(browser, tmp_path):
    from exports.report import report_html

    header, entries = logformat.read_file(str(ROOT / "examples" / "gurren-lagann-disputed.jsonl"))
    path = tmp_path / "disputed.html"
    path.write_text(report_html(header, entries), encoding="utf-8")
    context, page = new_page(browser)
    page.goto(path.as_uri() + "#step-88")
    assert page.locator("#last-move").inner_text().startswith("#88 裁定後:")
    assert "対局中" in page.locator("#match-result").inner_text()  # the ruled view: still going
    page.select_option("#view", "recorded")
    expect(page.locator("body")).to_have_attribute("data-view", "recorded", timeout=WAIT)
    assert "b6→c6" in page.locator("#last-move").inner_text()
    assert "勝ち" in page.locator("#match-result").inner_text()  # the recorded view: decided
    assert page.js_errors == []
    context.close()
    header, entries = logformat.read_file(str(ROOT / "examples" / "gandice-example.jsonl"))
    path = tmp_path / "finished.html"
    path.write_text(report_html(header, entries), encoding="utf-8")
    context, page = new_page(browser)
    page.goto(path.as_uri())
    assert at(page) == (0, len(entries))  # a finished match opens at its start
    assert not page.locator("#match-result .res-text").is_visible()
    page.locator("#match-result summary").click()  # until asked
    assert page.locator("#match-result .res-text").is_visible()
    context.close()


def test_a_step_that_is_not_a_number_is_a_clear_400(server):
    with server.client() as c:
        r = c.get("/matches/toy-1", params={"step": "abc"}, headers={"Accept-Language": "ja"})
        assert r.status_code == 400 and "<h1>400</h1>" in r.text and "行番号ではありません" in r.text
        assert "Traceback" not in r.text
        r = c.get("/matches/toy-1/frame", params={"step": "abc"})
        assert r.status_code == 400 and "step" in r.json()["error"]
        assert c.get("/matches/toy-1", params={"step": 999}).status_code == 404  # a number past the end
        lines = c.get("/api/matches/toy-1/lines", params={"lang": "en"}).json()
        assert lines["lang"] == "en" and lines["lines"][0]["line"]["seq"] == 1 and lines["lines"][0]["text"]
