"""``kifu event publish E -o DIR`` (issue 34 item 1): the event as a static site. The sites of two
small events (tests/table/publish_event.py: a Swiss of two rounds, and one with a top 4 played to
its champion), written by the command, read as files, served by a plain static server (``python -m
http.server``) and opened from ``file://`` in chromium with every request to any other origin
blocked; the cut's conversion on the metagame page and in ``kifu stats --meta``."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections import deque
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from tests.table import publish_event as P
from tests.table.publish_event import DECKS, EVENT, build, one_more

ROOT = Path(__file__).resolve().parents[2]


def kifu(*args: str, db: str, ok: bool = True, lang: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIFU_DB": db, "COLUMNS": "200", **({"KIFU_LANG": lang} if lang else {})}
    env.pop("KIFU_TOKEN", None)
    out = subprocess.run([sys.executable, "-m", "recorder.cli", *args], capture_output=True, text=True, env=env,
                         timeout=300)
    if ok:
        assert out.returncode == 0, out.stderr
    return out


def counts(out: subprocess.CompletedProcess[str]) -> tuple[int, int]:
    m = re.search(r"(\d+) written, (\d+) unchanged", out.stdout)
    assert m, out.stdout
    return int(m[1]), int(m[2])


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The event with every match played, published once: (db, DIR)."""
    folder = tmp_path_factory.mktemp("publish")
    db = str(folder / "kifu.db")
    build(db, folder)
    one_more(db)
    kifu("event", "publish", EVENT, "-o", str(folder / "site"), db=db)
    return db, folder / "site"


@pytest.fixture(scope="module")
def cut_site(tmp_path_factory):
    """The event with a top 4 played to its champion, published once: (db, DIR)."""
    folder = tmp_path_factory.mktemp("publish-cut")
    db = str(folder / "kifu.db")
    P.build_cut(db, folder)
    kifu("event", "publish", P.CUT_EVENT, "-o", str(folder / "site"), db=db)
    return db, folder / "site"


# each kind of event: its name, a replay to step through (match id, its last step), and whether it has a bracket
EVENTS = {"swiss": (EVENT, f"{EVENT}-r1-t2", 3, False), "cut": (P.CUT_EVENT, f"{P.CUT_EVENT}-r4-t1-g3", 2, True)}


@pytest.fixture(scope="module", params=sorted(EVENTS))
def each_site(request):
    """Each event's site: (db, DIR, event name, the replay to step, its last step, has a bracket)."""
    db, root = request.getfixturevalue("site" if request.param == "swiss" else "cut_site")
    return (db, root, *EVENTS[request.param])


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for k, v in attrs:
            if k in ("href", "src", "action") and v is not None:
                self.links.append(v)


def links_of(path: Path) -> list[str]:
    p = Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p.links


# -- the files ----------------------------------------------------------------------------------


def test_every_page_in_japanese_and_english_and_every_link_relative_inside_the_site(each_site):
    _db, root, event, _replay, _last, has_bracket = each_site
    pages = sorted(root.rglob("*.html"))
    ja = {p.name for p in pages if p.parent == root}
    en = {p.name for p in pages if p.parent == root / "en"}
    assert ja == en and {"index.html", "standings.html", "round-1.html", "round-2.html", "metagame.html",
                         "cards.html"} <= ja
    assert ("bracket.html" in ja) == has_bracket
    decks, matches = (DECKS, 4) if event == EVENT else (P.CUT_DECKS, 6 + 4 + 3)  # the cut: 2 semifinals of 2, a final of 3
    assert len([n for n in ja if n.startswith("player-")]) == len(decks)
    assert len([n for n in ja if n.startswith("match-")]) == matches
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert re.search(r"<html lang=\"(ja|en)\"", html)
        assert ('lang="en"' in html[:200]) == (page.parent.name == "en")
        assert "http://" not in html and "https://" not in html, page
        for link in links_of(page):
            if link.startswith(("data:", "#")):
                continue
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc and not link.startswith("/"), (page, link)
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_file() and root.resolve() in target.parents, (page, link)


def test_the_index_names_the_event_the_game_the_format_and_the_winner(site):
    _db, root = site
    html = (root / "en" / "index.html").read_text(encoding="utf-8")
    assert f"<h1>{EVENT}</h1>" in html
    assert "Swiss, 2 rounds, best of 1" in html
    winner = re.search(r"<dt>Winner</dt><dd><a href=\"([^\"]+)\">([^<]+)</a>", html)
    assert winner and winner[2] == "青木"
    assert "<h1>青木</h1>" in (root / "en" / winner[1]).read_text(encoding="utf-8")
    assert "優勝" in (root / "index.html").read_text(encoding="utf-8")


