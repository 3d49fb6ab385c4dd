"""A match replays under the ruleset version it was recorded with, after the rules change."""

from __future__ import annotations

from dataclasses import replace

from projections import registry
from projections.replay import Replay
from recorder import logformat
from tests.toy import Toy


class ToyV1(Toy):
    name = "toy2"


class ToyV2(ToyV1):
    """The toy game after a rules change: a score now counts double."""

    version = 2

    def apply(self, board, move):
        board = super().apply(board, move)
        if move["type"] == "score":
            i = board.players.index(move["by"])
            scores = list(board.scores)
            scores[i] += move["points"]
            board = replace(board, scores=tuple(scores))
        return board


def test_old_matches_replay_as_recorded_after_a_rules_change():
    registry.register("toy2", {1: ToyV1(), 2: ToyV2()})
    try:
        header = {"kifu": 1, "game": "toy2", "match": {"id": "v"}, "players": [{"id": "A"}, {"id": "B"}]}
        pinned = logformat.normalise_header(header)
        assert pinned["rules"] == "toy2/2"  # new matches get the newest rules
        old = dict(pinned, rules="toy2/1")
        moves = [{"seq": 1, "type": "score", "by": "A", "points": 3}]
        assert Replay(old, moves).board_json()["players"]["A"] == {"score": 3}
        assert Replay(pinned, moves).board_json()["players"]["A"] == {"score": 6}
    finally:
        registry._PLUGINS.pop("toy2")
        registry.GAMES.pop("toy2")
