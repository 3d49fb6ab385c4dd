"""``kifu report``: one self-contained HTML file (inline CSS and JS, no network) that steps
through a match, and still reads as a full timeline without JavaScript or on paper."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from exports import pages
from exports.timeline import build
from projections.replay import Replay


def report_html(
    header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], view: str = "ruled",
    step: int | None = None,
) -> str:
    rep = Replay(header, entries, view)
    timeline = build(rep)
    tables = {view: pages.board_table(timeline)}
    if timeline.has_rulings:
        other = "recorded" if view == "ruled" else "ruled"
        tables[other] = pages.board_table(build(Replay(header, entries, other, rep.ruleset)))
    print_boards = {s: pages.board_html(timeline, s) for s in timeline.annotated_steps()}
    shown = timeline.steps if step is None else max(0, min(step, timeline.steps))
    ctx = pages.match_context(
        timeline, mode="report", step=shown, link=lambda n: f"#step-{n}",
        config={"boards": tables, "views": list(tables)}, print_boards=print_boards,
    )
    return pages.render("match.html", ctx)
