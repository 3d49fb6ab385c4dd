"""The event desk: ``kifu event`` in the terminal, ``/events/EVENT`` and its JSON over a real
server, and the page live in chromium at 390×844 and 1280×800."""

from __future__ import annotations

import json
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import expect

from recorder.store import Store
from tests.table.conftest import LiveServer
from tests.table.event import EVENT, fill
from tests.web.conftest import SHOTS

ADMIN = "d3sk-admin"
WAIT = 20_000  # ms: an upper bound for the page to react, not a speed requirement
expect.set_options(timeout=WAIT)  # a busy machine: every expect waits as long as the rest


def live_game(store, mid: str = "wc-r4-t1-g1") -> str:
    """Round 4, table 1, still playing: 乙 scored on 甲's turn (TOY-1), 甲 called a judge."""
    header = {
        "kifu": 1, "game": "toy", "rules": "toy/1",
        "match": {"id": mid, "event": EVENT, "round": 4, "table": "1", "house_rules": {}},
        "players": [{"id": "A", "name": "大野", "deck": {"name": "大野のデッキ", "cards": []}},
                    {"id": "B", "name": "工藤", "deck": {"name": "工藤のデッキ", "cards": []}}],
        "first": "A",
    }
    lines = [
        {"type": "score", "by": "A", "points": 2, "at": "2026-12-05T10:00:00Z"},
        {"type": "score", "by": "A", "points": 1, "at": "2026-12-05T10:01:00Z"},
        {"type": "dispute", "on": 2, "by": "B", "claim": "二回続けて得点した", "rule": "TOY-1",
         "at": "2026-12-05T10:02:00Z"},
        {"type": "penalty", "by": "主審", "player": "A", "infraction": "手順の誤り", "penalty": "warning",
         "at": "2026-12-05T10:03:00Z"},
    ]
    store.create(header, [dict(line, seq=i) for i, line in enumerate(lines, 1)])
    return mid


def test_kifu_event_shows_every_table_and_what_needs_a_judge(kifu, store, monkeypatch):
    monkeypatch.delenv("KIFU_LANG")  # Japanese by default (the suite reads English: tests/conftest.py)
    fill(store)
    live_game(store)
    code, out, err = kifu("event", EVENT)
    assert code == 0, err
    assert "第1回戦" in out and "第4回戦" in out
    assert "卓2  上田 (上田のデッキ) vs 工藤 (工藤のデッキ)  [終了]" in out
    assert "wc-r4-t1-g1  対戦中  ターン" in out
    assert "!! 異議 #3→2 二回続けて得点した" in out
    assert "! 違反 TOY-1" in out
    assert "ペナルティ 大野: 警告" in out  # the penalty in words, never its code
    assert "上田: ゲームロス (遅刻, R2 卓2)" in out and "game-loss" not in out and "warning" not in out
    assert "未終了の対戦" in out and "R4 卓1 (大野 vs 工藤)" in out
    code, out, _ = kifu("event", EVENT, "--json")
    data = json.loads(out)
    assert data["counts"] == {"matches": 31, "in_progress": 1, "disputes": 1, "violations": 1, "pending_rulings": 0}
    assert [(r["kind"], r["seq"]) for r in data["rulings"]] == [("dispute", 2)]  # the open dispute, #3 on 2
    assert [r["round"] for r in data["rounds"]] == [1, 2, 3, 4]
    assert data["standings"][0]["player"] == "大野"
    code, out, _ = kifu("event", EVENT, "--lang", "en")
    assert "Round 4" in out and "in progress" in out
    code, _, err = kifu("event", "ない大会")
    assert code != 0 and "ない大会" in err and err.count("\n") == 1


@pytest.fixture
def desk_server(db):
    store = Store(db)
    fill(store)
    live_game(store)
    server = LiveServer(db, ADMIN).start()
    yield server, store
    server.stop()
    store.close()


def test_desk_page_and_api(desk_server):
    server, _ = desk_server
    url = f"{server.url}/events/{quote(EVENT)}"
    page = httpx.get(url, timeout=10)
    assert page.status_code == 200
    assert 'data-match="wc-r4-t1-g1"' in page.text and "二回続けて得点した" in page.text
    assert "/matches/wc-r4-t1-g1/record" in page.text
    assert EVENT in httpx.get(f"{server.url}/events", timeout=10).text
    api = httpx.get(f"{server.url}/api/events/{quote(EVENT)}", timeout=10).json()
    assert api["counts"]["disputes"] == 1
    card = next(c for r in api["rounds"] if r["round"] == 4 for c in r["tables"])
    assert card["games"][0]["last_at"] == "2026-12-05T10:03:00Z"
    assert card["games"][0]["penalties"][0]["name"] == "大野"
    csv = httpx.get(f"{server.url}/api/events/{quote(EVENT)}/standings", params={"format": "csv"}, timeout=10)
    assert csv.headers["content-type"].startswith("text/csv") and csv.text.splitlines()[1].startswith("1,大野,7,")
    en = httpx.get(url, params={"lang": "en"}, timeout=10).text
    assert "Event desk" in en and "Standings" in en
    # a penalty in words in the reader's language, its code kept for tools and a tooltip
    assert '<span class="penalty" data-penalty="warning" title="warning">警告</span>' in page.text
    assert '<span class="penalty" data-penalty="warning" title="warning">warning</span>' in en
    assert ">warning<" not in page.text


@pytest.mark.browser
@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_desk_is_live_in_the_browser(browser, desk_server, size):
    server, _ = desk_server
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="ja-JP")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/events/{quote(EVENT)}")
        card = page.locator('article[data-table="1"]', has=page.locator('[data-match="wc-r4-t1-g1"]'))
        assert "dispute" in card.get_attribute("class")
        # a judge rules at the table: the dispute disappears from the desk without a reload
        r = httpx.post(f"{server.url}/api/matches/wc-r4-t1-g1/events", timeout=10,
                       headers={"Authorization": f"Bearer {ADMIN}"},
                       json={"type": "ruling", "dispute": 3, "by": "主審", "decision": "upheld", "text": "問題なし"})
        assert r.status_code == 201, r.text
        # (expect polls from Playwright's side: the page's CSP forbids the eval wait_for_function needs)
        expect(page.locator('article.dispute [data-match="wc-r4-t1-g1"]')).to_have_count(0, timeout=WAIT)
        # and a concession decides the match: it leaves "pending" and the standings change
        r = httpx.post(f"{server.url}/api/matches/wc-r4-t1-g1/events", timeout=10,
                       headers={"Authorization": f"Bearer {ADMIN}"}, json={"type": "concede", "by": "B"})
        assert r.status_code == 201
        expect(page.locator("#desk")).not_to_contain_text("未終了の対戦", timeout=WAIT)
        first = page.locator("#standings tbody tr").first.inner_text()
        assert "大野" in first and "10" in first
        wide = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert wide, "the desk scrolls sideways"
        page.screenshot(path=str(SHOTS / f"desk-{size[0]}x{size[1]}.png"), full_page=True)
        assert errors == []
    finally:
        context.close()
