"""Enhancements (強化), spells (術), effects, hidden cards and copies (MJ-4, MJ-6, MJ-8, MJ-1)."""

from __future__ import annotations

import dataclasses

from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import extra_catalog, fold, insect, main_board, one, rules_of, started


def play(card, target=None, by="A"):
    move = {"type": "play", "by": by, "card": card}
    if target:
        move["target"] = target
    return move


def test_enhancements_stack_and_add_hp_and_attack():
    board = main_board(a=["カブトムシ"], hand_a=["鋼の大顎", "鋼の大顎", "硬い外骨格"])
    board, found = fold(
        board, [play("鋼の大顎", "A1"), play("鋼の大顎", "A1"), play("硬い外骨格", "A1")]
    )
    assert found == []
    a1 = R.board_json(board)["players"]["A"]["insects"][0]
    assert (a1["hp"], a1["attack_bonus"], len(a1["enhancements"])) == (1700, 600, 3)
    assert board.spent == 3


def test_enhancement_needs_an_insect():
    board = main_board(hand_a=["鋼の大顎"])
    board, found = fold(board, [play("鋼の大顎")])
    assert rules_of(found) == ["MJ-4.2"]
    assert board.side("A").discard == ("鋼の大顎",)


def test_enhancement_target_house_rule():
    board = main_board(b=["カブトムシ"], hand_a=["鋼の大顎"])
    assert one(board, play("鋼の大顎", "B1"))[1] == []
    board = main_board(b=["カブトムシ"], hand_a=["鋼の大顎"], enhance_target="own")
    assert one(board, play("鋼の大顎", "B1"))[1] == ["MJ-4.2"]


def test_enhancements_are_destroyed_with_their_insect():
    board = main_board(a=["ヘラクレスオオカブト"], b=["ミヤマクワガタ"], hand_a=["硬い外骨格"])
    board, _ = fold(board, [play("硬い外骨格", "B1")])  # A helps B's insect: the card stays A's
    assert insect(board, "B1").enhancements == (("硬い外骨格", "A"),)
    board, _ = one(
        board,
        {"type": "attack", "by": "A", "attacker": "A1", "technique": "つのなげ", "target": "B1"},
    )
    assert insect(board, "B1") is not None  # HP 1900 > 1200
    board, _ = one(
        board, {"type": "effect", "by": "A", "card": "ヘラクレスオオカブト", "destroy": ["B1"]}
    )
    assert insect(board, "B1") is None
    assert board.side("A").discard == ("硬い外骨格",) and board.side("B").discard == (
        "ミヤマクワガタ",
    )
    assert board.side("B").territory == 6  # destroyed by an effect, not an attack


def test_effect_destroy_territory_house_rule():
    board = main_board(
        a=["ヘラクレスオオカブト"], b=["ミヤマクワガタ"], effect_destroy_takes_territory=True
    )
    board, _ = one(
        board, {"type": "effect", "by": "A", "card": "ヘラクレスオオカブト", "destroy": ["B1"]}
    )
    assert board.side("B").territory == 5


def test_bounce_returns_insect_and_destroys_enhancements():
    board = main_board(a=["カブトムシ"], b=["タガメ"], hand_a=["鋼の大顎", "樹液の罠"])
    board, found = fold(
        board,
        [
            play("鋼の大顎", "B1"),
            play("樹液の罠", "B1"),  # 「相手の虫を1つ選び、持ち主の手札に戻す。」
            {"type": "effect", "by": "A", "card": "樹液の罠", "bounce": ["B1"]},
        ],
    )
    assert found == []
    assert board.side("B").hand[-1] == "タガメ" and board.side("A").discard == (
        "樹液の罠",
        "鋼の大顎",
    )


def test_last_colour_changing_enhancement_wins():
    board = main_board(
        a=["カブトムシ"], b=["ヘラクレスオオカブト"], hand_a=["紫の紋様", "紅の紋様"]
    )
    board, _ = fold(board, [play("紫の紋様", "A1"), play("紅の紋様", "A1")])
    assert R.board_json(board)["players"]["A"]["insects"][0]["colour"] == "赤"
    board, _ = one(
        board,
        {"type": "attack", "by": "A", "attacker": "A1", "technique": "つのでつく", "target": "B1"},
    )
    assert insect(board, "B1").damage == 1200  # now 赤, which beats 緑