def test_the_standings_are_those_of_kifu_standings(each_site):
    db, root, event, *_ = each_site
    cli = json.loads(kifu("standings", event, "--json", db=db).stdout)
    assert json.loads((root / "standings.json").read_text(encoding="utf-8")) == cli
    for folder in (root, root / "en"):
        html = (folder / "standings.html").read_text(encoding="utf-8")
        rows = re.findall(r'<tr data-player="([^"]+)" data-points="(\d+)" data-rank="(\d+)">', html)
        assert rows == [(s["player"], str(s["points"]), str(s["rank"])) for s in cli["standings"]]
        for s in cli["standings"]:
            assert f'<td class="num">{s["omw"]:.2f}</td>' in html


def test_a_player_page_has_the_record_the_matches_the_list_and_the_penalty(site):
    _db, root = site
    from exports.site import slug
    html = (root / "en" / slug("player", "上田")).read_text(encoding="utf-8")
    assert "緑カブト組" in html and "ヘラクレスオオカブト" in html
    assert "遅刻" in html and "5分遅刻" in html
    assert html.count('href="match-') >= 2  # both rounds' replays
    assert 'href="player-' in html  # the opponents


def test_a_round_page_has_every_table_its_result_and_its_replay(site):
    _db, root = site
    html = (root / "en" / "round-1.html").read_text(encoding="utf-8")
    assert html.count("<tr><td class=\"num\">") == 2
    assert "win: 青木" in html and "win: 江口" in html


def test_the_metagame_and_the_cards_are_those_of_kifu_stats(site):
    db, root = site
    meta = json.loads(kifu("stats", "--meta", "--event", EVENT, "--json", db=db).stdout)
    html = (root / "en" / "metagame.html").read_text(encoding="utf-8")
    for a in meta["games"][0]["archetypes"]:
        assert a["name"] in html
    cards = json.loads(kifu("stats", "--cards", "--event", EVENT, "--json", db=db).stdout)
    page = (root / "en" / "cards.html").read_text(encoding="utf-8")
    for c in cards["games"][0]["cards"]:
        assert c["card"] in page


def test_the_bracket_page_has_the_seeds_every_playoff_match_and_the_champion(cut_site):
    db, root = cut_site
    from exports.site import slug
    view = json.loads(kifu("event", "bracket", P.CUT_EVENT, "--json", db=db).stdout)
    assert view["champion"] == P.CHAMPION and [s["player"] for s in view["seeds"]] == P.CUT_SEEDS
    for folder, champion, stages in ((root / "en", "Champion", ("Semifinal", "Final")), (root, "優勝", ("準決勝", "決勝"))):
        html = (folder / "bracket.html").read_text(encoding="utf-8")
        assert re.search(rf"{champion}: <b>{P.CHAMPION}</b>", html) and all(s in html for s in stages)
        # each playoff match: its players (seed, a link to their page, games won), its winner in bold
        shown = re.findall(r'<span class="ev-bracket-player( won)?" data-player="([^"]+)"><span class="ev-seed"[^>]*>(\d+)'
                           r'</span> <a href="([^"]+)">[^<]+</a> <span class="ev-wins">(\d+)</span>', html)
        expect = [(m["winner"] == p["name"], p["name"], str(p["seed"]), slug("player", p["name"]), str(p["wins"]))
                  for r in view["rounds"] for m in r["matches"] for p in m["players"]]
        assert [(bool(w), n, sd, h, wins) for w, n, sd, h, wins in shown] == expect
        assert [(n, w) for _w, n, _s, _h, w in shown] == [("青木", "0"), ("大野", "2"), ("上田", "2"), ("井上", "0"),
                                                         ("上田", "2"), ("大野", "1")]
        # each playoff match links the replays of the games played at its table, and no other
        games = re.findall(r'<span class="ev-bracket-games">(.*?)</span>', html)
        assert [re.findall(r'href="([^"]+)"', g) for g in games] == [
            [slug("match", f"{P.CUT_EVENT}-r{r}-t{t}-g{g}") for g in range(1, n + 1)] for r, t, n in ((3, 1, 2), (3, 2, 2), (4, 1, 3))]
    index = (root / "en" / "index.html").read_text(encoding="utf-8")
    assert re.search(rf'<dt>Winner</dt><dd><a href="{slug("player", P.CHAMPION)}">{P.CHAMPION}</a>', index)
    assert 'href="bracket.html"' in index
    # the playoff rounds' pages link every game played at a table
    final = (root / "en" / "round-4.html").read_text(encoding="utf-8")
    assert all(f'href="{slug("match", f"{P.CUT_EVENT}-r4-t1-g{g}")}"' in final for g in (1, 2, 3))


