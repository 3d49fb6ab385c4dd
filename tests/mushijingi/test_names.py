"""Names the match does not have (issue 15.4): ``moves.name_errors`` refuses a player, card,
insect or technique name that cannot be right in this match, offering the closest names; a
name of the match used wrongly stays a rule violation for ``check``."""

from __future__ import annotations

import random

import pytest

from projections.base import META_TYPES, FieldError
from projections.mushijingi import RULESET as R
from projections.mushijingi.moves import name_errors
from tests.mushijingi.helpers import A_DECK, B_DECK, header, main_board, read_example, started


def errors(board, **move):
    move = {"seq": 1, **move}
    assert R.validate_move(move) == [], move
    assert R.name_errors(board, move) == name_errors(board, move)
    return [(e.field, e.problem) for e in name_errors(board, move)]


def test_unknown_player_in_by_and_player():
    board = started()
    assert errors(board, type="end_turn", by="AA") == [("by", "'AA' is not a player of this match; did you mean 'A'?")]
    assert errors(board, type="effect", by="A", card="羽化", player="Q", draw=1) == [
        ("player", "'Q' is not a player of this match")
    ]
    assert errors(board, type="effect", by="B", card="羽化", player="A", draw=1) == []


def test_unknown_card_names_in_every_card_field():
    board = main_board(a=["カブトムシ"])
    typo = "'カブトムツ' is not a card of this match; did you mean 'カブトムシ'?"
    assert errors(board, type="set", by="A", card="カブトムツ") == [("card", typo)]
    assert errors(board, type="play", by="A", card="カブトムツ") == [("card", typo)]
    assert errors(board, type="draw", by="A", card="カブトムツ") == [("card", typo)]
    assert errors(board, type="draw", by="A", card=None) == []
    assert errors(board, type="effect", by="A", card="カブトムツ") == [("card", typo)]
    assert errors(board, type="setup", by="A", hand=["カブトムシ", None, "カブトムツ"]) == [("hand[2]", typo)]
    assert errors(board, type="reveal", by="A", cards=["闘志", "カブトムツ"]) == [("cards[1]", typo)]
    effect = {"type": "effect", "by": "A", "card": "大嵐"}
    for field in ("discard", "feed_discard", "summon"):
        assert errors(board, **effect, **{field: ["カブトムツ"]}) == [(f"{field}[0]", typo)]
    attack = {"type": "attack", "by": "A", "attacker": "A1", "technique": "つのでつく", "target": "player"}
    assert errors(board, **attack, territory_card="カブトムツ") == [("territory_card", typo)]
    assert errors(board, **attack, territory_card="大嵐") == []


def test_a_card_in_neither_deck_list_cannot_be_right():
    b_deck = [c for c in B_DECK if c != "大嵐"] + ["オオカマキリ"] * 2
    board = R.initial_board(header(A_DECK, b_deck))
    assert errors(board, type="reveal", by="B", cards=["大嵐"]) == [("cards[0]", "'大嵐' is not a card of this match")]
    # a card of the other player's deck is a name of the match: MJ-1.3 is check's to flag
    assert errors(board, type="reveal", by="B", cards=["闘志"]) == []
    # without deck lists, every catalog card is a name of the match
    assert errors(started(lists=False), type="reveal", by="B", cards=["大嵐"]) == []


def test_insect_references():
    board = main_board(a=["カブトムシ"], b=["タガメ"])
    attack = {"type": "attack", "by": "A", "technique": "つのでつく"}
    assert errors(board, **attack, attacker="A1", target="B1") == []
    # names of the match used wrongly: not on the field, or a card name with no insect there
    assert errors(board, **attack, attacker="A7", target="タガメ") == []
    assert errors(board, **attack, attacker="ヘラクレスオオカブト", target="B1") == []
    assert errors(board, **attack, attacker="カブトムツ", target="C1") == [
        ("attacker", "'カブトムツ' is not an insect of this match; did you mean 'カブトムシ'?"),
        ("target", "'C1' is not an insect of this match; did you mean 'B1' or 'A1'?"),
    ]
    assert errors(board, **attack, attacker="A1", target="大嵐") == [
        ("target", "'大嵐' is not an insect of this match")
    ]
    play = {"type": "play", "by": "A", "card": "鋼の大顎"}
    assert errors(board, **play, target="タガメー") == [
        ("target", "'タガメー' is not an insect of this match; did you mean 'タガメ'?")
    ]
    effect = {"type": "effect", "by": "A", "card": "大嵐"}
    assert [f for f, _ in errors(board, **effect, damage={"B1": 300, "X1": 300})] == ["damage.X1"]
    assert [f for f, _ in errors(board, **effect, boost={"Y": 300})] == ["boost.Y"]
    for field in ("flip", "bounce", "destroy"):
        assert [f for f, _ in errors(board, **effect, **{field: ["B1", "ZZ"]})] == [f"{field}[1]"]


def test_technique_names():
    board = main_board(a=["カブトムシ"], b=["タガメ"])
    attack = {"type": "attack", "by": "A", "attacker": "A1", "target": "B1"}
    assert errors(board, **attack, technique="つのでつくく") == [
        ("technique", "'つのでつくく' is not a technique of this match; did you mean 'つのでつく'?")
    ]
    # another insect's technique: a name of the match, MJ-5.3 for check
    assert errors(board, **attack, technique="はさむ") == []
    assert "MJ-5.3" in [
        v.rule for v in R.check(board, {"seq": 1, "type": "attack", "by": "A", **attack, "technique": "はさむ"})
    ]


@pytest.mark.parametrize("name", ["mushijingi-example.jsonl", "mushijingi-deckout.jsonl", "mushijingi-disputed.jsonl"])
def test_the_examples_name_only_what_their_match_has(name):
    hdr, entries = read_example(name)
    board = R.initial_board(hdr)
    for entry in entries:
        if entry["type"] in META_TYPES:
            continue
        assert name_errors(board, entry) == [], entry
        board = R.apply(board, entry)


def test_generated_matches_name_only_what_their_match_has():
    for seed in range(6):
        hdr, moves = R.generate(random.Random(seed), f"n{seed}")
        board = R.initial_board(hdr)
        for move in moves:
            assert name_errors(board, move) == [], move
            board = R.apply(board, move)


def test_field_errors_are_field_errors():
    found = name_errors(started(), {"seq": 1, "type": "end_turn", "by": "Z"})
    assert found and all(isinstance(e, FieldError) for e in found)
    assert str(found[0]) == "by: 'Z' is not a player of this match"
