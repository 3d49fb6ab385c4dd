"""Closed deck lists (issue 32, item 4): until ``kifu event publish-lists``, no route of the
server, no export and no error message shows a card of a closed list to a reader without an
admin or judge token; the public sees the deck's name and archetype. After publishing,
everyone sees the cards. Events recorded before lists existed stay open.

The leak test reads EVERY route of the app (enumerated from Starlette's routing table, so a
route added later is read too) for every match, round and player of a Gandice event, and
searches each body for every card of the closed lists that was never played (cards seen on
the board are public: the table saw them; the list is the secret).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from starlette.routing import Route

from tests.table.event_site import csv_file
from tests.web.conftest import LiveServer

EVENT = "秘密の大会"
ADMIN = "adm1n-s3cret-token"
DECKS = {
    "青木": {"name": "イスルギデッキ", "archetype": "イスルギ",
             "cards": ["紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ", "武具・羅", "呪術・笑童児"],
             "evolution": ["紅蓮のイスルギ・進化", "イスルギ・進化"], "kofuda": ["イスルギ", "紅蓮のイスルギ"],
             "dice": [{"name": "紅蓮のイスルギ・進化", "kin": "イスルギ", "kind": "character", "evolution": True},
                      {"name": "イスルギ・進化", "kin": "イスルギ", "kind": "character", "evolution": True}]},
    "井上": {"name": "超眼デッキ", "archetype": "超眼", "cards": ["武王", "鰐蛇", "雷爪", "武具・羅", "呪術・笑童児"],
             "kofuda": ["武王", "鰐蛇", "雷爪"]},
    "上田": {"name": "闇ダイスデッキ", "archetype": "闇", "cards": ["ギダン", "爪牙", "美雅羅", "武具・羅", "武具・羅#2"],
             "evolution": ["ギダン・進化"], "kofuda": ["ギダン"],
             "dice": [{"name": "ギダン・進化", "kin": "闇", "kind": "character", "evolution": True}]},
    "江口": {"name": "核デッキ", "archetype": "心眼", "cards": ["獣幽士", "闘奇子", "機改人", "凶鎌手", "呪術・笑童児"]},
}
ROUND1 = [("1", "青木", "井上"), ("2", "上田", "江口")]
PLAYED = [  # (match, line): 青木 and 上田 summon; 井上 and 江口 never play a die
    (f"{EVENT}-r1-t1", {"type": "summon", "by": "A", "rolls": {"紅蓮のイスルギ": "special", "青嵐のイスルギ": "special",
                                                              "イスルギ": "side"}}),
    (f"{EVENT}-r1-t2", {"type": "summon", "by": "A", "rolls": {"ギダン": "normal", "爪牙": "side", "美雅羅": "special"}}),
]
QUERIES = ["", "?view=recorded&lang=en&step=1", "?format=csv&fragment=1&after=0&lang=ja",
           f"?event={quote(EVENT)}&step=99&turn=1", "?step=0&spoilers=show"]


def _names(deck: dict[str, Any]) -> set[str]:
    out = {*deck.get("cards", []), *deck.get("evolution", []), *deck.get("kofuda", [])}
    return out | {d["name"] for d in deck.get("dice", [])}


def secrets() -> set[str]:
    """The cards of the lists that no public text holds: never played, and not part of a deck
    name, an archetype, a player's or the event's name."""
    played = json.dumps([line for _, line in PLAYED], ensure_ascii=False)
    public = [EVENT, *DECKS, *(d["name"] for d in DECKS.values()), *(d["archetype"] for d in DECKS.values())]
    cards = set().union(*(_names(d) for d in DECKS.values()))
    return {c for c in cards if c not in played and not any(c in p for p in public)}


def build(db: str, folder: Path, lists: str | None = "closed") -> Any:
    from recorder import service, tournament_service, tokens
    from recorder.store import Store

    store = Store(db)
    kwargs = {} if lists is None else {"lists": lists}
    tournament_service.open_event(store, EVENT, "gandice", 2, seed=3, **kwargs)
    for name, deck in DECKS.items():
        tournament_service.register(store, EVENT, name, deck)
    tournament_service.import_pairing(store, EVENT, csv_file(folder, "r1.csv", [t for t in ROUND1]))
    for mid, line in PLAYED:
        service.record(store, mid, line)
    isurugi = {"name": "基準", "cards": ["紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ"]}
    store.create({"kifu": 1, "game": "gandice", "match": {"id": "baseline"}, "first": "A",
                  "players": [{"id": "A", "name": "甲", "deck": isurugi}, {"id": "B", "name": "乙", "deck": isurugi}]}, [])
    judge, _ = tokens.issue(store, "judge", event=EVENT)
    other_judge, _ = tokens.issue(store, "judge", event="ほかの大会")
    keeper, _ = tokens.issue(store, "scorekeeper", event=EVENT, table="1")
    return store, {"judge": judge, "other_judge": other_judge, "keeper": keeper}


def urls(app: Any) -> tuple[list[tuple[str, str, str]], set[str]]:
    """(route path, method, URL) of every route of the app for this event's matches, rounds
    and players, each with every query of QUERIES; and the set of route paths."""
    matches = [f"{EVENT}-r1-t{t}" for t, _, _ in ROUND1]
    fill = {"id": matches, "event": [EVENT], "n": ["1", "7"], "name": ["青木", "井上", "上田", "江口", "だれか"]}
    out: list[tuple[str, str, str]] = []
    paths: set[str] = set()
    for route in app.routes:
        assert isinstance(route, Route), f"a route of another kind: {route!r} (read it here too)"
        paths.add(route.path)
        names = re.findall(r"{(\w+)(?::\w+)?}", route.path)
        assert set(names) <= set(fill), f"{route.path}: no value for {set(names) - set(fill)}"
        concrete = [route.path]
        for n in names:
            concrete = [re.sub(r"{" + n + r"(?::\w+)?}", quote(v, safe=""), c, count=1) for c in concrete for v in fill[n]]
        method = "GET" if "GET" in (route.methods or {"GET"}) else sorted(route.methods or ())[0]
        for c in concrete:
            for q in QUERIES:
                out.append((route.path, method, c + q))
    return out, paths


def read(client: httpx.Client, method: str, url: str) -> tuple[int, str]:
    """(status, body) of one request; a stream is read up to its ``ready`` event."""
    if method == "POST":  # a move naming a die of the closed list, by a misspelling (a name error's hints)
        body = json.dumps({"type": "summon", "by": "B", "rolls": {"武": "normal"}}, ensure_ascii=False).encode()
        resp = client.post(url, content=body, headers={"Content-Type": "application/json"})
        return resp.status_code, resp.text
    if url.split("?")[0].endswith("/stream"):
        got = b""
        with client.stream("GET", url) as resp:
            if resp.status_code != 200:
                return resp.status_code, resp.read().decode("utf-8", "replace")
            for chunk in resp.iter_bytes():
                got += chunk
                if b"event: ready" in got:
                    break
        return 200, got.decode("utf-8", "replace")
    resp = client.get(url, follow_redirects=True)
    return resp.status_code, resp.text


def leaks(client: httpx.Client, pairs: list[tuple[str, str, str]], cards: set[str],
          answered: set[str] | None = None) -> dict[str, list[str]]:
    """The URLs whose bodies hold a card of ``cards``; ``answered`` collects the routes that
    answered 200 at least once."""
    found: dict[str, list[str]] = {}
    for path, method, url in pairs:
        status, body = read(client, method, url)
        assert status < 500, f"{url}: {status} {body[:300]}"  # a page that failed would hide nothing
        if status == 200 and answered is not None:
            answered.add(path)
        hit = sorted(c for c in cards if c in body)
        if hit:
            found[url] = hit
    return found


@pytest.fixture
def closed_site(tmp_path, monkeypatch):
    monkeypatch.delenv("KIFU_TOKEN", raising=False)
    db = str(tmp_path / "kifu.db")
    store, toks = build(db, tmp_path)
    store.close()
    server = LiveServer(db, ADMIN).start()
    yield server, toks, db
    server.stop()


def test_the_secret_cards_are_real_and_seen_by_the_trusted(closed_site):
    server, toks, _ = closed_site
    cards = secrets()
    # the test bites: each player who never played has secret cards, items and kofuda included
    assert {"武王", "鰐蛇", "雷爪", "獣幽士", "凶鎌手", "武具・羅", "呪術・笑童児", "ギダン・進化"} <= cards
    for token in (ADMIN, toks["judge"]):
        with server.client(token) as c:
            header = c.get(f"/api/matches/{quote(EVENT)}-r1-t1").json()["header"]
            assert header["players"][1]["deck"]["cards"] == DECKS["井上"]["cards"]
            assert "武王" in c.get(f"/events/{quote(EVENT)}/players/{quote('井上')}").text
            assert "雷爪" in c.get(f"/api/matches/{quote(EVENT)}-r1-t1/board").text
            assert "鰐蛇" in c.get(f"/api/matches/{quote(EVENT)}-r1-t1/log").text


def test_no_route_shows_a_closed_card_to_the_anonymous_reader(closed_site):
    server, toks, _ = closed_site
    pairs, paths = urls(server.app)
    visited = {p for p, _, _ in pairs}
    assert visited == paths and len(paths) >= 25  # every route of the app, none missed
    cards = secrets()
    answered: set[str] = set()
    with server.client() as anon:
        assert leaks(anon, pairs, cards, answered) == {}
        # every route was read with an answer (the anonymous POST alone is refused: 401)
        # (every write route: each is a POST only, refused without a token)
        posts = {r.path for r in server.app.routes if getattr(r, "methods", None) and "GET" not in r.methods}
        assert "/api/matches/{id}/events" in posts
        # and a player's own data, which needs that player's token (401 without)
        assert paths - answered == posts | {"/api/events/{event}/me"}
        # the public sees the deck's name and archetype
        p = anon.get(f"/api/events/{quote(EVENT)}/players/{quote('井上')}").json()
        assert p["deck"] == {"name": "超眼デッキ", "archetype": "超眼"}
        header = anon.get(f"/api/matches/{quote(EVENT)}-r1-t1").json()["header"]
        assert [pl["deck"] for pl in header["players"]] == [{"name": "イスルギデッキ", "archetype": "イスルギ"},
                                                             {"name": "超眼デッキ", "archetype": "超眼"}]
        # what was played stays on the board: 青木's summoned dice
        board = anon.get(f"/api/matches/{quote(EVENT)}-r1-t1/board").json()
        assert {d["name"] for d in board["players"]["A"]["dice"]} == {"紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ"}
        assert board["players"]["B"]["dice"] == [] and board["players"]["B"]["hidden"] == 5
        # the page says how many of 井上's dice are not shown yet
        assert "非公開のダイス" in anon.get(f"/matches/{quote(EVENT)}-r1-t1?lang=ja").text
    # a scorekeeper's token and another event's judge are not trusted with the lists; the
    # table's own token is told the names of its own match when it writes there (it records
    # them: the recording page offers them to it), never another table's
    own = f"/api/matches/{quote(EVENT, safe='')}-r1-t1/events"
    for token in (toks["keeper"], toks["other_judge"]):
        with server.client(token) as c:
            read_here = [x for x in pairs if ("/api/matches/" in x[2] or "/players/" in x[2])
                         and not (token == toks["keeper"] and x[2].startswith(own))]
            assert leaks(c, read_here, cards) == {}


def test_the_round_sheet_and_the_standings_csv_show_no_card(closed_site, tmp_path):
    """The round sheet is printed and laid on the tables: public paper, whoever prints it."""
    from recorder import roundsheet
    from recorder.store import Store

    server, _, db = closed_site
    store = Store(db)
    try:
        out = tmp_path / "r1.html"
        roundsheet.write(store, EVENT, 1, str(out), base_url=server.url)
        sheet = out.read_text(encoding="utf-8")
    finally:
        store.close()
    assert "青木" in sheet and not sorted(c for c in secrets() if c in sheet)


def test_after_publish_lists_everyone_sees_them(closed_site):
    from recorder import tournament_service
    from recorder.store import Store

    server, _, db = closed_site
    store = Store(db)
    try:
        line = tournament_service.publish_lists(store, EVENT, by="主催")
        assert line["type"] == "publish-lists" and line["by"] == "主催" and line["at"]
        with pytest.raises(Exception, match="published"):
            tournament_service.publish_lists(store, EVENT)
        assert not tournament_service.state(store, EVENT).lists_closed
    finally:
        store.close()
    with server.client() as anon:
        header = anon.get(f"/api/matches/{quote(EVENT)}-r1-t1").json()["header"]
        assert header["players"][1]["deck"]["cards"] == DECKS["井上"]["cards"]
        assert "凶鎌手" in anon.get(f"/events/{quote(EVENT)}/players/{quote('江口')}").text
        assert "雷爪" in anon.get(f"/api/matches/{quote(EVENT)}-r1-t1/board").text
        assert "獣幽士" in anon.get(f"/matches/{quote(EVENT)}-r1-t2").text


def test_lists_open_show_everything_and_an_open_event_has_nothing_to_publish(tmp_path):
    from recorder import tournament_service

    store, _ = build(str(tmp_path / "kifu.db"), tmp_path, lists="open")
    try:
        with pytest.raises(Exception, match="open deck lists"):
            tournament_service.publish_lists(store, EVENT)
        with pytest.raises(Exception, match="--lists"):
            tournament_service.open_event(store, "別の大会", "gandice", 2, lists="secret")
    finally:
        store.close()


def test_an_event_recorded_before_lists_existed_stays_open(tmp_path, monkeypatch):
    """A header without ``lists`` (what the previous release wrote): the lists are open, as they were."""
    from recorder import tournament_service
    from recorder.store import Store

    monkeypatch.delenv("KIFU_TOKEN", raising=False)
    db = str(tmp_path / "old.db")
    store, _ = build(db, tmp_path, lists="closed")
    lines = tournament_service.export_lines(store, EVENT)
    store.close()
    header = json.loads(lines[0])
    del header["event"]["lists"]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(header, ensure_ascii=False), *lines[1:]]) + "\n", encoding="utf-8")
    db2 = str(tmp_path / "imported.db")
    store = Store(db2)
    tournament_service.import_log(store, str(old))
    st = tournament_service.state(store, EVENT)
    assert st.lists == "open" and not st.lists_closed
    store.close()
    server = LiveServer(db2, None).start()
    try:
        with server.client() as anon:
            p = anon.get(f"/api/events/{quote(EVENT)}/players/{quote('井上')}").json()
            assert p["deck"]["cards"] == DECKS["井上"]["cards"]
    finally:
        server.stop()


def test_the_cli_shows_the_lists_and_publish_lists_is_a_line(tmp_path):
    """The CLI is the organiser (it holds the store): it shows the lists; publish-lists is a
    line of the event log, exported and imported."""
    import subprocess
    import sys

    kifu = str(Path(sys.executable).with_name("kifu"))
    db = str(tmp_path / "kifu.db")
    store, _ = build(db, tmp_path)
    store.close()
    def run(_: Any, args: list[str]) -> Any:
        done = subprocess.run([kifu, "--db", db, *args], capture_output=True, text=True, cwd=tmp_path)
        done.exit_code, done.output = done.returncode, done.stdout + done.stderr  # type: ignore[attr-defined]
        return done
    shown = run(None, ["event", "show", EVENT, "--json"])
    assert shown.exit_code == 0 and "武王" in shown.output
    res = run(None, ["event", "publish-lists", EVENT, "--by", "主催", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["type"] == "publish-lists"
    again = run(None, ["event", "publish-lists", EVENT])
    assert again.exit_code != 0 and "Traceback" not in again.output and len(again.output.strip().splitlines()) == 1
    out = tmp_path / "e.jsonl"
    assert run(None, ["event", "export", EVENT, "-o", str(out)]).exit_code == 0
    assert '"publish-lists"' in out.read_text(encoding="utf-8")
    bad = run(None, ["event", "new", "x", "--game", "gandice", "--rounds", "1", "--lists", "nope"])
    assert bad.exit_code != 0 and "--lists" in bad.output


# -- in a browser: the desk, the player page and a match page, anonymous, 390/1280, ja/en ----------

BROWSER_PAGES = {"desk": f"/events/{quote(EVENT)}", "player": f"/events/{quote(EVENT)}/players/{quote('井上')}",
                 "match": f"/matches/{quote(EVENT)}-r1-t1"}


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_closed_lists_in_a_browser(closed_site, browser, width, lang):
    """The pages an anonymous reader opens show the deck's name and archetype, never a card of a
    closed list; axe-core finds nothing serious; nothing scrolls sideways."""
    from axe_playwright_python.sync_playwright import Axe

    from tests.web.conftest import SHOTS
    from tests.web.test_axe import TAGS, serious

    server, _, _ = closed_site
    cards = secrets()
    ctx = browser.new_context(viewport={"width": width, "height": 844 if width == 390 else 800},
                              locale="ja-JP" if lang == "ja" else "en-GB")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        for name, path in BROWSER_PAGES.items():
            page.goto(f"{server.url}{path}?lang={lang}")
            page.wait_for_load_state("networkidle")
            assert page.evaluate("document.documentElement.lang") == lang
            text = page.evaluate("document.documentElement.outerHTML")
            assert not sorted(c for c in cards if c in text), name
            if name == "player":
                deck = page.locator("#player-deck").inner_text()
                assert "超眼デッキ" in deck and "超眼" in deck
                assert page.locator("#lists-closed").is_visible()
            if name == "desk":
                assert "超眼デッキ" in page.locator("main").inner_text()
            results = Axe().run(page, options={"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": TAGS}})
            found = serious(results.response)
            assert not found, f"{name} at {width} {lang}:\n" + "\n".join(found)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name} at {width}"
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"closed-lists-{name}-{width}-{lang}.png"), full_page=True)
        assert errors == []
    finally:
        ctx.close()


def test_the_tables_token_gets_its_own_recording_form_whole(closed_site):
    """The recording page's state, asked with the table's token (the page sends it), offers the
    dice about to be rolled at that table; another table's state stays public."""
    server, toks, _ = closed_site
    with server.client(toks["keeper"]) as c:
        own = c.get(f"/matches/{quote(EVENT)}-r1-t1/record/state").text
        other = c.get(f"/matches/{quote(EVENT)}-r1-t2/record/state").text
    assert "武王" in own  # 井上 summons next: the form offers his dice
    assert not sorted(x for x in secrets() if x in other)
    with server.client() as anon:
        assert "武王" not in anon.get(f"/matches/{quote(EVENT)}-r1-t1/record/state").text


