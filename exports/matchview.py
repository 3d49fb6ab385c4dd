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
from projections.replay import Replay

WINDOW = 200  # lines of the move list a server page carries
DECK_LISTS = {"cards": N_("cards"), "evolution": N_("evolution dice"), "kofuda": N_("kofuda"),
              "stock": N_("stock"), "dice": N_("dice")}


@dataclass
class MatchView:
    timeline: Timeline
    lang: str
    m: dict[str, Any]  # timeline.summary() with result_text
    turns: list[tuple[int, int]]
    board_steps: list[int]
    chart: Markup
    chart_title: str
    decks: list[dict[str, Any]]
    raw_lines: list[str]

    @property
    def steps(self) -> int:
        return self.timeline.steps

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


def prepare(rep: Replay, lang: str = "ja") -> MatchView:
    t = build(rep, lang)
    names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
    m = t.summary()
    res = m["result"]
    m["result_text"] = result_text(res["winner"], res["reason"], names, lang) if res else ""
    turns = t.turn_starts()
    board_steps = t.board_steps()
    counter, data = chart.series(rep, chart.sample_steps(turns, board_steps, t.steps))
    turn_at = {s: n for n, s in turns}
    return MatchView(
        timeline=t, lang=lang, m=m, turns=turns, board_steps=board_steps,
        chart=chart.svg(counter, data, names, turn_at, lang), chart_title=chart.chart_title(counter, lang),
        decks=deck_lists(rep.header, lang),
        raw_lines=[json.dumps(e, ensure_ascii=False) for e in rep.entries],
    )


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
