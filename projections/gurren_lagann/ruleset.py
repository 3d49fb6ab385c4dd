"""The ruleset object for 天元突破グレンラガン (GBS): ties board, moves, checks and renders."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from projections.base import FieldError, Move, MoveSpec, Result, Violation, players_of
from projections.gurren_lagann import checks, moves, render, rules, specs
from projections.gurren_lagann.board import (
    HOUSE_RULE_CHOICES,
    HOUSE_RULES,
    SQUARES,
    GLBoard,
    initial,
)
from projections.gurren_lagann.catalog import deck_problems, load


class GurrenLagannRuleset:
    name = "gurren-lagann"
    version = 1
    aliases: tuple[str, ...] = ("gl", "gbs", "gurren_lagann")
    title = "天元突破グレンラガン ドリル銀河大戦カードゲーム (GBS)"
    min_players = 2
    max_players = 2
    move_types: Mapping[str, MoveSpec] = specs.MOVE_TYPES
    house_rules: Mapping[str, Any] = HOUSE_RULES

    def validate_header(self, header: Mapping[str, Any]) -> list[FieldError]:
        errors: list[FieldError] = []
        players = header.get("players") or []
        if len(players) != 2:
            errors.append(FieldError("players", "GBS is a game for exactly 2 players"))
        catalog = load()
        for i, p in enumerate(players):
            deck = p.get("deck") if isinstance(p, Mapping) else None
            base = f"players[{i}].deck"
            if not isinstance(deck, Mapping):
                errors.append(FieldError(base, "missing (needs cards and stock)"))
                continue
            cards, stock = deck.get("cards"), deck.get("stock")
            if not isinstance(cards, list):
                errors.append(FieldError(f"{base}.cards", "missing: a list of 30 card names"))
                continue
            if not isinstance(stock, list):
                errors.append(
                    FieldError(f"{base}.stock", "missing: a list of figure names (ストックデッキ)")
                )
                stock = []
            errors += [
                FieldError(f"{base}.{f}", problem)
                for f, problem in deck_problems(cards, stock, catalog)
            ]
        return errors + self._house_rule_errors(header)

    def _house_rule_errors(self, header: Mapping[str, Any]) -> list[FieldError]:
        errors = []
        rules_ = (header.get("match") or {}).get("house_rules") or {}
        for name, value in rules_.items():
            field = f"match.house_rules.{name}"
            if name not in HOUSE_RULES:
                errors.append(
                    FieldError(field, f"unknown option (known: {', '.join(HOUSE_RULES)})")
                )
            elif name in HOUSE_RULE_CHOICES and value not in HOUSE_RULE_CHOICES[name]:
                errors.append(FieldError(field, f"one of {', '.join(HOUSE_RULE_CHOICES[name])}"))
            elif type(value) is not type(HOUSE_RULES[name]):
                errors.append(FieldError(field, f"must be {type(HOUSE_RULES[name]).__name__}"))
            elif name == "draw_per_turn" and value < 0:
                errors.append(FieldError(field, "must be 0 or more"))
        return errors

    def validate_move(self, move: Move) -> list[FieldError]:
        return specs.validate_move(move)

    def initial_board(self, header: Mapping[str, Any]) -> GLBoard:
        return initial(header)

    def apply(self, board: GLBoard, move: Move) -> GLBoard:
        return moves.apply(board, move)

    def check(self, board: GLBoard, move: Move) -> list[Violation]:
        return checks.check(board, move)

    def result(self, board: GLBoard) -> Result | None:
        return rules.result(board)

    def board_json(self, board: GLBoard) -> dict[str, Any]:
        return render.board_json(board)

    def render_text(self, board: GLBoard) -> str:
        return render.render_text(board)

    def legal_moves(self, board: GLBoard) -> Iterable[Move]:
        from projections.gurren_lagann.generate import legal_moves

        return legal_moves(board)

    def vocabulary(self, header: Mapping[str, Any]) -> list[str]:
        names: dict[str, None] = {}
        for p in header.get("players") or []:
            deck = p.get("deck") or {}
            for n in [*deck.get("cards", []), *deck.get("stock", [])]:
                if isinstance(n, str):
                    names[n] = None
        if not names:
            names = dict.fromkeys(load().cards)
        return [*names, *SQUARES, *players_of(header), *self.move_types]

    def generate(
        self, rng: random.Random, match_id: str
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        from projections.gurren_lagann.generate import generate

        return generate(self, rng, match_id)


RULESET = GurrenLagannRuleset()
