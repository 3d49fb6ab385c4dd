"""The guided recording page in Debian's chromium at 390×844 with touch: taps only (no key
presses), against a real server on 127.0.0.1. Each test records into a match of its own, so
the tests pass in any order."""

from __future__ import annotations

import json
import random
import re
import threading
import uuid

import httpx
import pytest
from playwright.sync_api import expect

from projections import registry
from recorder import tokens
from recorder.store import Store
from tests.table.conftest import LiveServer
from tests.web.conftest import ROOT, SHOTS

pytestmark = pytest.mark.browser
WAIT = 20_000  # ms: an upper bound for the page to react, not a speed requirement
ADMIN = "adm1n-t0ken"
EVENT = "記録テスト大会"

# Where an ordinary turn starts in each game's seeded generated match (after the set-up).
PREFIX = {"gandice": 2, "mushijingi": 12, "gurren-lagann": 10, "variants-war": 12}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("rec") / "kifu.db")
    Store(db).close()
    srv = LiveServer(db, ADMIN).start()
    yield srv
    srv.stop()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="ja-JP",
                                  device_scale_factor=1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    yield pg
    context.close()


def new_match(server, game: str, prefix: int | None = None, table: str = "1") -> str:
    """A fresh copy of the game's seeded generated match, cut where an ordinary turn starts."""
    header, entries = registry.get(game).generate(random.Random(3), "x")
    mid = f"{game}-{uuid.uuid4().hex[:8]}"
    header["match"].update(id=mid, event=EVENT, round=1, table=table)
    store = Store(server.app.state.store.db)
    try:
        store.create(header, entries[: PREFIX[game] if prefix is None else prefix])
    finally:
        store.close()
    return mid


def state(server, mid: str) -> dict:
    return httpx.get(f"{server.url}/matches/{mid}/record/state", timeout=10).json()


def log(server, mid: str) -> list[dict]:
    text = httpx.get(f"{server.url}/api/matches/{mid}/log", timeout=10).text
    return [json.loads(line) for line in text.splitlines()[1:]]


def open_page(page, server, mid: str, token: str = ADMIN) -> None:
    page.goto("about:blank")  # a fresh load, not a jump within the page
    page.goto(f"{server.url}/matches/{mid}/record#token={token}")
    page.wait_for_selector("#rec-legal button, #rec-types button", timeout=WAIT)
    # the token is kept on the device, not in the address
    expect(page).not_to_have_url(re.compile("token="), timeout=WAIT)


def steps_shown(page) -> int:
    return int(page.locator("#rec-steps").inner_text())


def wait_steps(page, n: int) -> None:
    # (expect polls from Playwright's side: the page's CSP forbids the eval wait_for_function needs)
    expect(page.locator("#rec-steps")).to_have_text(str(n), timeout=WAIT)
    expect(page.locator("#rec-queue")).to_be_hidden(timeout=WAIT)


def send_and_wait(page, server, mid: str) -> None:
    before = len(log(server, mid))
    board = page.locator("#rec-board").inner_html()
    page.locator("#rec-send").tap()
    try:
        wait_steps(page, before + 1)
    except Exception:
        raise AssertionError(page.locator("#rec-result").inner_text()) from None
    # the board is redrawn from the state fetched after the send: waited for in the page itself
    page.wait_for_function("b => document.querySelector('#rec-board').innerHTML !== b", arg=board, timeout=WAIT)


