"""Board values and geometry of ヴァリアンツ＝ウォー (docs/rules/variants-war.md, VW-1).

The field is 5 columns (a–e) by 5 rows (0–4). Row 0 is the first-seated player's back row,
row 1 their own battlefield (自陣戦場), row 2 the common battlefield (共通戦場), row 3 the
second-seated player's own battlefield and row 4 their back row. In each back row columns
b and d are sortie zones (出撃ゾーン), columns a, c and e retreat zones (撤退ゾーン).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from projections.package import evolve
from projections.variants_war import catalog

COLS = "abcde"
ROWS = range(5)
SORTIE_COLS = "bd"
RETREAT_COLS = "ace"
FIELD_ROWS = (1, 2, 3)
CENTRE = "c2"
# Lock-on squares (ロックオンマス) numbered clockwise seen from the first seat, starting
# at its front-left: 1 b1, 2 c1, 3 d1, 4 d2, 5 d3, 6 c3, 7 b3, 8 b2.
LOCKON = {1: "b1", 2: "c1", 3: "d1", 4: "d2", 5: "d3", 6: "c3", 7: "b3", 8: "b2"}

SQUARES = tuple(f"{c}{r}" for r in ROWS for c in COLS)
ORDER_OF = {sq: i for i, sq in enumerate(SQUARES)}
PHASES = ("draft", "setup", "draw", "standby", "main", "battle", "master", "over")


def col(sq: str) -> int:
    return COLS.index(sq[0])


def row(sq: str) -> int:
    return int(sq[1:])


def square(c: int, r: int) -> str | None:
    if 0 <= c < len(COLS) and r in ROWS:
        return f"{COLS[c]}{r}"
    return None


def is_square(sq: Any) -> bool:
    return isinstance(sq, str) and sq in SQUARES


def is_field(sq: str) -> bool:
    return row(sq) in FIELD_ROWS


def back_kind(sq: str) -> str | None:
    """'sortie' / 'retreat' for back-row zones, None for battlefield squares."""
    if row(sq) in FIELD_ROWS:
        return None
    return "sortie" if sq[0] in SORTIE_COLS else "retreat"


def zone_name(sq: str, seat: int | None = None) -> str:
    r = row(sq)
    if r == 2:
        return "common"
    if r in (1, 3):
        return "field"
    return back_kind(sq) or "?"


def home_row(seat: int) -> int:
    return 0 if seat == 0 else 4


def field_row(seat: int) -> int:
    return 1 if seat == 0 else 3


def forward(seat: int) -> int:
    return 1 if seat == 0 else -1


def step(a: str, b: str) -> tuple[int, int]:
    return col(b) - col(a), row(b) - row(a)


def neighbours8(sq: str) -> list[str]:
    out = []
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if dc or dr:
                s = square(col(sq) + dc, row(sq) + dr)
                if s:
                    out.append(s)
    return out


@dataclass(frozen=True)
class Mod:
    """A temporary modifier on ATK or DEF: add ``amount``, ``halve`` or ``set`` to ``amount``."""

    stat: str
    op: str
    amount: int
    until: int  # last turn it is in force


@dataclass(frozen=True)
class Monster:
    card: str
    owner: str
    source: str  # "deck", "rescue" or "ex" (ace)
    position: str | None = None  # "attack" (縦) / "defence" (横); None in sortie/retreat zones
    arrived: int = 0  # turn it arrived on the field (aces cannot move that turn)
    moves: int = 0  # moves used this turn
    extra_moves: int = 0  # moves granted this turn without using the action (ヒーローハート, 士気高揚)
    acted: bool = False  # normal effect activated this turn
    turned: bool = False  # position changed this turn
    lateral: int = 0  # lateral-move triggers pending this turn
    atk_bonus: int = 0  # permanent (グランデューク)
    mods: tuple[Mod, ...] = ()
    statuses: tuple[tuple[str, int], ...] = ()  # (status, last turn): no_effect, no_action, ...

    def has(self, status: str, turn: int) -> bool:
        return any(s == status and turn <= until for s, until in self.statuses)


@dataclass(frozen=True)
class HandCard:
    card: str | None  # None: drawn unseen
    source: str  # pile it came from: "deck", "rescue", "magic"


@dataclass(frozen=True)
class Pile:
    """A deck. ``cards`` from the top, None = position not known; ``pool`` = the multiset of
    names at unknown places attributable to this pile (None entries + unseen hand cards)."""

    cards: tuple[str | None, ...] = ()
    pool: tuple[str, ...] = ()

    @staticmethod
    def shuffled(names: tuple[str, ...] | list[str]) -> Pile:
        return Pile(tuple(None for _ in names), tuple(sorted(names)))

    def take(self, name: str | None) -> tuple[Pile, str | None]:
        """Draw the top card (recorded as ``name``, None if unseen): (pile, name in hand)."""
        if not self.cards:
            return self, name
        top, rest = self.cards[0], self.cards[1:]
        if top is not None:
            return Pile(rest, self.pool), top
        if name is None:
            return Pile(rest, self.pool), None
        return Pile(rest, _without(self.pool, name)), name

    def bottom(self, name: str | None) -> Pile:
        return Pile(self.cards + (name,), self.pool)

    def forget(self, name: str) -> Pile:
        return Pile(self.cards, _without(self.pool, name))


def _without(pool: tuple[str, ...], name: str) -> tuple[str, ...]:
    lst = list(pool)
    if name in lst:
        lst.remove(name)
    return tuple(lst)


@dataclass(frozen=True)
class Player:
    id: str
    seat: int
    faction: str | None
    life: int = 3
    name: str = ""  # the player's name from the header (the id when it has none)
    deck: Pile = field(default_factory=Pile)
    hand: tuple[HandCard, ...] = ()
    ex: tuple[str, ...] = ()  # ace waiting in the EX deck
    gone: tuple[str, ...] = ()  # aces that left the field (never return)
    picks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Arctos:
    facing: str  # player id it faces (who rolled the 12)
    since: int  # turn it appeared
    damage: int = 0


@dataclass(frozen=True)
class Board:
    players: tuple[Player, ...]
    first: str
    options: tuple[tuple[str, Any], ...]
    squares: tuple[tuple[str, Monster], ...] = ()
    rescue: Pile = field(default_factory=Pile)
    magic: Pile = field(default_factory=Pile)
    draft_pool: tuple[str, ...] = ()
    draft_first: str = ""  # who picked first (ジャンケン decides: VW-2.2); picks alternate from them
    phase: str = "draft"
    turn: int = 0
    active: str = ""
    drawn: bool = False
    sortied: bool = False
    fought: frozenset[str] = frozenset()
    used: frozenset[str] = frozenset()  # main-phase actions (行動権) used this turn: move, effect, position
    specials: frozenset[str] = frozenset()  # squares whose ace's special effect (特殊効果) fired this turn
    resolved: bool = False  # breakthrough (敵陣突破) resolved this turn
    mastered: bool = False
    arctos: Arctos | None = None
    arctos_destroyed: bool = False
    sealed: tuple[tuple[str, int], ...] = ()  # (square, last turn) no card may be placed (シール・イール)
    winner: str | None = None
    reason: str | None = None

    # --- lookups -------------------------------------------------------------------
    def opt(self, name: str) -> Any:
        return dict(self.options)[name]

    def at(self, sq: str | None) -> Monster | None:
        for s, m in self.squares:
            if s == sq:
                return m
        return None

    def player(self, pid: str) -> Player:
        return next(p for p in self.players if p.id == pid)

    def seat(self, pid: str) -> int:
        return self.player(pid).seat

    def name(self, pid: Any) -> str:
        """The player's name, for people; the id itself when unknown."""
        return next((p.name or p.id for p in self.players if p.id == pid), str(pid))

    def other(self, pid: str) -> str:
        return next((p.id for p in self.players if p.id != pid), pid)

    def occupied(self, sq: str) -> bool:
        return self.at(sq) is not None or (self.arctos is not None and sq == CENTRE)

    def lockons(self) -> dict[int, str]:
        return dict(LOCKON) if self.arctos else {}

    # --- functional updates ----------------------------------------------------------
    def put(self, sq: str, m: Monster | None) -> Board:
        """The board with ``m`` on ``sq`` (None: emptied); ``squares`` stays in board order."""
        squares = self.squares
        for i, (s, _) in enumerate(squares):
            if s == sq:  # taken: replace (or empty) it where it stands
                return evolve(self, squares=squares[:i] + (((sq, m),) if m is not None else ()) + squares[i + 1:])
        if m is None:  # free already
            return evolve(self, squares=squares)
        at = ORDER_OF[sq]
        i = next((i for i, (s, _) in enumerate(squares) if ORDER_OF[s] > at), len(squares))
        return evolve(self, squares=squares[:i] + ((sq, m),) + squares[i:])

    def with_player(self, p: Player) -> Board:
        return evolve(self, players=tuple(p if q.id == p.id else q for q in self.players))


