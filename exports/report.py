"""``kifu report``: one self-contained HTML file (inline CSS and JS, no network) that steps
through a match, and still reads as a full timeline without JavaScript or on paper.

A finished match opens at its start with the result folded away (spoiler-free), unless a
step is asked for or the reader chose to see results (a setting kept in the browser).
``overlay=True`` writes the broadcast view instead (big board, no chrome, a chroma-key or
transparent background) for a streaming browser source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from exports import i18n, pages
from exports.i18n import N_
from exports.matchview import MatchView, prepare
from projections.replay import Replay

START = N_("start of the match")


def report_html(
    header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], view: str = "ruled",
    step: int | None = None, lang: str = "ja", spoiler_free: bool = True, overlay: bool = False,
    background: str = "transparent", extra: Mapping[str, Any] | None = None, public: bool = False,
) -> str:
    """``public``: the match as a reader who may not see its event's closed deck lists sees it
    (projections/secrecy.py); ``extra``: more of match.html's context (an event site's links)."""
    lang = i18n.pick(lang)
    make: Any = Replay
    if public:
        from projections import secrecy  # type: ignore[attr-defined,unused-ignore]  # branch lists

        make = secrecy.PublicReplay
    rep = make(header, entries, view)
    mv = prepare(rep, lang)
    views: dict[str, MatchView] = {view: mv}
    if mv.timeline.has_rulings:
        other = "recorded" if view == "ruled" else "ruled"
        views[other] = prepare(make(header, entries, other, rep.ruleset), lang)
    finished = mv.m["result"] is not None
    if step is None:
        shown = 0 if finished and spoiler_free else mv.steps
    else:
        shown = max(0, min(step, mv.steps))
    if overlay:
        return _overlay(mv, shown, background)
    tables = {v: pages.board_table(x.timeline) for v, x in views.items()}
    start = i18n.gettext_for(lang)(START)
    captions = {v: [start] + [r.caption for r in x.timeline.rows] for v, x in views.items()}
    results = {}
    for v, x in views.items():
        results[v] = pages.render("_result.html", {"m": x.m, "spoiler_free": spoiler_free and finished}, lang)
    print_boards = {s: pages.board_html(mv.timeline, s) for s in mv.timeline.annotated_steps()}
    ctx = pages.match_context(
        mv, mode="report", step=shown, link=lambda n: f"#step-{n}",
        config={"boards": tables, "views": list(tables), "captions": captions, "results": results},
        print_boards=print_boards, spoiler_free=spoiler_free,
    )
    return pages.render("match.html", {**ctx, **(extra or {})}, lang)


def _overlay(mv: MatchView, step: int, background: str) -> str:
    tables = {mv.timeline.replay.view: pages.board_table(mv.timeline)}
    start = i18n.gettext_for(mv.lang)(START)
    ctx = pages.overlay_context(mv, step, background, config={
        "boards": tables, "captions": {mv.timeline.replay.view: [start] + [r.caption for r in mv.timeline.rows]},
    })
    return pages.render("overlay.html", ctx, mv.lang)