def test_targeted_spell_needs_a_target_global_spell_does_not():
    board = main_board(hand_a=["樹液の罠", "大嵐"])
    board, found = fold(board, [play("樹液の罠"), play("大嵐")])
    assert rules_of(found) == ["MJ-4.4"]
    assert board.side("A").discard == ("樹液の罠", "大嵐")


def test_effect_from_a_feed_card_has_no_effect():
    board = main_board(a=["カブトムシ"])
    board = board.with_side(
        dataclasses.replace(board.side("A"), feed=("大嵐",))
    )
    _, found = one(board, {"type": "effect", "by": "A", "card": "大嵐", "damage": {"A1": 300}})
    assert found == ["MJ-6.1"]


def test_effect_touches_only_insects_present_when_it_resolves():
    board = main_board(a=["カブトムシ"], hand_a=["大嵐"])
    board, found = fold(
        board,
        [
            play("大嵐"),
            {"type": "effect", "by": "A", "card": "大嵐", "damage": {"A1": 300, "A2": 300}},
        ],
    )
    assert rules_of(found) == ["MJ-6.2"]
    assert insect(board, "A1").damage == 300


def test_effect_card_must_be_known():
    _, found = one(main_board(), {"type": "effect", "by": "A", "card": "謎のカード"})
    assert found == ["MJ-1.4"]


def test_effect_summon_draw_and_territory(tmp_path):
    board = main_board(a=["カブトムシ"], hand_a=["ナナホシテントウ"], catalog=extra_catalog(tmp_path))
    board, found = fold(
        board,
        [
            {"type": "effect", "by": "A", "card": "蟲寄せ", "summon": ["ナナホシテントウ"]},
            {
                "type": "effect",
                "by": "A",
                "card": "ナナホシテントウ",
                "draw": 2,
                "territory": 1,
                "player": "B",
            },
        ],
    )
    assert found == [] and insect(board, "A2").card == "ナナホシテントウ"
    b = board.side("B")
    assert (b.deck, b.territory, len(b.hand)) == (8, 5, 7)
    assert board.spent == 0


def test_unknown_cards_stay_unknown_until_revealed():
    board = started()
    assert board.side("A").hand == (None,) * 4
    board, found = fold(board, [{"type": "reveal", "by": "A", "cards": ["闘志", "羽化"]}])
    assert found == [] and board.side("A").hand == ("闘志", "羽化", None, None)
    _, found = one(board, {"type": "reveal", "by": "A", "cards": ["闘志"] * 3})
    assert "MJ-8.1" in found


def test_third_copy_seen_in_play():
    board = started(hand_a=["闘志", "闘志", None, None])
    _, found = one(board, {"type": "reveal", "by": "A", "cards": ["闘志"]})
    assert found == ["MJ-1.2"]


def test_card_not_in_the_deck_list():
    _, found = one(started(), {"type": "reveal", "by": "A", "cards": ["タガメ"]})
    assert found == ["MJ-1.3"]
    board = started(hand_a=["ヘラクレスオオカブト", None, None, None], lists=True)
    board, found = fold(
        board,
        [
            {"type": "set", "by": "A", "card": "ヘラクレスオオカブト"},
            {"type": "play", "by": "A", "card": "ヘラクレスオオカブト"},
            {"type": "play", "by": "A", "card": "ヘラクレスオオカブト"},
        ],
    )
    assert rules_of(found) == ["MJ-3.5", "MJ-3.5", "MJ-1.2"]


def test_without_deck_lists_only_the_copy_limit_applies():
    board = started(hand_a=["タガメ", "タガメ", None, None], lists=False)
    _, found = one(board, {"type": "reveal", "by": "A", "cards": ["タガメ"]})
    assert found == ["MJ-1.2"]
