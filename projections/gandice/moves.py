"""Move types of Gandice (one log line each) and their structural checks."""

from __future__ import annotations

from projections.base import N_, said

from collections.abc import Mapping
from typing import Any

from projections.base import FieldError, Move, MoveSpec, require
from projections.gandice.board import Board
from projections.gandice.catalog import FACES, STATES
from projections.names import ANY_NAME, NameFilter, per_board, unknown_name

ROLL = {
    "face": N_("resting position: stand, handstand, side, special or normal (the Japanese "
               "names are accepted too)"),
    "value": N_("the number on a normal face (1-6); omitted otherwise"),
}

MOVE_TYPES: dict[str, MoveSpec] = {
    "summon": MoveSpec(
        "summon",
        N_("summon: the opening roll of all of a player's character dice"),
        {"rolls": N_("object: character die -> face it came up on")},
        ("by", "rolls"),
        {
            "seq": 1,
            "type": "summon",
            "by": "A",
            "rolls": {"ギダン": "special", "美雅羅": "normal", "爪牙": "side"},
        },
    ),
    "resummon": MoveSpec(
        "resummon",
        N_("re-summon challenge: spend the turn re-rolling every character die left in the "
           "deck"),
        {"rolls": N_("object: character die -> face it came up on")},
        ("by", "rolls"),
        {
            "seq": 3,
            "type": "resummon",
            "by": "A",
            "rolls": {"ギダン": "special", "美雅羅": "stand", "爪牙": "normal"},
        },
    ),
    "attack": MoveSpec(
        "attack",
        N_("attack: name the target character die and record the attacker's roll"),
        {
            "die": N_("the attacking character die"),
            "target": N_("the opponent's character die attacked"),
            "defender": N_("owner of the target (needed only when the name is ambiguous)"),
            **ROLL,
        },
        ("by", "die", "target", "face"),
        {
            "seq": 3,
            "type": "attack",
            "by": "A",
            "die": "ギダン",
            "target": "紅蓮のイスルギ",
            "face": "special",
        },
    ),
    "defend": MoveSpec(
        "defend",
        N_("defender's roll: the defender rolls the attacked die"),
        {"die": N_("the attacked character die"), **ROLL},
        ("by", "die", "face"),
        {"seq": 4, "type": "defend", "by": "B", "die": "紅蓮のイスルギ", "face": "special"},
    ),
    "item": MoveSpec(
        "item",
        N_("item after a special face: a weapon/curse die roll, a kofuda card, or nothing "
           "(item null)"),
        {
            "item": N_("the weapon or curse die rolled, or null for no item"),
            "card": N_("the kofuda card used instead of a die"),
            **ROLL,
            "bonus": N_("extra value: the kofuda card's bonus, or a bottom-face bonus other "
                        "than the catalog's"),
        },
        ("by",),
        {"seq": 5, "type": "item", "by": "A", "item": "武具・羅", "face": "normal", "value": 1},
    ),
    "fuse": MoveSpec(
        "fuse",
        N_("fusion instead of an item: a plain fusion (one summoned partner) or a core "
           "fusion (two core partners)"),
        {
            "die": N_("the fusion or core die that showed its special face"),
            "partners": N_("list of partner dice"),
            "face": N_("the fused die's roll (plain fusion) or the first core die's re-roll "
                       "(core fusion)"),
            "value": N_("number of a normal face"),
            "rolls": N_("core fusion only: the two other core dice rolled after success"),
        },
        ("by", "die", "partners", "face"),
        {
            "seq": 9,
            "type": "fuse",
            "by": "A",
            "die": "武王",
            "partners": ["鰐蛇"],
            "face": "normal",
            "value": 5,
        },
    ),
    "split": MoveSpec(
        "split",
        N_("split after a fused unit lost: the owner sends one of its dice to the graveyard"),
        {"graveyard": N_("the die of the unit sent to the graveyard")},
        ("by", "graveyard"),
        {"seq": 12, "type": "split", "by": "A", "graveyard": "鰐蛇"},
    ),
    "evolve": MoveSpec(
        "evolve",
        N_("evolution challenge right after an attacker's win: a special face swaps the die "
           "for its evolution die"),
        {"die": N_("the winning character die"), "into": N_("the evolution die of the same "
                                                            "kin"), **ROLL},
        ("by", "die", "into", "face"),
        {
            "seq": 8,
            "type": "evolve",
            "by": "B",
            "die": "紅蓮のイスルギ",
            "into": "紅蓮のイスルギ・進化",
            "face": "special",
        },
    ),
    "effect": MoveSpec(
        "effect",
        N_("a printed ability (e.g. 笑童児's 裏切り) used, citing the die or kofuda card; says "
           "what it did"),
        {
            "source": N_("the die or kofuda card whose ability this is"),
            "effect": N_("the ability's name"),
            "take": "{player, die}: that die changes sides to `by`, keeping its state",
            "graveyard": "list of {player, die} sent to the graveyard",
            "state": "list of {player, die, state (summoned/half/unsummoned)} set",
            "revive": "list of {player, die} back from the graveyard (unsummoned)",
            "text": N_("free text"),
        },
        ("by", "source", "effect"),
        {
            "seq": 12,
            "type": "effect",
            "by": "B",
            "source": "呪術・笑童児",
            "effect": "裏切り",
            "take": {"player": "A", "die": "美雅羅"},
        },
    ),
}

