"""The top cut's bracket on its public page ``/events/E/bracket``, its JSON
``/api/events/E/bracket`` and the desk, over a real server; in chromium at 390 and 1280 wide,
Japanese and English, axe-core clean. The event: four players, one Swiss round, a top 4 best of
three: the semifinals played (seed 1 2-0, seed 3 2-1), the final paired and not started."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from tests.web.conftest import SHOTS, LiveServer

E = "決勝大会"
PLAYERS = ["青木", "井上", "上田", "江口"]


def build(db: str) -> list[str]:
    """The event of the module docstring; returns the seeds in order."""
    from projections import tournament_rows
    from recorder import service, topcut, tournament_service
    from recorder.store import Store

    store = Store(db)
    try:
        tournament_service.open_event(store, E, "mushijingi", 1, seed=3)
        for p in PLAYERS:
            tournament_service.register(store, E, p)
        line = tournament_service.pair(store, E, tournament_rows.event_games(store, E))
        for t in line["tables"]:
            service.record(store, t["match"], {"type": "concede", "by": "B"})
        tournament_service.close(store, E)
        cut = topcut.cut(store, E, 4, tournament_rows.event_games(store, E))
        t1, t2 = cut["tables"]
        for g in (1, 2):  # seed 1 beats seed 4 2-0
            service.record(store, f"{E}-r2-t1-g{g}", {"type": "concede", "by": "B"})
        for g, loser in ((1, "A"), (2, "B"), (3, "A")):  # seed 3 beats seed 2 2-1
            service.record(store, f"{E}-r2-t2-g{g}", {"type": "concede", "by": loser})
        tournament_service.close(store, E)
        tournament_service.pair(store, E, tournament_rows.event_games(store, E))
        return list(cut["seeds"])
    finally:
        store.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bracket-pages")
    db = str(folder / "kifu.db")
    seeds = build(db)
    server = LiveServer(db, None).start()
    server.seeds = seeds
    yield server
    server.stop()


def get(site, path: str, **params) -> httpx.Response:
    r = httpx.get(f"{site.url}{path}", params=params, timeout=20)
    assert r.status_code == 200, (path, r.status_code, r.text[:300])
    return r


def test_the_bracket_page_json_and_desk(site):
    s = site.seeds
    data = get(site, f"/api/events/{quote(E)}/bracket").json()
    assert data["top"] == 4 and data["format"] == "bo3" and data["champion"] is None
    assert [r["stage"] for r in data["rounds"]] == ["semifinal", "final"]
    semis = data["rounds"][0]["matches"]
    assert [[(p["seed"], p["name"], p["wins"]) for p in m["players"]] for m in semis] == [
        [(1, s[0], 2), (4, s[3], 0)], [(2, s[1], 1), (3, s[2], 2)]]
    assert [m["winner"] for m in semis] == [s[0], s[2]] and semis[1]["chooses_first"] == s[1]
    final = data["rounds"][1]["matches"][0]
    assert [p["name"] for p in final["players"]] == [s[0], s[2]] and final["winner"] is None
    ja = get(site, f"/events/{quote(E)}/bracket").text
    assert "決勝トーナメント" in ja and "準決勝" in ja and "決勝" in ja and "先攻・後攻を選択" in ja
    assert f'data-player="{s[2]}"' in ja and "トップ4" in ja
    en = get(site, f"/events/{quote(E)}/bracket", lang="en").text
    assert "Semifinal" in en and "Final" in en and "Top 4" in en and "best of three" in en
    desk = get(site, f"/events/{quote(E)}").text
    assert 'id="bracket"' in desk and f"/events/{quote(E)}/bracket" in desk
    standings = get(site, f"/api/events/{quote(E)}/standings").json()["standings"]
    assert [(r["place"], r["player"]) for r in standings] == [(1, s[0]), (2, s[2]), (3, s[1]), (4, s[3])]
    page = get(site, f"/events/{quote(E)}/standings").text
    assert "最終順位" in page and 'data-place="1"' in page


PAGES = {"bracket": f"/events/{quote(E)}/bracket", "desk": f"/events/{quote(E)}"}


@pytest.mark.browser
@pytest.mark.parametrize(("width", "lang"), [(390, "ja"), (1280, "en"), (390, "en"), (1280, "ja")])
@pytest.mark.parametrize("name", list(PAGES))
def test_the_bracket_in_a_browser_is_axe_clean(site, browser, name, width, lang):
    from axe_playwright_python.sync_playwright import Axe

    ctx = browser.new_context(viewport={"width": width, "height": 844})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{site.url}{PAGES[name]}?lang={lang}")
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.locator("#bracket [data-round]").count() == 2
    if name == "bracket":
        levels = page.evaluate("[...document.querySelectorAll('main h1, main h2, main h3')].map(h => +h.tagName[1])")
        assert levels[0] == 1 and all(b - a <= 1 for a, b in pairwise(levels))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    results = Axe().run(page, context={"include": [["#bracket"]]} if name == "desk" else None, options={
        "resultTypes": ["violations"],
        "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}).response
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(SHOTS) / f"bracket-{name}-{width}-{lang}.png"), full_page=True)
    ctx.close()
    found = [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}" for v in results["violations"]
             if v["impact"] in ("serious", "critical")]
    assert not found, "\n".join(found)
    assert errors == []
