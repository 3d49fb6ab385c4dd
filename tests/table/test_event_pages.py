"""The tournament's pages and JSON (issue 24 items 5-6): the standings (``?round=N``, match-win %),
a round's pairings by table and by name, a player's page, the desk's round status and links,
and a match page's link to its event; Japanese by default, English with ``?lang=en``. The
event is tests/table/event_site.py's (round 1 closed, a drop, round 2 with one table of each
status and a bye). The browser tests look at each page at 390 and 1280 px."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from tests.table.event_site import EVENT, build
from tests.web.conftest import SHOTS, LiveServer

E = quote(EVENT)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("event-pages")
    db = str(folder / "kifu.db")
    build(db, folder)
    server = LiveServer(db, None).start()
    yield server
    server.stop()


def get(site, path: str, status: int = 200, **params) -> httpx.Response:
    r = httpx.get(f"{site.url}{path}", params=params, timeout=20)
    assert r.status_code == status, (path, r.status_code, r.text[:300])
    return r


def row_of(standings: list[dict], player: str) -> dict:
    return next(r for r in standings if r["player"] == player)


# -- standings --------------------------------------------------------------------------------


def test_standings_page_is_japanese_with_match_win_percent_and_links_to_players(site):
    html = get(site, f"/events/{E}/standings").text
    assert '<html lang="ja">' in html and f"<h1>順位 — {EVENT}" in html
    assert '<th scope="col" class="num"><abbr title="マッチ勝率">MW%</abbr></th>' in html
    assert '<abbr title="オポネンツ・マッチ勝率">OMW%</abbr>' in html  # the tiebreak's name in full
    assert f'href="/events/{E}/players/{quote("鈴木")}"' in html
    assert "ドロップ" in html and "第1回戦後" in html  # 加藤
    assert f'href="/events/{E}/rounds/2"' in html and f'href="/events/{E}"' in html


def test_standings_as_of_a_round_count_the_bye_and_the_drop(site):
    after1 = get(site, f"/api/events/{E}/standings", round="1").json()
    assert after1["round"] == 1
    assert (row_of(after1["standings"], "青木")["points"], row_of(after1["standings"], "青木")["record"]) == (3, "1-0-0")
    assert row_of(after1["standings"], "鈴木")["record"] == "0-1-0"
    now = get(site, f"/api/events/{E}/standings").json()
    assert now["round"] is None
    suzuki = row_of(now["standings"], "鈴木")  # the round-2 bye: a 2-0 win
    assert (suzuki["points"], suzuki["record"], suzuki["mwp"]) == (3, "1-1-0", 50.0)
    assert (row_of(now["standings"], "青木")["points"], row_of(now["standings"], "青木")["mwp"]) == (6, 100.0)
    assert {(p["round"], p["table"]) for p in now["pending"]} == {(2, "2"), (2, "3"), (2, "4")}
    html = get(site, f"/events/{E}/standings", round="1").text
    assert "第1回戦終了時点" in html and 'aria-current="page">第1回戦終了時点' in html


def test_standings_refuse_a_round_not_paired_and_a_word(site):
    assert "has paired 2 round(s), not 9" in get(site, f"/events/{E}/standings", 404, round="9").text
    assert get(site, f"/api/events/{E}/standings", 400, round="x").json()["error"] == "round: a round number, got 'x'"


def test_standings_page_in_english(site):
    html = get(site, f"/events/{E}/standings", lang="en").text
    assert '<html lang="en">' in html and "<h1>Standings — " in html and "Dropped after round 1" in html


# -- a round's pairings -----------------------------------------------------------------------------


def test_round_page_by_table_with_status_and_by_name(site):
    html = get(site, f"/events/{E}/rounds/2").text
    assert f"<h1>{EVENT} — 第2回戦 対戦表" in html
    for table, status in (("1", "終了"), ("2", "対戦中"), ("3", "裁定待ち"), ("4", "未開始")):
        start = html.index(f'<tr data-table="{table}">')
        assert status in html[start:html.index("</tr>", start)]
    assert '<tr data-bye="鈴木">' in html
    by_name = html[html.index('id="by-name"'):]
    order = [n for n in ("上田", "井上", "佐藤", "大野", "工藤", "木村", "江口", "鈴木", "青木")]
    assert [by_name.index(f'data-player="{n}"') for n in order] == sorted(by_name.index(f'data-player="{n}"') for n in order)
    assert f'href="/matches/{quote(EVENT + "-r2-t3")}"' in html


def test_round_json_has_the_pairing_and_the_desk_status(site):
    j = get(site, f"/api/events/{E}/rounds/2").json()
    assert j["byes"] == ["鈴木"] and j["tables"][0]["players"] == ["青木", "江口"]
    assert j["status"]["counts"] == {"not_started": 1, "in_progress": 1, "awaiting_ruling": 1, "finished": 1}
    assert j["status"]["not_reported"] == ["2", "3", "4"]
    assert j["status"]["dropped"] == [{"player": "加藤", "after_round": 1}]
    assert {r["player"]: r["table"] for r in j["by_name"]}["鈴木"] is None


def test_a_round_not_paired_is_404(site):
    assert "has no round 3" in get(site, f"/api/events/{E}/rounds/3", 404).json()["error"]
    get(site, f"/events/{E}/rounds/x", 404)
    get(site, "/events/nowhere/rounds/1", 404)


# -- a player ---------------------------------------------------------------------------------------


def test_player_page_record_deck_matches_penalties(site):
    html = get(site, f"/events/{E}/players/{quote('上田')}").text
    assert "<h1>上田 <small>— 春季大会</small></h1>" in html
    assert "上田のデッキ" in html and "甲虫" in html
    r1 = html[html.index('<tr data-round="1">'):]
    r1 = r1[:r1.index("</tr>")]
    assert "負け (0-1)" in r1 and "江口" in r1 and f'href="/matches/{quote(EVENT + "-r1-t2")}"' in r1
    assert '<b data-penalty="warning" title="warning">警告</b> — 遅刻 (5分遅刻)' in html and "主審" in html  # the penalty in Japanese
    assert f'href="/matches/{quote(EVENT + "-r1-t2")}?step=2"' in html  # the penalty's line


def test_player_json(site):
    j = get(site, f"/api/events/{E}/players/{quote('鈴木')}").json()
    assert j["player"] == "鈴木" and j["deck"] is None and j["penalties"] == []
    assert [(r["round"], r["outcome"], r["score"]) for r in j["rounds"]] == [(1, "loss", "0-1"), (2, "bye", None)]
    assert j["standing"]["record"] == "1-1-0"
    kato = get(site, f"/api/events/{E}/players/{quote('加藤')}").json()
    assert kato["dropped_after"] == 1 and [r["round"] for r in kato["rounds"]] == [1]
    ueda = get(site, f"/api/events/{E}/players/{quote('上田')}").json()
    assert [p["penalty"] for p in ueda["penalties"]] == ["warning"]
    assert ueda["rounds"][1]["outcome"] == "unfinished"


def test_a_player_not_registered_is_404(site):
    assert "'誰か' is not registered" in get(site, f"/api/events/{E}/players/{quote('誰か')}", 404).json()["error"]


def test_player_page_without_a_deck_in_english(site):
    html = get(site, f"/events/{E}/players/{quote('鈴木')}", lang="en").text
    assert "No deck registered" in html and "No penalties" in html and ">bye<" in html
    assert '<b data-penalty="warning" title="warning">warning</b>' in get(site, f"/events/{E}/players/{quote('上田')}",
                                                                          lang="en").text


# -- the desk and the match pages ----------------------------------------------------------------------


def test_desk_shows_the_round_and_links_the_pages(site):
    html = get(site, f"/events/{E}").text
    block = html[html.index('class="ev-desk"'):html.index("</section>", html.index('class="ev-desk"'))]
    assert "第2回戦/3" in block and "経過 " in block and "/ 50 分" in block
    assert 'data-status="awaiting_ruling">裁定待ち 1' in block and 'data-status="not_started">未開始 1' in block
    assert '<dd id="round-byes">鈴木</dd>' in block and "加藤 (第1回戦後)" in block
    reported = block[block.index('id="round-not-reported"'):]
    assert "卓 2" in reported and "卓 3" in reported and "卓 4" in reported and "卓 1 " not in reported
    assert f'href="/events/{E}/standings"' in block and f'href="/events/{E}/rounds/1"' in block
    assert f'href="/events/{E}/players/{quote("上田")}"' in block
    # the desk's standings are the event's own: the bye counts
    assert get(site, f"/api/events/{E}").json()["standings"][1]["player"] in ("鈴木", "江口")
    assert row_of(get(site, f"/api/events/{E}").json()["standings"], "鈴木")["record"] == "1-1-0"


def test_the_desk_fragment_keeps_the_round_block(site):
    assert 'class="ev-desk"' in get(site, f"/events/{E}", fragment="1").text


def test_a_match_page_links_to_its_event(site):
    html = get(site, f"/matches/{quote(EVENT + '-r2-t3')}").text
    assert f'href="/events/{E}/rounds/2">対戦表</a>' in html and f'href="/events/{E}/standings">順位</a>' in html


def test_an_event_without_a_stream_keeps_its_standings_and_has_no_round_pages(tmp_path):
    """An old store: matches naming an event in their headers only (tests/table/event.py)."""
    from recorder.store import Store
    from tests.table import event as old

    db = str(tmp_path / "kifu.db")
    store = Store(db)
    for header, lines in old.games():
        store.create(header, lines)
    store.close()
    server = LiveServer(db, None).start()
    try:
        e = quote(old.EVENT)
        html = get(server, f"/events/{e}/standings").text
        assert "大野" in html and "MW%" in html and "/players/" not in html
        assert get(server, f"/api/events/{e}/standings").json()["standings"][0]["player"] == "大野"
        after1 = get(server, f"/api/events/{e}/standings", round="1").json()
        points = {r["player"]: r["points"] for r in after1["standings"]}
        assert after1["round"] == 1 and (points["青木"], points["上田"], points["加藤"], points["工藤"]) == (3, 1, 0, 3)
        get(server, f"/events/{e}/rounds/1", 404)
        assert 'class="ev-desk"' not in get(server, f"/events/{e}").text
        assert "event-links" not in get(server, f"/matches/{quote('wc-r1-t1-g1')}").text
    finally:
        server.stop()


# -- in a browser, at a phone's width and a desktop's -------------------------------------------------

PAGES = {"desk": f"/events/{E}", "round": f"/events/{E}/rounds/2", "standings": f"/events/{E}/standings",
         "player": f"/events/{E}/players/{quote('上田')}"}


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("name", list(PAGES))
def test_event_pages_in_a_browser(site, browser, name, width):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale="ja-JP")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(site.url + PAGES[name])
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.locator("main h1").count() == 1
    levels = page.evaluate("[...document.querySelectorAll('main h1, main h2, main h3')].map(h => +h.tagName[1])")
    assert levels[0] == 1 and all(b - a <= 1 for a, b in pairwise(levels))  # no level skipped
    # nothing wider than the window but the tables' own scrolling boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for link in page.locator("main a").all()[:60]:
        assert (link.text_content() or "").strip() or link.get_attribute("aria-label")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(SHOTS) / f"event-{name}-{width}.png"), full_page=True)
    assert errors == []
    ctx.close()


@pytest.mark.browser
def test_the_player_link_on_the_pairings_page_opens_the_player(site, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(site.url + PAGES["round"] + "?lang=en")
    page.locator("#by-name").get_by_role("link", name="上田").click()
    page.wait_for_url("**/players/**")
    assert page.locator("h1").inner_text().startswith("上田")
    assert page.locator("#player-matches tbody tr").count() == 2
    page.close()


@pytest.mark.browser
@pytest.mark.parametrize(("width", "lang", "scheme"), [(390, "ja", "light"), (1280, "en", "dark")])
@pytest.mark.parametrize("name", [*PAGES, "sheet"])
def test_no_serious_axe_violation(site, browser, tmp_path, name, width, lang, scheme):
    """axe-core on each page (and the round sheet file), as tests/web's accessibility checks do.
    On the desk only the round block is this module's (the cards and the standings are the
    desk's own, checked with every page by tests/web)."""
    from axe_playwright_python.sync_playwright import Axe

    if name == "sheet":
        from recorder import roundsheet
        from recorder.store import Store

        store = Store(site.app.state.store.db)
        roundsheet.write(store, EVENT, 2, str(tmp_path / "sheet.html"), site.url, lang)
        url = (tmp_path / "sheet.html").as_uri()
    else:
        url = f"{site.url}{PAGES[name]}?lang={lang}"
    ctx = browser.new_context(viewport={"width": width, "height": 844})
    page = ctx.new_page()
    page.emulate_media(color_scheme=scheme)
    page.goto(url)
    page.evaluate("document.querySelectorAll('details').forEach(function (d) { d.open = true; })")
    results = Axe().run(page, context={"include": [[".ev-desk"]]} if name == "desk" else None, options={
        "resultTypes": ["violations"],
        "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}).response
    ctx.close()
    found = [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}" for v in results["violations"]
             if v["impact"] in ("serious", "critical")]
    assert not found, "\n".join(found)
