"""What a match page needs that does not depend on the step shown, computed once per
(match, view, number of lines, language) and kept by the server (the report builds it once):
the timeline with every line in words, the header summary, the turns, the steps → goes
through, the counter chart and the deck lists.

A request then renders the board of one step and a window of the move list (``window``),
so its cost does not grow with the match.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from exports import chart
from exports.i18n import N_, gettext_for
from exports.notation import result_text
from exports.timeline import Row, Timeline, build
from exports.timeline import extend as timeline_extend
from projections.replay import Replay

WINDOW = 100  # lines of the move list a server page carries
TURNS_INLINE = 400  # a page lists the turns for "go to turn N" up to this many; beyond, it asks the server
DECK_LISTS = {"cards": N_("cards"), "evolution": N_("evolution dice"), "kofuda": N_("kofuda"),
              "stock": N_("stock"), "dice": N_("dice")}


@dataclass
class MatchView:
    timeline: Timeline
    lang: str
    m: dict[str, Any]  # timeline.summary() with result_text
    turns: list[tuple[int, int]]
    decks: list[dict[str, Any]]
    raw_lines: list[str]
    chart_title: str = ""
    _chart: Markup | None = None
    _series: tuple[Any, ...] | None = None  # what the chart is drawn from: counter, data, names, turn steps

    @property
    def steps(self) -> int:
        """Lines this view holds (its replay may have grown since: see ``extend``)."""
        return len(self.timeline.rows)

    def raw(self, seq: int) -> str:
        return self.raw_lines[seq - 1] if 1 <= seq <= len(self.raw_lines) else ""

    def window(self, step: int, size: int | None = WINDOW) -> tuple[int, int]:
        """Lines ``lo..hi`` (1-based, inclusive) of the page holding ``step``; every line
        when ``size`` is None."""
        total = self.steps
        if size is None or total <= size:
            return 1, total
        page = max(0, step - 1) // size
        lo = page * size + 1
        return lo, min(total, lo + size - 1)

    def rows(self, lo: int, hi: int) -> list[Row]:
        return self.timeline.rows[lo - 1 : hi]

    @property
    def note_steps(self) -> list[int]:
        """Steps that leave the board as it was (notes): → and autoplay skip them."""
        return self.timeline.note_steps

    @property
    def chart(self) -> Markup:
        """The counter chart, drawn when a page first asks for it at this length."""
        if self._chart is None:
            self._chart, self.chart_title = _draw_chart(self)
        return self._chart

    def chart_upto(self, step: int | None) -> Markup:
        """The chart with what comes after ``step`` hidden (the result still folded away);
        the whole chart for None."""
        if step is None:
            return self.chart
        if self._series is None:
            _draw_chart(self)
        assert self._series is not None
        counter, data, names, turn_at = self._series
        return chart.svg(counter, data, names, turn_at, self.lang, upto=step)

    def turn_step(self, turn: int) -> int:
        """The step whose board the first line of ``turn`` was played on (the nearest turn
        at or after it; the last step past the end)."""
        for n, step in self.turns:
            if n >= turn:
                return step
        return self.steps

    def extend(self) -> bool:
        """Follow the replay the timeline was built from, which has grown: add the new lines
        and refresh what depends on the end (summary, turns, chart). False when the new lines
        need a rebuild (a ruling or correction)."""
        if not timeline_extend(self.timeline):
            return False
        rep = self.timeline.replay
        self.raw_lines.extend(json.dumps(e, ensure_ascii=False) for e in rep.entries[len(self.raw_lines):])
        _summarise(self)
        return True


def prepare(rep: Replay, lang: str = "ja") -> MatchView:
    t = build(rep, lang)
    mv = MatchView(
        timeline=t, lang=lang, m={}, turns=[],
        decks=deck_lists(rep.header, lang),
        raw_lines=[json.dumps(e, ensure_ascii=False) for e in rep.entries],
    )
    _summarise(mv)
    return mv


def _summarise(mv: MatchView) -> None:
    """What depends on the end of the match: the summary and the turns (the chart is drawn
    again when a page asks for it)."""
    t, lang = mv.timeline, mv.lang
    rep = t.replay
    names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
    m = t.summary()
    res = m["result"]
    m["result_text"] = result_text(res["winner"], res["reason"], names, lang) if res else ""
    mv.m = m
    mv.turns = t.turns
    mv._chart = None
    mv._series = None
    if not mv.chart_title:
        mv._chart, mv.chart_title = _draw_chart(mv)


def _draw_chart(mv: MatchView) -> tuple[Markup, str]:
    t = mv.timeline
    rep = t.replay
    names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
    board_steps = [r.seq for r in t.rows if r.board_step] if not t.turns else []
    counter, data = chart.series(rep, chart.sample_steps(t.turns, board_steps, mv.steps), t.turn_boards)
    turn_at = {s: n for n, s in t.turns}
    mv._series = (counter, data, names, turn_at)
    return chart.svg(counter, data, names, turn_at, mv.lang), chart.chart_title(counter, mv.lang)


def deck_lists(header: Mapping[str, Any], lang: str = "ja") -> list[dict[str, Any]]:
    """Each player's deck as labelled lists of names (a card held three times shows ×3)."""
    _ = gettext_for(lang)
    out = []
    for p in header.get("players") or []:
        deck = p.get("deck") or {}
        lists = []
        for key, value in deck.items():
            if not isinstance(value, list) or not value:
                continue
            names = [str(v.get("name")) if isinstance(v, Mapping) else str(v) for v in value]
            counted: dict[str, int] = {}
            for n in names:
                counted[n] = counted.get(n, 0) + 1
            cards = [f"{n} ×{k}" if k > 1 else n for n, k in counted.items()]
            lists.append((_(DECK_LISTS[key]) if key in DECK_LISTS else str(key), cards))
        out.append({"id": p["id"], "name": p.get("name") or p["id"], "deck": deck.get("name") or "",
                    "archetype": deck.get("archetype") or "", "lists": lists})
    return out
