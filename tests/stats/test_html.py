"""The HTML heatmap: escaping, the shared partial with its filter form (what the replay server
mounts), and the stand-alone file as Debian's chromium draws it."""

from __future__ import annotations

import os

import pytest

from exports import stats_render
from projections.errors import LogFormatError
from projections.stats import make_filters, report
from recorder.bulk import import_paths
from tests.stats.conftest import DATA
from tests.stats.helpers import match

CHROMIUM = "/usr/bin/chromium"


def rows():
    return [
        match("m1", [("A", "<script>alert(1)</script>", "x"), ("B", "光&影", "y")], "A"),
        match("m2", [("A", "<script>alert(1)</script>", "x"), ("B", "光&影", "y")], "A"),
        match("m3", [("A", "光&影", "y"), ("B", "光&影", "y")], "B"),
    ]


def test_names_are_escaped_and_cells_show_rate_n_interval():
    html = stats_render.render_html_fragment(report(rows()), lang="en")
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "光&amp;影" in html
    assert "100%" in html and "n=2" in html and "34–100%" in html  # wilson(2, 2) = 0.3424..1
    assert "mirror" in html and "<form" not in html
    assert html.lstrip().startswith('<section class="kifu-stats">')


def test_fragment_with_the_filter_form():
    r = report(rows(), make_filters(event="秋の大会", by="archetype", min_games=1))
    html = stats_render.render_html_fragment(r, form_action="/stats", lang="en")
    assert '<form class="filters" method="get" action="/stats">' in html
    for name in ("game", "event", "since", "until", "player", "by", "min_games"):
        assert f'name="{name}"' in html
    assert 'value="秋の大会"' in html and '<option value="archetype" selected>archetype</option>' in html


def test_fragment_for_query_catches_up_and_validates(store):
    import_paths(store, [str(DATA)])
    html = stats_render.fragment_for_query(store, {"game": "", "event": "秋の大会", "by": "deck", "min_games": "3"}, lang="en")
    assert "闇ダイスデッキ" in html and "核デッキ" in html and "Left out by min. matches" in html
    with pytest.raises(LogFormatError, match="--since"):
        stats_render.fragment_for_query(store, {"since": "soon"})


def test_empty_report_renders():
    html = stats_render.render_html_page(report([]), lang="en")
    assert "No finished matches" in html and "</html>" in html


@pytest.mark.browser
def test_heatmap_in_chromium(tmp_path):
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    data = rows() + [match("m4", [("A", "核", "z"), ("B", "光&影", "y")], "B")]
    path = tmp_path / "stats.html"
    path.write_text(stats_render.render_html_page(report(data), lang="en"), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            requests: list[str] = []
            page.on("request", lambda req: requests.append(req.url))
            page.goto(path.as_uri())
            cells = page.locator("table.matrix td.cell")
            assert cells.count() == 5  # 2 x (script vs 光), 光 vs 核 and back, 1 mirror
            colours = page.eval_on_selector_all(
                "table.matrix td.cell:not(.mirror)",
                "els => els.map(e => [e.querySelector('.rate').textContent, getComputedStyle(e).backgroundColor])")
            by_rate = dict(colours)
            assert by_rate["100%"] == "rgb(90, 190, 110)" and by_rate["0%"] == "rgb(230, 110, 100)"
            assert page.locator("td.mirror").inner_text().startswith("mirror")
            assert errors == [] and requests == [path.as_uri()]  # self-contained: nothing else fetched
            shots = os.path.join(os.path.dirname(__file__), "..", "..", "artifacts", "screenshots")
            os.makedirs(shots, exist_ok=True)
            page.screenshot(path=os.path.join(shots, "stats-heatmap.png"), full_page=True)
        finally:
            browser.close()


def test_result_reasons_read_as_words_in_the_page_and_the_terminal():
    from io import StringIO

    from rich.console import Console

    r = report([match("m1", [("A", "闇", "x"), ("B", "光", "y")], "A", reason="all_graveyard"),
                match("m2", [("A", "闇", "x"), ("B", "光", "y")], "B", reason="penalty-game-loss"),
                match("m3", [("A", "闇", "x"), ("B", "光", "y")], "B", reason="sudden-death")])
    ja, en = stats_render.render_html_fragment(r), stats_render.render_html_fragment(r, lang="en")
    for html, words in ((ja, ["相手のキャラダイスが全て墓場", "罰則: ゲームロス"]),
                        (en, ["every opposing character die in the graveyard", "penalty: game loss"])):
        table = html[html.index('<table class="reasons">'):]
        table = table[: table.index("</table>")]
        assert all(f'<th class="row">{w}</th>' in table for w in words), table
        assert "all_graveyard" not in table and '<th class="row">sudden-death</th>' in table  # unknown: as it is
    out = StringIO()
    stats_render.print_terminal(r, console=Console(file=out, width=120))
    assert "相手のキャラダイスが全て墓場" in out.getvalue() and "all_graveyard" not in out.getvalue()
    assert "all_graveyard" in stats_render.to_csv(r) and "all_graveyard" in stats_render.to_json(r)  # data keep the code
