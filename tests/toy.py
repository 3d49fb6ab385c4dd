"""A tiny game for testing the core without any real ruleset: players alternate ``score``
moves of 1-3 points; 10 points wins. Registered as ``toy`` by tests/conftest.py.

It is also the shortest whole example of the ruleset protocol (projections/base.py): the rules
it cites (TOY-1, TOY-2) are in tests/toy.md, and the contract suite (tests/contract/) runs it
like every real game. docs/adding-a-game.md walks through it."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from projections.base import ENGLISH, FieldError, MoveSpec, Result, Violation


@dataclass(frozen=True)
class ToyBoard:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    turn: int = 1
    active: str = ""


class Toy:
    name = "toy"
    version = 1
    aliases = ("t",)
    title = "Toy"
    min_players = 2
    max_players = 3
    house_rules = {"target": 10}
    move_types = {
        "score": MoveSpec("score", "score points", {"points": "1-3"}, ("points",),
                          {"seq": 1, "type": "score", "by": "A", "points": 2}),
        "pass": MoveSpec("pass", "pass the turn", {}, (), {"seq": 1, "type": "pass", "by": "A"}),
    }

    def validate_header(self, header):
        return [FieldError("match.house_rules", f"unknown option {k!r}")
                for k in header["match"].get("house_rules", {}) if k not in self.house_rules]

    def validate_move(self, move):
        if move["type"] == "score" and not isinstance(move.get("points"), int):
            return [FieldError("points", "must be an integer")]
        return []

    def initial_board(self, header):
        ids = tuple(p["id"] for p in header["players"])
        return ToyBoard(ids, (0,) * len(ids), 1, header.get("first") or ids[0])

    def _next(self, board):
        i = board.players.index(board.active)
        return board.players[(i + 1) % len(board.players)]

    def apply(self, board, move):
        scores = list(board.scores)
        if move["type"] == "score":
            scores[board.players.index(move["by"])] += move["points"]
        return replace(board, scores=tuple(scores), turn=board.turn + 1, active=self._next(board))

    def check(self, board, move):
        out = []
        if move["by"] != board.active:
            out.append(Violation(move["seq"], "TOY-1", f"not {move['by']}'s turn",
                                 suggest=({"type": "pass", "by": board.active},)))
        if move["type"] == "score" and not 1 <= move["points"] <= 3:
            out.append(Violation(move["seq"], "TOY-2", "points must be 1-3", expected={"max": 3}))
        return out

    def result(self, board):
        for pid, s in zip(board.players, board.scores):
            if s >= 10:
                return Result(pid, "target")
        return None

    def board_json(self, board):
        return {"turn": board.turn, "active": board.active,
                "players": {p: {"score": s} for p, s in zip(board.players, board.scores)}}

    def render_text(self, board, t=ENGLISH):
        return "\n".join(f"{p}: {s}" for p, s in zip(board.players, board.scores))

    def describe(self, board, move, lang="ja"):
        """Notation, read from the board before the move: 「2点 (計5点)」 / "scores 2 (5 in all)"."""
        if move["type"] == "pass":
            return "パス" if lang == "ja" else "passes"
        total = board.scores[board.players.index(move["by"])] + move["points"]
        return f"{move['points']}点 (計{total}点)" if lang == "ja" else f"scores {move['points']} ({total} in all)"

    def legal_moves(self, board):
        return [{"type": "score", "by": board.active, "points": n} for n in (1, 2, 3)]

    def vocabulary(self, header):
        return []

    def generate(self, rng: random.Random, match_id: str, min_events: int = 0) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        n = rng.choice((2, 3))
        ids = "ABC"[:n]
        header = {"kifu": 1, "game": "toy", "match": {"id": match_id, "event": "gen", "round": 1},
                  "players": [{"id": p, "name": f"プレイヤー{p}", "deck": {"name": "山札", "cards": []}} for p in ids],
                  "first": "A"}
        board = self.initial_board(header)
        moves = []
        while self.result(board) is None:
            if len(moves) < min_events:
                move = {"type": "pass", "by": board.active}
            else:
                move = {"type": "score", "by": board.active, "points": rng.randint(1, 3)}
            move = {"seq": len(moves) + 1, **move}
            moves.append(move)
            board = self.apply(board, move)
        return header, moves


TOY = Toy()