def conversion_rows(html: str) -> list[tuple[str, str, str, str, str, str]]:
    table = html[html.index('<table class="conversion">'):]
    table = table[:table.index("</table>")]
    return re.findall(r'<tr><th class="row" scope="row">([^<]+)</th><td>(\d+)</td><td>(\d+)</td><td>([^<]+)</td>'
                      r'<td>([^<]+)</td><td>([^<]+)</td></tr>', table)


def test_conversion_into_the_cut_counted_by_hand_in_every_form_of_kifu_stats_and_on_the_site(cut_site, tmp_path):
    """An archetype's entries in the Swiss, how many of them made the top 4, the rate: the
    counts of tests/table/publish_event.py made by hand (CONVERSION), the playoff matches not
    counted as entries again."""
    from exports.stats_render import ci, pct
    from projections import stats
    db, root = cut_site
    meta = json.loads(kifu("stats", "--meta", "--event", P.CUT_EVENT, "--json", db=db).stdout)
    conv = meta["games"][0]["conversion"]
    assert (conv["by"], conv["players"], conv["cut"]) == ("archetype", len(P.CUT_DECKS), len(P.CUT_SEEDS))
    assert {g["name"]: (g["players"], g["cut"]) for g in conv["groups"]} == P.CONVERSION
    for g in conv["groups"]:
        n, k = P.CONVERSION[g["name"]]
        low, high = stats.wilson(k, n)
        assert (g["rate"], g["low"], g["high"], g["cut_share"]) == (
            round(k / n, 4), round(low, 4), round(high, 4), round(k / len(P.CUT_SEEDS), 4))
    assert [g["name"] for g in conv["groups"]] == ["緑", "紫", "赤"]  # most in the cut first, then most entries
    expect = [(g["name"], str(g["players"]), str(g["cut"]), pct(g["rate"]), ci(g), pct(g["cut_share"]))
              for g in conv["groups"]]
    # the site's metagame page, both languages; the same table in kifu stats --meta --html
    for page in (root / "metagame.html", root / "en" / "metagame.html"):
        assert conversion_rows(page.read_text(encoding="utf-8")) == expect
    html = tmp_path / "meta.html"
    kifu("stats", "--meta", "--event", P.CUT_EVENT, "--html", str(html), db=db)
    assert conversion_rows(html.read_text(encoding="utf-8")) == expect
    # CSV: one row per archetype of the conversion
    rows = [r for r in csv.DictReader(io.StringIO(kifu("stats", "--meta", "--event", P.CUT_EVENT, "--csv", db=db).stdout))
            if r["section"] == "conversion"]
    assert [(r["name"], int(r["players"]), int(r["cut"]), float(r["conversion"]), float(r["cut_share"])) for r in rows] == [
        (g["name"], g["players"], g["cut"], g["rate"], g["cut_share"]) for g in conv["groups"]]
    # the terminal: the same rows in its table (English with KIFU_LANG=en)
    text = kifu("stats", "--meta", "--event", P.CUT_EVENT, db=db, lang="en").stdout
    assert "Conversion into the top cut" in text
    after = text[text.index("Conversion into the top cut"):]
    for name, players, made, rate, interval, share in expect:
        assert re.search(rf"{name}\s*│\s*{players}\s*│\s*{made}\s*│\s*{rate}\s*│\s*{interval}\s*│\s*{share}", after), after
    # by deck: the same players under their decks
    by_deck = json.loads(kifu("stats", "--meta", "--event", P.CUT_EVENT, "--by", "deck", "--json", db=db).stdout)
    assert {g["name"]: (g["players"], g["cut"]) for g in by_deck["games"][0]["conversion"]["groups"]} == {
        "緑カブト組": (3, 2), "紫タガメ組": (2, 1), "赤カブト組": (1, 1)}


def test_no_conversion_without_a_cut_or_without_an_event(site, cut_site):
    db, root = site
    meta = json.loads(kifu("stats", "--meta", "--event", EVENT, "--json", db=db).stdout)
    assert "conversion" not in meta["games"][0]
    assert '<table class="conversion">' not in (root / "en" / "metagame.html").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(kifu("stats", "--meta", "--event", EVENT, "--csv", db=db).stdout)))
    assert rows and not [r for r in rows if r["section"] == "conversion"]
    db, _root = cut_site
    season = json.loads(kifu("stats", "--meta", "--json", db=db).stdout)  # a season's metagame: no one event's cut
    assert all("conversion" not in g for g in season["games"])


