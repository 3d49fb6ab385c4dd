"""Names the match does not have (issue 15 part 4): refused as field errors with the closest
names offered; a name of this match that is wrong at this moment stays a rule violation."""

from __future__ import annotations

import random

import pytest

from projections.base import META_TYPES
from projections.gurren_lagann import RULESET as R
from projections.gurren_lagann.moves import name_errors

from .helpers import fold, header, rules_of
from .test_rules import BATTLE, SETUP

H = header()
H["players"][0]["name"], H["players"][1]["name"] = "山田", "佐藤"
BOARD, _ = fold(H, SETUP)
IN_BATTLE, _ = fold(H, BATTLE)

# (move, field, message)
CASES = [
    ({"type": "end_turn", "by": "C"}, "by", "'C' is not a player of this match"),
    ({"type": "end_turn", "by": "a"}, "by", "'a' is not a player of this match; did you mean 'A'?"),
    ({"type": "end_turn", "by": "山田"}, "by", "'山田' is not a player of this match; did you mean 'A'?"),
    ({"type": "draw", "by": "A", "cards": [None, "グレンラガソ"]}, "cards[1]",
     "'グレンラガソ' is not a card of 山田's deck; did you mean 'グレンラガン'?"),
    ({"type": "reveal", "by": "B", "cards": ["エンギ"]}, "cards[0]",
     "'エンギ' is not a card of 佐藤's deck; did you mean 'エンキ'?"),
    ({"type": "deploy", "by": "A", "card": "ダヤッカイザ", "square": "a1"}, "card",
     "'ダヤッカイザ' is not a card of 山田's deck; did you mean 'ダヤッカイザー'?"),
    ({"type": "deploy", "by": "A", "card": "ドリル", "square": "a1"}, "card",
     "'ドリル' is not a card of 山田's deck; did you mean 'ドリル一閃' or 'ギガドリル'?"),
    ({"type": "deploy", "by": "A", "card": "ダヤッカイザー", "square": "a1", "figure": "ダヤッカ"}, "figure",
     "'ダヤッカ' is not one of 山田's figures; did you mean 'ダヤッカイザー'?"),
    ({"type": "support", "by": "A", "card": "カミナ", "target": "グレソ"}, "target",
     "'グレソ' is not one of 山田's figures; did you mean 'グレン'?"),
    ({"type": "support", "by": "A", "card": "ヴィラル", "target": "グレン"}, "card",
     "'ヴィラル' is not a card of 山田's deck"),
    ({"type": "equip", "by": "A", "card": "グレンブーメラソ", "target": "グレン"}, "card",
     "'グレンブーメラソ' is not a card of 山田's deck; did you mean 'グレンブーメラン'?"),
    ({"type": "equip", "by": "A", "card": "グレンブーメラン", "target": "グレン", "figure": "ブーメラン"}, "figure",
     "'ブーメラン' is not one of 山田's figures; did you mean 'グレンブーメラン'?"),
    ({"type": "skill", "by": "A", "card": "ドリル一線", "user": "グレン"}, "card",
     "'ドリル一線' is not a card of 山田's deck; did you mean 'ドリル一閃'?"),
    ({"type": "skill", "by": "A", "card": "ドリル一閃", "user": "ラガソ"}, "user",
     "'ラガソ' is not one of 山田's figures; did you mean 'ラガン'?"),
    ({"type": "trap", "by": "B", "card": "待ちぶせ"}, "card",
     "'待ちぶせ' is not a card of 佐藤's deck; did you mean '待ち伏せ'?"),
    ({"type": "move", "by": "A", "figures": ["グレン", "ラガソ"], "path": ["d1", "d2"]}, "figures[1]",
     "'ラガソ' is not one of 山田's figures; did you mean 'ラガン'?"),
    ({"type": "move", "by": "A", "figures": ["X:グレン"], "path": ["d1", "d2"]}, "figures[0]",
     "'X' is not a player of this match"),
    ({"type": "effect", "by": "A", "card": "グレソ"}, "card",
     "'グレソ' is not a card of 山田's deck; did you mean 'グレン'?"),
    ({"type": "effect", "by": "A", "card": "グレン", "destroyed": ["B:エンギ"]}, "destroyed[0]",
     "'エンギ' is not one of 佐藤's figures; did you mean 'エンキ'?"),
    ({"type": "effect", "by": "A", "card": "グレン", "destroyed": ["ビャコー"]}, "destroyed[0]",
     "'ビャコー' is not a figure of this match; did you mean 'ビャコウ'?"),
    ({"type": "effect", "by": "A", "card": "グレン", "moved": {"ラガソ": "b2"}}, "moved.ラガソ",
     "'ラガソ' is not a figure of this match; did you mean 'ラガン'?"),
    ({"type": "effect", "by": "A", "card": "グレン", "readied": ["グレソ"]}, "readied[0]",
     "'グレソ' is not a figure of this match; did you mean 'グレン'?"),
    ({"type": "effect", "by": "A", "card": "グレン", "exhausted": ["ガンメソ"]}, "exhausted[0]",
     "'ガンメソ' is not a figure of this match; did you mean 'ガンメン'?"),
    ({"type": "effect", "by": "A", "card": "グレン", "damage": {"b": 1}}, "damage.b",
     "'b' is not a player of this match; did you mean 'B'?"),
    ({"type": "effect", "by": "A", "card": "グレン", "drew": ["力ミナ"]}, "drew[0]",
     "'力ミナ' is not a card of 山田's deck; did you mean 'カミナ'?"),
    ({"type": "effect", "by": "A", "card": "グレン", "discarded": [None, "ヨー子"]}, "discarded[1]",
     "'ヨー子' is not a card of 山田's deck; did you mean 'ヨーコ'?"),
    ({"type": "effect", "by": "A", "card": "グレン", "deployed": {"card": "グレンラガソ", "square": "d1"}},
     "deployed.card", "'グレンラガソ' is not a card of 山田's deck; did you mean 'グレンラガン'?"),
    ({"type": "effect", "by": "A", "card": "グレン", "deployed": {"card": "グレンラガン", "square": "d1", "figure": "GL"}},
     "deployed.figure", "'GL' is not one of 山田's figures"),
    ({"type": "end_turn", "by": "A", "discarded": ["ギガドリル", "ギガドリノレ"]}, "discarded[1]",
     "'ギガドリノレ' is not a card of 山田's deck; did you mean 'ギガドリル'?"),
]