@pytest.mark.parametrize("game", ["gandice", "mushijingi", "gurren-lagann", "variants-war"])
def test_one_ordinary_turn_by_taps_alone(phone, server, game):
    mid = new_match(server, game)
    open_page(phone, server, mid)
    start = state(server, mid)
    turn0 = start["turn"]
    assert steps_shown(phone) == start["steps"]
    taps = 0
    while state(server, mid)["turn"] == turn0:
        taps += 1
        assert taps <= 12, "the turn did not end"
        buttons = phone.locator("#rec-legal button")
        labels = buttons.all_inner_texts()
        assert labels, "no legal move offered"
        # a Gandice turn: attack, defend, item (a re-summon challenge is not an ordinary turn)
        pick = next(i for i, text in enumerate(labels) if "再召喚" not in text)
        buttons.nth(pick).tap()
        if game == "gandice" and phone.locator('[data-field="face"] button[data-value="normal"]').count():
            # the die came up 通常目 4, whatever the legal example said: face buttons, value buttons
            phone.locator('[data-field="face"] button[data-value="normal"]').tap()
            phone.locator('[data-field="value"] button[data-value="4"]').tap()
        send_and_wait(phone, server, mid)
        assert "記録しました" in phone.locator("#rec-result").inner_text()
    lines = log(server, mid)[PREFIX[game]:]
    assert len(lines) == taps and all(line["token"] == "admin" for line in lines)
    if game == "gandice":
        assert any(line.get("face") == "normal" and line.get("value") == 4 for line in lines)
    # the form was reset to the next player's likely move
    nxt = state(server, mid)["next"]
    assert phone.locator(f'#rec-by button[data-by="{nxt["by"]}"]').get_attribute("aria-pressed") == "true"
    assert phone.locator(f'#rec-types button[data-type="{nxt["type"]}"]').get_attribute("aria-pressed") == "true"
    small = phone.evaluate("""() => [...document.querySelectorAll('#rec-form button, #rec-legal button, #rec-send')]
        .filter(b => b.offsetParent && (b.getBoundingClientRect().height < 44 || b.getBoundingClientRect().width < 44))
        .map(b => b.textContent)""")
    assert small == []
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    phone.screenshot(path=str(SHOTS / f"record-{game}-390.png"), full_page=True)
    assert phone.js_errors == []


def test_illegal_move_is_flagged_corrected_disputed_and_ruled(phone, server, browser):
    mid = new_match(server, "mushijingi")
    open_page(phone, server, mid)
    active = state(server, mid)["active"]
    other = next(p["id"] for p in state(server, mid)["players"] if p["id"] != active)
    # the legal move, but entered for the wrong player: recorded and flagged in plain words
    phone.locator("#rec-legal button").first.tap()
    phone.locator(f'#rec-by button[data-by="{other}"]').tap()
    send_and_wait(phone, server, mid)
    bad_seq = len(log(server, mid))
    result = phone.locator("#rec-result").inner_text()
    assert "ルール違反があります" in result and re.search(r"ルール MJ-[\d.]+", result), result
    assert phone.locator(f'#rec-last li[data-seq="{bad_seq}"] .viol').count() >= 1
    ruled = httpx.get(f"{server.url}/api/matches/{mid}").json()["violations"]
    assert any(v["seq"] == bad_seq for v in ruled)

    # correct it from the phone: the right player's move replaces it
    phone.locator("#rec-legal button").first.tap()  # fills the form...
    phone.locator(f'#rec-by button[data-by="{active}"]').tap()
    phone.locator("#rec-correct").tap()
    wait_steps(phone, bad_seq + 1)
    fix = log(server, mid)[-1]
    assert fix["type"] == "correct" and fix["on"] == bad_seq and fix["replace"][0]["by"] == active
    ruled = httpx.get(f"{server.url}/api/matches/{mid}").json()["violations"]
    assert not any(v["seq"] == bad_seq for v in ruled)

    # call a judge on a move (the board was recorded, a player asks for a check)
    phone.locator("#rec-legal button").first.tap()
    send_and_wait(phone, server, mid)
    move_seq = len(log(server, mid))
    phone.locator(f'#rec-last button[data-dispute="{move_seq}"]').tap()
    wait_steps(phone, move_seq + 1)
    phone.wait_for_selector(f'[data-open-dispute="{move_seq + 1}"]', timeout=WAIT)

    # the judge rules from their own phone with a judge's token for the event
    judge_secret, judge = tokens.issue(server.app.state.store, role="judge", event=EVENT, name=f"主審-{mid[-4:]}")
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="ja-JP")
    try:
        jp = context.new_page()
        open_page(jp, server, mid, judge_secret)
        jp.wait_for_selector(f'[data-open-dispute="{move_seq + 1}"]', timeout=WAIT)
        jp.locator(f'button[data-uphold="{move_seq + 1}"]').tap()
        wait_steps(jp, move_seq + 2)
        expect(jp.locator("[data-open-dispute]")).to_have_count(0, timeout=WAIT)
        jp.screenshot(path=str(SHOTS / "record-judge-390.png"), full_page=True)
    finally:
        context.close()
    ruling = log(server, mid)[-1]
    assert ruling["type"] == "ruling" and ruling["dispute"] == move_seq + 1 and ruling["decision"] == "upheld"
    assert ruling["token"] == judge.name
    # a scorekeeper's tap on a ruling is refused with the reason, and nothing is written
    sk_secret, _ = tokens.issue(server.app.state.store, match_id=mid)
    open_page(phone, server, mid, sk_secret)
    phone.locator(f'#rec-last button[data-dispute="{move_seq}"]').tap()
    wait_steps(phone, move_seq + 3)
    phone.locator(f'button[data-uphold="{move_seq + 3}"]').tap()
    expect(phone.locator("#rec-result")).to_contain_text("403", timeout=WAIT)
    assert "judge" in phone.locator("#rec-result").inner_text()
    assert len(log(server, mid)) == move_seq + 3
    assert phone.js_errors == []