# -- every game: the same leak test on an event of each other game, decks as the generator deals them --


def build_game(db: str, folder: Path, game: str) -> tuple[Any, set[str]]:
    """A closed event of ``game``: four players with the generator's decks, round 1 paired, the
    first lines of a generated match recorded at table 1. Returns the store and the secrets."""
    import random

    from projections import registry
    from recorder import service, tournament_service
    from recorder.store import Store

    ruleset = registry.get(game)
    headers = [ruleset.generate(random.Random(seed), f"g{seed}") for seed in (1, 2)]
    names = ["青木", "井上", "上田", "江口"]
    decks = [p["deck"] for h, _ in headers for p in h["players"][:2]]
    store = Store(db)
    tournament_service.open_event(store, EVENT, game, 2, seed=3)
    for name, deck in zip(names, decks):
        tournament_service.register(store, EVENT, name, deck)
    tournament_service.import_pairing(store, EVENT, csv_file(folder, "r1.csv", [("1", "青木", "井上"), ("2", "上田", "江口")]))
    played = [{k: v for k, v in line.items() if k not in ("seq", "at")} for line in headers[0][1][:3]]
    for line in played:
        service.record(store, f"{EVENT}-r1-t1", line)
    from projections.secrecy import list_names

    public = [EVENT, ruleset.title, *names, *(d.get("name") or "" for d in decks), *(d.get("archetype") or "" for d in decks)]
    shown = json.dumps(played, ensure_ascii=False)
    cards = list_names({"players": [{"deck": d} for d in decks]}) - {d.get("name") for d in decks}
    return store, {c for c in cards if len(c) > 1 and c not in shown and not any(c in p for p in public)}


