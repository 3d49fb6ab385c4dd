"""The ruleset protocol every game implements, and the small value types it speaks in.

A ruleset is pure: it folds recorded moves into immutable boards and checks moves against
the rules. It never touches storage, never rolls dice, and never fails on a recorded move
(``apply`` must accept anything ``validate_move`` let through, even an illegal move: the
record is the fact, ``check`` says what was wrong with it).
"""

from __future__ import annotations

import gettext
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Board = Any  # each ruleset defines its own frozen dataclass
Move = Mapping[str, Any]  # one log line as a dict: {"seq", "type", "by", ...fields}

# How ``render_text`` says a board's words in the reader's language: a gettext catalog, whose
# ``pgettext(context, message)`` turns the English a ruleset writes into that language. A face
# hands the catalog of its reader (``exports.i18n.translations(lang)``: Japanese by default);
# projections never load it themselves (they import nothing of exports/). Without one a board is
# said in English, the catalog's source language, as every message a ruleset builds is.
Words = gettext.NullTranslations
ENGLISH: Words = gettext.NullTranslations()

# Event types shared by every game (DESIGN.md). The core handles them; a ruleset never sees
# them in ``apply`` or ``check``.
META_TYPES = frozenset(
    {"annotate", "retract", "dispute", "ruling", "correct", "appeal", "penalty", "concede", "result"}
)
# Of those, the ones that decide or affect the result (folded by the core, not the ruleset).
RESULT_TYPES = frozenset({"penalty", "concede", "result"})


@dataclass(frozen=True)
class FieldError:
    """One problem with one field of a header or log line: ``field: problem``."""

    field: str
    problem: str

    def __str__(self) -> str:
        return at(self.field, self.problem)  # a Said: said in the reader's language by a face


@dataclass(frozen=True)
class Violation:
    """A rule broken by a recorded move.

    ``expected`` says, where the ruleset can compute it, what the rules say should have
    happened (e.g. ``{"outcome": "attacker", "attack_total": 7}``), and ``suggest`` is a
    list of replacement move objects (without ``seq``) a judge could rule in its place.
    """

    seq: int
    rule: str
    message: str
    expected: Mapping[str, Any] | None = None
    suggest: tuple[Mapping[str, Any], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "rule": self.rule, "message": self.message}
        if self.expected is not None:
            out["expected"] = dict(self.expected)
        if self.suggest is not None:
            out["suggest"] = [dict(m) for m in self.suggest]
        return out


@dataclass(frozen=True)
class Pending:
    """Why a result is only provisional (KIFU-3, docs/rules/core.md): the line ``seq`` that
    decided the match broke ``rule`` (the first rule it broke), and no ruling or correction
    has settled it yet."""

    seq: int
    rule: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "rule": self.rule}


@dataclass(frozen=True)
class Result:
    """A decided match: ``winner`` is a player id, or None for a draw. ``pending`` is set when
    the line that decided it broke a rule and no judge has ruled on it yet (KIFU-3): the
    result is provisional, and standings do not count it."""

    winner: str | None
    reason: str
    pending: Pending | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": self.winner, "reason": self.reason}
        if self.pending is not None:
            out["pending"] = self.pending.to_json()
        return out


