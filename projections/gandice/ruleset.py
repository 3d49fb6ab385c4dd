"""The Gandice ruleset object (projections.base.Ruleset), tying the modules together."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from projections.base import FieldError, Move, MoveSpec, Result, Violation
from projections.gandice import check as _check
from projections.gandice import fold, header, moves, render
from projections.gandice.board import Board


class GandiceRuleset:
    name = "gandice"
    version = 1
    aliases = ("gd", "ガンダイス")
    title = "眼魔伝ガンダイス (令和版)"
    min_players = 2
    max_players = 4
    move_types: Mapping[str, MoveSpec] = moves.MOVE_TYPES
    house_rules: Mapping[str, Any] = header.HOUSE_RULES

    def validate_header(self, hdr: Mapping[str, Any]) -> list[FieldError]:
        return header.validate_header(hdr)

    def validate_move(self, move: Move) -> list[FieldError]:
        return moves.validate_move(move)

    def initial_board(self, hdr: Mapping[str, Any]) -> Board:
        return header.initial_board(hdr)

    def apply(self, board: Board, move: Move) -> Board:
        return fold.apply(board, move)

    def check(self, board: Board, move: Move) -> list[Violation]:
        return _check.check(board, move)

    def result(self, board: Board) -> Result | None:
        if board.phase != "over":
            return None
        return Result(board.winner, board.reason)

    def board_json(self, board: Board) -> dict[str, Any]:
        return render.board_json(board)

    def render_text(self, board: Board) -> str:
        return render.render_text(board)

    def legal_moves(self, board: Board) -> Iterable[Move]:
        from projections.gandice.generate import legal_moves

        return legal_moves(board)

    def vocabulary(self, hdr: Mapping[str, Any]) -> list[str]:
        return render.vocabulary(hdr)

    def generate(
        self, rng: random.Random, match_id: str, min_events: int = 0, players: int | None = None
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        from projections.gandice.generate import generate

        return generate(self, rng, match_id, min_events=min_events, players=players)


RULESET = GandiceRuleset()
