"""Issue 15 part 4: a name the match does not have is a field error with the closest names."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from projections.gandice.moves import name_errors
from tests.gandice.helpers import ISURUGI, YAMI, R, header, run, summons

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "gandice-example.jsonl"
BOARD, _ = run(summons())


def errs(move: dict, board=BOARD) -> list[str]:
    move = {"seq": 9, **move}
    assert R.validate_move(move) == []  # structurally fine: only the names are wrong
    return [str(e) for e in name_errors(board, move)]


def test_the_issue_example_die_typo():
    move = {"type": "defend", "by": "B", "die": "ギダソ", "face": "normal", "value": 3}
    assert errs(move) == ["die: 'ギダソ' is not a die of this match; did you mean 'ギダン'?"]


@pytest.mark.parametrize(
    ("move", "field", "wanted"),
    [
        (
            {"type": "attack", "by": "AA", "die": "ギダン", "target": "紅蓮のイスルギ", "face": "special"},
            "by",
            "'A'",
        ),
        (
            {"type": "attack", "by": "A", "die": "ギダン・", "target": "紅蓮のイスルギ", "face": "special"},
            "die",
            "'ギダン'",
        ),
        (
            {"type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルキ", "face": "special"},
            "target",
            "'紅蓮のイスルギ'",
        ),
        (
            {"type": "attack", "by": "A", "die": "ギダン", "target": "爪牙", "defender": "BB", "face": "side"},
            "defender",
            "'B'",
        ),
        (
            {"type": "evolve", "by": "A", "die": "ギダン", "into": "ギダン・進", "face": "special"},
            "into",
            "'ギダン・進化'",
        ),
        ({"type": "item", "by": "A", "item": "武具・羅#3", "face": "special"}, "item", "'武具・羅'"),
        ({"type": "item", "by": "A", "card": "ギダソ"}, "card", "'ギダン'"),
        ({"type": "split", "by": "A", "graveyard": "爪芽"}, "graveyard", None),
        (
            {"type": "fuse", "by": "A", "die": "ギダン", "partners": ["美雅羅", "美雅"], "face": "normal", "value": 2},
            "partners[1]",
            "'美雅羅'",
        ),
        ({"type": "summon", "by": "A", "rolls": {"ギダン": "special", "美雅良": "side"}}, "rolls.美雅良", "'美雅羅'"),
        ({"type": "effect", "by": "B", "source": "呪術・笑童子", "effect": "裏切り"}, "source", "'呪術・笑童児'"),
        (
            {
                "type": "effect",
                "by": "B",
                "source": "呪術・笑童児",
                "effect": "裏切り",
                "take": {"player": "A", "die": "美雅"},
            },
            "take.die",
            "'美雅羅'",
        ),
        (
            {
                "type": "effect",
                "by": "B",
                "source": "呪術・笑童児",
                "effect": "裏切り",
                "take": {"player": "X", "die": "美雅羅"},
            },
            "take.player",
            None,
        ),
        (
            {
                "type": "effect",
                "by": "B",
                "source": "イスルギ",
                "effect": "e",
                "graveyard": [{"player": "A", "die": "爪牙"}, {"player": "A", "die": "鰐蛇"}],
            },
            "graveyard[1].die",
            None,
        ),
        (
            {
                "type": "effect",
                "by": "B",
                "source": "イスルギ",
                "effect": "e",
                "state": [{"player": "C", "die": "爪牙", "state": "half"}],
            },
            "state[0].player",
            None,
        ),
        (
            {
                "type": "effect",
                "by": "B",
                "source": "イスルギ",
                "effect": "e",
                "revive": [{"player": "A", "die": "ギダソ"}],
            },
            "revive[0].die",
            "'ギダン'",
        ),
    ],
)
def test_each_named_field(move, field, wanted):
    found = errs(move)
    assert len(found) == 1 and found[0].startswith(f"{field}: "), found
    assert "of this match" in found[0]
    if wanted:
        assert f"did you mean {wanted}" in found[0]


def test_names_of_the_match_used_wrongly_stay_rule_violations():
    # 紅蓮のイスルギ is B's die: A attacking with it is wrong, but the name is of this match
    move = {"type": "attack", "by": "A", "die": "紅蓮のイスルギ", "target": "ギダン", "face": "special"}
    assert errs(move) == []
    assert [v.rule for v in R.check(BOARD, {"seq": 3, **move})] == ["GD-3.4", "GD-3.3"]
    # a die swapped by an evolution is still a name the match had
    board, _ = run(
        [
            *summons(),
            {"type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルギ", "face": "normal", "value": 6},
            {"type": "defend", "by": "B", "die": "紅蓮のイスルギ", "face": "normal", "value": 1},
            {"type": "evolve", "by": "A", "die": "ギダン", "into": "ギダン・進化", "face": "special"},
        ]
    )
    assert errs({"type": "resummon", "by": "A", "rolls": {"ギダン": "special"}}, board) == []
    # a 小札絵 name of the other player is of this match, as is a die in a graveyard
    assert errs({"type": "item", "by": "A", "card": "イスルギ"}) == []
    assert errs({"type": "item", "by": "A", "item": None}) == []


def test_the_example_and_generated_matches_have_no_name_errors():
    lines = [json.loads(x) for x in EXAMPLE.read_text(encoding="utf-8").splitlines() if x.strip()]
    board = R.initial_board(lines[0])
    for m in lines[1:]:
        if m["type"] != "annotate":
            assert name_errors(board, m) == [], m
            board = R.apply(board, m)
    for seed in range(10):
        hdr, moves = R.generate(random.Random(seed), "m", players=2 + seed % 3)
        board = R.initial_board(hdr)
        for m in moves:
            assert name_errors(board, m) == [], m
            board = R.apply(board, m)


def test_unrelated_header_names_are_not_offered():
    board, _ = run(summons(), header(YAMI, ISURUGI))
    # 獣幽士 is in the catalog but not in this match
    found = errs({"type": "attack", "by": "A", "die": "獣幽士", "target": "イスルギ", "face": "special"}, board)
    assert found and found[0].startswith("die: '獣幽士' is not a die of this match")
