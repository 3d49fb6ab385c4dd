"""The files of ``kifu stats --meta``, ``--trend`` and ``--cards --html`` in Debian's chromium,
opened from disk: axe-core finds nothing serious at 390 and 1280 wide, in Japanese and
English, light (and dark); no page scrolls sideways; every chart has a text alternative and a table beside it;
nothing is fetched and no script runs."""

from __future__ import annotations

import itertools

import pytest

from tests.stats.season import weekly_season
from tests.web.conftest import browser  # noqa: F401  (the shared chromium fixture)
from tests.web.test_axe import TAGS, serious

pytestmark = pytest.mark.browser

SIZES = {"390": (390, 844), "1280": (1280, 800)}
VIEWS = {"meta": ("--meta",), "trend": ("--trend", "week"), "cards": ("--cards",)}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The three views' files in ja and en, written by ``kifu stats`` over the weekly season."""
    import os
    import subprocess
    import sys

    from recorder.store import Store

    folder = tmp_path_factory.mktemp("meta")
    db = str(folder / "kifu.db")
    store = Store(db)
    weekly_season(store)
    store.close()
    env = {k: v for k, v in os.environ.items() if k not in ("KIFU_LANG", "KIFU_DB", "KIFU_READMODEL")}
    out = {}
    for (name, args), lang in itertools.product(VIEWS.items(), ("ja", "en")):
        path = folder / f"{name}-{lang}.html"
        subprocess.run([sys.executable, "-m", "recorder.cli", "--db", db, "stats", *args, "--html", str(path),
                        *(["--lang", "en"] if lang == "en" else [])], check=True, env=env, capture_output=True)
        out[(name, lang)] = path
    return out


# every view at both sizes in both languages, light; dark at one size per language (taking turns)
CASES = [(*c, "light") for c in itertools.product(VIEWS, SIZES, ("ja", "en"))] + [
    (name, size, lang, "dark") for name in VIEWS for size, lang in (("390", "en"), ("1280", "ja"))]


@pytest.mark.parametrize(("name", "size", "lang", "scheme"), CASES)
def test_each_view_is_axe_clean_and_readable_without_script(browser, files, name, size, lang, scheme):  # noqa: F811
    from axe_playwright_python.sync_playwright import Axe

    w, h = SIZES[size]
    context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(files[(name, lang)].as_uri())
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.evaluate("document.scripts.length") == 0
        assert [u for u in requests if not u.startswith("file://")] == []
        results = Axe().run(page, options={"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": TAGS}})
        found = serious(results.response)
        assert not found, f"{name} at {size} {lang}:\n" + "\n".join(found)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name} scrolls sideways"
        assert page.locator("table").count() >= 1
        charts = page.locator("svg[role=img]")
        if name != "cards":
            assert charts.count() == {"meta": 2, "trend": 4}[name]  # two games; share and win rate in the trend
        for i in range(charts.count()):
            svg = charts.nth(i)
            title_id, desc_id = svg.get_attribute("aria-labelledby").split()
            assert page.locator(f"#{title_id}").text_content().strip()
            assert page.locator(f"#{desc_id}").text_content().strip()
            # the chart's figure has a table of the same figures after it
            assert svg.evaluate("s => !!s.closest('section').querySelector('table')")
            box = svg.bounding_box()
            assert box and box["width"] <= w
        words = {"ja": {"meta": "アーキタイプ別の使用率", "trend": "アーキタイプ別の勝率", "cards": "デッキリストに採用"},
                 "en": {"meta": "Share of the field by archetype", "trend": "Win rate by archetype",
                        "cards": "in the deck list"}}
        assert words[lang][name] in page.text_content("body")
        page.screenshot(path=str(files[(name, lang)].with_suffix(f".{size}.{scheme}.png")), full_page=True)
    finally:
        context.close()
