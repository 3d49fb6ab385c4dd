"""The recording page's guess of the next move (exports/recording.py likely_type), counted over
every move of the four shipped examples without a browser: the pre-selected type and player
are the line's for the share printed here (issue 37 asks 90%; the floor below is what the
turn orders reach today, so a change that guesses worse fails)."""

from __future__ import annotations

import json

import pytest

from exports.recording import likely_type, state
from projections import registry
from projections.replay import Replay
from tests.web.conftest import ROOT

GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")
FLOOR = 0.86


def guessed(game: str) -> tuple[int, int]:
    lines = [json.loads(x) for x in (ROOT / "examples" / f"{game}-example.jsonl").read_text("utf-8").splitlines() if x]
    rep = Replay(lines[0], [])
    right = moves = 0
    for line in lines[1:]:
        if line["type"] != "annotate":
            nxt = state(rep, "ja", lambda b: "")["next"]
            moves += 1
            right += (nxt["type"], nxt["by"]) == (line["type"], line["by"])
        rep.extend([line])
    return right, moves


def test_the_next_move_is_guessed_for_most_moves_of_the_examples():
    counted = {g: guessed(g) for g in GAMES}
    right, moves = sum(r for r, _ in counted.values()), sum(m for _, m in counted.values())
    print({g: f"{r}/{m}" for g, (r, m) in counted.items()}, f"{right}/{moves}")
    assert moves == 256
    assert right / moves >= FLOOR, counted


@pytest.mark.parametrize("last_by, expected", [("A", "battle"), ("B", "draw")])
def test_a_turn_goes_on_in_its_order_and_a_new_turn_starts_over(last_by, expected):
    vw = registry.get("variants-war")
    legal = [{"type": "draw", "by": "A"}, {"type": "battle", "by": "A"}, {"type": "position", "by": "A"}]
    entries = [{"seq": 1, "type": "move", "by": last_by}, {"seq": 2, "type": "annotate", "on": 1, "by": "解説"}]
    assert likely_type(vw, entries, legal) == expected  # notes are not moves


def test_without_an_order_or_a_move_the_first_legal_move_leads():
    class Bare:
        turn_order = ()

    legal = [{"type": "b", "by": "A"}, {"type": "a", "by": "A"}]
    assert likely_type(Bare(), [{"seq": 1, "type": "a", "by": "A"}], legal) == "b"
    assert likely_type(registry.get("gandice"), [], legal) == "b"
    assert likely_type(registry.get("gandice"), [], []) is None
