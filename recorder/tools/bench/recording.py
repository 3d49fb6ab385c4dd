"""The scorekeeper at the table (issue 37): the four example matches re-entered on the recording
page at 390×844 in chromium, through a real ``kifu serve --workers 1`` on SQLite, by the page's
public contract alone (recorder/tools/tapdriver.py). Per game and run: taps per line (median,
max), the share of lines entered without a scroll, the share with at least 120 px of the board
in view at the tap of 記録する, the share whose first suggestion or pre-selected type was right,
and the time from the record tap to the line acknowledged (median and p95 over the run's lines).

Quick mode enters the first lines of each example (a count of lines, never a time budget); the
full bench enters every line. Each run starts a fresh match."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

from recorder.tools.bench.context import Bench, with_id
from recorder.tools.bench.measure import BenchError, Goal, Runs, figure

HOST = "127.0.0.1"
TOKEN = "bench-t4ps-token"
GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
BOARD_PX = 120
QUICK_LINES = 3  # lines of each example a quick run enters (tests/core/test_bench_recording.py)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def example(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(x) for x in (EXAMPLES / f"{game}-example.jsonl").read_text("utf-8").splitlines() if x]
    return lines[0], lines[1:]


def bench_recording(b: Bench) -> None:
    import os

    from playwright.sync_api import expect, sync_playwright

    from recorder.store import Store
    from recorder.tools.bench.pages import free_port, server
    from recorder.tools.tapdriver import WAIT, Thumb

    if not os.path.exists(CHROMIUM):
        raise BenchError(f"{CHROMIUM} is missing: run `make browser` first")
    count = b.size(10_000, QUICK_LINES)  # lines of each example a run enters (quick: the first few)
    db = b.path("recording.db")
    Store(db).close()
    port = free_port()
    argv = [*b.kifu, "--db", db, "serve", "--host", HOST, "--port", str(port), "--token", TOKEN, "--workers", "1"]
    with b.step("recording page re-entering the examples by taps (kifu serve, chromium)", len(GAMES) * b.runs) \
            as advance, server(argv, port, str(b.tmp)), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            every: dict[int, list[Any]] = {}  # per run, the costs of every game's moves: the figures over all four
            for game in GAMES:
                header, lines = example(game)
                lines = lines[:count]
                moves = [i for i, line in enumerate(lines) if line["type"] != "annotate"]
                figures = _move_runs()
                figures.update(ack=Runs("ms", higher_is_better=False), ack_p95=Runs("ms", higher_is_better=False))
                for r in range(b.runs):
                    store = Store(db)
                    try:
                        mid = store.create(with_id(header, f"taps-{game}-{r}"), [])
                    finally:
                        store.close()
                    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                                  is_mobile=True, locale="ja-JP", device_scale_factor=1)
                    page = context.new_page()
                    page.goto(f"http://{HOST}:{port}/matches/{mid}/record#token={TOKEN}")
                    expect(page.locator("#rec-types button[aria-pressed=true]")).to_have_count(1, timeout=WAIT)
                    thumb, costs, acks = Thumb(page), [], []
                    for line in lines:
                        cost = thumb.enter(line)
                        thumb.landed(line["seq"])
                        if cost.missing:
                            raise BenchError(f"{game} line {line['seq']}: no control for {', '.join(cost.missing)}")
                        costs.append(cost)
                        ack = thumb.ack_ms()
                        if ack is not None:
                            acks.append(ack)
                    context.close()
                    mine = [costs[i] for i in moves]
                    every.setdefault(r, []).extend(mine)
                    _add_moves(figures, mine)
                    figures["ack"].add(statistics.median(acks))
                    figures["ack_p95"].add(p95(acks))
                    advance()
                notes = (f"{len(lines)} lines of examples/{game}-example.jsonl a run ({len(moves)} moves: the "
                         "figures but the time are over the moves, notes left out), a fresh match each run; "
                         "390×844 touch, chromium; kifu serve --workers 1 on SQLite")
                sec = "recording"
                what = dict(MOVE_FIGURES)
                what["taps"] = ("taps per move, median (a select pick 2, a reveal 1)", MOVE_FIGURES["taps"][1])
                what |= {
                    "ack": ("record tap to the line acknowledged, median of the run", None),
                    "ack_p95": ("record tap to the line acknowledged, p95 of the run", None),
                }
                for key, (text, goal) in what.items():
                    figure(b.results, f"recording.sqlite.{game}.{key}", section=sec, backend="sqlite",
                           what=f"{text} ({game})", runs=figures[key], goal=goal, notes=notes)
            _all_games(b, every, count)
        finally:
            browser.close()


# The figures over a list of moves: what each says and its goal (issue 37).
MOVE_FIGURES: dict[str, tuple[str, Goal | None]] = {
    "taps": ("taps per move, median", Goal("median ≤ 2 (issue 37)", "<=", 2, "median")),
    "taps_max": ("taps per move, the most", Goal("≤ 6 (issue 37)", "<=", 6, "median")),
    "no_scroll": ("moves entered without a scroll", Goal("≥ 90% (issue 37)", ">=", 90, "median")),
    "board": (f"moves with ≥ {BOARD_PX} px of the board in view at 記録する", Goal("every move (issue 37)", ">=", 100, "median")),
    "predicted": ("moves whose first suggestion or pre-selected type was right", Goal("≥ 90% (issue 37)", ">=", 90, "median")),
}


def _move_runs() -> dict[str, Runs]:
    return {k: Runs(u, higher_is_better=h) for k, u, h in (
        ("taps", "taps", False), ("taps_max", "taps", False), ("no_scroll", "%", True),
        ("board", "%", True), ("predicted", "%", True))}


def _add_moves(figures: dict[str, Runs], mine: list[Any]) -> None:
    """One run's figures over its moves: the median and most taps, the shares without a scroll,
    with the board in view at the record tap, and predicted."""
    figures["taps"].add(statistics.median(c.taps for c in mine))
    figures["taps_max"].add(max(c.taps for c in mine))
    figures["no_scroll"].add(100 * sum(1 for c in mine if not c.scrolls) / len(mine))
    figures["board"].add(100 * sum(1 for c in mine if c.board_px >= BOARD_PX) / len(mine))
    figures["predicted"].add(100 * sum(1 for c in mine if c.predicted) / len(mine))


def _all_games(b: Bench, every: dict[int, list[Any]], count: int) -> None:
    """The issue's figures over the moves of all four examples (256 in a full run), per run."""
    figures = _move_runs()
    for mine in every.values():
        _add_moves(figures, mine)
    moves = len(next(iter(every.values()), []))
    notes = (f"the {moves} moves of the four examples together ({count if count < 10_000 else 'all'} lines of each a run), "
             "as the per-game figures above; 390×844 touch, chromium; kifu serve --workers 1 on SQLite")
    for key, (text, goal) in MOVE_FIGURES.items():
        figure(b.results, f"recording.sqlite.all.{key}", section="recording", backend="sqlite",
               what=f"{text}, all four games", runs=figures[key], goal=goal, notes=notes)


__all__ = ["bench_recording"]
