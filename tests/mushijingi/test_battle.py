"""Battle (バトルの処理, MJ-5): targets, territory, damage, 3すくみ, すくいなげ."""

from __future__ import annotations


from dataclasses import replace

from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import fold, insect, main_board, one, rules_of


def atk(attacker, technique, target, by="A", **kw):
    return {
        "type": "attack",
        "by": by,
        "attacker": attacker,
        "technique": technique,
        "target": target,
        **kw,
    }


def test_direct_attack_when_no_insect_takes_territory():
    board, found = one(main_board(a=["カブトムシ"]), atk("A1", "つのでつく", "player"))
    assert found == []
    b = R.board_json(board)["players"]["B"]
    assert (b["territory"], b["hand_count"], b["hand"][-1]) == (5, 5, None)


def test_territory_card_may_be_named_when_seen():
    board, _ = one(
        main_board(a=["カブトムシ"]), atk("A1", "つのでつく", "player", territory_card="大嵐")
    )
    assert board.side("B").hand[-1] == "大嵐"


def test_attacking_the_player_while_an_insect_is_on_the_field():
    _board, found = fold(
        main_board(a=["カブトムシ"], b=["アシダカグモ"]), [atk("A1", "つのでつく", "player")]
    )
    assert rules_of(found) == ["MJ-5.4"]
    assert found[0].suggest == (
        {"type": "attack", "by": "A", "attacker": "A1", "technique": "つのでつく", "target": "B1"},
    )


def test_attacking_own_or_missing_insect():
    board = main_board(a=["カブトムシ", "オオカマキリ"], b=["アシダカグモ"])
    assert one(board, atk("A1", "つのでつく", "A2"))[1] == ["MJ-5.4"]
    assert one(board, atk("B1", "かみつく", "B1"))[1] == ["MJ-5.1"]
    assert one(board, atk("A9", "かみつく", "B1"))[1] == ["MJ-5.1"]


def test_second_attack_by_one_insect():
    board = main_board(a=["ヘラクレスオオカブト"], b=["ヘラクレスオオカブト"])
    board, found = fold(board, [atk("A1", "つのなげ", "B1"), atk("A1", "つのなげ", "B1")])
    assert rules_of(found) == ["MJ-5.2"]
    assert found[0].expected == {"attack": 1200, "damage": 2400, "hp": 2000}


def test_unknown_technique():
    _, found = one(main_board(a=["カブトムシ"]), atk("A1", "つのなげ", "player"))
    assert found == ["MJ-5.3"]


def test_weaker_attacker_is_not_destroyed():
    board, found = one(
        main_board(a=["ナナホシテントウ"], b=["ヘラクレスオオカブト"]),
        atk("A1", "たいあたり", "B1"),
    )
    assert found == [] and insect(board, "A1") is not None
    # 赤 beats 緑: 200 x 2 = 400, far below 2000; the attacker takes nothing back
    assert insect(board, "B1").damage == 400 and board.side("B").territory == 6


def test_damage_accumulates_within_the_turn_and_destroys():
    board = main_board(a=["ノコギリクワガタ", "アシダカグモ"], b=["ミヤマクワガタ"])
    board, found = fold(board, [atk("A1", "はさむ", "B1"), atk("A2", "かみつく", "B1")])
    # 赤 vs 赤: no advantage; 紫 beats 赤: 400 x2 = 800; 700 + 800 >= 1400
    assert found == [] and insect(board, "B1") is None
    b = board.side("B")
    assert (b.territory, len(b.hand), b.discard) == (5, 5, ("ミヤマクワガタ",))


def test_three_way_advantage_doubles_attack_including_boosts():
    board = main_board(
        a=["オオカマキリ"], b=["ヘラクレスオオカブト", "オオスズメバチ"], hand_a=["鋼の大顎"]
    )
    board, found = fold(
        board,
        [
            {"type": "play", "by": "A", "card": "鋼の大顎", "target": "A1"},
            atk("A1", "かまできる", "B2"),
        ],
    )
    assert found == []  # 緑 beats 紫: (500 + 300) x 2 = 1600 >= 900
    assert insect(board, "B2") is None
    board = main_board(a=["オオカマキリ"], b=["ヘラクレスオオカブト"])
    board, _ = one(board, atk("A1", "かまできる", "B1"))
    assert insect(board, "B1").damage == 500  # 緑 vs 緑: no advantage


