"""Security headers on every response, a strict CSP the pages work under, the recording
page's token kept for the tab unless remembered, and a client's `at` kept as a claim."""

from __future__ import annotations

import re
from urllib.parse import quote
from datetime import UTC, datetime, timedelta

import pytest

from exports import security
from tests.hardening.conftest import TOKEN, seed
from tests.web.conftest import SHOTS, LiveServer, fill

PAGES = ["/matches", "/matches/toy-1", "/matches/toy-1?step=3", "/matches/toy-1/record", "/stats",
         "/events", "/matches/toy-1/overlay"]
OTHER = ["/api/matches", "/api/matches/toy-1", "/api/matches/toy-1/log", "/api/matches/toy-1/board?step=2",
         "/matches/nope", "/api/matches/nope", "/matches/toy-1/frame?step=1", "/settings"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from recorder.store import Store

    db = str(tmp_path_factory.mktemp("headers") / "kifu.db")
    store = Store(db)
    fill(store)
    store.close()
    seed(db)
    srv = LiveServer(db, TOKEN).start()
    srv.db = db
    yield srv
    srv.stop()


def nonce_of(csp: str) -> str:
    found = re.search(r"script-src 'self' 'nonce-([A-Za-z0-9_\-]+)'", csp)
    assert found, csp
    return found.group(1)


@pytest.mark.parametrize("path", PAGES + OTHER)
def test_every_response_carries_the_headers(server, path):
    with server.client() as client:
        r = client.get(path)
    assert r.status_code in (200, 303, 404), (path, r.status_code)
    csp = r.headers["content-security-policy"]
    assert csp.startswith("default-src 'self'; ")
    for directive in ("object-src 'none'", "base-uri 'none'", "connect-src 'self'", "form-action 'self'"):
        assert directive in csp
    assert "'unsafe-inline'" not in csp.replace("style-src-attr 'unsafe-inline'", "")
    assert "'unsafe-eval'" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "same-origin"
    assert "frame-ancestors 'none'" in csp and r.headers["x-frame-options"] == "DENY"
    if r.headers.get("content-type", "").startswith("text/html"):
        nonce = nonce_of(csp)
        inline = re.findall(r"<(script|style)(?![^>]*application/json)([^>]*)>", r.text)
        assert inline, path
        for tag, attrs in inline:
            assert f'nonce="{nonce}"' in attrs, (path, tag, attrs)


def test_each_response_has_its_own_nonce(server):
    with server.client() as client:
        a = nonce_of(client.get("/matches").headers["content-security-policy"])
        b = nonce_of(client.get("/matches").headers["content-security-policy"])
    assert a != b and len(a) >= 20


def test_the_overlay_may_be_framed_only_where_the_operator_allows(server, monkeypatch):
    monkeypatch.setenv("KIFU_FRAME_ANCESTORS", "https://studio.example.com 'self' evil; script-src *")
    other = LiveServer(server.db, None).start()
    try:
        with other.client() as client:
            overlay = client.get("/matches/toy-1/overlay")
            page = client.get("/matches/toy-1")
    finally:
        other.stop()
    csp = overlay.headers["content-security-policy"]
    assert "frame-ancestors https://studio.example.com 'self'" in csp
    assert "evil" not in csp and "script-src *" not in csp
    assert "x-frame-options" not in overlay.headers
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"


def test_frame_sources_keeps_only_plain_origins():
    assert security.frame_sources(None) == "'none'"
    assert security.frame_sources("https://a.example:8443 http://*.example.org") == "https://a.example:8443 http://*.example.org"
    assert security.frame_sources("'unsafe-inline' data: https://x.example/;") == "'none'"


def test_the_report_file_renders_with_empty_nonces(tmp_path, kifu, db):
    """Outside a request (the self-contained report) csp_nonce() is empty: the same templates
    render, their inline script and style intact, with no nonce value to leak."""
    mid = seed(db)
    out = tmp_path / "r.html"
    code, _, err = kifu("report", mid, "-o", str(out))
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    tags = re.findall(r"<(?:script|style)(?![^>]*application/json)[^>]*>", html)
    assert tags and all('nonce=""' in t for t in tags), tags
    assert security.csp_nonce() == ""


# -- chromium: the pages work under the policy -------------------------------------------------

WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
});
"""


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_pages_work_under_the_csp_with_no_console_errors(server, browser, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_init_script(WATCH)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(f"pageerror: {exc}"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for path in PAGES:
            page.goto(server.url + path)
            page.wait_for_load_state("networkidle")
            assert page.evaluate("window.__csp") == [], (path, page.evaluate("window.__csp"))
            name = re.sub(r"[^a-z0-9]+", "-", path.strip("/")) or "root"
            page.screenshot(path=str(SHOTS / f"csp-{name}-{size[0]}.png"), full_page=False)
        # the step-through script runs under the policy: stepping changes the board
        page.goto(server.url + "/matches/toy-1?step=0")
        page.wait_for_load_state("networkidle")
        before = page.locator("#board, .board").first.inner_html()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("(before) => (document.querySelector('#board, .board') || {}).innerHTML !== before", arg=before)
        assert page.evaluate("window.__csp") == []
    finally:
        context.close()
    assert problems == []


def test_the_token_is_kept_for_the_tab_unless_remembered(server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.url + "/matches/toy-1/record")
        page.locator("details.rec-sec summary").last.click()
        page.fill("#rec-token", "tab-only")
        page.click("#rec-token-save")
        assert page.evaluate("sessionStorage.getItem('kifu-token')") == "tab-only"
        assert page.evaluate("localStorage.getItem('kifu-token')") is None
        page.check("#rec-remember")
        assert page.evaluate("localStorage.getItem('kifu-token')") == "tab-only"
        page.screenshot(path=str(SHOTS / "csp-record-token-390.png"))
        page.uncheck("#rec-remember")
        assert page.evaluate("localStorage.getItem('kifu-token')") is None
        page.goto(server.url + "/matches/toy-1/record#token=from-link")
        assert page.evaluate("sessionStorage.getItem('kifu-token')") == "from-link"
        assert page.evaluate("localStorage.getItem('kifu-token')") is None
        assert "token=" not in page.url
    finally:
        context.close()
    assert errors == []


# -- a client's `at` is the table's claim ------------------------------------------------------


def test_a_backdated_at_is_kept_as_a_claim_and_as_of_uses_the_stored_time(server):
    from recorder import service
    from recorder.store import Store

    with server.client(TOKEN) as client:
        r = client.post("/api/matches/hostile-base/events",
                        json={"type": "annotate", "on": 1, "by": "解説", "text": "昔の話", "at": "1999-01-01T00:00:00Z"})
    assert r.status_code == 201, r.text
    seq = r.json()["seq"]
    store = Store(server.db)
    try:
        _, entries = store.load("hostile-base")
        line = entries[seq - 1]
        assert line["claimed_at"] == "1999-01-01T00:00:00Z"
        stored = datetime.fromisoformat(line["at"].replace("Z", "+00:00"))
        assert abs(stored - datetime.now(UTC)) < timedelta(hours=1)
        then = service.replay(store, "hostile-base", moment="2000-01-01T00:00:00Z")
        assert then.steps < seq  # the line was not known in 2000, whatever it claims
        now = service.replay(store, "hostile-base", moment=(datetime.now(UTC) + timedelta(minutes=1)).isoformat())
        assert now.steps >= seq
    finally:
        store.close()
    with server.client() as client:  # the viewer shows both times, as they differ by years
        page = client.get("/matches/hostile-base", params={"step": seq}).text
    assert f"卓の申告: 1999-01-01T00:00:00Z・記録時刻: {line['at']}" in page


def test_a_claim_within_a_minute_is_not_shown(server):
    from exports.timeline import Row

    row = Row(seq=1, type="score", by="A", at="2026-11-30T10:00:30Z", meta=False, fields=[], text="", target=None,
              claimed_at="2026-11-30T10:00:00+00:00")
    assert not row.claim_differs
    assert Row(**{**row.__dict__, "claimed_at": "2026-11-30T09:58:00Z"}).claim_differs
    assert not Row(**{**row.__dict__, "claimed_at": None}).claim_differs


def test_error_messages_are_one_short_line(server):
    with server.client() as client:
        r = client.get("/api/matches/" + "x" * 20_000)
        page = client.get("/matches/" + quote("\u3042\n" * 3000, safe=""))
    assert r.status_code == 404 and len(r.json()["error"]) <= 500
    assert page.status_code == 404 and len(page.text) < 20_000
