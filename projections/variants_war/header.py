"""The ヴァリアンツ＝ウォー ruleset object (projections.base.Ruleset)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from projections.base import FieldError, Move, Result, Violation
from projections.variants_war import apply as applying
from projections.variants_war import catalog, moves, render, rules
from projections.variants_war.board import SQUARES, Board

HOUSE_RULES: dict[str, Any] = {
    "battle_tie": "none",  # VW-6.2: equal values destroy "none" or "both"
    "arctos_threshold": "over",  # VW-7.5: destroyed when damage is "over" 6000, or on "reach"ing it
    "arctos_count_from": "next",  # VW-7.3: lock-on rolls count 2 turns from the turn "next" after Arctos appeared, or the "same" turn
    "arctos_damage": "current",  # VW-7.3: Arctos takes the destroyed monster's "current" or "printed" ATK
    "first_turn_draw": True,  # VW-3.3: the first player draws on turn 1
    "retreat_by_move": True,  # VW-5.3: an attack-position monster may step back into its own empty back-row zone
    "genchu_atk": 2500,  # VW-8.4: 幻中 has no printed ATK/DEF
    "genchu_def": 2500,
}
CHOICES: dict[str, tuple[Any, ...]] = {
    "battle_tie": ("none", "both"), "arctos_threshold": ("over", "reach"),
    "arctos_count_from": ("next", "same"), "arctos_damage": ("current", "printed"),
    "first_turn_draw": (True, False), "retreat_by_move": (True, False),
}


def options_of(header: Mapping[str, Any]) -> dict[str, Any]:
    opts = dict(HOUSE_RULES)
    opts.update((header.get("match") or {}).get("house_rules") or {})
    return opts


class VariantsWar:
    name = "variants-war"
    version = 1
    aliases = ("vw", "variants_war", "ヴァリアンツ＝ウォー")
    title = "ＶＶ(ヴァリアンツ＝ウォー)～始まりの地～"
    min_players = 2
    max_players = 2
    move_types = moves.MOVE_TYPES
    house_rules = HOUSE_RULES

    def validate_header(self, header: Mapping[str, Any]) -> list[FieldError]:
        errors = _house_rule_errors(header)
        players = header.get("players") or []
        if len(players) != 2:
            errors.append(FieldError("players", "ヴァリアンツ＝ウォー is for 2 players"))
        picked: list[str] = []
        for i, p in enumerate(players):
            errors += _deck_errors(i, p.get("deck") or {}, picked)
        return errors

    def validate_move(self, move: Move) -> list[FieldError]:
        return moves.validate(move)

    def initial_board(self, header: Mapping[str, Any]) -> Board:
        return applying.initial(dict(header), options_of(header))

    def apply(self, board: Board, move: Move) -> Board:
        return applying.apply(board, move)

    def check(self, board: Board, move: Move) -> list[Violation]:
        return rules.check(board, move)

    def result(self, board: Board) -> Result | None:
        if board.reason is None:
            return None
        return Result(board.winner, board.reason)

    def board_json(self, board: Board) -> dict[str, Any]:
        return render.board_json(board)

    def render_text(self, board: Board) -> str:
        return render.render_text(board)

    def legal_moves(self, board: Board) -> Iterable[Move]:
        from projections.variants_war.generate import legal_moves

        return legal_moves(board)

    def vocabulary(self, header: Mapping[str, Any]) -> list[str]:
        words = list(catalog.cards()) + list(SQUARES) + [str(n) for n in range(1, 9)]
        return words + ["attack", "defence", "normal", "lateral", "special", "heads", "tails"]

    def generate(self, rng: random.Random, match_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        from projections.variants_war.generate import generate

        return generate(rng, match_id)


def _house_rule_errors(header: Mapping[str, Any]) -> list[FieldError]:
    errors = []
    for name, value in ((header.get("match") or {}).get("house_rules") or {}).items():
        path = f"match.house_rules.{name}"
        if name not in HOUSE_RULES:
            errors.append(FieldError(path, f"unknown house rule (known: {', '.join(HOUSE_RULES)})"))
        elif name in CHOICES and value not in CHOICES[name]:
            errors.append(FieldError(path, f"one of {CHOICES[name]}"))
        elif name not in CHOICES and not (type(value) is int and value >= 0):
            errors.append(FieldError(path, "a non-negative integer"))
    return errors


def _deck_errors(i: int, deck: Mapping[str, Any], picked: list[str]) -> list[FieldError]:
    path = f"players[{i}].deck"
    faction = deck.get("archetype")
    cards = list(deck.get("cards") or [])
    if faction not in catalog.FACTIONS:
        faction = catalog.faction_of(cards[0]) if cards else None
    if faction is None:
        return [FieldError(f"{path}.archetype", f"choose a faction: {' or '.join(catalog.FACTIONS)}")]
    if not cards:
        return []
    errors = [FieldError(f"{path}.cards", f"unknown card {c!r}") for c in cards if catalog.card(c) is None]
    starter = list(catalog.starter(faction))
    extra = [c for c in cards if c not in starter]
    if sorted(c for c in cards if c in starter) != sorted(starter):
        errors.append(FieldError(f"{path}.cards", f"the {faction} dedicated deck is exactly {', '.join(starter)}"))
    if extra and (len(extra) != 4 or len(set(extra)) != 4 or any(c not in catalog.enhancements() for c in extra)):
        errors.append(FieldError(f"{path}.cards", "beyond the dedicated deck: exactly 4 different enhancement cards"))
    if set(extra) & set(picked):
        errors.append(FieldError(f"{path}.cards", "an enhancement card is drafted by one player only"))
    picked += extra
    return errors