@pytest.mark.parametrize(("move", "field", "message"), CASES, ids=[c[1] + "-" + c[0]["type"] for c in CASES])
def test_a_name_not_in_this_match_is_a_field_error(move, field, message):
    m = {"seq": 99, **move}
    assert R.validate_move(m) == [], R.validate_move(m)
    assert [str(e) for e in name_errors(BOARD, m)] == [f"{field}: {message}"]


def test_every_named_field_is_covered():
    fields = {c[1].split("[")[0].split(".")[0] for c in CASES}
    assert fields >= {"by", "cards", "card", "figure", "target", "user", "figures", "destroyed", "moved",
                      "readied", "exhausted", "damage", "drew", "discarded", "deployed"}


def test_names_of_this_match_that_are_wrong_now_stay_rule_violations():
    legal_but_wrong = [
        ({"type": "deploy", "by": "A", "card": "グレンラガン", "square": "a1"}, "GL-4.5"),  # only by 合体
        ({"type": "support", "by": "A", "card": "シモン", "target": "グレン"}, "GL-10.1"),  # not in hand
        ({"type": "move", "by": "A", "figures": ["ダヤッカイザー"], "path": ["a1", "a2"]}, "GL-6.1"),  # in stock
        ({"type": "support", "by": "A", "card": "カミナ", "target": "B:エンキ"}, "GL-5.1"),  # the enemy's
        ({"type": "trap", "by": "B", "card": "待ち伏せ"}, "GL-8.5"),  # none set
    ]
    for move, rule in legal_but_wrong:
        m = {"seq": 99, **move}
        assert name_errors(BOARD, m) == [], m
        assert rule in rules_of(R.check(BOARD, m)), m


def test_unseen_cards_and_qualified_figures_are_fine():
    ok = [
        {"type": "draw", "by": "B", "cards": [None]},
        {"type": "skill", "by": "B", "card": None, "set": True},
        {"type": "end_turn", "by": "B", "discarded": [None]},
        {"type": "effect", "by": "B", "card": "エンキ", "destroyed": ["A:グレン", "ラガン"], "moved": {"B:エンキ": "d5"}},
        {"type": "skill", "by": "B", "card": "獣人の誇り", "user": "エンキ"},
    ]
    for m in ok:
        assert name_errors(IN_BATTLE, {"seq": 99, **m}) == [], m


def test_squares_are_refused_by_the_structural_check():
    bad = R.validate_move({"seq": 1, "type": "deploy", "by": "A", "card": "ラガン", "square": "b7"})
    assert [str(e) for e in bad] == ["square: must be a square a1..e6"]


def test_generated_matches_have_no_name_errors():
    for seed in range(3):
        hdr, moves = R.generate(random.Random(seed), f"n{seed}")
        board = R.initial_board(hdr)
        for m in moves:
            if m["type"] not in META_TYPES:
                assert name_errors(board, m) == [], m
                board = R.apply(board, m)
