"""The match header: deck rules (GD-1.x), house-rule options, and the opening board."""

from __future__ import annotations

from projections.base import N_, said

from collections.abc import Mapping
from typing import Any

from projections.base import FieldError
from projections.gandice.board import Board, Die, Player
from projections.gandice.catalog import FUSION_KINDS, KINDS, base_name, custom_specs, lookup
from projections.package import header_version, house_rule_errors

DECK_SIZE = 5
MAX_KOFUDA = 3

# option -> (default, allowed values); every point the seed leaves open (docs/rules/gandice.md)
HOUSE_RULE_CHOICES: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "summon_table": ("special-full", ("special-full", "normal-full", "faces-full")),
    "stand_summons_all": ("stand", ("stand", "stand-or-handstand", "off")),
    "zenkai_on_resummon": (True, (True, False)),
    "half_summoned_may_attack": (True, (True, False)),
    "unsummoned_may_attack": (False, (True, False)),
    "attacker_returns_summoned": (True, (True, False)),
    # GD-8.2: a 逆立ち on the 心眼 re-roll is 「それ以外の目」, judged as that face (an outright
    # win, without 合身成功: "face", gandice/2), or counted like 立ち ("stand", gandice/1)
    "core_handstand": ("face", ("face", "stand")),
}
HOUSE_RULES: dict[str, Any] = {k: v[0] for k, v in HOUSE_RULE_CHOICES.items()}
# gandice/1: the defaults matches were recorded under before the literal reading of 手順３.
HOUSE_RULES_V1: dict[str, Any] = {**HOUSE_RULES, "core_handstand": "stand"}


# What each player's deck must say in a header, for ``kifu new`` to ask of its options before
# anything is written (projections/package.py, ``deck_required``): each entry is a set of deck
# keys of which one must be given.
DECK_REQUIRED: tuple[tuple[str, ...], ...] = (("cards",),)  # GD-1.1: the dice of the deck


def house_of(header: Mapping[str, Any], defaults: Mapping[str, Any] = HOUSE_RULES) -> dict[str, Any]:
    match = header.get("match") or {}
    given = match.get("house_rules") or {} if isinstance(match, Mapping) else {}
    out = dict(defaults)
    if isinstance(given, Mapping):
        out.update({k: v for k, v in given.items() if k in HOUSE_RULES})
    return out


def _validate_house(header: Mapping[str, Any]) -> list[FieldError]:
    match = header.get("match") or {}
    given = match.get("house_rules") if isinstance(match, Mapping) else None
    return house_rule_errors(given, HOUSE_RULES, {k: v[1] for k, v in HOUSE_RULE_CHOICES.items()})


def _validate_custom(deck: Mapping[str, Any], where: str) -> list[FieldError]:
    errors = []
    dice = deck.get("dice")
    if dice is None:
        return []
    if not isinstance(dice, list):
        return [FieldError(f"{where}.dice", N_("must be a list of die objects"))]
    for j, obj in enumerate(dice):
        at = f"{where}.dice[{j}]"
        if not isinstance(obj, Mapping) or not isinstance(obj.get("name"), str) or not obj["name"]:
            errors.append(FieldError(at, N_("needs a name")))
            continue
        if obj.get("kind", "character") not in KINDS:
            errors.append(FieldError(f"{at}.kind", said(N_("must be one of {KINDS}"), KINDS=', '.join(KINDS))))
        if not isinstance(obj.get("bonus", 0), int):
            errors.append(FieldError(f"{at}.bonus", N_("must be an integer")))
        fusion = obj.get("fusion")
        if fusion is not None and (not isinstance(fusion, Mapping) or fusion.get("kind") not in FUSION_KINDS):
            errors.append(FieldError(f"{at}.fusion", N_("must be an object with kind (super or core) and group (a name)")))
    return errors


def _validate_deck(deck: Any, where: str) -> list[FieldError]:
    if not isinstance(deck, Mapping):
        return [FieldError(where, N_("missing deck"))]
    errors = _validate_custom(deck, where)
    custom = custom_specs(deck)
    cards = deck.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) and c for c in cards):
        return errors + [FieldError(f"{where}.cards", N_("must be a list of die names"))]
    if len(cards) != DECK_SIZE:
        errors.append(FieldError(f"{where}.cards", said(N_("GD-1.1: a deck is {DECK_SIZE} dice, got {cards}"), DECK_SIZE=DECK_SIZE, cards=len(cards))))
    kins = set()
    characters = set()
    seen: set[str] = set()
    for j, label in enumerate(cards):
        spec = lookup(label, custom)
        if label in seen:
            errors.append(
                FieldError(
                    f"{where}.cards[{j}]",
                    said(N_("duplicate label {label!r} (write {label}#2 for a second copy)"), label=label),
                )
            )
        seen.add(label)
        if spec is None:
            errors.append(
                FieldError(
                    f"{where}.cards[{j}]",
                    said(N_("unknown die {label!r} (not in the catalog or deck.dice)"), label=label),
                )
            )
        elif spec.evolution:
            errors.append(FieldError(f"{where}.cards[{j}]", said(N_("GD-1.2: {label} is an evolution die (deck.evolution)"), label=label)))
        elif spec.kind == "character":
            kins.add(spec.kin)
            characters.add(base_name(label))
    if not characters:
        errors.append(FieldError(f"{where}.cards", N_("GD-1.1: a deck needs at least one character die")))
    errors += _validate_evolution(deck, where, custom, kins)
    errors += _validate_kofuda(deck, where, characters)
    return errors


