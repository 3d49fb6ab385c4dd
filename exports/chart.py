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


# -- metagame charts (kifu stats --meta / --trend, and the event's site) ---------------------------
#
# Each is an inline SVG (no script, no external asset) with a text alternative: role="img",
# aria-labelledby its <title> and <desc>, and every point or bar a <title> of its own. The
# figures are always also in a table beside the chart (the templates put it there), so nothing
# is only in the picture.

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22")
MARKERS = ("circle", "square", "diamond", "triangle")


def series_colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _marker(kind: str, x: float, y: float, colour: str, inner: str) -> str:
    if kind == "square":
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{colour}">{inner}</rect>'
    if kind == "diamond":
        return (f'<polygon points="{x:.1f},{y - 5:.1f} {x + 5:.1f},{y:.1f} {x:.1f},{y + 5:.1f} {x - 5:.1f},{y:.1f}" '
                f'fill="{colour}">{inner}</polygon>')
    if kind == "triangle":
        return (f'<polygon points="{x:.1f},{y - 5:.1f} {x + 5:.1f},{y + 4:.1f} {x - 5:.1f},{y + 4:.1f}" '
                f'fill="{colour}">{inner}</polygon>')
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{colour}">{inner}</circle>'


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x * 100:.0f}%"


def share_bars(items: Sequence[Mapping[str, Any]], chart_id: str, title: str, desc: str,
               lang: str = "ja") -> Markup:
    """Horizontal bars of share of the field: ``items`` are ``{"name", "share", "players"}``
    (the metagame's archetypes), largest first; each bar says its name, share and count."""
    _ = gettext_for(lang)
    w, row_h, top = 600, 36, 4
    h = top + row_h * max(1, len(items)) + 4
    biggest = max([float(i.get("share") or 0) for i in items] + [0.01])
    parts = [f'<svg class="kifu-chart share" id="{escape(chart_id)}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-labelledby="{escape(chart_id)}-t {escape(chart_id)}-d" width="100%">'
             f'<title id="{escape(chart_id)}-t">{escape(title)}</title><desc id="{escape(chart_id)}-d">{escape(desc)}</desc>']
    for i, item in enumerate(items):
        y = top + i * row_h
        frac = float(item.get("share") or 0)
        bar = max(1.0, (w - 70) * frac / biggest)
        label = _("{name}: {share} of the field ({n} players)").format(
            name=item["name"], share=_pct(item.get("share")), n=item.get("players", 0))
        parts.append(f'<g><title>{escape(label)}</title>'
                     f'<text x="0" y="{y + 13}" class="lbl" fill="currentColor">{escape(item["name"])}</text>'
                     f'<rect x="0" y="{y + 17}" width="{bar:.1f}" height="14" fill="{series_colour(i)}"/>'
                     f'<text x="{bar + 6:.1f}" y="{y + 29}" class="val" fill="currentColor">'
                     f'{_pct(item.get("share"))} ({item.get("players", 0)})</text></g>')
    parts.append("</svg>")
    return Markup("".join(parts))


def trend_lines(labels: Sequence[str], samples: Sequence[int], series: Mapping[str, Sequence[tuple[float | None, int]]],
                chart_id: str, title: str, desc: str, lang: str = "ja") -> Markup:
    """Lines over periods, y from 0% to 100%: ``labels`` the periods, ``samples`` each
    period's sample size (written under its label, ``n=…``), ``series`` {name: [(value or
    None, n), ...]} one per period (a gap where None). Each point's <title> gives the name,
    period, value and its own n. Series differ by colour and by marker shape."""
    _ = gettext_for(lang)
    count = max(1, len(labels))
    slanted = count > 4  # many periods: each label and its n slanted, in one line
    w, h, left, right, top, bottom = 480, 250 if slanted else 230, 76 if slanted else 40, 16, 12, 80 if slanted else 46

    def x(i: int) -> float:
        return left + (w - left - right) * (i + 0.5) / count

    def y(v: float) -> float:
        return top + (h - top - bottom) * (1 - v)

    parts = [f'<svg class="kifu-chart trend" id="{escape(chart_id)}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-labelledby="{escape(chart_id)}-t {escape(chart_id)}-d" width="100%">'
             f'<title id="{escape(chart_id)}-t">{escape(title)}</title><desc id="{escape(chart_id)}-d">{escape(desc)}</desc>']
    for v in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="currentColor" '
                     f'stroke-opacity="{0.5 if v == 0.5 else 0.18}"/>'
                     f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end" class="ax" fill="currentColor">{v * 100:.0f}%</text>')
    for i, (label, n) in enumerate(zip(labels, samples)):
        if slanted:
            parts.append(f'<text x="{x(i):.1f}" y="{h - bottom + 14}" text-anchor="end" class="ax" fill="currentColor" '
                         f'transform="rotate(-40 {x(i):.1f} {h - bottom + 14})">{escape(label)} n={n}</text>')
        else:
            parts.append(f'<text x="{x(i):.1f}" y="{h - bottom + 16}" text-anchor="middle" class="ax" fill="currentColor">{escape(label)}</text>'
                         f'<text x="{x(i):.1f}" y="{h - bottom + 32}" text-anchor="middle" class="ax n" fill="currentColor">n={n}</text>')
    for k, (name, points) in enumerate(series.items()):
        colour, marker = series_colour(k), MARKERS[k % len(MARKERS)]
        prev: tuple[float, float] | None = None
        for i, (value, n) in enumerate(points):
            if value is None:
                prev = None
                continue
            px, py = x(i), y(value)
            if prev is not None:
                parts.append(f'<line x1="{prev[0]:.1f}" y1="{prev[1]:.1f}" x2="{px:.1f}" y2="{py:.1f}" '
                             f'stroke="{colour}" stroke-width="2"/>')
            prev = (px, py)
            tip = _("{name}, {period}: {value} (n={n})").format(name=name, period=labels[i], value=_pct(value), n=n)
            parts.append(_marker(marker, px, py, colour, f"<title>{escape(tip)}</title>"))
    parts.append("</svg>")
    return Markup("".join(parts))


def legend(names: Sequence[str]) -> Markup:
    """The series' names with their colour and marker, as HTML beside a chart."""
    items = []
    for k, name in enumerate(names):
        svg_marker = _marker(MARKERS[k % len(MARKERS)], 6, 6, series_colour(k), "")
        items.append(f'<li><svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">{svg_marker}</svg> '
                     f'{escape(name)}</li>')
    return Markup(f'<ul class="kifu-legend">{"".join(items)}</ul>')
