"""Rules fidelity (issue 17.4, 17.5): each test quotes the seed sentence it rests on, and
shows the literal default and, where there is one, the house-rule option."""

from __future__ import annotations

from dataclasses import replace

import pytest

from projections.base import Result
from tests.mushijingi.helpers import ROOT, extra_catalog, fold, insect, main_board, one

SEED_FILE = ROOT / "docs" / "seeds" / "mushijingi.ja.txt"  # the specification, kept in the repository
SEED = SEED_FILE.read_text(encoding="utf-8")
DOC = (ROOT / "docs" / "rules" / "mushijingi.md").read_text(encoding="utf-8")

DECK_OUT = "どちらかがドローの際に山札が無くなったら、その時点で縄張りの数が多い方が勝利。"
TARGETS = "カードの効果は特別指定がない限りは、場に出ているカードにしか使用できません。"
ON_ENTER = "場に出たときの効果は、術の効果により虫が場に出た時も発動します。"
ONE_INSECT = "技の対象は1つの虫しか選べず、効果もダメージも特別記載がない限り選んだ虫1つに適応されます。"


@pytest.mark.parametrize("sentence", [DECK_OUT, TARGETS, ON_ENTER, ONE_INSECT])
def test_each_sentence_is_verbatim_in_the_seed_and_cited_in_the_rules_doc(sentence):
    assert sentence in DOC
    assert sentence in SEED


def _deck(board, pid, deck, territory):
    return board.with_side(replace(board.side(pid), deck=deck, territory=territory))


UKA = {"type": "effect", "by": "A", "card": "羽化", "text": "山札から1枚引く", "draw": 1}


# MJ-7.2 「どちらかがドローの際に山札が無くなったら、その時点で縄張りの数が多い方が勝利。」


def test_an_effect_drawing_from_an_empty_deck_is_a_draw_that_decides_the_match():
    board = _deck(_deck(main_board(), "A", 0, 2), "B", 5, 4)
    hand = board.side("A").hand
    after, found = one(board, {**UKA, "territory": 1})
    assert found == []
    assert after.result == Result("B", "deck-out")
    # 「その時点で」: the match ends at the draw; the rest of the effect does not happen
    assert after.side("A").territory == 2 and after.side("A").hand == hand
    _, late = one(after, {"type": "end_turn", "by": "A"})
    assert late == ["MJ-7.3"]


def test_an_effect_draw_decides_for_either_player_and_ties_are_a_draw():
    board = _deck(_deck(main_board(), "A", 7, 3), "B", 0, 3)
    after, _ = one(board, {**UKA, "player": "B"})
    assert after.result == Result(None, "deck-out-tie")


def test_an_effect_draw_taking_the_last_card_under_deck_out_last():
    board = _deck(_deck(main_board(deck_out="last"), "A", 1, 6), "B", 9, 4)
    after, _ = one(board, UKA)
    assert after.result == Result("A", "deck-out") and after.side("A").deck == 0
    default = _deck(main_board(), "A", 1, 6)
    after, _ = one(default, UKA)
    assert after.result is None and after.side("A").deck == 0


def test_house_rule_effect_draws_never_decide():
    board = _deck(main_board(effect_draw_deck_out=False), "A", 0, 2)
    after, found = one(board, UKA)
    assert found == [] and after.result is None
    assert after.side("A").deck == 0 and after.side("A").hand == board.side("A").hand


def test_an_effect_drawing_two_with_one_left_ends_at_the_second_draw():
    board = _deck(_deck(main_board(), "A", 1, 5), "B", 9, 1)
    after, _ = one(board, {**UKA, "draw": 2})
    assert after.result == Result("A", "deck-out")
    assert len(after.side("A").hand) == len(board.side("A").hand) + 1


# MJ-6.3 「カードの効果は特別指定がない限りは、場に出ているカードにしか使用できません。」


def test_an_effect_on_a_card_in_hand_is_flagged_unless_the_card_says_so(tmp_path):
    cat = extra_catalog(tmp_path)
    board = main_board(a=["カブトムシ"], hand_a=["ナナホシテントウ", "闘志"], catalog=cat)
    _, found = one(board, {"type": "effect", "by": "A", "card": "カブトムシ", "discard": ["闘志"]})
    assert found == ["MJ-6.3"]
    summon = {"type": "effect", "by": "A", "card": "大嵐", "summon": ["ナナホシテントウ"]}
    _, found = one(board, summon)
    assert found == ["MJ-6.3"]
    # 「特別指定」: 蟲寄せ's text reaches the hand (catalog reaches: ["hand"])
    after, found = one(board, {**summon, "card": "蟲寄せ"})
    assert found == [] and insect(after, "A2").card == "ナナホシテントウ"


def test_an_effect_on_the_discard_pile_or_deck_needs_the_zone_in_the_cards_text(tmp_path):
    cat = extra_catalog(tmp_path)
    board = main_board(catalog=cat)
    board = board.with_side(replace(board.side("A"), discard=("カブトムシ",)))
    from_discard = {"type": "effect", "by": "A", "card": "墓守", "summon": ["カブトムシ"], "from": "discard"}
    after, found = one(board, from_discard)
    assert found == [] and insect(after, "A1").card == "カブトムシ" and after.side("A").discard == ()
    assert one(board, {**from_discard, "card": "蟲寄せ"})[1] == ["MJ-6.3"]
    assert one(board, {**from_discard, "from": "deck"})[1] == ["MJ-6.3"]


