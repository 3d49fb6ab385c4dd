"""The counter chart of a match: each player's natural counter (gandice alive characters,
mushijingi territory, gurren-lagann damage received, variants-war life) over the match, as
inline SVG with no external assets — the analogue of a chess evaluation graph. Every point
carries its step (``data-chart-step``), so a click jumps the board there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from markupsafe import Markup, escape

from exports.i18n import N_, gettext_for

COUNTERS = {"gandice": "alive", "mushijingi": "territory", "gurren-lagann": "damage", "variants-war": "life"}
LABELS = {
    "alive": N_("characters alive"),
    "territory": N_("territory"),
    "damage": N_("damage received"),
    "life": N_("life"),
}
MAX_POINTS = 120
COLOURS = ("var(--a)", "var(--b)", "var(--c)", "var(--d)")


def counter_of(board: Mapping[str, Any]) -> str | None:
    """The game's counter; for a game without one named here, the first whole-number field
    every player has."""
    game = str(board.get("game", ""))
    if game in COUNTERS:
        return COUNTERS[game]
    players = list((board.get("players") or {}).values())
    if not players:
        return None
    for key, value in players[0].items():
        if isinstance(value, int) and not isinstance(value, bool) and all(
            isinstance(p.get(key), int) and not isinstance(p.get(key), bool) for p in players
        ):
            return str(key)
    return None


def sample_steps(turn_starts: Sequence[tuple[int, int]], board_steps: Sequence[int], steps: int) -> list[int]:
    """The steps the chart shows: the start of every turn and the last step (or, for a game
    without turns, every move), at most MAX_POINTS of them spread evenly."""
    chosen = sorted({0, *(s for _, s in turn_starts), steps} if turn_starts else {0, *board_steps, steps})
    if len(chosen) > MAX_POINTS:
        stride = len(chosen) / (MAX_POINTS - 1)
        chosen = sorted({chosen[int(i * stride)] for i in range(MAX_POINTS - 1)} | {chosen[-1]})
    return chosen


def series(
    rep: Any, steps: Sequence[int], boards: Mapping[int, Any] | None = None
) -> tuple[str | None, dict[str, list[tuple[int, int]]]]:
    """``(counter, {player: [(step, value), ...]})`` from the ruleset's board JSON at each step;
    ``boards`` holds boards already folded (the timeline keeps the one where each turn starts),
    so the chart costs no second walk over the match."""
    boards = boards or {}
    counter: str | None = None
    out: dict[str, list[tuple[int, int]]] = {}
    for s in steps:
        board = boards.get(s)
        bj = dict(rep.ruleset.board_json(board if board is not None else rep.board(s)), game=rep.ruleset.name)
        counter = counter or counter_of(bj)
        if counter is None:
            return None, {}
        for pid, p in (bj.get("players") or {}).items():
            value = p.get(counter)
            if isinstance(value, int) and not isinstance(value, bool):
                out.setdefault(pid, []).append((s, value))
    return counter, out


def svg(
    counter: str | None,
    data: Mapping[str, Sequence[tuple[int, int]]],
    names: Mapping[str, str],
    turns: Mapping[int, int],
    lang: str = "ja",
    upto: int | None = None,
) -> Markup:
    """The chart: one line per player, x by sample, y from 0 to the highest value.

    ``upto``: the step on screen while the result is still folded away: what comes after it
    is drawn but hidden (class ``later``; the step-through script shows it as the reader
    steps on or opens the result), so no line runs ahead of the board, and the y axis goes
    only as high as the values shown (the script rescales it from ``data-value``, ``data-v0``
    and ``data-v1`` as more is shown). None shows the whole match.

    Each segment and point carries the step it reaches (``data-at``); each point is a button
    (``data-chart-step``) with the player, value and turn as its name, one of them in the tab
    order at a time (the script moves it with the arrow keys)."""
    if counter is None or not data:
        return Markup("")
    _ = gettext_for(lang)
    w, h, left, right, top, bottom = 640, 180, 34, 12, 12, 26
    xs = sorted({s for pts in data.values() for s, _v in pts})
    top_value = max(1, *(v for pts in data.values() for s, v in pts if upto is None or s <= upto))
    xi = {s: i for i, s in enumerate(xs)}

    def x(s: int) -> float:
        return left + (w - left - right) * (xi[s] / max(1, len(xs) - 1))

    def y(v: int) -> float:
        return top + (h - top - bottom) * (1 - v / top_value)

    def later(s: int) -> str:
        return " later" if upto is not None and s > upto else ""

    label = _(LABELS[counter]) if counter in LABELS else counter
    parts = [f'<svg class="chart" id="chart" viewBox="0 0 {w} {h}" role="group" '
             f'aria-label="{escape(label)}" data-counter="{escape(counter)}" data-y-top="{top}" '
             f'data-y-zero="{h - bottom}" data-top="{top_value}" preserveAspectRatio="none">']
    for tick, v in (("0", 0), ("half", top_value // 2), ("top", top_value)):
        parts.append(f'<line class="grid-l" data-tick="{tick}" x1="{left}" x2="{w - right}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
                     f'<text class="ax" data-tick="{tick}" x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end" aria-hidden="true">{v}</text>')
    start, end = _("start"), _("end")
    parts.append(f'<text class="ax" x="{left}" y="{h - 6}" aria-hidden="true">{escape(start)}</text>'
                 f'<text class="ax" x="{w - right}" y="{h - 6}" text-anchor="end" aria-hidden="true">{escape(end)}</text>')
    shown = max((s for s in xs if upto is None or s <= upto), default=xs[0])
    for i, (pid, pts) in enumerate(data.items()):
        colour = COLOURS[i % len(COLOURS)]
        for (s0, v0), (s1, v1) in pairwise(pts):
            parts.append(f'<line class="series{later(s1)}" data-player="{escape(pid)}" data-at="{s1}" data-v0="{v0}" data-v1="{v1}" '
                         f'x1="{x(s0):.1f}" y1="{y(v0):.1f}" x2="{x(s1):.1f}" y2="{y(v1):.1f}" style="stroke:{colour}"/>')
        who = names.get(pid, pid)
        for s, v in pts:
            turn = turns.get(s)
            when = _("turn {n}").format(n=turn) if turn is not None else _("line {n}").format(n=s)
            tip = f"{who}: {label} {v} ({when})"
            focus = "0" if i == 0 and s == shown else "-1"
            parts.append(
                f'<circle class="pt{later(s)}" cx="{x(s):.1f}" cy="{y(v):.1f}" r="5" style="fill:{colour}" '
                f'data-chart-step="{s}" data-at="{s}" data-player="{escape(pid)}" data-value="{v}" '
                f'role="button" tabindex="{focus}" aria-label="{escape(tip)}">'
                f"<title>{escape(tip)}</title></circle>"
            )
    parts.append("</svg>")
    legend = " ".join(
        f'<span class="lg" style="border-color:{COLOURS[i % len(COLOURS)]}">{escape(names.get(pid, pid))}</span>'
        for i, pid in enumerate(data)
    )
    return Markup("".join(parts) + f'<p class="legend">{legend}</p>')


def chart_title(counter: str | None, lang: str = "ja") -> str:
    if counter is None:
        return ""
    _ = gettext_for(lang)
    return _(LABELS[counter]) if counter in LABELS else counter
