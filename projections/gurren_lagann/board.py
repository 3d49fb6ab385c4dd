"""The board of one GBS match as a frozen value, and the field geometry (5 × 6 squares).

Squares are named like chess squares: columns ``a``–``e`` from the left of the first-listed
player (players[0]), rows ``1``–``6`` from that player's back row. Row 1 is players[0]'s
出陣ゾーン with its 本陣 at ``c1``; row 6 is players[1]'s with its 本陣 at ``c6``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from projections.gurren_lagann.catalog import Catalog, fits, load
from projections.package import evolve

COLUMNS = "abcde"
ROWS = 6
SQUARES = tuple(f"{c}{r}" for r in range(1, ROWS + 1) for c in COLUMNS)
LIFE, HAND_SIZE, HAND_LIMIT, FIRST_TURN_DEPLOYS = 5, 6, 6, 2
MOVEMENT, SQUARE_CELLS, SKILLS_PER_TURN = 2, 6, 3

@dataclass(frozen=True)
class Unit:
    """A character figure on the field with the cards attached to its GBS card."""

    figure: str
    owner: str
    card: str
    square: str
    acted: bool = True
    steps: int = 0
    supports: tuple[str, ...] = ()
    item: str | None = None
    item_figure: str | None = None


@dataclass(frozen=True)
class SkillCard:
    card: str | None  # None: a face-down card the scorekeeper could not see
    set: bool = False  # a 【罠】 card set face down


@dataclass(frozen=True)
class Side:
    id: str
    home_row: int
    deck: int
    hand: tuple[str | None, ...]
    stock: tuple[str, ...]
    decklist: tuple[str, ...]
    discard: tuple[str | None, ...] = ()
    skill_zone: tuple[SkillCard, ...] = ()
    damage: int = 0
    skills_used: int = 0
    deployed: int = 0
    name: str = ""  # the player's name from the header (the id when it has none)


@dataclass(frozen=True)
class Battle:
    attacker: str
    defender: str
    figures: tuple[str, ...]
    origin: str
    square: str
    defenders: tuple[str, ...]
    path: tuple[str, ...] = ()  # the attackers' route from ``origin`` to ``square``
    attack_bonus: int = 0
    defend_bonus: int = 0
    defender_skilled: bool = False


@dataclass(frozen=True)
class GLBoard:
    turn: int
    active: str
    first: str
    phase: str  # "draw" or "main"
    sides: tuple[Side, ...]
    units: tuple[Unit, ...] = ()
    battle: Battle | None = None
    options: tuple[tuple[str, Any], ...] = ()  # the house rules the header sets
    decked_out: str | None = None  # who drew from an empty deck (house rule deckout=draw)
    rules: tuple[tuple[str, Any], ...] = ()  # every house rule: the defaults with ``options`` over them

    def opt(self, name: str) -> Any:
        for key, value in self.rules:
            if key == name:
                return value
        raise KeyError(name)

    @property
    def catalog(self) -> Catalog:
        return load()


# --- geometry ----------------------------------------------------------------------------


def coords(square: str) -> tuple[int, int]:
    return COLUMNS.index(square[0]), int(square[1:])


def is_square(value: Any) -> bool:
    return isinstance(value, str) and value in SQUARES


@functools.lru_cache(maxsize=4096)  # 30 x 30 squares, two ways: asked for every path of every legal move listed
def adjacent(a: str, b: str, diagonal: bool) -> bool:
    (ca, ra), (cb, rb) = coords(a), coords(b)
    dc, dr = abs(ca - cb), abs(ra - rb)
    return (dc + dr == 1) or (diagonal and dc == 1 and dr == 1)


def headquarters(side: Side) -> str:
    return f"c{side.home_row}"


_ZONES = {row: tuple(f"{c}{row}" for c in COLUMNS) for row in range(1, ROWS + 1)}


def deploy_zone(side: Side) -> tuple[str, ...]:
    return _ZONES.get(side.home_row) or tuple(f"{c}{side.home_row}" for c in COLUMNS)


def zone_of(board: GLBoard, square: str) -> tuple[str | None, str]:
    """(owner, "hq"|"deploy"|"") of a square."""
    for side in board.sides:
        if square == headquarters(side):
            return side.id, "hq"
        if square in deploy_zone(side):
            return side.id, "deploy"
    return None, ""


def invasion(board: GLBoard, pid: str, path: Sequence[str]) -> tuple[str | None, int]:
    """(whose zone, damage) when ``pid``'s figures go along ``path`` (start square first) (GL-6.8).

    「相手の(通常)出陣ゾーンに侵入した場合 1ダメージ、本陣に侵入した場合 2ダメージを与える」:
    侵入 is entering. A move that ends on the enemy's 本陣 enters it (2); one that ends on a
    normal square of the enemy's 出陣ゾーン deals 1 if one of its steps crossed into the zone
    from outside it, nothing if it stayed inside (the 本陣 is part of the zone). With
    ``invasion_on_entry`` off (gurren-lagann/1) every move ending there deals the damage.
    """
    if len(path) < 2:
        return None, 0
    dest = path[-1]
    owner, kind = zone_of(board, dest)
    if owner is None or owner == pid:
        return None, 0
    if not board.opt("invasion_on_entry"):
        return owner, 2 if kind == "hq" else 1
    if kind == "hq":
        return (owner, 2) if path[-2] != dest else (None, 0)
    zone = deploy_zone(side(board, owner))
    if any(a not in zone and b in zone for a, b in itertools.pairwise(path)):
        return owner, 1
    return None, 0


# --- lookups -----------------------------------------------------------------------------


def side(board: GLBoard, pid: str) -> Side:
    for s in board.sides:
        if s.id == pid:
            return s
    return board.sides[0]


def name_of(board: GLBoard, pid: Any) -> str:
    """The name players and viewers know a seat by (its id when the header names nobody)."""
    for s in board.sides:
        if s.id == pid:
            return s.name or s.id
    return str(pid)


def opponent(board: GLBoard, pid: str) -> str:
    return next((s.id for s in board.sides if s.id != pid), pid)


def with_side(board: GLBoard, new: Side) -> GLBoard:
    return evolve(board, sides=tuple(new if s.id == new.id else s for s in board.sides))


def units_at(board: GLBoard, square: str) -> list[Unit]:
    return [u for u in board.units if u.square == square]


def own_units(board: GLBoard, pid: str) -> list[Unit]:
    return [u for u in board.units if u.owner == pid]


def find_unit(board: GLBoard, ref: Any, by: str) -> Unit | None:
    """A figure named ``ref``: ``"B:エンキ"`` names the owner; a bare name prefers ``by``'s."""
    if not isinstance(ref, str):
        return None
    owner, _, name = ref.rpartition(":")
    hits = [u for u in board.units if u.figure == name and (not owner or u.owner == owner)]
    mine = [u for u in hits if u.owner == by]
    found = mine or hits
    return found[0] if found else None


