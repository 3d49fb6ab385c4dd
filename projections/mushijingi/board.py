"""The 蟲神器 board: frozen values, and the read-only questions rules ask of them.

Hidden information is kept honest: a hand card nobody saw is ``None`` (the count stays
exact) until a ``reveal`` or a later play names it; territory (縄張り) and deck are counts.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Any

from projections.base import Result
from projections.mushijingi.catalog import Card, Catalog
from projections.package import evolve

# The numbers the board is built from: deck size and copies (MJ-1.1, MJ-1.2), territory and
# opening hand (MJ-2.1, MJ-2.2). header.py checks deck lists against them.
DECK_SIZE = 20
MAX_COPIES = 2
TERRITORY = 6
OPENING_HAND = 4


@dataclass(frozen=True)
class Insect:
    """An insect on the field, known by ``uid`` (e.g. ``A1``: player A's first insect)."""

    uid: str
    card: str
    owner: str
    damage: int = 0
    enhancements: tuple[tuple[str, str], ...] = ()  # (card, owner), oldest first
    boost: int = 0  # attack bonus until the end of the turn (spells, effects)
    flipped: bool = False  # すくいなげ: absent until the end of the turn
    attacked: bool = False


@dataclass(frozen=True)
class Side:
    """One player's zones."""

    id: str
    deck: int = DECK_SIZE
    name: str = ""  # the player's name from the header (the seat id when it gives none)
    territory: int = 0
    hand: tuple[str | None, ...] = ()
    feed: tuple[str, ...] = ()  # エサ場, face up
    discard: tuple[str, ...] = ()
    deck_list: tuple[str, ...] = ()  # empty when the header gave none
    ready: bool = False  # setup done
    summoned: int = 0  # insects this player has put on the field (for uids)


@dataclass(frozen=True)
class Board:
    order: tuple[str, str]
    first: str
    catalog: Catalog
    rules: tuple[tuple[str, Any], ...]  # every house rule, sorted by name
    sides: tuple[Side, Side]
    field: tuple[Insect, ...] = ()
    turn: int = 0
    active: str = ""
    phase: str = "setup"  # setup, draw, set, main, over
    cost: int = 0
    spent: int = 0
    drew: bool = False
    fed: bool = False
    played: tuple[str, ...] = ()  # cards played or gone from the field this turn
    # insects that entered the field this turn: (card, "play" from hand | "effect")
    entered: tuple[tuple[str, str], ...] = ()
    # direct attacks this turn: (attacking insect's card, technique) — 「直接攻撃したとき」 (MJ-6.7)
    directs: tuple[tuple[str, str], ...] = ()
    result: Result | None = None

    def rule(self, name: str) -> Any:
        """A house rule of this match (header.initial_board fills in every default)."""
        for key, value in self.rules:
            if key == name:
                return value
        raise KeyError(name)

    def side(self, pid: str) -> Side:
        for s in self.sides:
            if s.id == pid:
                return s
        raise KeyError(pid)

    def name(self, pid: Any) -> str:
        """The player's name for people to read; the id itself when unknown."""
        for s in self.sides:
            if s.id == pid:
                return s.name or s.id
        return str(pid)

    def opponent(self, pid: str) -> str:
        return self.order[1] if pid == self.order[0] else self.order[0]

    def with_side(self, side: Side) -> Board:
        sides = tuple(side if s.id == side.id else s for s in self.sides)
        new: Board = evolve(self, sides=sides)
        return new

    def card(self, name: str | None) -> Card | None:
        return self.catalog.get(name)


def find_insect(board: Board, ref: Any, owner: str | None = None) -> Insect | None:
    """An insect by uid, or by card name when exactly one such insect is on the field."""
    if not isinstance(ref, str):
        return None
    pool = [i for i in board.field if owner is None or i.owner == owner]
    for ins in pool:
        if ins.uid == ref:
            return ins
    named = [i for i in pool if i.card == ref]
    return named[0] if len(named) == 1 else None


def present(board: Board, owner: str) -> list[Insect]:
    """Insects of ``owner`` that count as on the field (flipped ones do not)."""
    return [i for i in board.field if i.owner == owner and not i.flipped]


def colour_of(board: Board, ins: Insect) -> str:
    """The last colour-changing enhancement wins; else the card's own colour."""
    own = board.card(ins.card)
    colour = own.colour if own else ""
    for name, _ in ins.enhancements:
        card = board.card(name)
        if card and card.sets_colour:
            colour = card.sets_colour
    return colour


def max_hp(board: Board, ins: Insect) -> int:
    card = board.card(ins.card)
    base = card.hp if card else 0
    return base + sum(c.hp_bonus for c in map(board.card, enh_names(ins)) if c)


def attack_bonus(board: Board, ins: Insect) -> int:
    return ins.boost + sum(c.attack_bonus for c in map(board.card, enh_names(ins)) if c)


def enh_names(ins: Insect) -> list[str]:
    return [name for name, _ in ins.enhancements]


def beats(board: Board, attacker: str, defender: str) -> bool:
    """3すくみ: does colour ``attacker`` have the advantage over ``defender``?"""
    cycle = [c.strip() for c in str(board.rule("sukumi")).split(">") if c.strip()]
    return any(a == attacker and b == defender for a, b in itertools.pairwise(cycle))


def attack_value(board: Board, ins: Insect, technique: str, target: Insect | None) -> int:
    """The damage one technique deals: (attack + boosts) x2 under the three-way advantage."""
    card = board.card(ins.card)
    tech = card.technique(technique) if card else None
    value = (tech.attack if tech else 0) + attack_bonus(board, ins)
    if target is not None and beats(board, colour_of(board, ins), colour_of(board, target)):
        value *= 2
    return value


def seen_copies(board: Board, pid: str) -> Counter[str]:
    """Copies of each card of ``pid`` the record has named so far, in every zone."""
    side = board.side(pid)
    # the names in the order the zones are read, counted once (Counter.update per zone and per
    # insect cost most of a KIFU-3 check of the deciding line)
    names = [c for c in side.hand if c is not None]
    names += side.feed
    names += side.discard
    for ins in board.field:
        if ins.owner == pid:
            names.append(ins.card)
        names += [name for name, owner in ins.enhancements if owner == pid]
    return Counter(names)
