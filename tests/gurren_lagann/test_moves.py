"""Every structural refusal of ``moves.validate_move``, each with its exact text."""

from __future__ import annotations

import pytest

from projections.gurren_lagann import RULESET as R
from projections.gurren_lagann.moves import MOVE_TYPES

KNOWN = ", ".join(MOVE_TYPES)
EFFECT = {"seq": 1, "type": "effect", "by": "A", "card": "グレン"}

# (line, every error it gets as "field: problem")
REFUSALS = [
    ({"seq": 1, "type": "teleport", "by": "A"}, [f"type: unknown move type 'teleport' (known: {KNOWN})"]),
    ({"seq": 1, "by": "A"}, [f"type: unknown move type None (known: {KNOWN})"]),
    ({"seq": 1, "type": "mulligan", "by": "A"}, [f"type: unknown move type 'mulligan' (known: {KNOWN})"]),  # GL-2.3
    ({"seq": 1, "type": "end_turn"}, ["by: missing"]),
    ({"seq": 1, "type": "move", "by": "A"}, ["figures: missing", "path: missing"]),
    ({"seq": 1, "type": "deploy", "by": "A"}, ["card: missing", "square: missing", "card: must be a card name"]),
    ({"seq": 1, "type": "deploy", "by": "A", "card": None, "square": "a1"}, ["card: must be a card name"]),
    ({"seq": 1, "type": "support", "by": "A", "card": 3, "target": "グレン"}, ["card: must be a card name"]),
    ({"seq": 1, "type": "deploy", "by": "A", "card": "グレン", "square": "f1"}, ["square: must be a square a1..e6"]),
    ({"seq": 1, "type": "move", "by": "A", "figures": ["グレン"], "path": ["d1", "z9", 3]},
     ["path: not squares: z9, 3 (a1..e6)"]),
    ({"seq": 1, "type": "move", "by": "A", "figures": "グレン", "path": "d1"},
     ["figures: must be a list", "path: must be a list"]),
    ({"seq": 1, "type": "battle", "by": "A", "attack": "3", "defend": True}, ["attack: must be an integer",
                                                                               "defend: must be an integer"]),
    ({"seq": 1, "type": "battle", "by": "A", "attack": 3, "defend": 1, "outcome": "win"},
     ["outcome: attacker, defender or both"]),
    ({"seq": 1, "type": "draw", "by": "A", "cards": "グレン", "count": 1.5},
     ["cards: must be a list", "count: must be an integer"]),
    ({"seq": 1, "type": "trap", "by": "B", "card": "待ち伏せ", "power": "2"}, ["power: must be an integer"]),
    ({**EFFECT, "destroyed": "エンキ", "readied": "グレン", "exhausted": "グレン", "discarded": "カミナ"},
     ["destroyed: must be a list", "discarded: must be a list", "readied: must be a list",
      "exhausted: must be a list"]),
    ({**EFFECT, "moved": ["グレン", "d2"], "damage": 1, "deployed": "グレンラガン"},
     ["moved: must be an object", "damage: must be an object", "deployed: must be an object"]),
    ({**EFFECT, "drew": "カミナ"}, ["drew: a count or a list of names"]),
    ({**EFFECT, "moved": {"グレン": "d9"}}, ["moved: values must be squares a1..e6"]),
    ({**EFFECT, "damage": {"B": "1"}}, ["damage: values must be integers"]),
    ({**EFFECT, "deployed": {"card": "グレンラガン"}}, ["deployed: needs card (name) and square (a1..e6)"]),
    ({**EFFECT, "deployed": {"card": 1, "square": "c2"}}, ["deployed: needs card (name) and square (a1..e6)"]),
    ({"seq": 1, "type": "end_turn", "by": "A", "discarded": None}, ["discarded: must be a list"]),
    ({"seq": 1, "type": "end_turn", "by": "A"}, []),  # no discard: nothing discarded
]


@pytest.mark.parametrize(("line", "errors"), REFUSALS)
def test_refusal_text(line, errors):
    assert [str(e) for e in R.validate_move(line)] == errors


def test_every_example_line_is_accepted():
    for spec in MOVE_TYPES.values():
        assert R.validate_move(dict(spec.example)) == [], spec.type