def cells_fit(board: GLBoard, figures: list[str]) -> bool:
    """Whether these character figures' bases fit one square (2×3, items not counted)."""
    return fits([board.catalog.figure_cells(f) for f in figures], units=1)


def power_of(board: GLBoard, unit: Unit) -> int:
    cat = board.catalog
    cards = [unit.card, *unit.supports, *([unit.item] if unit.item else [])]
    return sum(c.power for c in (cat.get(n) for n in cards) if c)


def skill_of(board: GLBoard, unit: Unit) -> int:
    cat = board.catalog
    cards = [unit.card, *unit.supports, *([unit.item] if unit.item else [])]
    return sum(c.skill for c in (cat.get(n) for n in cards) if c)


def names_on_field(board: GLBoard, pid: str) -> Iterator[str]:
    """Every card name on ``pid``'s 場 (GBS, support and item cards)."""
    for u in own_units(board, pid):
        yield u.card
        yield from u.supports
        if u.item:
            yield u.item


def take_from_hand(hand: tuple[str | None, ...], card: Any) -> tuple[tuple[str | None, ...], bool]:
    """Remove ``card`` from a hand: a known copy first, else one unknown card."""
    items = list(hand)
    for target in (card, None) if card is not None else (None,):
        if target in items:
            items.remove(target)
            return tuple(items), True
    return hand, False


def battle_outcome(attack: int, defend: int) -> str:
    """Who wins a battle of these powers: the lower loses, a tie loses both (GL-7.4)."""
    if attack > defend:
        return "attacker"
    if defend > attack:
        return "defender"
    return "both"