def test_judge_overturns_with_the_suggested_correction(phone, server):
    mid = new_match(server, "variants-war")  # turn 1 begins: A must draw first
    open_page(phone, server, mid)
    # the scorekeeper taps "turn end" straight away: the draw phase was skipped
    phone.locator('#rec-types button[data-type="end_turn"]').tap()
    send_and_wait(phone, server, mid)
    bad = len(log(server, mid))
    expect(phone.locator("#rec-result")).to_contain_text("ルール VW-3.3")
    phone.locator(f'#rec-last button[data-dispute="{bad}"]').tap()
    wait_steps(phone, bad + 1)
    dispute = log(server, mid)[-1]
    assert (dispute["type"], dispute["on"], dispute["rule"]) == ("dispute", bad, "VW-3.3")
    box = phone.locator(f'[data-open-dispute="{bad + 1}"]')
    expect(box).to_contain_text("提案される訂正")
    expect(box).to_contain_text("ドロー")
    phone.locator(f'button[data-overturn="{bad + 1}"]').tap()  # one tap: the engine's correction
    wait_steps(phone, bad + 2)
    ruling = log(server, mid)[-1]
    assert ruling["type"] == "ruling" and ruling["decision"] == "overturned" and ruling["rule"] == "VW-3.3"
    assert ruling["replace"] == [{"type": "draw", "by": "A", "card": None}]
    ruled = httpx.get(f"{server.url}/api/matches/{mid}").json()["violations"]
    assert not any(v["seq"] == bad and v["rule"] == "VW-3.3" for v in ruled)
    phone.screenshot(path=str(SHOTS / "record-ruling-390.png"), full_page=True)
    assert phone.js_errors == []


