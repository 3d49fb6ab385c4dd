"""The card catalog (data/catalog.json) and the deck-building checks that need it.

The seed lists no card pool, so kifu ships a small sample catalog. Each card has a ``kind``
(``gbs`` GBSキャラ, ``character`` キャラ, ``item`` アイテム, ``skill`` スキル) and the numbers the
rules read: power, skill value, base shape (台座形, rows of ``#``/``.`` inside 2×3), item
restrictions (``equip``), skill timing and requirement, and ``combine`` for cards such as
《グレンラガン》 that only reach the field by 合体.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

KINDS = ("gbs", "character", "item", "skill")
TIMINGS = {"main": "【メイン】", "trap": "【罠】", "battle": "【戦闘】"}
UNIT_ROWS, UNIT_COLS, UNITS = 2, 3, 3  # 台座: 2×3 = 6 コマ per unit, 3 units = 18
DECK_SIZE, MAX_COPIES = 30, 3

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
    used: list[frozenset[Cell]] = [frozenset() for _ in range(units)]

    def place(i: int) -> bool:
        if i == len(pieces):
            return True
        tried: set[frozenset[Cell]] = set()
        for u in range(units):
            if used[u] in tried:  # identical units: trying one is enough
                continue
            tried.add(used[u])
            for spot in _placements(pieces[i]):
                if not spot & used[u]:
                    used[u] = used[u] | spot
                    if place(i + 1):
                        return True
                    used[u] = used[u] - spot
        return False

    return place(0)


def deck_problems(
    cards: Sequence[Any], stock: Sequence[Any], catalog: Catalog
) -> list[tuple[str, str]]:
    """(field suffix, problem) pairs for one player's deck: GL-1.1 … GL-1.7."""
    out: list[tuple[str, str]] = []
    names = [c for c in cards if isinstance(c, str)]
    if len(names) != len(cards):
        out.append(("cards", "every card must be a name (string)"))
    if len(cards) != DECK_SIZE:
        out.append(("cards", f"GL-1.1: the deck has {len(cards)} cards, needs exactly {DECK_SIZE}"))
    unknown = sorted({n for n in names if n not in catalog.cards})
    if unknown:
        out.append(("cards", f"GL-1.7: unknown card(s) {', '.join(unknown)}"))
    for name, n in sorted(Counter(names).items()):
        if n > MAX_COPIES:
            out.append(("cards", f"GL-1.2: {n} copies of {name} (at most {MAX_COPIES})"))
    out += _stock_problems(names, stock, catalog)
    return out


def _stock_problems(
    names: list[str], stock: Sequence[Any], catalog: Catalog
) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    figs = [s for s in stock if isinstance(s, str)]
    if len(figs) != len(stock):
        out.append(("stock", "every figure must be a name (string)"))
    for name, n in sorted(Counter(figs).items()):
        if n > 1:
            out.append(("stock", f"GL-1.3: {n} figures of {name} (one per name)"))
    bad = sorted(set(figs) - catalog.figures())
    if bad:
        out.append(("stock", f"GL-1.7: unknown figure(s) {', '.join(bad)}"))
    known = [catalog.cards[n] for n in dict.fromkeys(names) if n in catalog.cards]
    missing = sorted({c.figure_name() for c in known if c.needs_figure} - set(figs))
    if missing:
        out.append(("stock", f"GL-1.4: no figure in stock for {', '.join(missing)}"))
    for card in known:
        for part in card.combine:
            if part not in figs or not any(
                k.figure_name() == part and k.kind == "gbs" for k in known
            ):
                out.append(("cards", f"GL-1.6: {card.name} needs {part} in deck and stock"))
    pieces = {(c.figure_name(), c.cells) for c in known if c.needs_figure and not c.combine}
    if not fits([cells for _, cells in pieces]):
        total = sum(len(cells) for _, cells in pieces)
        out.append(("cards", f"GL-1.5: base shapes ({total} cells) do not fit 3 units of 2×3"))
    return out


def names_of(cards: Iterable[str | None]) -> list[str]:
    return [c for c in cards if c]