def test_a_second_publish_with_nothing_new_writes_nothing(site, tmp_path):
    db, root = site
    copy = tmp_path / "site"
    shutil.copytree(root, copy)
    before = snapshot(copy)
    written, unchanged = counts(kifu("event", "publish", EVENT, "-o", str(copy), db=db))
    assert (written, unchanged) == (0, len(before))
    assert snapshot(copy) == before  # not one file touched


def test_one_new_result_writes_only_what_changed(tmp_path):
    db = str(tmp_path / "kifu.db")
    build(db, tmp_path)
    out = tmp_path / "site"
    first, _ = counts(kifu("event", "publish", EVENT, "-o", str(out), db=db))
    before = snapshot(out)
    assert first == len(before)
    one_more(db)
    written, unchanged = counts(kifu("event", "publish", EVENT, "-o", str(out), db=db))
    after = snapshot(out)
    changed = {k for k in after if k not in before or after[k][0] != before[k][0]}
    touched = {k for k in after if k not in before or after[k][1] != before[k][1]}
    assert touched == changed and written == len(changed) and unchanged == len(after) - len(changed)
    assert 0 < written < len(after)
    from exports.site import slug
    assert slug("match", f"{EVENT}-r2-t2") in changed and "standings.json" in changed
    assert slug("match", f"{EVENT}-r1-t1") not in changed
    # what was kept (an unchanged replay is not rendered again) is what a publish from nothing writes
    fresh = tmp_path / "fresh"
    kifu("event", "publish", EVENT, "-o", str(fresh), db=db)
    assert {k: v[0] for k, v in snapshot(fresh).items()} == {k: v[0] for k, v in after.items()}


def test_an_event_that_does_not_exist_and_a_file_for_a_folder_are_one_line(tmp_path):
    db = str(tmp_path / "kifu.db")
    build(db, tmp_path)
    out = kifu("event", "publish", "無い大会", "-o", str(tmp_path / "s"), db=db, ok=False)
    assert out.returncode != 0 and "無い大会" in out.stderr and "Traceback" not in out.stderr
    (tmp_path / "f").write_text("x")
    out = kifu("event", "publish", EVENT, "-o", str(tmp_path / "f"), db=db, ok=False)
    assert out.returncode != 0 and len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    assert not (tmp_path / "s").exists()


# -- in a browser: served by a plain static server, and from file:// ------------------------------


@pytest.fixture(scope="module")
def served(each_site):
    """``each_site`` served by a plain static server: its base URL."""
    root = each_site[1]
    proc = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(root)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # "Serving HTTP on 127.0.0.1 port N (http://127.0.0.1:N/) ..."
        m = re.search(r"port (\d+)", line)
        assert m, line
        yield f"http://127.0.0.1:{m[1]}/"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def guarded(browser, base: str, **kw):
    """A page whose requests outside ``base`` are blocked and recorded, with failed requests
    and console errors recorded too."""
    ctx = browser.new_context(**kw)
    page = ctx.new_page()
    left: list[str] = []
    failed: list[str] = []
    errors: list[str] = []

    def route(r):
        if r.request.url.startswith(base) or r.request.url.startswith("data:"):
            r.continue_()
        else:
            left.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return ctx, page, left, failed, errors


def crawl(browser, base: str, start: str) -> set[str]:
    ctx, page, left, failed, errors = guarded(browser, base, viewport={"width": 1280, "height": 800})
    seen: set[str] = set()
    todo = deque([start])
    while todo:
        url = todo.popleft()
        if url in seen:
            continue
        seen.add(url)
        page.goto(url)
        assert page.locator("main h1").count() == 1, url
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))"):
            if href.startswith(("#", "data:")):
                continue
            target = urljoin(url, href).split("#")[0]
            assert target.startswith(base), (url, href)
            if target.endswith(".html"):
                todo.append(target)
            elif target.startswith("file:"):  # standings.json: it must be there too
                assert Path(unquote(urlsplit(target).path)).is_file(), (url, href)
            else:
                assert page.request.get(target).ok, (url, href)
    ctx.close()
    assert left == [] and failed == [] and errors == []
    return seen


