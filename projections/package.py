"""What every game package shares: the wiring of its modules into one ruleset object, the
checks of a header's house rules (``house_rule_errors``), the header role of an older rules
version (``header_version``), cheap copies of frozen boards in a fold (``evolve``), and the
header of its seeded random matches (``generated_header``). Names a match does not have are
offered the same way by every game through ``projections.names``.

A game package has the same files in every game (docs/adding-a-game.md), standing in layers
``catalog → board → header → moves → apply → check → render / generate → ruleset``. Each module exposes
functions with the same names, so ``ruleset.py`` is only a subclass of :class:`PackageRuleset`
naming the game and handing over its modules:

========== ===================================================================
module     functions
========== ===================================================================
header     ``HOUSE_RULES``, ``validate_header(header)``, ``initial_board(header)``
moves      ``MOVE_TYPES``, ``validate_move(move)``
apply      ``apply(board, move) -> board``
check      ``check(board, move) -> [Violation]``, ``result(board) -> Result | None``
render     ``board_json(board)``, ``render_text(board, t)``, ``vocabulary(header)``,
           ``describe(board, move, lang)`` (notation, "ja" or "en"), optionally
           ``public_board_json(board_json, seen)`` (closed deck lists: projections/secrecy.py)
generate   ``legal_moves(board)``, ``generate(ruleset, rng, match_id, **options)``
========== ===================================================================
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any, TypeVar

from projections.base import ENGLISH, N_, Board, FieldError, Move, MoveSpec, Result, Violation, Words, said

GENERATED_DATE = "2026-11-29"
# House options of the core that every game's header may set (docs/rules/core.md):
# ``flagged_results`` — KIFU-3, a result decided by a flagged line is ``pending`` a ruling, or
# ``stand``s as the rules derive it (a rules version's default is its ``flagged_results``).
FLAGGED_RESULTS = ("pending", "stand")
CORE_HOUSE_RULES: dict[str, tuple[str, ...]] = {"flagged_results": FLAGGED_RESULTS}
T = TypeVar("T")


class PackageRuleset:
    """A :class:`projections.base.Ruleset` made of a game package's modules.

    Subclasses set the class attributes (``name``, ``version``, ``aliases``, ``title``,
    ``min_players``, ``max_players``); the instance takes the modules. ``move_types`` and
    ``house_rules`` come from ``moves.MOVE_TYPES`` and ``header.HOUSE_RULES``.
    """

    name: str
    version: int
    aliases: tuple[str, ...] = ()
    title: str
    min_players: int = 2
    max_players: int = 2
    # KIFU-3's default for this rules version (house option ``flagged_results``): versions
    # from before the rule let a flagged deciding line stand, as their matches were recorded.
    flagged_results: str = "stand"
    # The game's own "no move after the result" rule (e.g. MJ-7.3): the core's KIFU-2 speaks
    # for it, so while a result is pending a ruling (KIFU-3) the core leaves it out.
    after_result_rule: str | None = None

    def __init__(
        self,
        *,
        header: ModuleType,
        moves: ModuleType,
        apply: ModuleType,
        check: ModuleType,
        render: ModuleType,
        generate: ModuleType,
    ) -> None:
        self._header = header
        self._moves = moves
        self._check = check
        self._render = render
        self._generate = generate
        # The fold that may change what it made itself (``apply_working``); a module that has
        # none folds with its ``apply``, made pure here all the same.
        self._fold = getattr(apply, "apply_working", None) or apply.apply
        self.move_types: Mapping[str, MoveSpec] = moves.MOVE_TYPES
        # How the recording page draws each field the help text alone does not say
        # (exports/recording.py field kinds): {"type.field": {"kind": ..., ...}}.
        self.field_kinds: Mapping[str, Mapping[str, Any]] = getattr(moves, "FIELD_KINDS", {})
        # The usual order of a turn's moves: the recording page's guess of the next move type.
        self.turn_order: tuple[str, ...] = tuple(getattr(moves, "TURN_ORDER", ()))
        # What usually follows a move of a type (its type -> the likely next types, first the
        # likeliest), and the types the legal moves may miss for cards drawn unseen.
        self.follows: Mapping[str, tuple[str, ...]] = getattr(moves, "FOLLOWS", {})
        self.unlisted: tuple[str, ...] = tuple(getattr(moves, "UNLISTED", ()))
        # What the rules make follow a line, whatever usually does (``THEN(header, line)`` -> the
        # types, first the likeliest: a card text resolving after the card is played), if any.
        self.then: Any = getattr(moves, "THEN", None)
        # Within a move type, the order the page offers its moves in (``RANK(board_json, move)``, a
        # sort key: the moves the rules favour first), if any.
        self.rank: Any = getattr(moves, "RANK", None)
        self.house_rules: Mapping[str, Any] = header.HOUSE_RULES
        # What each player's deck must say (``kifu new`` asks its options for it first): sets
        # of deck keys of which one must be given (header.DECK_REQUIRED).
        self.deck_required: tuple[tuple[str, ...], ...] = tuple(getattr(header, "DECK_REQUIRED", ()))

    def __repr__(self) -> str:
        return f"<ruleset {self.name}/{self.version}>"

    def validate_header(self, header: Mapping[str, Any]) -> list[FieldError]:
        return list(self._header.validate_header(header))

    def validate_move(self, move: Move) -> list[FieldError]:
        return list(self._moves.validate_move(move))

    def initial_board(self, header: Mapping[str, Any]) -> Board:
        board = self._header.initial_board(header)
        freeze()
        return board

    def apply(self, board: Board, move: Move) -> Board:
        freeze()
        try:
            new: Board = self._fold(board, move)
        finally:
            freeze()
        return new

    def apply_working(self, board: Board, move: Move) -> Board:
        """``apply`` inside a fold (``projections.replay``): it may change in place what the
        fold itself made since the last :func:`freeze`, never a kept board."""
        new: Board = self._fold(board, move)
        return new

    def check(self, board: Board, move: Move) -> list[Violation]:
        freeze()  # a check may fold what-ifs on the board: it must not change it
        return list(self._check.check(board, move))

    def result(self, board: Board) -> Result | None:
        result: Result | None = self._check.result(board)
        return result

    def board_json(self, board: Board) -> dict[str, Any]:
        return dict(self._render.board_json(board))

    def public_board_json(self, board_json: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> dict[str, Any]:
        """The board JSON while the event's deck lists are closed (projections/secrecy.py): the
        render module's ``public_board_json`` where the board holds the deck itself (Gandice),
        else the board as it is (it holds only what the log recorded)."""
        hook = getattr(self._render, "public_board_json", None)
        return dict(hook(board_json, seen)) if hook is not None else dict(board_json)

    def render_text(self, board: Board, t: Words = ENGLISH) -> str:
        return str(self._render.render_text(board, t))

    def describe(self, board: Board, move: Move, lang: str = "ja") -> str:
        return str(self._render.describe(board, move, lang))

    def legal_moves(self, board: Board) -> Iterable[Move]:
        return self._generate.legal_moves(board)

    def suggestions(self, board: Board) -> tuple[list[Move], list[Move]]:
        """What the recording page offers beside the legal moves, as (before them, after them):
        moves the enumeration leaves out (effects with their actions from the card texts, a
        phase's dice), whole or with the targets left to tap. The generate module's
        ``suggestions``, when it has one."""
        fn = getattr(self._generate, "suggestions", None)
        if fn is None:
            return [], []
        first, last = fn(board)
        return list(first), list(last)

    def name_errors(self, board: Board, move: Move) -> list[FieldError]:
        """Names in ``move`` (dice, cards, figures, squares, players) that this match does not
        have, each with the closest names offered: a refusal, not a rule violation."""
        find = getattr(self._moves, "name_errors", None) or getattr(self._check, "name_errors", None)
        return list(find(board, move)) if find else []

    def name_filter(self, board: Board, move_type: str, by: str, field: str, shape: str) -> Callable[[str], bool] | None:
        """Which names ``field`` of a ``move_type`` line by ``by`` may hold on this board (a
        name in the given ``shape``), answered from the board's sets in one go: the names
        ``name_errors`` would not refuse there, asked one at a time (projections.vocabulary).
        None when the game has no such filter beside the ``name_errors`` in use."""
        for module in (self._moves, self._check):
            if getattr(module, "name_errors", None) is not None:
                quick = getattr(module, "name_filter", None)
                return None if quick is None else quick(board, move_type, by, field, shape)  # type: ignore[no-any-return]
        return None

    def vocabulary(self, header: Mapping[str, Any]) -> list[str]:
        return list(self._render.vocabulary(header))

    def generate(
        self, rng: random.Random, match_id: str, **options: Any
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        header, moves = self._generate.generate(self, rng, match_id, **options)
        return header, moves


def house_rule_errors(
    given: Any,
    defaults: Mapping[str, Any],
    choices: Mapping[str, Sequence[Any]] | None = None,
    extra: Callable[[str, Any], str | None] | None = None,
) -> list[FieldError]:
    """The problems of a header's ``match.house_rules`` (``given``), one per option, worded the
    same in every game: an option the game does not have, a value outside the option's
    ``choices``, a value not of the default's type; then ``extra(name, value)`` for what only
    the game knows (a problem, or None)."""
    if given is None:
        return []
    if not isinstance(given, Mapping):
        return [FieldError("match.house_rules", N_("must be an object"))]
    errors = []
    for name, value in given.items():
        allowed = (choices or {}).get(name)
        problem: str | None
        if name in CORE_HOUSE_RULES and name not in defaults:
            problem = None if value in CORE_HOUSE_RULES[name] else said(N_("must be one of {choices}"), choices=", ".join(CORE_HOUSE_RULES[name]))
        elif name not in defaults:
            problem = said(N_("unknown house rule (known: {known})"), known=", ".join([*defaults, *CORE_HOUSE_RULES]))
        elif allowed is not None and (value not in allowed or type(value) is not type(defaults[name])):
            problem = said(N_("must be one of {choices}"), choices=", ".join(c if isinstance(c, str) else json.dumps(c) for c in allowed))
        elif type(value) is not type(defaults[name]):
            problem = said(N_("must be {kind}"), kind=_KINDS.get(type(defaults[name]), type(defaults[name]).__name__))
        else:
            problem = extra(name, value) if extra else None
        if problem:
            errors.append(FieldError(f"match.house_rules.{name}", problem))
    return errors


_KINDS = {bool: N_("true or false"), int: N_("an integer"), float: N_("a number"), str: N_("text")}


def header_version(
    name: str,
    defaults: Mapping[str, Any],
    validate_header: Callable[[Mapping[str, Any]], list[FieldError]],
    initial_board: Callable[[Mapping[str, Any], Mapping[str, Any]], Board],
) -> ModuleType:
    """The header role of an older rules version, for :class:`PackageRuleset`: the same deck
    rules, other house-rule defaults (``initial_board`` takes the defaults as its second
    argument). ``VERSION_1 = header_version(__name__, HOUSE_RULES_V1, validate_header,
    initial_board)`` at the end of a game's header.py; ruleset.py hands it to the old version."""
    role = ModuleType(f"{name}.version", header_version.__doc__)
    vars(role).update(
        HOUSE_RULES=dict(defaults),
        DECK_REQUIRED=getattr(sys.modules.get(name), "DECK_REQUIRED", ()),
        validate_header=validate_header,
        initial_board=lambda header: initial_board(header, defaults),
    )
    return role


def generated_header(
    ruleset: Any,
    match_id: str,
    players: Sequence[Mapping[str, Any]],
    first: str | None,
    *,
    house_rules: Mapping[str, Any] | None = None,
    **match_fields: Any,
) -> dict[str, Any]:
    """The header of a generated match: the same event, round, table and date for every game,
    so that generated logs differ only where the games do."""
    match: dict[str, Any] = {
        "id": match_id,
        "event": "generated",
        "round": 1,
        "table": "1",
        "date": GENERATED_DATE,
        "house_rules": dict(house_rules or {}),
    }
    match.update(match_fields)
    header: dict[str, Any] = {
        "kifu": 1,
        "game": ruleset.name,
        "match": match,
        "rules": f"{ruleset.name}/{ruleset.version}",
        "players": [dict(p) for p in players],
    }
    if first is not None:
        header["first"] = first
    return header


_owner: object = object()  # the working fold's mark: objects carrying it may change in place


def freeze() -> None:
    """End the working fold: every object ``evolve`` made so far becomes a kept, immutable
    value (the next ``evolve`` of one copies it). O(1): only the mark changes."""
    global _owner
    _owner = object()


def pure(fold: Callable[[Board, Move], Board]) -> Callable[[Board, Move], Board]:
    """The pure ``apply(board, move)`` of a game's working fold: ``board`` and every board kept
    before are never changed, and the board returned is kept too."""

    def apply(board: Board, move: Move) -> Board:
        freeze()
        try:
            return fold(board, move)
        finally:
            freeze()

    apply.__doc__ = fold.__doc__
    apply.__name__ = apply.__qualname__ = "apply"
    return apply


def evolve(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for the frozen boards of a fold, without its cost.

    A copy made by ``evolve`` belongs to the working fold until the next :func:`freeze`: the
    fold changes it in place. Anything older (a kept board, a checkpoint) is copied.
    """
    try:
        state = obj.__dict__
    except AttributeError:  # a slotted dataclass: no room for the mark, copy it the slow way
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if state.get("_w") is _owner:
        state.update(changes)
        return obj
    new: T = object.__new__(type(obj))
    fresh = new.__dict__
    fresh.update(state)
    fresh.update(changes)
    fresh["_w"] = _owner
    return new