@pytest.mark.parametrize("game", ["mushijingi", "gurren-lagann", "variants-war"])
def test_no_route_shows_a_closed_card_in_any_game(tmp_path, monkeypatch, game):
    monkeypatch.delenv("KIFU_TOKEN", raising=False)
    db = str(tmp_path / "kifu.db")
    store, cards = build_game(db, tmp_path, game)
    store.close()
    assert len(cards) >= 5  # the test bites: the lists hold cards nobody played
    server = LiveServer(db, ADMIN).start()
    try:
        pairs, _ = urls(server.app)
        pairs = [x for x in pairs if "baseline" not in x[2]]
        with server.client() as anon:
            assert leaks(anon, [x for x in pairs if "/players/" not in x[2] or any(n in unquote_(x[2]) for n in
                                                                                       ("青木", "井上", "上田", "江口"))],
                         cards) == {}
        with server.client(ADMIN) as admin:
            header = admin.get(f"/api/matches/{quote(EVENT)}-r1-t1").json()["header"]
            assert set(json.dumps(header, ensure_ascii=False)) and any(c in json.dumps(header, ensure_ascii=False)
                                                                        for c in cards)
    finally:
        server.stop()


def unquote_(url: str) -> str:
    from urllib.parse import unquote

    return unquote(url)