@pytest.mark.browser
def test_a_crawl_from_the_static_server_reaches_every_page_and_nothing_leaves(each_site, served, browser):
    root = each_site[1]
    seen = crawl(browser, served, served + "index.html")
    assert {urlsplit(u).path.lstrip("/") for u in seen} == {str(p.relative_to(root)) for p in root.rglob("*.html")}


@pytest.mark.browser
def test_a_crawl_from_file_reaches_every_page_and_nothing_leaves(each_site, browser):
    root = each_site[1]
    base = root.as_uri() + "/"
    seen = crawl(browser, base, base + "index.html")
    assert {unquote(urlsplit(u).path) for u in seen} == {p.as_posix() for p in root.rglob("*.html")}


@pytest.mark.browser
@pytest.mark.parametrize("where", ["http", "file"])
def test_a_replay_steps_by_keyboard_and_opens_at_a_permalinked_step(each_site, served, browser, where):
    _db, root, _event, replay, last, _bracket = each_site
    from exports.site import slug
    base = served if where == "http" else root.as_uri() + "/"
    ctx, page, left, failed, errors = guarded(browser, base, viewport={"width": 390, "height": 844})
    page.goto(base + "en/" + slug("match", replay))
    assert page.evaluate("document.body.getAttribute('data-step') || '0'") == "0"
    page.locator("#board").focus()
    page.keyboard.press("Shift+ArrowRight")
    page.wait_for_function("document.body.getAttribute('data-step') === '1'")
    page.keyboard.press("End")
    page.wait_for_function(f"document.body.getAttribute('data-step') === '{last}'")
    assert page.evaluate("location.hash") == f"#step-{last}"
    page.goto(base + slug("match", replay) + f"#step-{last - 1}")
    page.wait_for_function(f"document.body.getAttribute('data-step') === '{last - 1}'")
    assert page.locator("#slider").input_value() == str(last - 1)
    ctx.close()
    assert left == [] and failed == [] and errors == []


KINDS = {"index": "index.html", "standings": "standings.html", "round": "round-1.html", "metagame": "metagame.html",
         "cards": "cards.html", "player": None, "match": None}


@pytest.mark.browser
@pytest.mark.parametrize(("width", "lang"), [(390, "ja"), (1280, "ja"), (390, "en"), (1280, "en")])
def test_no_serious_axe_violation_on_each_kind_of_page(each_site, served, browser, width, lang):
    from axe_playwright_python.sync_playwright import Axe

    from exports.site import slug
    _db, _root, _event, replay, _last, has_bracket = each_site
    names = {**KINDS, "player": slug("player", "上田"), "match": slug("match", replay),
             **({"bracket": "bracket.html", "playoff round": "round-3.html"} if has_bracket else {})}
    ctx, page, left, failed, errors = guarded(browser, served, viewport={"width": width, "height": 844})
    found = []
    for kind, name in names.items():
        page.goto(served + ("en/" if lang == "en" else "") + str(name))
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.evaluate("document.documentElement.scrollWidth") <= width, kind
        results = Axe().run(page, options={"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": [
            "wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}).response
        found += [f"{kind}: {v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
                  for v in results["violations"] if v["impact"] in ("serious", "critical")]
    ctx.close()
    assert not found, "\n".join(found)
    assert left == [] and failed == [] and errors == []


def test_a_closed_unpublished_list_is_in_no_file_of_the_site(tmp_path):
    """Lists kept closed and never published: not one of their cards in any file of the site
    (card names that are not also player, deck or archetype names); published, they are shown."""
    db = str(tmp_path / "kifu.db")
    build(db, tmp_path, lists="closed")
    one_more(db)
    out = tmp_path / "site"
    kifu("event", "publish", EVENT, "-o", str(out), db=db)
    names = [*DECKS, *(d for d, _a, _c in DECKS.values()), *(a for _d, a, _c in DECKS.values())]
    cards = {c for _deck, _arch, cs in DECKS.values() for c in cs if not any(c in n for n in names)}
    assert cards
    files = [p for p in out.rglob("*") if p.is_file()]
    assert len(files) > 20
    for p in files:
        text = p.read_text(encoding="utf-8")
        leaked = sorted(c for c in cards if c in text)
        assert not leaked, (p.name, leaked)
    assert not (out / "cards.html").exists()
    from exports.site import slug
    kifu("event", "publish-lists", EVENT, db=db)
    kifu("event", "publish", EVENT, "-o", str(out), db=db)
    assert "ヘラクレスオオカブト" in (out / "en" / slug("player", "上田")).read_text(encoding="utf-8")
    assert (out / "cards.html").exists()