_WHO_DIE = {"player": {"kind": "choice", "of": "players"}, "die": {"kind": "choice"}}
# What usually follows a move (exports/recording.py likely_type): an attack is answered by the
# defence, a battle's item choices by the other's, then the next attack.
FOLLOWS: dict[str, tuple[str, ...]] = {
    "attack": ("defend", "attack"), "defend": ("item", "attack"), "item": ("item", "attack"),
    "effect": ("attack",), "summon": ("summon", "attack"), "resummon": ("attack",),
}
# The usual order of a turn's moves: the recording page
# guesses the next move type from it (exports/recording.py likely_type).
TURN_ORDER = ("summon", "attack", "defend", "item", "effect", "fuse", "evolve", "split", "resummon")
# How the recording page draws the fields the help text alone does not say (exports/recording.py).
FIELD_KINDS: dict[str, dict[str, Any]] = {
    "item.item": {"kind": "choice", "null": "none"},
    "item.bonus": {"kind": "number", "min": 0, "max": 6},
    "fuse.value": {"kind": "number", "min": 1, "max": 6},
    "fuse.partners": {"kind": "list"},
    "effect.take": {"kind": "object", "fields": _WHO_DIE},
    "effect.graveyard": {"kind": "objlist", "fields": _WHO_DIE},
    "effect.revive": {"kind": "objlist", "fields": _WHO_DIE},
    "effect.state": {"kind": "objlist", "fields": dict(_WHO_DIE, state={"kind": "faces", "values": list(STATES)})},
    "effect.text": {"kind": "text"},
}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _roll_errors(move: Move, prefix: str = "") -> list[FieldError]:
    errors = []
    if "face" in move and (not isinstance(move["face"], str) or move["face"] not in FACES):
        errors.append(FieldError(prefix + "face", said(N_("unknown face {face!r}"), face=move.get('face'))))
    if "value" in move and move["value"] is not None and not _is_int(move["value"]):
        errors.append(FieldError(prefix + "value", N_("must be an integer")))
    return errors


def _refs(value: Any, field: str, keys: tuple[str, ...]) -> list[FieldError]:
    items = value if isinstance(value, list) else [value]
    for obj in items:
        if not isinstance(obj, Mapping) or not all(isinstance(obj.get(k), str) for k in keys):
            return [
                FieldError(
                    field,
                    said(N_("must be {kind}"), kind="{" + ", ".join(keys) + "}") if field == "take" else
                    said(N_("must be {kind} or a list of them"), kind="{" + ", ".join(keys) + "}"),
                )
            ]
    return []


def _field_errors(move: Move) -> list[FieldError]:
    errors = _roll_errors(move)
    for name in ("die", "target", "defender", "into", "source", "effect", "graveyard", "card"):
        if name in move and not isinstance(move[name], str) and not (name == "graveyard" and move["type"] == "effect"):
            errors.append(FieldError(name, N_("must be a string")))
    if "item" in move and move["item"] is not None and not isinstance(move["item"], str):
        errors.append(FieldError("item", N_("must be a die name or null")))
    if "bonus" in move and not _is_int(move["bonus"]):
        errors.append(FieldError("bonus", N_("must be an integer")))
    rolls = move.get("rolls")
    if move["type"] in ("summon", "resummon") and "rolls" in move:  # noqa: SIM102
        if not isinstance(rolls, Mapping) or not all(isinstance(f, str) and f in FACES for f in rolls.values()):
            errors.append(FieldError("rolls", N_("must map each character die to a face")))
    if move["type"] == "fuse":
        if not isinstance(move.get("partners"), list) or not all(isinstance(x, str) for x in move["partners"]):
            errors.append(FieldError("partners", N_("must be a list of die names")))
        if rolls is not None and (not isinstance(rolls, list) or not all(isinstance(r, Mapping) for r in rolls)):
            errors.append(FieldError("rolls", N_("must be a list of {face, value}")))
        for i, r in enumerate(rolls if isinstance(rolls, list) else []):
            if isinstance(r, Mapping):
                errors += _roll_errors(r, f"rolls[{i}].")
    if move["type"] == "effect":
        if "take" in move:
            errors += _refs(move["take"], "take", ("player", "die"))
        for name, keys in (
            ("graveyard", ("player", "die")),
            ("state", ("player", "die", "state")),
            ("revive", ("player", "die")),
        ):
            if name in move:
                if not isinstance(move[name], list):
                    errors.append(FieldError(name, N_("must be a list")))
                else:
                    errors += _refs(move[name], name, keys)
        for obj in move["state"] if isinstance(move.get("state"), list) else []:
            if isinstance(obj, Mapping) and obj.get("state") not in STATES:
                errors.append(FieldError("state", said(N_("state must be one of {STATES}"), STATES=', '.join(STATES))))
    return errors


