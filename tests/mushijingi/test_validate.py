"""Every structural refusal of ``moves.validate_move`` (issue 18.2), with its exact text:
what a scorekeeper reads as ``FILE:LINE: field: problem``."""

from __future__ import annotations

import pytest

from projections.mushijingi import RULESET as R
from projections.mushijingi.moves import validate_move

EFFECT = {"seq": 1, "type": "effect", "by": "A", "card": "大嵐"}
KNOWN = "setup, draw, set, play, attack, effect, reveal, end_turn"

REFUSALS = [
    ({"seq": 1, "type": "fly", "by": "A"}, [f"type: unknown move type 'fly' (known: {KNOWN})"]),
    ({"seq": 1, "by": "A"}, [f"type: unknown move type None (known: {KNOWN})"]),
    ({"seq": 1, "type": "end_turn"}, ["by: missing"]),
    ({"seq": 1, "type": "attack", "by": "A", "attacker": "A1"}, ["technique: missing", "target: missing"]),
    ({"seq": 1, "type": "end_turn", "by": 1}, ["by: expected a player id"]),
    ({"seq": 1, "type": "set", "by": "A", "card": 7}, ["card: expected a string"]),
    ({"seq": 1, "type": "draw", "by": "A", "card": 7}, ["card: expected a string"]),
    (
        {"seq": 1, "type": "attack", "by": "A", "attacker": None, "technique": ["x"], "target": 1},
        ["attacker: expected a string", "technique: expected a string", "target: expected a string"],
    ),
    ({**EFFECT, "player": 2, "text": None}, ["player: expected a string", "text: expected a string"]),
    (
        {"seq": 1, "type": "attack", "by": "A", "attacker": "A1", "technique": "t", "target": "player", "territory_card": 3},
        ["territory_card: expected a card name or null"],
    ),
    ({"seq": 1, "type": "setup", "by": "A", "hand": "カブトムシ"}, ["hand: expected a list of card names"]),
    ({"seq": 1, "type": "setup", "by": "A", "hand": ["カブトムシ", 3]}, ["hand[1]: expected a card name or null"]),
    ({"seq": 1, "type": "reveal", "by": "A", "cards": [None]}, ["cards[0]: expected a card name"]),
    ({"seq": 1, "type": "reveal", "by": "A", "cards": {"a": 1}}, ["cards: expected a list of card names"]),
    ({**EFFECT, "destroy": "A1"}, ["destroy: expected a list of card names"]),
    ({**EFFECT, "bounce": [1]}, ["bounce[0]: expected a card name"]),
    ({**EFFECT, "flip": [None]}, ["flip[0]: expected a card name"]),
    ({**EFFECT, "discard": [True]}, ["discard[0]: expected a card name"]),
    ({**EFFECT, "feed_discard": "羽化"}, ["feed_discard: expected a list of card names"]),
    ({**EFFECT, "summon": [{}]}, ["summon[0]: expected a card name"]),
    ({**EFFECT, "damage": {"A1": "300"}}, ["damage: expected an object {insect ref: integer}"]),
    ({**EFFECT, "damage": [300]}, ["damage: expected an object {insect ref: integer}"]),
    ({**EFFECT, "boost": {"A1": True}}, ["boost: expected an object {insect ref: integer}"]),
    ({**EFFECT, "draw": -1}, ["draw: expected a non-negative integer"]),
    ({**EFFECT, "territory": "1"}, ["territory: expected a non-negative integer"]),
    ({**EFFECT, "draw": True}, ["draw: expected a non-negative integer"]),
    ({**EFFECT, "from": "territory"}, ["from: expected hand, discard or deck"]),
]  # fmt: skip


@pytest.mark.parametrize("move, problems", REFUSALS, ids=lambda x: str(x)[:40] if isinstance(x, dict) else "")
def test_refusal_text(move, problems):
    assert [str(e) for e in R.validate_move(move)] == problems


def test_unknown_player_when_the_players_are_given():
    move = {"seq": 1, "type": "end_turn", "by": "C"}
    assert [str(e) for e in validate_move(move, ["A", "B"])] == ["by: unknown player 'C'"]
    assert validate_move(move) == []
    # an effect may be recorded for anyone (MJ-3.1): no player check on its by
    assert validate_move({**EFFECT, "by": "C"}, ["A", "B"]) == []


def test_the_accepted_shapes():
    ok = [
        {"seq": 1, "type": "draw", "by": "A", "card": None},
        {"seq": 1, "type": "setup", "by": "A", "hand": ["カブトムシ", None]},
        {
            "seq": 1,
            "type": "attack",
            "by": "A",
            "attacker": "A1",
            "technique": "t",
            "target": "player",
            "territory_card": None,
        },
        {**EFFECT, "damage": {"A1": 0}, "draw": 0, "from": "discard", "summon": ["カブトムシ"]},
    ]
    for move in ok:
        assert R.validate_move(move) == [], move
