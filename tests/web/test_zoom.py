"""Nothing cut off at 200% zoom or on a phone, in Debian's chromium: the match list, a match
page of each game (mid-match and finished), the event desk, its standings and the statistics page, in
Japanese and English, with every <details> open (deck lists, raw lines, the result).

200% zoom is a viewport of 640×400 CSS px at 2 device px each: what Chrome lays out for a
1280×800 window zoomed to 200% (browser zoom makes each CSS px two device px, so the page
gets half the width and height in CSS px, and its media queries see 640 px). Headless
chromium has no browser-zoom control; the alternatives are not zoom: ``device_scale_factor``
alone keeps 1280 CSS px (sharper pixels, the same layout), CDP's page scale factor is pinch
zoom (the layout viewport stays 1280 wide, nothing reflows), and CSS ``zoom`` on <html>
leaves media queries and ``vw`` at 1280.

Cut off means: the document scrolls sideways; or some text lies outside the viewport's width
and is not inside a scrolling region (one a keyboard can reach: focusable itself or holding
a focusable control); or text is clipped by a box that hides its overflow.
"""

from __future__ import annotations

import pytest

from tests.web.matches import GAMES, generated

pytestmark = pytest.mark.browser

SIZES = {"zoom200": (640, 400), "390": (390, 844)}
STEPS = {g: len(generated(g)[1]) for g in GAMES}
PAGES = {
    "list": "/matches",
    **{f"match-{g}-mid": f"/matches/gen-{g}?step={STEPS[g] // 2}" for g in GAMES},
    **{f"match-{g}-finished": f"/matches/gen-{g}?step={STEPS[g]}" for g in GAMES},
    "match-toy": "/matches/toy-1?step=7",  # every kind of line: notes, a dispute, a ruling, both views
    "desk": "/events/generated",
    "standings": "/events/generated/standings",
    "stats": "/stats",
}

CUT_OFF = """() => {
  const vw = document.documentElement.clientWidth, out = [];
  const where = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\\s+/).join(".") : "");
  const reachable = (el) => el.tabIndex >= 0 ||
    !!el.querySelector("a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])");
  if (document.documentElement.scrollWidth > vw)
    out.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + vw + " px");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.data.trim() || !el || el.closest(".sr-only, script, style, template")) continue;
    if (getComputedStyle(el).visibility !== "visible") continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue;
      const text = JSON.stringify(n.data.trim().slice(0, 30)) + " in " + where(el);
      let scroller = null;
      for (let a = el; a && a !== document.body && !scroller; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === "visible" && s.overflowY === "visible") continue;
        const box = a.getBoundingClientRect();
        if (["auto", "scroll"].includes(s.overflowX) || ["auto", "scroll"].includes(s.overflowY)) {
          scroller = a;  // text past its edge is scrolled to, if a keyboard can reach it
          if (!reachable(a)) out.push(text + ": inside " + where(a) + ", which scrolls but cannot be focused");
          if (box.left < -1 || box.right > vw + 1) out.push(where(a) + " (a scrolling region) lies beyond the viewport");
        } else if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) {
          out.push(text + ": clipped by " + where(a));
        }
      }
      if (!scroller && (r.left < -1 || r.right > vw + 1))
        out.push(text + ": at " + Math.round(r.left) + ".." + Math.round(r.right) + " px, the viewport is " + vw);
    }
  }
  return Array.from(new Set(out));
}"""


@pytest.fixture(scope="module")
def tabs(browser):
    opened = {}

    def get(size: str):
        if size not in opened:
            w, h = SIZES[size]
            opened[size] = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=2).new_page()
        return opened[size]

    yield get
    for page in opened.values():
        page.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_nothing_is_cut_off(readonly, tabs, name, size, lang):
    page = tabs(size)
    path = PAGES[name]
    page.goto(f"{readonly.url}{path}{'&' if '?' in path else '?'}lang={lang}")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.evaluate("window.innerWidth") == SIZES[size][0]
    page.evaluate("document.querySelectorAll('details').forEach(function (d) { d.open = true; })")  # decks, {…}, the result
    found = page.evaluate(CUT_OFF)
    assert not found, f"{name} at {size} ({lang}):\n" + "\n".join(found[:25])


def test_the_check_sees_what_is_cut_off(readonly, tabs):
    """The check bites: a line too wide for the page, a clipped caption, and text in a scrolling
    box nobody can focus are each reported."""
    page = tabs("zoom200")
    page.goto(f"{readonly.url}/matches?lang=en")
    page.wait_for_load_state("networkidle")
    assert page.evaluate(CUT_OFF) == []
    page.evaluate("""() => {
      const m = document.querySelector("main");
      m.insertAdjacentHTML("beforeend",
        '<p id="wide" style="white-space:nowrap">' + "too wide ".repeat(40) + '</p>' +
        '<p id="clip" style="width:60px;height:1.2em;overflow:hidden;white-space:nowrap">clipped caption text</p>' +
        '<div id="dead" style="width:100px;overflow-x:auto"><span style="white-space:nowrap">no key reaches this long line</span></div>');
    }""")
    found = "\n".join(page.evaluate(CUT_OFF))
    assert "the page scrolls sideways" in found
    assert "p#wide" in found and "clipped by p#clip" in found and "cannot be focused" in found