def _validate_evolution(deck: Mapping[str, Any], where: str, custom: Any, kins: set[str]) -> list[FieldError]:
    evo = deck.get("evolution")
    if evo is None:
        return []
    if not isinstance(evo, list) or not all(isinstance(e, str) and e for e in evo):
        return [FieldError(f"{where}.evolution", N_("must be a list of die names"))]
    errors = []
    for j, label in enumerate(evo):
        spec = lookup(label, custom)
        if spec is None:
            errors.append(FieldError(f"{where}.evolution[{j}]", said(N_("unknown die {label!r}"), label=label)))
        elif spec.kind != "character" or spec.kin not in kins:
            errors.append(
                FieldError(
                    f"{where}.evolution[{j}]",
                    said(N_("GD-1.2: {label} is not 同族 (kin) with a character die of the deck"), label=label),
                )
            )
    if len(set(evo)) != len(evo):
        errors.append(FieldError(f"{where}.evolution", N_("duplicate label (write name#2 for a second copy)")))
    return errors


def _validate_kofuda(deck: Mapping[str, Any], where: str, characters: set[str]) -> list[FieldError]:
    cards = deck.get("kofuda")
    if cards is None:
        return []
    if not isinstance(cards, list) or not all(isinstance(c, str) and c for c in cards):
        return [FieldError(f"{where}.kofuda", N_("must be a list of 小札絵 names"))]
    errors = []
    if len(cards) > MAX_KOFUDA:
        errors.append(FieldError(f"{where}.kofuda", said(N_("GD-1.3: at most {MAX_KOFUDA} 小札絵, got {cards}"), MAX_KOFUDA=MAX_KOFUDA, cards=len(cards))))
    for j, name in enumerate(cards):
        if base_name(name) not in characters:
            errors.append(FieldError(f"{where}.kofuda[{j}]", said(N_("GD-1.3: no character die {name} in the deck"), name=name)))
    return errors


def validate_header(header: Mapping[str, Any]) -> list[FieldError]:
    errors = _validate_house(header)
    players = header.get("players")
    if not isinstance(players, list):
        return errors + [FieldError("players", N_("must be a list"))]
    if not 2 <= len(players) <= 4:
        errors.append(FieldError("players", said(N_("GD-1.4: 2 to 4 players, got {players}"), players=len(players))))
    for i, p in enumerate(players):
        deck = p.get("deck") if isinstance(p, Mapping) else None
        errors += _validate_deck(deck, f"players[{i}].deck")
    return errors


def _player(p: Mapping[str, Any]) -> Player:
    deck = p.get("deck") or {}
    custom = custom_specs(deck)
    dice = []
    for label in deck.get("cards") or []:
        spec = lookup(label, custom)
        if spec is not None:
            dice.append(Die.from_spec(label, spec, p["id"]))
    evo = []
    for label in deck.get("evolution") or []:
        spec = lookup(label, custom)
        if spec is not None:
            evo.append(Die.from_spec(label, spec, p["id"]))
    return Player(
        id=p["id"],
        name=str(p.get("name", "")),
        deck_name=str(deck.get("name", "")),
        dice=tuple(dice),
        evolution=tuple(evo),
        kofuda=tuple(deck.get("kofuda") or ()),
    )


def initial_board(header: Mapping[str, Any], defaults: Mapping[str, Any] = HOUSE_RULES) -> Board:
    players = tuple(_player(p) for p in header.get("players", []))
    ids = [p.id for p in players]
    first = header.get("first") if header.get("first") in ids else (ids[0] if ids else "")
    k = ids.index(first) if first in ids else 0
    order = tuple(ids[k:] + ids[:k])
    house = tuple(sorted(house_of(header, defaults).items()))
    return Board(players=players, order=order, house=house, active=str(first))


# The header role of gandice/1: the same deck rules, the defaults of HOUSE_RULES_V1.
VERSION_1 = header_version(__name__, HOUSE_RULES_V1, validate_header, initial_board)