def test_offline_moves_queue_and_land_once_each_in_order(phone, server):
    mid = new_match(server, "mushijingi")
    open_page(phone, server, mid)
    start = len(log(server, mid))
    first = phone.locator("#rec-legal button").first.inner_text()
    # the connection drops mid-turn: every POST fails at the network level
    phone.route("**/api/matches/*/events*", lambda route: route.abort("internetdisconnected"))
    phone.locator("#rec-legal button").first.tap()
    phone.locator("#rec-send").tap()
    expect(phone.locator("#rec-result")).to_contain_text("接続がありません", timeout=WAIT)
    # a second move from the form alone: the same player ends the turn
    phone.locator('#rec-types button[data-type="end_turn"]').tap()
    phone.locator("#rec-send").tap()
    expect(phone.locator("#rec-queue")).to_contain_text("未送信: 2", timeout=WAIT)
    waiting = phone.locator("#rec-queue li").all_inner_texts()
    assert len(waiting) == 2 and all("=" not in w and "{" not in w for w in waiting), waiting
    assert "ターン終了" in waiting[1] and "end_turn" not in waiting[1], waiting  # the label, not the type
    assert len(log(server, mid)) == start
    queued = phone.evaluate(f"JSON.parse(localStorage.getItem('kifu-queue:{mid}'))")
    assert [q["expect"] for q in queued] == [start + 1, start + 2]
    assert len({q["key"] for q in queued}) == 2

    # it comes back, but the answer to the first send is lost on the way: the server recorded
    # it, the phone did not hear, so it sends it again with the same key
    lost = threading.Event()

    def flaky(route):
        if not lost.is_set():
            lost.set()
            route.fetch()  # reaches the server
            route.abort("connectionreset")  # the answer never arrives
        else:
            route.continue_()

    phone.unroute("**/api/matches/*/events*")
    phone.route("**/api/matches/*/events*", flaky)
    wait_steps(phone, start + 2)
    lines = log(server, mid)[start:]
    assert [line["type"] for line in lines] == [queued[0]["line"]["type"], "end_turn"]
    assert [line["seq"] for line in lines] == [start + 1, start + 2]
    assert lost.is_set()
    assert first  # the tapped legal move is what landed first
    assert phone.evaluate(f"localStorage.getItem('kifu-queue:{mid}')") == "[]"
    assert phone.js_errors == []


def test_conflict_stops_the_queue_and_shows_both_versions(phone, server):
    mid = new_match(server, "mushijingi")
    open_page(phone, server, mid)
    start = len(log(server, mid))
    # someone else records while this phone is offline with a queued move
    phone.route("**/api/matches/*/events*", lambda route: route.abort("internetdisconnected"))
    phone.locator("#rec-legal button").first.tap()
    phone.locator("#rec-send").tap()
    expect(phone.locator("#rec-queue")).to_contain_text("未送信: 1", timeout=WAIT)
    other = httpx.post(f"{server.url}/api/matches/{mid}/events", timeout=10,
                       json={"type": "annotate", "on": start, "by": "別の端末", "text": "別の記録"},
                       headers={"Authorization": f"Bearer {ADMIN}"})
    assert other.status_code == 201
    phone.unroute("**/api/matches/*/events*")
    phone.wait_for_selector("#rec-conflict:not([hidden])", timeout=WAIT)
    text = phone.locator("#rec-conflict").inner_text()
    assert "別の記録" in text and "サーバーに記録された手" in text and "この端末の送信待ち" in text
    assert len(log(server, mid)) == start + 1
    phone.screenshot(path=str(SHOTS / "record-conflict-390.png"), full_page=True)
    phone.locator("#rec-resend").tap()
    wait_steps(phone, start + 2)
    assert [line["seq"] for line in log(server, mid)] == list(range(1, start + 3))
    assert phone.js_errors == []