def test_spell_boost_is_doubled_too():
    board = main_board(a=["アシダカグモ"], b=["ヘラクレスオオカブト"], hand_a=["闘志"])
    board = board.with_side(board.side("B"))
    board, found = fold(
        board,
        [
            {"type": "play", "by": "A", "card": "闘志", "target": "A1"},
            {"type": "effect", "by": "A", "card": "闘志", "boost": {"A1": 300}},
            atk("A1", "かみつく", "B1"),
        ],
    )
    assert found == [] and insect(board, "B1").damage == 700  # 紫 vs 緑: 400 + 300


def test_sukumi_house_rule_changes_the_cycle():
    board = main_board(a=["アシダカグモ"], b=["ヘラクレスオオカブト"], sukumi="紫>緑>赤>紫")
    board, _ = one(board, atk("A1", "かみつく", "B1"))
    assert insect(board, "B1").damage == 800


def test_zero_attack_direct_attack_still_takes_territory():
    board = main_board(a=["ゲンジボタル"])
    board, found = one(board, atk("A1", "ひかる", "player"))
    assert found == [] and board.side("B").territory == 5


def test_target_choosing_technique_cannot_attack_directly():
    _, found = one(main_board(a=["タガメ"]), atk("A1", "すくいなげ", "player"))
    assert found == ["MJ-5.9"]


def test_flipped_insect_counts_as_absent():
    board = main_board(a=["タガメ", "カブトムシ"], b=["アシダカグモ"])
    board, found = fold(
        board,
        [
            atk("A1", "すくいなげ", "B1"),
            {
                "type": "effect",
                "by": "A",
                "card": "タガメ",
                "technique": "すくいなげ",
                "flip": ["B1"],
            },
            atk("A2", "つのでつく", "player"),
        ],
    )
    assert found == [] and board.side("B").territory == 5
    assert insect(board, "B1").flipped
    _, found = one(board, {"type": "effect", "by": "A", "card": "タガメ", "damage": {"B1": 100}})
    assert found == ["MJ-6.2"]
    board, _ = one(board, {"type": "end_turn", "by": "A"})
    assert not insect(board, "B1").flipped


def test_flipped_insect_cannot_attack_or_be_attacked():
    board = main_board(a=["カブトムシ", "オオカマキリ"], b=["アシダカグモ", "タガメ"])
    board, _ = one(board, {"type": "effect", "by": "B", "card": "タガメ", "flip": ["B1", "A2"]})
    assert one(board, atk("A1", "つのでつく", "B1"))[1] == ["MJ-5.10"]
    assert one(board, atk("A2", "かまできる", "B2"))[1] == ["MJ-5.10"]


def test_flipping_cannot_open_a_direct_attack_win():
    board = main_board(a=["カブトムシ"], b=["アシダカグモ"])
    board = board.with_side(
        replace(board.side("B"), territory=0)
    )
    board, _ = one(board, {"type": "effect", "by": "A", "card": "カブトムシ", "flip": ["B1"]})
    after, found = one(board, atk("A1", "つのでつく", "player"))
    assert found == ["MJ-5.10"] and after.result is None
    won = main_board(a=["カブトムシ"], b=["アシダカグモ"], flip_direct_win=True)
    won = won.with_side(replace(won.side("B"), territory=0))
    won, _ = one(won, {"type": "effect", "by": "A", "card": "カブトムシ", "flip": ["B1"]})
    won, found = one(won, atk("A1", "つのでつく", "player"))
    assert found == [] and won.result.winner == "A"


def test_flipped_insect_enhancements_are_absent_too():
    # MJ-6.6 (house rule effect_source_in_play): a flipped enhancement is no source of effects
    board = main_board(a=["カブトムシ"], b=["アシダカグモ"], effect_source_in_play=True)
    b1 = replace(insect(board, "B1"), enhancements=(("鋼の大顎", "B"),))
    board = replace(board, field=(insect(board, "A1"), b1))
    assert (
        one(board, {"type": "effect", "by": "B", "card": "鋼の大顎", "boost": {"B1": 1}})[1] == []
    )
    board, _ = one(board, {"type": "effect", "by": "A", "card": "カブトムシ", "flip": ["B1"]})
    _, found = one(board, {"type": "effect", "by": "A", "card": "鋼の大顎", "boost": {"A1": 1}})
    assert found == ["MJ-6.6"]