def stat(board: Board, m: Monster, which: str) -> int:
    """Current ATK/DEF with the modifiers in force this turn, in the order recorded."""
    value = catalog.base_stat(m.card, which, dict(board.options))
    if which == "atk":
        value += m.atk_bonus
    for mod in m.mods:
        if mod.stat != which or board.turn > mod.until:
            continue
        if mod.op == "add":
            value += mod.amount
        elif mod.op == "halve":
            value //= 2
        elif mod.op == "set":
            value = mod.amount
    return max(0, value)


def battle_value(board: Board, sq: str, other: str) -> tuple[str, int]:
    """The stat a monster fights with against a neighbour: a short edge (縦の攻撃表示 facing
    up/down, 横の守備表示 facing left/right) uses ATK, a long edge DEF (VW-6.2)."""
    m = board.at(sq)
    assert m is not None
    vertical_contact = col(sq) == col(other)
    upright = m.position != "defence"
    which = "atk" if vertical_contact == upright else "def"
    return which, stat(board, m, which)


def facing(board: Board, m: Monster) -> str:
    """'north' (toward row 4) or 'south'."""
    return "north" if board.seat(m.owner) == 0 else "south"


# --- questions the rules ask of a board ------------------------------------------------------
def pile(board: Board, pid: str, name: str) -> Pile:
    """The deck called ``name``: the shared ``rescue`` or ``magic`` deck, else ``pid``'s own."""
    if name == "rescue":
        return board.rescue
    if name == "magic":
        return board.magic
    return board.player(pid).deck


