"""The recording page arrives drawn: its board, move form, legal moves, recent lines and table
actions are in the server's HTML (exports/templates/_record_parts.html), exactly as the script
(_record.js) draws them for the same state, so the first paint is final. Measured in chromium:
the parts without the script equal the parts the script leaves; no layout shift on load, after
a move, nor after a tap in the form (PerformanceObserver 'layout-shift', the metric Lighthouse
sums as CLS)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.conftest import TOKEN
from tests.web.matches import GAMES

pytestmark = pytest.mark.browser
WAIT = 20_000  # ms; an upper bound for a page to react, not a speed requirement
PARTS = ["#rec-types", "#rec-by", "#rec-fields", "#rec-more-box", "#rec-legal", "#rec-last", "#rec-ends",
         "#rec-disputes-sec", "#rec-board"]
SHIFTS = """window.__cls = 0; window.__late = 0; window.__what = []; new PerformanceObserver(l => { for (const e of l.getEntries()) {
    if (!e.hadRecentInput) window.__cls += e.value;
    if (window.__settled || !e.hadRecentInput) { if (window.__settled) window.__late += e.value; window.__what.push(e.sources.map(s => s.node && s.node.nodeType === 1
      ? (s.node.id || s.node.className || s.node.tagName) + ' ' + Math.round(s.previousRect.y) + '->' + Math.round(s.currentRect.y)
      : '?').join(', ')); } }}).observe({type: 'layout-shift', buffered: true});"""
# The same parts compared node by node (whitespace-only text dropped: the server's HTML is tight,
# this only keeps a failure readable), attributes in any order.
SAME = """([html, sels]) => {
  const server = new DOMParser().parseFromString(html, 'text/html');
  const strip = n => { n.querySelectorAll('*').forEach(e => [...e.childNodes].forEach(c => {
      if (c.nodeType === 3 && !c.textContent.trim()) c.remove(); })); return n; };
  return sels.filter(sel => {
    const a = strip(server.querySelector(sel).cloneNode(true)), b = strip(document.querySelector(sel).cloneNode(true));
    return !a.isEqualNode(b);
  }).map(sel => sel + '\\nserver: ' + server.querySelector(sel).outerHTML.slice(0, 1500) +
                      '\\nscript: ' + document.querySelector(sel).outerHTML.slice(0, 1500));
}"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_server_draws_what_the_script_would(browser, live, lang):
    with live.client(TOKEN) as c:
        header = c.get("/api/matches/gen-gandice").json()["header"]
    live.app.state.store.create(dict(header, match=dict(header["match"], id="fresh")), [])
    bare = browser.new_context(java_script_enabled=False, locale="ja-JP")
    full = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
    page = full.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        for mid in [f"gen-{g}" for g in GAMES] + ["fresh"]:
            url = f"{live.url}/matches/{mid}/record?lang={lang}"
            plain = bare.new_page()
            plain.goto(url)
            html = plain.content()
            assert plain.locator("#rec-types button").count() >= 2, mid  # drawn without the script
            assert plain.locator("#rec-ends button").count() == 5, mid
            assert "gandice" not in mid or plain.locator("#rec-fields .rec-row").count(), mid  # a summon's fields
            assert mid == "fresh" or plain.locator("#rec-last li").count(), mid
            plain.close()
            page.goto(url)
            page.wait_for_function("document.querySelector('#rec-types button[aria-pressed=\"true\"]')", timeout=WAIT)
            differ = page.evaluate(SAME, [html, PARTS])
            assert not differ, f"{mid}: " + "\n".join(differ)
    finally:
        bare.close()
        full.close()
    assert not errors


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}])
def test_nothing_moves_on_load_after_a_move_or_a_tap(browser, live, viewport):
    context = browser.new_context(viewport=viewport, locale="ja-JP")
    context.add_init_script(SHIFTS)
    page = context.new_page()
    page.goto(f"{live.url}/matches/gen-mushijingi/record#token={TOKEN}")
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)  # anything late (fonts, the stream) would shift by now
    assert page.evaluate("window.__cls") == 0, f"layout shift on load: {page.evaluate('window.__what')}"
    steps = int(page.locator("#rec-steps").inner_text())
    page.locator('#rec-types button[data-type="end_turn"]').focus()
    page.keyboard.press("Enter")
    page.locator("#rec-send").focus()
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    # From the record key on, every shift counts, whether or not the browser calls it "recent
    # input": the form cleared, the line queued and sent, its answer and the next move drawn
    # (issue 37: the answer once moved the page +101 px, then -32 px).
    page.evaluate("window.__cls = 0; window.__settled = true; window.__late = 0; window.__what = []")
    page.keyboard.press("Enter")  # a move: the parts are replaced in place
    expect(page.locator("#rec-steps")).to_have_text(str(steps + 1), timeout=WAIT)
    expect(page.locator("#rec-last li").last).to_have_attribute("data-seq", str(steps + 1), timeout=WAIT)
    expect(page.locator("#rec-result")).to_contain_text(f"#{steps + 1}", timeout=WAIT)
    page.wait_for_timeout(700)  # anything drawn late (the stream's echo of the line, the rest's end) would shift by now
    assert page.evaluate("document.activeElement.id") == "rec-send"  # focus kept on the control used
    assert page.evaluate("window.__late") == 0, f"layout shift after a move: {page.evaluate('window.__what')}"
    context.close()
