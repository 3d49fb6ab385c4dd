"""axe-core (axe-playwright-python ships it) on every page a person reads, in Debian's chromium:
the match list, a match page of each game (mid-match as ruled, finished as recorded), the
recording page (empty and mid-match), the overlay on each background, the event desk, the
statistics page and the report file; at 390×844 and 1280×800, in Japanese and English, light
and dark. Any serious or critical violation fails, with the rule, the nodes and why; so does a
page that scrolls sideways.

Every kind of page runs in all eight combinations (the toy match stands for match pages: it
has every kind of line); each game's match page (mid-match as ruled, finished as recorded) and
the overlay's other backgrounds run light and dark at one size and language each, taking
turns, so the whole set stays at a few minutes on two cores.
Closed <details> are opened first, so what they fold away (the result, deck lists) is checked too.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from exports.report import report_html
from tests.web.conftest import LiveServer, fill
from tests.web.matches import GAMES, generated, toy_match

pytestmark = pytest.mark.browser

SIZES = {"390": (390, 844), "1280": (1280, 800)}
LANGS = ("ja", "en")
SCHEMES = ("light", "dark")
ALL = list(itertools.product(SIZES, LANGS, SCHEMES))
BACKGROUNDS = ("transparent", "green", "magenta", "blue", "dark")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
STEPS = {g: len(generated(g)[1]) for g in GAMES} | {"toy": len(toy_match()[1])}
IDS = {g: f"gen-{g}" for g in GAMES} | {"toy": "toy-1"}

CORE = {
    "list": "/matches",
    "match-toy-mid": f"/matches/toy-1?step={STEPS['toy'] // 2}&view=ruled",
    "record-empty": "/matches/empty-gandice/record",
    "record-mid": "/matches/mid-gandice/record",
    "overlay-transparent": "/matches/gen-gurren-lagann/overlay?bg=transparent",
    "desk": "/events/generated",
    "stats": "/stats",
    "report": "REPORT",
}
VARIANTS = {
    **{f"match-{g}-mid": f"/matches/{IDS[g]}?step={STEPS[g] // 2}&view=ruled" for g in GAMES},
    **{f"match-{g}-finished": f"/matches/{IDS[g]}?step={STEPS[g]}&view=recorded" for g in STEPS},
    **{f"overlay-{bg}": f"/matches/gen-variants-war/overlay?bg={bg}" for bg in BACKGROUNDS[1:]},
}


def cases() -> list[object]:
    out = [pytest.param(name, *combo, id=f"{name}-{'-'.join(combo)}") for name in CORE for combo in ALL]
    turns = itertools.cycle(itertools.product(SIZES, LANGS))
    for name in VARIANTS:
        size, lang = next(turns)
        out += [pytest.param(name, size, lang, scheme, id=f"{name}-{size}-{lang}-{scheme}") for scheme in SCHEMES]
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory, monkeypatch_module):
    """The web tests' matches plus an empty one and one stopped halfway (for the recording
    page), served read-only; and the toy match's report file."""
    from recorder.store import Store

    monkeypatch_module.delenv("KIFU_TOKEN", raising=False)
    folder = tmp_path_factory.mktemp("axe")
    path = str(folder / "kifu.db")
    store = Store(path)
    fill(store)
    header, entries = generated("gandice")
    store.create(dict(header, match=dict(header["match"], id="empty-gandice")), [])
    store.create(dict(header, match=dict(header["match"], id="mid-gandice")), entries[: len(entries) // 2])
    store.close()
    header, entries = toy_match()
    report = folder / "toy.html"
    report.write_text(report_html(header, entries), encoding="utf-8")
    server = LiveServer(path, None).start()
    yield server, report
    server.stop()


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


@pytest.fixture(scope="module")
def tabs(browser):
    """One page per (size, scheme), kept for the module: a test only navigates it."""
    opened: dict[tuple[str, str], object] = {}

    def get(size: str, scheme: str):
        if (size, scheme) not in opened:
            w, h = SIZES[size]
            context = browser.new_context(viewport={"width": w, "height": h})
            page = context.new_page()
            page.emulate_media(color_scheme=scheme)
            opened[(size, scheme)] = page
        return opened[(size, scheme)]

    yield get
    for page in opened.values():
        page.context.close()


def url_of(name: str, lang: str, site: tuple[LiveServer, Path]) -> str:
    server, report = site
    path = CORE.get(name) or VARIANTS[name]
    if path == "REPORT":
        return report.as_uri() if lang == "ja" else _english_report(report)
    return f"{server.url}{path}{'&' if '?' in path else '?'}lang={lang}"


def _english_report(report: Path) -> str:
    english = report.with_name("toy-en.html")
    if not english.exists():
        header, entries = toy_match()
        english.write_text(report_html(header, entries, lang="en"), encoding="utf-8")
    return english.as_uri()


def serious(results: dict) -> list[str]:
    out = []
    for v in results["violations"]:
        if v["impact"] in ("serious", "critical"):
            nodes = "; ".join(f"{n['target']}: {n.get('failureSummary', '').splitlines()[-1].strip()}" for n in v["nodes"][:5])
            out.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {nodes}")
    return out


@pytest.mark.parametrize(("name", "size", "lang", "scheme"), cases())
def test_no_serious_or_critical_axe_violation(tabs, site, name, size, lang, scheme):
    from axe_playwright_python.sync_playwright import Axe

    page = tabs(size, scheme)
    page.goto(url_of(name, lang, site))
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.lang") == lang
    page.evaluate("document.querySelectorAll('details').forEach(function (d) { d.open = true; })")
    results = Axe().run(page, options={"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": TAGS}})
    found = serious(results.response)
    assert not found, f"{name} at {size} {lang} {scheme}:\n" + "\n".join(found)
    # nothing cut off: the page never scrolls sideways (wide tables scroll in their own focusable region)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name} scrolls sideways at {size}"
