"""Issue 18: every structural refusal of ``moves.validate_move``, with its ``field: problem`` text."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.gandice.helpers import R

ATTACK = {"seq": 5, "type": "attack", "by": "A", "die": "ギダン", "target": "イスルギ", "face": "special"}
ITEM = {"seq": 6, "type": "item", "by": "A", "item": "武具・羅", "face": "normal", "value": 2}
FUSE = {"seq": 7, "type": "fuse", "by": "A", "die": "武王", "partners": ["鰐蛇"], "face": "normal", "value": 5}
EFFECT = {"seq": 8, "type": "effect", "by": "B", "source": "呪術・笑童児", "effect": "裏切り"}
SUMMON = {"seq": 1, "type": "summon", "by": "A", "rolls": {"ギダン": "special"}}

REFUSALS = [
    (
        {"seq": 1, "type": "dance", "by": "A"},
        "type: unknown move type 'dance' (gandice: summon, resummon, attack, defend, item, fuse, split, evolve, effect)",
    ),
    ({"seq": 1, "type": "summon", "by": "A"}, "rolls: missing"),
    ({k: v for k, v in ATTACK.items() if k != "target"}, "target: missing"),
    ({k: v for k, v in ATTACK.items() if k != "face"}, "face: missing"),
    ({**ATTACK, "by": ""}, "by: must be a player id"),
    ({**ATTACK, "by": 3}, "by: must be a player id"),
    ({**ATTACK, "face": "upside"}, "face: unknown face 'upside'"),
    ({**ATTACK, "face": 3}, "face: unknown face 3"),
    ({**ATTACK, "face": "normal", "value": "5"}, "value: must be an integer"),
    ({**ATTACK, "face": "normal", "value": True}, "value: must be an integer"),
    ({**ATTACK, "die": 1}, "die: must be a string"),
    ({**ATTACK, "target": ["イスルギ"]}, "target: must be a string"),
    ({**ATTACK, "defender": None}, "defender: must be a string"),
    ({"seq": 9, "type": "evolve", "by": "A", "die": "ギダン", "into": 2, "face": "special"}, "into: must be a string"),
    ({**EFFECT, "source": None}, "source: must be a string"),
    ({**EFFECT, "effect": 1}, "effect: must be a string"),
    ({"seq": 9, "type": "split", "by": "A", "graveyard": ["鰐蛇"]}, "graveyard: must be a string"),
    ({**ITEM, "card": 7}, "card: must be a string"),
    ({**ITEM, "item": 7}, "item: must be a die name or null"),
    ({**ITEM, "bonus": "2"}, "bonus: must be an integer"),
    ({**SUMMON, "rolls": ["ギダン"]}, "rolls: must map each character die to a face"),
    ({**SUMMON, "rolls": {"ギダン": "upside"}}, "rolls: must map each character die to a face"),
    ({**SUMMON, "type": "resummon", "rolls": {"ギダン": 3}}, "rolls: must map each character die to a face"),
    ({**FUSE, "partners": "鰐蛇"}, "partners: must be a list of die names"),
    ({**FUSE, "partners": [1]}, "partners: must be a list of die names"),
    ({**FUSE, "rolls": {"face": "normal"}}, "rolls: must be a list of {face, value}"),
    ({**FUSE, "rolls": ["normal"]}, "rolls: must be a list of {face, value}"),
    (
        {**FUSE, "rolls": [{"face": "normal", "value": 2}, {"face": "sideways"}]},
        "rolls[1].face: unknown face 'sideways'",
    ),
    ({**FUSE, "rolls": [{"face": "normal", "value": 2.5}]}, "rolls[0].value: must be an integer"),
    ({**EFFECT, "take": "美雅羅"}, "take: must be {player, die}"),
    ({**EFFECT, "take": {"player": "A"}}, "take: must be {player, die}"),
    ({**EFFECT, "graveyard": {"player": "A", "die": "爪牙"}}, "graveyard: must be a list"),
    ({**EFFECT, "graveyard": [{"player": "A"}]}, "graveyard: must be {player, die} or a list of them"),
    ({**EFFECT, "revive": "爪牙"}, "revive: must be a list"),
    ({**EFFECT, "state": True}, "state: must be a list"),  # once a TypeError (found by fuzzing)
    ({**EFFECT, "revive": [{"die": "爪牙"}]}, "revive: must be {player, die} or a list of them"),
    ({**EFFECT, "state": [{"player": "A", "die": "爪牙"}]}, "state: must be {player, die, state} or a list of them"),
    (
        {**EFFECT, "state": [{"player": "A", "die": "爪牙", "state": "asleep"}]},
        "state: state must be one of summoned, half, unsummoned",
    ),
]


@pytest.mark.parametrize(("move", "text"), REFUSALS, ids=[t for _, t in REFUSALS])
def test_each_refusal_with_its_text(move, text):
    got = [str(e) for e in R.validate_move(move)]
    assert got[:1] == [text], got
    assert len(got) == 1 or got[1] == "state: state must be one of summoned, half, unsummoned"


def test_every_refusal_text_of_the_module_is_triggered_here():
    """Each FieldError problem written in moves.py's structural checks appears in REFUSALS."""
    source = (Path(__file__).resolve().parents[2] / "projections" / "gandice" / "moves.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    body = [
        n
        for n in tree.body
        if isinstance(n, ast.FunctionDef) and n.name in {"_roll_errors", "_refs", "_field_errors", "validate_move"}
    ]
    problems = set()
    for fn in body:
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "FieldError" and len(node.args) == 2:
                arg = node.args[1]
                if isinstance(arg, ast.Call) and getattr(arg.func, "id", "") == "said":  # said(N_("..."), ...)
                    arg = arg.args[0]
                if isinstance(arg, ast.IfExp):  # said(N_("a")) if x else said(N_("b"))
                    arg = arg.body.args[0] if isinstance(arg.body, ast.Call) else arg.body
                if isinstance(arg, ast.Call) and getattr(arg.func, "id", "") == "N_":  # the template's words before a value
                    problems.add(arg.args[0].value.split("{")[0].strip() or arg.args[0].value)
                elif isinstance(arg, ast.Constant):
                    problems.add(arg.value)
                elif isinstance(arg, ast.JoinedStr):
                    problems.add(next(v.value for v in arg.values if isinstance(v, ast.Constant)).strip())
                elif isinstance(arg, ast.BinOp):  # "must be {...}" + " or a list of them"
                    problems.add("must be {")
    texts = " | ".join(t for _, t in REFUSALS)
    missing = [p for p in problems if p not in texts]
    assert problems and missing == [], missing


def test_the_spec_examples_are_valid():
    for spec in R.move_types.values():
        assert R.validate_move(spec.example) == [], spec.name