def validate_move(move: Move) -> list[FieldError]:
    kind = move.get("type")
    if kind not in MOVE_TYPES:
        return [FieldError("type", said(N_("unknown move type {kind!r} (gandice: {MOVE_TYPES})"), kind=kind, MOVE_TYPES=', '.join(MOVE_TYPES)))]
    errors = require(move, MOVE_TYPES[kind])
    if "by" in move and (not isinstance(move["by"], str) or not move["by"]):
        errors.append(FieldError("by", N_("must be a player id")))
    if errors:
        return errors
    return _field_errors(move)


# ---------------------------------------------------------------- names the match does not have


@per_board
def _die_names(board: Board) -> set[str]:
    """Every die label the match has had: dice in play or in a graveyard, evolution dice, and
    labels replaced by an evolution (a move may still name them, wrongly but plausibly)."""
    names: set[str] = set()
    for p in board.players:
        for d in p.dice:
            names.add(d.label)
            if d.evolved_from:
                names.add(d.evolved_from)
        names.update(e.label for e in p.evolution)
    return names


def name_errors(board: Board, move: Move) -> list[FieldError]:
    """Names in ``move`` that cannot be right in this match: a player, die or 小札絵 that the
    match's header never had. A name of the match used wrongly is left to ``check`` (a rule
    violation with its GD- id)."""
    players = [p.id for p in board.players]
    dice = _die_names(board)
    cards = {c for p in board.players for c in p.kofuda}
    kind = move.get("type")
    errors = unknown_name("by", move.get("by"), players, N_("a player"))
    if "defender" in move:
        errors += unknown_name("defender", move.get("defender"), players, N_("a player"))
    for field in ("die", "target", "into"):
        if field in move:
            errors += unknown_name(field, move.get(field), dice, N_("a die"))
    if kind == "item":
        errors += unknown_name("item", move.get("item"), dice, N_("a die"))
        errors += unknown_name("card", move.get("card"), cards, N_("a 小札絵"))
    if kind == "split":
        errors += unknown_name("graveyard", move.get("graveyard"), dice, N_("a die"))
    if kind == "fuse" and isinstance(move.get("partners"), list):
        for i, name in enumerate(move["partners"]):
            errors += unknown_name(f"partners[{i}]", name, dice, N_("a die"))
    if kind in ("summon", "resummon") and isinstance(move.get("rolls"), Mapping):
        for name in move["rolls"]:
            errors += unknown_name(f"rolls.{name}", name, dice, N_("a die"))
    if kind == "effect":
        errors += unknown_name("source", move.get("source"), dice | cards, N_("a die or 小札絵"))
        refs: list[tuple[str, Any]] = [("take", move.get("take"))] if "take" in move else []
        for field in ("graveyard", "state", "revive"):
            value = move.get(field)
            refs += [(f"{field}[{i}]", r) for i, r in enumerate(value)] if isinstance(value, list) else []
        for where, ref in refs:
            if isinstance(ref, Mapping):
                errors += unknown_name(f"{where}.player", ref.get("player"), players, N_("a player"))
                errors += unknown_name(f"{where}.die", ref.get("die"), dice, N_("a die"))
    return errors


# The filters' sets, made once per board within one sifting() (the same object for every field
# of a kind: vocabulary.names_for then sifts the names once for all of them).
@per_board
def _dice(board: Board) -> frozenset[str]:
    return frozenset(_die_names(board))


@per_board
def _dice_or_cards(board: Board) -> frozenset[str]:
    return _dice(board) | _players_and_cards(board)[1]


@per_board
def _players_and_cards(board: Board) -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(p.id for p in board.players), frozenset(c for p in board.players for c in p.kofuda)


def name_filter(board: Board, kind: str, by: str, field: str, shape: str) -> NameFilter | None:
    """The names ``field`` of a ``kind`` line may hold (vocabulary.names_for): the names
    ``name_errors`` above does not refuse in ``{"type": kind, "by": by, field: <name>}`` with
    the name as ``shape`` says, worked out from the board's sets once, not per name. It must
    say what ``name_errors`` says (tests/table/test_name_filters.py)."""
    players, cards = _players_and_cards(board)
    dice = _dice(board)
    if shape == "one":
        if field in ("by", "defender"):
            return players.__contains__
        if field in ("die", "target", "into") or (kind == "item" and field == "item") or (
                kind == "split" and field == "graveyard"):
            return dice.__contains__
        if kind == "item" and field == "card":
            return cards.__contains__
        if kind == "effect" and field == "source":
            return _dice_or_cards(board).__contains__
    elif shape == "list":
        if kind == "fuse" and field == "partners":
            return dice.__contains__
    elif kind in ("summon", "resummon") and field == "rolls":
        return dice.__contains__
    elif kind == "effect" and field == "take":
        # {name: "normal"} is a reference only by its keys "player" and "die" (then "normal" is
        # the player's or the die's name, and no player or die is called so)
        return lambda name: not ((name == "player" and "normal" not in players) or (name == "die" and "normal" not in dice))
    return ANY_NAME