def in_hand(board: Board, pid: str, card: str) -> bool:
    """``card`` is in ``pid``'s hand by name, or may be one of the cards drawn unseen (VW-3.4)."""
    return any(hc.card == card or (hc.card is None and card in pile(board, pid, hc.source).pool)
               for hc in board.player(pid).hand)


def master_kind(board: Board) -> str | None:
    """What the master phase of this turn does: 'summon' roll, 'lockon' roll, or None (skipped)."""
    if board.arctos_destroyed:
        return None
    if board.arctos is None:
        return "summon" if board.turn % 2 == 0 else None
    gap = board.turn - board.arctos.since
    offset = 1 if board.opt("arctos_count_from") == "same" else 0
    return "lockon" if gap > 0 and (gap - offset) % 2 == 0 else None


MAIN_ACTIONS = ("move", "effect", "position")


def per_turn(board: Board) -> bool:
    """House rule ``main_actions``: one move, one normal effect and one position change per turn
    in total (``per_turn``, the seed's wording), or one of each per monster (``per_monster``)."""
    return bool(board.opt("main_actions") == "per_turn")


def may_move(board: Board, m: Monster) -> bool:
    """A move of ``m`` now needs no action it has already used (VW-5.1): an extra move granted by
    an effect (ヒーローハート, 士気高揚) is taken first, since it uses no 行動権."""
    if m.extra_moves > 0:
        return True
    return "move" not in board.used if per_turn(board) else m.moves == 0


def deck_empty(board: Board, pid: str) -> bool:
    return not board.player(pid).deck.cards


def draw_due(board: Board) -> bool:
    if board.drawn or board.phase != "draw" or deck_empty(board, board.active):
        return False
    return board.turn > 1 or bool(board.opt("first_turn_draw"))


def pending_battles(board: Board) -> list[tuple[str, str]]:
    """Adjacent enemy pairs on battlefield squares that have not fought this turn (VW-6.4)."""
    out = []
    for sq, m in board.squares:
        if not is_field(sq):
            continue
        for other in (square(col(sq) + 1, row(sq)), square(col(sq), row(sq) + 1)):
            n = board.at(other)
            key = "-".join(sorted((sq, other or "")))
            if other and n is not None and is_field(other) and n.owner != m.owner and key not in board.fought:
                out.append((sq, other))
    return out


def invaders(board: Board, pid: str) -> list[str]:
    """``pid``'s monsters standing in the opponent's battlefield zone (VW-6.5)."""
    enemy_row = field_row(1 - board.seat(pid))
    return [sq for sq, m in board.squares if m.owner == pid and row(sq) == enemy_row]


def outcome(board: Board, a: str, b: str) -> dict[str, Any]:
    """Values both monsters fight with and the squares the rules destroy (VW-6.2)."""
    sa, va = battle_value(board, a, b)
    sb, vb = battle_value(board, b, a)
    if va == vb:
        destroyed = [a, b] if board.opt("battle_tie") == "both" else []
    else:
        destroyed = [a] if va < vb else [b]
    if len(destroyed) == 1:
        loser = board.at(destroyed[0])
        if loser is not None and loser.statuses and loser.has("revenge", board.turn) \
                and board.opt("card_texts") == "checked":  # 瞬着ボマー (VW-11.8)
            destroyed = [a, b]
    return {"values": {a: [sa, va], b: [sb, vb]}, "destroyed": destroyed}


def can_retreat(board: Board, sq: str) -> str | None:
    """The retreat zone directly behind ``sq`` if its monster may go there when destroyed (VW-6.3)."""
    m = board.at(sq)
    if m is None:
        return None
    seat = board.seat(m.owner)
    behind = square(col(sq), home_row(seat))
    if row(sq) != field_row(seat) or behind is None or behind[0] not in "ace" or board.at(behind):
        return None
    return behind


def allowed_steps(board: Board, sq: str) -> list[tuple[int, int]]:
    """The directions the monster on ``sq`` may step in (VW-5.2)."""
    m = board.at(sq)
    if m is None:
        return []
    if m.position == "defence":
        return [(-1, 0), (1, 0)]
    steps = [(0, -1), (0, 1)]
    if m.has("diagonal", board.turn):
        steps += [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    return steps


def step_targets(board: Board, sq: str) -> list[str]:
    """The squares one allowed step away from ``sq`` (empty or not)."""
    out = []
    for dc, dr in allowed_steps(board, sq):
        s = square(col(sq) + dc, row(sq) + dr)
        if s:
            out.append(s)
    return out