@dataclass(frozen=True)
class MoveSpec:
    """Documentation and structural schema of one move type of a ruleset.

    ``fields`` maps a field name to a short description; ``required`` lists the fields a
    line must carry (``by`` is always required for moves). ``example`` is one complete log
    line (as a dict, with ``seq``) that ``docs/log-format.md`` shows and the tests import.
    """

    type: str
    summary: str
    fields: Mapping[str, str] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    example: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class Ruleset(Protocol):
    """What a game provides. See ``projections/gandice`` for the reference implementation."""

    name: str  # registry name, e.g. "gandice"
    version: int  # header "rules": f"{name}/{version}"
    aliases: tuple[str, ...]  # e.g. ("gd",)
    title: str  # human title, e.g. "眼魔伝ガンダイス"
    min_players: int
    max_players: int
    move_types: Mapping[str, MoveSpec]
    house_rules: Mapping[str, Any]  # option name -> default value

    def validate_header(self, header: Mapping[str, Any]) -> list[FieldError]:
        """Game-specific header checks (deck lists, catalog names, house-rule names)."""

    def validate_move(self, move: Move) -> list[FieldError]:
        """Structural checks of one move line (field presence and types), not the rules."""

    def initial_board(self, header: Mapping[str, Any]) -> Board:
        """The board before any move, from the match header."""

    def apply(self, board: Board, move: Move) -> Board:
        """Fold one recorded move into a new board. Never validates, never raises on a
        structurally valid move."""

    def check(self, board: Board, move: Move) -> list[Violation]:
        """The rules ``move`` breaks when played on ``board`` (before it is applied)."""

    def result(self, board: Board) -> Result | None:
        """The result the rules derive from the board, or None while the match goes on."""

    def board_json(self, board: Board) -> dict[str, Any]:
        """``{"turn", "active", "players": {id: {...}}, ...}`` — the core adds game, step,
        view, result and violations (DESIGN.md, Board JSON)."""

    def render_text(self, board: Board, t: Words = ENGLISH) -> str:
        """A readable board for the terminal, plain text, every word said through ``t``
        (``t.pgettext("text board", "...")``, English written in the code, extracted into the
        catalog by ``make i18n``); names (players, decks, dice, cards) as recorded."""

    def describe(self, board: Board, move: Move, lang: str = "ja") -> str:
        """The move as its players say it, read from the board before it (notation), e.g.
        「ギダン(特殊目)→紅蓮のイスルギ 攻撃」. ``lang`` is ``"ja"`` (default) or ``"en"``.
        Pure; never raises on a structurally valid move, even an illegal one."""

    def legal_moves(self, board: Board) -> Iterable[Move]:
        """Legal moves at this point where the ruleset can enumerate them (may be empty)."""

    def vocabulary(self, header: Mapping[str, Any]) -> list[str]:
        """Names a scorekeeper types (dice, cards, squares) for completion in live logging."""

    def generate(self, rng: random.Random, match_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A legal random match: (header, moves with seq). Used by tests and benchmarks."""


def require(move: Move, spec: MoveSpec) -> list[FieldError]:
    """Helper for ``validate_move``: the required fields of ``spec`` that ``move`` lacks."""
    return [FieldError(name, N_("missing")) for name in spec.required if name not in move]


def players_of(header: Mapping[str, Any]) -> Sequence[str]:
    return [p["id"] for p in header.get("players", [])]


class Said(str):
    """A message in English that remembers what it was made of: its ``template`` (a message of
    the catalog, marked with ``N_``, or glue such as ``"{where}: {problem}"``) and the values
    it was filled with. It is a ``str`` (the English text), so tests, logs and JSON read it as
    before; a face says it in the reader's language by translating the template first and
    filling it after (``exports.i18n.translate``), the values that are ``Said`` themselves
    said alike. Formatting a template before it is translated (``N_("...").format(...)``)
    would leave the catalog nothing to match: ``said(N_("..."), value=...)`` instead."""

    template: str
    args: tuple[Any, ...]
    params: dict[str, Any]

    def __new__(cls, template: str, *args: Any, **params: Any) -> Said:
        text = template.format(*args, **params) if args or params else template
        self = super().__new__(cls, text)
        self.template = str.__str__(template)
        self.args = args
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickled and copied with what it was made of
        return (_said_again, (self.template, self.args, self.params))


def _said_again(template: str, args: tuple[Any, ...], params: dict[str, Any]) -> Said:
    return Said(template, *args, **params)


def said(template: str, /, *args: Any, **params: Any) -> str:  # a Said; typed str, as it is read
    """``template`` (marked ``N_("...")``) filled with ``args`` / ``params``, remembering both:
    the English text now, the reader's language later (``exports.i18n.translate``)."""
    return Said(template, *args, **params)


def at(where: str, problem: object) -> str:  # a Said
    """``where: problem`` (a field, a file and line, an option before what is wrong there),
    the problem said in the reader's language and ``where`` as it is. ``problem`` may be a
    ``FieldError`` (its ``field: problem``, said alike)."""
    return Said("{where}: {problem}", where=where, problem=problem if isinstance(problem, str) else str(problem))


def joined(sep: str, parts: Iterable[str]) -> str:  # a Said
    """``sep.join(parts)``, each part that is a message said in the reader's language."""
    parts = list(parts)
    return Said(sep.replace("{", "{{").replace("}", "}}").join("{" + str(i) + "}" for i in range(len(parts))), *parts)


def said_of(exc: BaseException) -> str:
    """What an error says, as it was raised: a ``Said`` keeps its template (``str(exc)`` would
    leave only its English)."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)


def N_(message: str) -> str:  # a Said
    """Marks a message template for the catalog (exports/locale, ``make i18n``). Refusals and
    flags are built from it in English, ``said(N_("... {value}"), value=...)``, and a face says
    them in the reader's language (``exports.i18n.translate``): the template translated, then
    filled. A message without values is ``N_("...")`` alone."""
    return Said(message)