def test_an_effect_on_a_card_in_the_feed_is_flagged():
    board = main_board(a=["カブトムシ"])
    board = board.with_side(replace(board.side("A"), feed=("闘志", "羽化")))
    move = {"type": "effect", "by": "A", "card": "カブトムシ", "feed_discard": ["羽化"]}
    after, found = one(board, move)
    assert found == ["MJ-6.3"] and after.side("A").feed == ("闘志",)
    # house rule feed_on_field: the エサ場 is part of the field
    option = main_board(a=["カブトムシ"], feed_on_field=True)
    option = option.with_side(replace(option.side("A"), feed=("闘志", "羽化")))
    assert one(option, move)[1] == []


def test_effects_on_insects_on_the_field_and_draws_are_not_off_field_targets():
    board = main_board(a=["カブトムシ"], b=["タガメ"])
    _, found = fold(
        board,
        [
            {"type": "effect", "by": "A", "card": "大嵐", "damage": {"A1": 300, "B1": 300}},
            {"type": "effect", "by": "A", "card": "羽化", "draw": 1, "territory": 1},
        ],
    )
    assert found == []


def test_house_rule_effect_source_in_play_reads_the_sentence_as_about_sources():
    # the card cited is in no zone of play: by default only its targets matter
    board = main_board(a=["カブトムシ"], hand_a=["闘志"])
    move = {"type": "effect", "by": "A", "card": "闘志", "boost": {"A1": 300}}
    assert one(board, move)[1] == []
    strict = main_board(a=["カブトムシ"], hand_a=["闘志"], effect_source_in_play=True)
    assert one(strict, move)[1] == ["MJ-6.6"]
    played, found = fold(strict, [{"type": "play", "by": "A", "card": "闘志", "target": "A1"}, move])
    assert found == [] and insect(played, "A1").boost == 300


# MJ-6.4 「場に出たときの効果は、術の効果により虫が場に出た時も発動します。」

ENTER = {"type": "effect", "by": "A", "card": "オオムラサキ", "damage": {"B1": 300}}


def test_an_on_enter_effect_fires_when_the_insect_is_played(tmp_path):
    board = main_board(b=["カブトムシ"], hand_a=["オオムラサキ"], catalog=extra_catalog(tmp_path))
    after, found = fold(board, [{"type": "play", "by": "A", "card": "オオムラサキ"}, ENTER])
    assert found == [] and insect(after, "B1").damage == 300


def test_an_on_enter_effect_fires_when_a_spell_puts_the_insect_on_the_field(tmp_path):
    summon = {"type": "effect", "by": "A", "card": "蟲寄せ", "summon": ["オオムラサキ"]}
    cat = extra_catalog(tmp_path)
    board = main_board(b=["カブトムシ"], hand_a=["オオムラサキ"], catalog=cat)
    _, found = fold(board, [summon, ENTER])
    assert found == []
    option = main_board(b=["カブトムシ"], hand_a=["オオムラサキ"], catalog=cat, enter_effect_on_summon=False)
    after, found = fold(option, [summon, ENTER])
    assert [v.rule for v in found] == ["MJ-6.4"] and "house rule" in found[0].message
    # the effect is flagged, not undone: the record is the fact
    assert insect(after, "B1").damage == 300


def test_an_on_enter_effect_of_an_insect_that_did_not_enter_this_turn(tmp_path):
    board = main_board(a=["オオムラサキ"], b=["カブトムシ"], catalog=extra_catalog(tmp_path))
    _, found = one(board, ENTER)
    assert found == ["MJ-6.4"]
    # its technique's effect is not a 場に出たとき effect
    tech = {**ENTER, "technique": "はばたく"}
    assert one(board, tech)[1] == []


def test_an_on_enter_effect_no_longer_fires_next_turn(tmp_path):
    board = main_board(b=["カブトムシ"], hand_a=["オオムラサキ"], catalog=extra_catalog(tmp_path))
    after, _ = fold(board, [{"type": "play", "by": "A", "card": "オオムラサキ"}, {"type": "end_turn", "by": "A"}])
    assert after.entered == ()
    _, found = one(after, {**ENTER, "by": "B"})
    assert found == ["MJ-6.4"]


# MJ-6.5 「技の対象は1つの虫しか選べず、効果もダメージも特別記載がない限り選んだ虫1つに適応されます。」


def test_a_technique_effect_touches_one_insect(tmp_path):
    board = main_board(a=["オオカマキリ王"], b=["カブトムシ", "タガメ"], catalog=extra_catalog(tmp_path))
    two = {
        "type": "effect",
        "by": "A",
        "card": "オオカマキリ王",
        "technique": "かまできる",
        "damage": {"B1": 300, "B2": 300},
    }
    assert one(board, two)[1] == ["MJ-6.5"]
    split = {**two, "damage": {"B1": 300}, "flip": ["B2"]}
    assert one(board, split)[1] == ["MJ-6.5"]
    same = {**two, "damage": {"B1": 300}, "flip": ["B1"]}
    assert one(board, same)[1] == []
    # by card name and by uid, it is the same insect
    assert one(board, {**two, "damage": {"B1": 100, "カブトムシ": 100}})[1] == []


def test_a_technique_whose_text_says_so_may_touch_every_insect(tmp_path):
    board = main_board(a=["オオカマキリ王"], b=["カブトムシ", "タガメ"], catalog=extra_catalog(tmp_path))
    move = {
        "type": "effect",
        "by": "A",
        "card": "オオカマキリ王",
        "technique": "かまあらし",
        "damage": {"B1": 300, "B2": 300},
    }
    assert one(board, move)[1] == []
    # a spell's (not a technique's) effect is not limited to one insect
    storm = {"type": "effect", "by": "A", "card": "大嵐", "damage": {"A1": 300, "B1": 300, "B2": 300}}
    assert one(board, storm)[1] == []
