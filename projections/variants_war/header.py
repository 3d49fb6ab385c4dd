"""The match header of ヴァリアンツ＝ウォー: deck rules (VW-2.1), house rules, the opening board."""

from __future__ import annotations

from projections.base import N_, said

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from projections.base import FieldError
from projections.package import header_version, house_rule_errors
from projections.variants_war import catalog
from projections.variants_war.board import Board, Pile, Player

HOUSE_RULES: dict[str, Any] = {
    "battle_tie": "none",  # VW-6.2: equal values destroy "none" or "both"
    "arctos_threshold": "over",  # VW-7.5: destroyed when damage is "over" 6000, or on "reach"ing it
    "arctos_count_from": "same",  # VW-7.3: the 2 turns counted from Arctos's appearance include that "same" turn, or start "next" turn
    "arctos_damage": "current",  # VW-7.3: Arctos takes the destroyed monster's "current" or "printed" ATK
    "first_turn_draw": True,  # VW-3.3: the first player draws on turn 1
    "retreat_by_move": True,  # VW-5.3: an attack-position monster may step back into its own empty back-row zone
    "main_actions": "per_turn",  # VW-5.1/5.4/5.6: one move, effect, position change per "per_turn" in total, or "per_monster"
    "genchu_atk": 2500,  # VW-8.4: 幻中 has no printed ATK/DEF
    "genchu_def": 2500,
    "card_texts": "checked",  # VW-11: each card's text is "checked" sentence by sentence, or only "recorded"
}
CHOICES: dict[str, tuple[Any, ...]] = {
    "battle_tie": ("none", "both"), "arctos_threshold": ("over", "reach"),
    "arctos_count_from": ("next", "same"), "arctos_damage": ("current", "printed"),
    "first_turn_draw": (True, False), "retreat_by_move": (True, False),
    "main_actions": ("per_turn", "per_monster"), "card_texts": ("checked", "recorded"),
}


# variants-war/2: the defaults matches were recorded under before the card texts were checked
# (issue 27): effects recorded, not simulated (VW-9 only). Those matches pin "variants-war/2".
HOUSE_RULES_V2: dict[str, Any] = {**HOUSE_RULES, "card_texts": "recorded"}
# variants-war/1: the defaults matches were recorded under before the rules-fidelity fixes of
# issue 17 (one of each main-phase action per monster; Arctos's two turns start after it appears).
# Those matches pin "variants-war/1" and replay on the boards they were recorded on.
HOUSE_RULES_V1: dict[str, Any] = {**HOUSE_RULES_V2, "main_actions": "per_monster", "arctos_count_from": "next"}


def options_of(header: Mapping[str, Any], defaults: Mapping[str, Any] = HOUSE_RULES) -> dict[str, Any]:
    opts = dict(defaults)
    opts.update((header.get("match") or {}).get("house_rules") or {})
    return opts


# What each player's deck must say in a header, for ``kifu new`` to ask of its options before
# anything is written (projections/package.py, ``deck_required``): each entry is a set of deck
# keys of which one must be given.
DECK_REQUIRED: tuple[tuple[str, ...], ...] = (("archetype", "cards"),)  # VW-2.1: a faction, or its deck list


def validate_header(header: Mapping[str, Any]) -> list[FieldError]:
    """Deck lists (VW-2.1: the dedicated deck plus 4 drafted enhancement cards) and house rules."""
    errors = _house_rule_errors(header)
    players = header.get("players") or []
    if len(players) != 2:
        errors.append(FieldError("players", N_("ヴァリアンツ＝ウォー is for 2 players")))
    picked: list[str] = []
    for i, p in enumerate(players):
        errors += _deck_errors(i, p.get("deck") or {}, picked)
    return errors


def _not_negative(name: str, value: Any) -> str | None:
    return N_("must be 0 or more") if type(value) is int and value < 0 else None


def _house_rule_errors(header: Mapping[str, Any]) -> list[FieldError]:
    return house_rule_errors((header.get("match") or {}).get("house_rules"), HOUSE_RULES, CHOICES, _not_negative)


def _deck_errors(i: int, deck: Mapping[str, Any], picked: list[str]) -> list[FieldError]:
    path = f"players[{i}].deck"
    faction = deck.get("archetype")
    cards = list(deck.get("cards") or [])
    if faction not in catalog.FACTIONS:
        faction = catalog.faction_of(cards[0]) if cards else None
    if faction is None:
        return [FieldError(f"{path}.archetype", said(N_("choose a faction: {FACTIONS}"), FACTIONS=' or '.join(catalog.FACTIONS)))]
    if not cards:
        return []
    errors = [FieldError(f"{path}.cards", said(N_("unknown card {c!r}"), c=c)) for c in cards if catalog.card(c) is None]
    starter = list(catalog.starter(faction))
    extra = [c for c in cards if c not in starter]
    if sorted(c for c in cards if c in starter) != sorted(starter):
        errors.append(FieldError(f"{path}.cards", said(N_("the {faction} dedicated deck is exactly {starter}"), faction=faction, starter=', '.join(starter))))
    if extra and (len(extra) != 4 or len(set(extra)) != 4 or any(c not in catalog.enhancements() for c in extra)):
        errors.append(FieldError(f"{path}.cards", N_("beyond the dedicated deck: exactly 4 different enhancement cards")))
    if set(extra) & set(picked):
        errors.append(FieldError(f"{path}.cards", N_("an enhancement card is drafted by one player only")))
    picked += extra
    return errors


def initial_board(header: Mapping[str, Any], defaults: Mapping[str, Any] = HOUSE_RULES) -> Board:
    """The board before any move: decks shuffled (contents known, order not), the ace aside in
    the EX deck (VW-2.3), the shared rescue and magic decks (VW-2.4), the draft pool (VW-2.2).
    The house rules are ``defaults`` (the version's) with the header's on top."""
    options = options_of(header, defaults)
    players = []
    pool = list(catalog.enhancements())
    for seat, ph in enumerate(header.get("players", [])):
        deck = ph.get("deck") or {}
        faction = deck.get("archetype") if deck.get("archetype") in catalog.FACTIONS else None
        names = list(deck.get("cards") or (catalog.starter(faction) if faction else ()))
        if faction is None and names:
            faction = catalog.faction_of(names[0])
        ex = tuple(n for n in names if catalog.is_ace(n))
        main = [n for n in names if not catalog.is_ace(n)]
        picks = tuple(n for n in main if n in catalog.enhancements())
        for n in picks:
            if n in pool:
                pool.remove(n)
        players.append(Player(ph["id"], seat, faction, deck=Pile.shuffled(main), ex=ex, picks=picks,
                              name=str(ph.get("name") or ph["id"])))
    board = Board(players=tuple(players), first=header.get("first") or players[0].id,
                  options=tuple(sorted(options.items())), rescue=Pile.shuffled(catalog.rescue_cards()),
                  magic=Pile.shuffled(catalog.magic_cards()), draft_pool=tuple(pool),
                  active=header.get("first") or players[0].id)
    if all(len(p.picks) >= 4 for p in players):
        board = replace(board, phase="setup")
    return board


# The header roles of variants-war/1 and /2: the same deck rules, the defaults of HOUSE_RULES_V1
# and HOUSE_RULES_V2.
VERSION_1 = header_version(__name__, HOUSE_RULES_V1, validate_header, initial_board)
VERSION_2 = header_version(__name__, HOUSE_RULES_V2, validate_header, initial_board)