def test_page_offers_only_this_matchs_names_and_the_api_refuses_others(phone, server):
    from recorder.logformat import read_file

    header, entries = read_file(str(ROOT / "examples" / "gandice-example.jsonl"))
    mid = f"names-{uuid.uuid4().hex[:8]}"
    header["match"]["id"] = mid
    store = Store(server.app.state.store.db)
    try:
        store.create(header, [e for e in entries if e["seq"] <= 1])  # A summoned; B to summon
    finally:
        store.close()
    by_player = state(server, mid)["forms"]["attack"]["fields"][0]["names"]  # the names of whoever acts
    names = set().union(*by_player.values())
    assert names <= set(registry.get("gandice").vocabulary(header))
    assert {"ギダン", "紅蓮のイスルギ"} <= names and not {"獣幽士", "鰐蛇"} & names  # other decks' dice
    open_page(phone, server, mid)
    phone.locator('#rec-types button[data-type="attack"]').tap()
    for who in ("A", "B"):
        phone.locator(f'#rec-by button[data-by="{who}"]').tap()
        offered = set(phone.locator('[data-field="die"] [data-value]').evaluate_all(
            "es => es.map(e => e.getAttribute('data-value'))"))  # buttons, or a picker's options
        assert offered == set(by_player[who]), who
    # B's summon: one tap per die on its face, no typing
    phone.locator('#rec-types button[data-type="summon"]').tap()
    phone.locator('#rec-by button[data-by="B"]').tap()
    rows = phone.locator('[data-field="rolls"] .rec-map-row')
    keys = [rows.nth(i).get_attribute("data-key") for i in range(rows.count())]
    assert "紅蓮のイスルギ" in keys and "ギダン" not in keys
    for key in keys:
        phone.locator(f'[data-field="rolls"] .rec-map-row[data-key="{key}"] button[data-value="normal"]').tap()
    send_and_wait(phone, server, mid)
    assert log(server, mid)[-1]["rolls"] == dict.fromkeys(keys, "normal")
    r = httpx.post(f"{server.url}/api/matches/{mid}/events", timeout=10,
                   json={"type": "defend", "by": "A", "die": "ギダソ", "face": "normal", "value": 3},
                   headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 400 and "did you mean 'ギダン'" in r.json()["error"]
    assert phone.js_errors == []


def test_page_follows_what_other_devices_record(phone, server):
    mid = new_match(server, "mushijingi")
    open_page(phone, server, mid)
    start = len(log(server, mid))
    same = httpx.get(f"{server.url}/matches/{mid}/record/state", params={"after": start}, timeout=10).json()
    assert same == {"steps": start, "unchanged": True}  # the page's poll costs nothing when nothing changed
    r = httpx.post(f"{server.url}/api/matches/{mid}/events", timeout=10, headers={"Authorization": f"Bearer {ADMIN}"},
                   json={"type": "annotate", "on": start, "by": "解説", "text": "別の端末から"})
    assert r.status_code == 201
    expect(phone.locator("#rec-steps")).to_have_text(str(start + 1), timeout=WAIT)
    expect(phone.locator("#rec-last")).to_contain_text("別の端末から")
    assert phone.js_errors == []


def test_a_move_sent_without_a_token_waits_for_one(phone, server):
    mid = new_match(server, "mushijingi")
    phone.goto(f"{server.url}/matches/{mid}/record")  # no token on this device yet
    start = len(log(server, mid))
    phone.locator("#rec-legal button").first.tap()
    phone.locator("#rec-send").tap()
    expect(phone.locator("#rec-result")).to_contain_text("401")
    expect(phone.locator("#rec-queue")).to_contain_text("未送信: 1")
    assert len(log(server, mid)) == start
    phone.locator("#rec-token").fill(ADMIN)  # pasted once, like the URL make run prints
    phone.locator("#rec-token-save").tap()
    wait_steps(phone, start + 1)
    assert log(server, mid)[-1]["token"] == "admin"
    assert phone.js_errors == []


def test_a_double_tap_records_once(phone, server):
    mid = new_match(server, "mushijingi")
    open_page(phone, server, mid)
    start = len(log(server, mid))
    phone.locator('#rec-types button[data-type="end_turn"]').tap()
    phone.locator("#rec-send").tap()
    phone.locator("#rec-send").tap(force=True)  # the second tap of a double tap, right after the first
    wait_steps(phone, start + 1)
    phone.wait_for_timeout(500)  # a second line, had it been queued, would have been sent by now
    assert [line["type"] for line in log(server, mid)[start:]] == ["end_turn"]
    assert phone.js_errors == []
