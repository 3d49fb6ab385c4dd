"""Every line of the four shipped example matches re-entered on the recording page at 390×844
with touch, through the page's public contract alone (recorder/tools/tapdriver.py: data-field /
data-value, data-move, data-action="record", data-board), typing only words. The exported
match must have every field of the example's lines with equal values. The taps, scrolls, the
board in view at each tap of 記録する and the predicted first suggestion are counted and written
to artifacts/recording-taps-GAME.json (the bench's recording section counts the same figures).
The games are split over two files (this one and test_recording_taps_more.py) so that
`make test` runs them on two workers."""

from __future__ import annotations

import json
import statistics
import uuid

import httpx
import pytest
from playwright.sync_api import expect

from recorder.store import Store
from tests.web.conftest import ROOT, SHOTS, LiveServer
from recorder.tools.tapdriver import WAIT, WORDS, Thumb

pytestmark = pytest.mark.browser
ADMIN = "adm1n-t0ken"
GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")
FIGURES = ROOT / "artifacts"  # one file per game: two workers never write the same file
# The targets each game reaches (median taps ≤ 2, the most ≤ 6, no scroll for ≥ 90% of
# the moves, the first suggestion or the pre-selected type right for ≥ 90%), asserted for it.
# Over the four (256 moves): median 2, the most 6, no scroll 92.6%, predicted 90.2%
# (docs/recording-page.md); グレンラガン and ヴァリアンツ＝ウォー alone stay under 90% predicted, グレンラガン without a scroll.
# Over all four, the median ≤ 2 and 90% without a scroll, asserted game by game: the
# moves each game enters in at most 2 taps (at least; their sum, 165, is over half of the 256
# moves) and the moves it needs a scroll for (at most; their sum, 25, leaves 231 of 256, 90.2%).
# Today: 2, 46, 57, 97 moves in ≤ 2 taps; 0, 2, 10, 8 scrolled.
TWO_TAPS_AT_LEAST = {"gandice": 0, "mushijingi": 40, "gurren-lagann": 45, "variants-war": 80}
SCROLLED_AT_MOST = {"gandice": 1, "mushijingi": 3, "gurren-lagann": 12, "variants-war": 9}
# and 90% predicted, the moves whose first suggestion or pre-selected type is right (at least; the
# guess is the server's, the same every run: 231 of 256, 90.2%)
PREDICTED_AT_LEAST = {"gandice": 18, "mushijingi": 51, "gurren-lagann": 63, "variants-war": 99}
assert sum(TWO_TAPS_AT_LEAST.values()) > 256 / 2 and sum(SCROLLED_AT_MOST.values()) <= 256 - 0.9 * 256
assert sum(PREDICTED_AT_LEAST.values()) >= 0.9 * 256
REACHED = {
    "gandice": ("taps_max", "no_scroll", "predicted"),
    "mushijingi": ("taps_median", "taps_max", "no_scroll", "predicted"),
    "gurren-lagann": ("taps_median", "taps_max"),
    "variants-war": ("taps_median", "taps_max", "no_scroll"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("taps") / "kifu.db")
    Store(db).close()
    srv = LiveServer(db, ADMIN).start()
    yield srv
    srv.stop()


def example(game: str) -> tuple[dict, list[dict]]:
    lines = [json.loads(x) for x in (ROOT / "examples" / f"{game}-example.jsonl").read_text("utf-8").splitlines() if x]
    return lines[0], lines[1:]


def reenter(browser, server, game: str) -> tuple[list[dict], list[dict], list]:
    header, lines = example(game)
    mid = f"taps-{game}-{uuid.uuid4().hex[:6]}"
    header = dict(header, match=dict(header["match"], id=mid))
    store = Store(server.app.state.store.db)
    try:
        store.create(header, [])
    finally:
        store.close()
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  locale="ja-JP", device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/matches/{mid}/record#token={ADMIN}")
    expect(page.locator("#rec-types button[aria-pressed=true]")).to_have_count(1, timeout=WAIT)
    thumb, costs = Thumb(page), []
    for line in lines:
        costs.append(thumb.enter(line))
        thumb.landed(line["seq"])  # recorded, the queue empty, the line drawn
    page.screenshot(path=str(SHOTS / f"record-taps-{game}-390.png"))
    context.close()
    assert errors == []
    got = [json.loads(x) for x in httpx.get(f"{server.url}/api/matches/{mid}/log", timeout=10).text.splitlines()[1:]]
    return lines, got, costs


@pytest.mark.parametrize("game", ("variants-war", "gandice"))
def test_every_line_of_the_example_by_taps(browser, server, game):
    check_game(browser, server, game)


def check_game(browser, server, game: str) -> None:
    lines, got, costs = reenter(browser, server, game)
    missing = {line["seq"]: c.missing for line, c in zip(lines, costs) if c.missing}
    assert not missing, f"fields no control could set: {missing}"
    assert len(got) == len(lines)
    for want, have in zip(lines, got):
        differ = {k: (v, have.get(k)) for k, v in want.items() if have.get(k) != v}
        assert not differ, f"line {want['seq']}: {differ}"
        assert set(have) - set(want) <= {"at", "token"}, f"line {want['seq']}: extra {set(have) - set(want)}"
    typed = {line["seq"]: c.typed for line, c in zip(lines, costs)
             if any(n.rsplit(".", 1)[-1] not in WORDS for n in c.typed)}
    moves = [c for line, c in zip(lines, costs) if line["type"] != "annotate"]  # the figures are the moves'
    figures = {
        "lines": len(costs), "moves": len(moves),
        "taps": [c.taps for c in costs], "scrolls": [c.scrolls for c in costs],
        "board_px": [c.board_px for c in costs], "predicted": [c.predicted for c in costs],
        "trace": [c.trace for c in costs],
        "typed_not_words": {str(k): v for k, v in typed.items()},
        "taps_median": statistics.median(c.taps for c in moves), "taps_max": max(c.taps for c in moves),
        "no_scroll": sum(1 for c in moves if not c.scrolls) / len(moves),
        "board_in_view": sum(1 for c in moves if c.board_px >= 120) / len(moves),
        "predicted_share": sum(1 for c in moves if c.predicted) / len(moves),
        "note_taps_median": statistics.median([c.taps for line, c in zip(lines, costs) if line["type"] == "annotate"]),
    }
    assert figures["board_in_view"] == 1.0  # at every tap of 記録する (issue 37)
    # The other targets, asserted for the games that reach them (REACHED)
    reached = REACHED.get(game, {})
    if "taps_median" in reached:
        assert figures["taps_median"] <= 2, figures["taps_median"]
    if "taps_max" in reached:
        assert figures["taps_max"] <= 6, [(line["seq"], c.trace) for line, c in zip(lines, costs) if c.taps > 6]
    assert sum(1 for c in moves if c.taps <= 2) >= TWO_TAPS_AT_LEAST[game]  # the median over all four
    assert sum(1 for c in moves if c.scrolls) <= SCROLLED_AT_MOST[game], [  # 90% without a scroll over all four
        (line["seq"], c.trace) for line, c in zip(lines, costs) if c.scrolls]
    assert sum(1 for c in moves if c.predicted) >= PREDICTED_AT_LEAST[game], [  # 90% predicted over all four
        line["seq"] for line, c in zip(lines, costs) if not c.predicted and line["type"] != "annotate"]
    if "no_scroll" in reached:
        assert figures["no_scroll"] >= 0.9, [(line["seq"], c.trace) for line, c in zip(lines, costs) if c.scrolls]
    if "predicted" in reached:
        assert figures["predicted_share"] >= 0.9, figures["predicted_share"]
    FIGURES.mkdir(parents=True, exist_ok=True)
    (FIGURES / f"recording-taps-{game}.json").write_text(json.dumps(figures, ensure_ascii=False, indent=1), "utf-8")
    print(game, {k: v for k, v in figures.items() if not isinstance(v, list)})
