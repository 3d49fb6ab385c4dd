"""The card catalog (data/catalog.json) and the packing of base shapes (台座形) into 2×3 units.

The seed lists no card pool, so kifu ships a small sample catalog. Each card has a ``kind``
(``gbs`` GBSキャラ, ``character`` キャラ, ``item`` アイテム, ``skill`` スキル) and the numbers the
rules read: power, skill value, base shape (台座形, rows of ``#``/``.`` inside 2×3), item
restrictions (``equip``), skill timing and requirement, and ``combine`` for cards such as
《グレンラガン》 that only reach the field by 合体.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

KINDS = ("gbs", "character", "item", "skill")
TIMINGS = {"main": "【メイン】", "trap": "【罠】", "battle": "【戦闘】"}
# When a 【罠】 is sprung (GL-8.8): 「相手のフィギュアがバトルを仕掛けた時」 — in a battle its owner defends.
TRIGGERS = ("attacked",)
UNIT_ROWS, UNIT_COLS, UNITS = 2, 3, 3  # 台座: 2×3 = 6 コマ per unit, 3 units = 18

Cell = tuple[int, int]


@dataclass(frozen=True)
class Card:
    name: str
    kind: str
    power: int = 0
    skill: int = 0
    shape: tuple[str, ...] = ()
    figure: str | None = None  # the figure a gbs/item card stands for (defaults to its name)
    equip: tuple[str, ...] = ()  # item: figures it may be equipped to (empty = any)
    timing: str | None = None
    requirement: int = 0
    user: tuple[str, ...] = ()  # skill: figures that may use it (empty = any)
    combine: tuple[str, ...] = ()  # gbs placed only by 合体 of these figures
    text: str = ""
    draws: int = 0  # skill: 「カードをN枚引く」 — the cards its line draws (GL-8.6)
    readies: int = 0  # skill: 「自分のフィギュアN体を未行動状態にする」 — at most N, own (GL-8.7)
    trigger: str | None = None  # 【罠】: "attacked", sprung in a battle its owner defends (GL-8.8)

    @property
    def cells(self) -> frozenset[Cell]:
        return frozenset(
            (r, c) for r, row in enumerate(self.shape) for c, ch in enumerate(row) if ch == "#"
        )

    @property
    def needs_figure(self) -> bool:
        return self.kind in ("gbs", "item")

    def figure_name(self) -> str:
        return self.figure or self.name


def _card(raw: Mapping[str, Any]) -> Card:
    return Card(
        name=raw["name"],
        kind=raw["kind"],
        power=int(raw.get("power", 0)),
        skill=int(raw.get("skill", 0)),
        shape=tuple(raw.get("shape", ())),
        figure=raw.get("figure"),
        equip=tuple(raw.get("equip", ())),
        timing=raw.get("timing"),
        requirement=int(raw.get("requirement", 0)),
        user=tuple(raw.get("user", ())),
        combine=tuple(raw.get("combine", ())),
        text=raw.get("text", ""),
        draws=int(raw.get("draws", 0)),
        readies=int(raw.get("readies", 0)),
        trigger=raw.get("trigger"),
    )


@dataclass(frozen=True)
class Catalog:
    cards: Mapping[str, Card]
    decks: Mapping[str, Mapping[str, Any]]

    def get(self, name: str | None) -> Card | None:
        return self.cards.get(name) if name else None

    def figures(self) -> set[str]:
        return {c.figure_name() for c in self.cards.values() if c.needs_figure}

    def figure_cells(self, figure: str) -> frozenset[Cell]:
        """The base shape of a figure on the field (the shape of its GBS card)."""
        for card in self.cards.values():
            if card.kind == "gbs" and card.figure_name() == figure:
                return card.cells
        return frozenset({(0, 0)})


@cache
def load(path: str | None = None) -> Catalog:
    file = Path(path) if path else Path(__file__).parent / "data" / "catalog.json"
    raw = json.loads(file.read_text(encoding="utf-8"))
    cards = {c["name"]: _card(c) for c in raw["cards"]}
    return Catalog(cards=cards, decks=raw.get("decks", {}))


# --- packing base shapes into 2×3 units (台座形) -------------------------------------------


def _placements(cells: frozenset[Cell]) -> list[frozenset[Cell]]:
    """Every translation of ``cells`` inside one 2×3 unit (no rotation, no splitting)."""
    if not cells:
        return [frozenset()]
    h = max(r for r, _ in cells) + 1
    w = max(c for _, c in cells) + 1
    return [
        frozenset((r + dr, c + dc) for r, c in cells)
        for dr in range(UNIT_ROWS - h + 1)
        for dc in range(UNIT_COLS - w + 1)
    ]


def fits(shapes: Sequence[frozenset[Cell]], units: int = UNITS) -> bool:
    """Whether the shapes can be laid into ``units`` 2×3 units without overlap."""
    pieces = sorted(shapes, key=len, reverse=True)
    if sum(len(p) for p in pieces) > units * UNIT_ROWS * UNIT_COLS:
        return False
    return _place(pieces, [frozenset() for _ in range(units)], 0)


def _place(pieces: Sequence[frozenset[Cell]], used: list[frozenset[Cell]], i: int) -> bool:
    """Lay ``pieces[i:]`` into the units' ``used`` cells (backtracking). A module function, not
    a closure that calls itself: that is a reference cycle, which the rebuild (run without the
    cyclic collector) would never free."""
    if i == len(pieces):
        return True
    tried: set[frozenset[Cell]] = set()
    for u in range(len(used)):
        if used[u] in tried:  # identical units: trying one is enough
            continue
        tried.add(used[u])
        for spot in _placements(pieces[i]):
            if not spot & used[u]:
                used[u] = used[u] | spot
                if _place(pieces, used, i + 1):
                    return True
                used[u] = used[u] - spot
    return False

