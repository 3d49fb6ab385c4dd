"""Issue 18: what a judge reads when a 蟲神器 move is flagged — the rule id, the whole message, the
``expected`` hint and the ``suggest``ed replacements — for each check whose text, hint or reach
mutation testing could change unnoticed, each beside the same kind of move legal.

Rule ids are those of docs/rules/mushijingi.md."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import extra_catalog, fold, header, main_board, started


def shown(board: Any, move: dict[str, Any]) -> list[tuple[str, str, Any, Any]]:
    """(rule, message, expected, suggest) of each violation, as the judge sees them."""
    move = {"seq": 9, **move}
    assert R.validate_move(move) == [], move
    return [
        (v.rule, v.message, v.expected, [dict(s) for s in v.suggest] if v.suggest else None)
        for v in R.check(board, move)
    ]


def after(board: Any, *moves: dict[str, Any]) -> Any:
    board, found = fold(board, list(moves))
    assert found == [], found
    return board


def atk(attacker: str, technique: str, target: str, by: str = "A") -> dict[str, Any]:
    return {"type": "attack", "by": by, "attacker": attacker, "technique": technique, "target": target}


def flip(board: Any, uid: str) -> Any:
    return replace(board, field=tuple(replace(i, flipped=True) if i.uid == uid else i for i in board.field))


def with_hand(board: Any, pid: str, *cards: str | None) -> Any:
    return board.with_side(replace(board.side(pid), hand=tuple(cards)))


HAND4 = ["羽化", "羽化", "闘志", "闘志"]

# ---------------------------------------------------------------- MJ-2 setup


def test_mj_2_3_nothing_before_both_players_set_up():
    board = R.initial_board(header())
    assert shown(board, {"type": "draw", "by": "A"}) == [
        ("MJ-2.3", "both players must finish setup (ゲームの準備) before the first turn", None, None)
    ]
    assert shown(board, {"type": "setup", "by": "A"}) == []


def test_mj_2_3_a_setup_after_a_turn_was_recorded_says_so():
    board, _ = fold(R.initial_board(header()), [{"type": "setup", "by": "A"}, {"type": "end_turn", "by": "A"}])
    assert board.turn == 1 and not board.side("B").ready
    assert shown(board, {"type": "setup", "by": "B"}) == [
        ("MJ-2.3", "setup comes before the first turn (turn 1 is recorded)", None, None)
    ]
    assert shown(board, {"type": "setup", "by": "A"}) == [("MJ-2.3", "A has already set up", None, None)]
    fresh = after(R.initial_board(header()), {"type": "setup", "by": "A"})
    assert shown(fresh, {"type": "setup", "by": "B"}) == []


def test_mj_2_2_the_hint_gives_the_opening_hand_size():
    board = R.initial_board(header())
    assert shown(board, {"type": "setup", "by": "A", "hand": [*HAND4, "闘志"]}) == [
        ("MJ-2.2", "the opening hand is 4 cards (no mulligan)", {"hand": 4}, None)
    ]
    assert shown(board, {"type": "setup", "by": "A", "hand": HAND4}) == []


# ---------------------------------------------------------------- MJ-3 the turn


def test_mj_3_1_the_hint_names_the_turn_player():
    board = started()
    assert shown(board, {"type": "end_turn", "by": "B"}) == [
        ("MJ-3.1", "it is A's turn, not B's", {"active": "A"}, None)
    ]
    assert shown(board, {"type": "end_turn", "by": "A"}) == []


def test_mj_3_2_a_missing_draw_suggests_the_draw():
    board = after(started(), {"type": "end_turn", "by": "A"})
    assert shown(board, {"type": "end_turn", "by": "B"}) == [
        ("MJ-3.2", "the turn's draw (ドロー) was not recorded", None, [{"type": "draw", "by": "B", "card": None}])
    ]
    assert shown(after(board, {"type": "draw", "by": "B"}), {"type": "end_turn", "by": "B"}) == []


def test_mj_3_2_no_draw_on_the_first_players_first_turn_and_one_draw_a_turn():
    assert shown(started(), {"type": "draw", "by": "A"}) == [
        ("MJ-3.2", "the first player does not draw on the first turn (先攻1ターン目はドローなし)", None, None)
    ]
    b_turn = after(started(), {"type": "end_turn", "by": "A"})
    assert shown(b_turn, {"type": "draw", "by": "B"}) == []
    assert shown(after(b_turn, {"type": "draw", "by": "B"}), {"type": "draw", "by": "B"}) == [
        ("MJ-3.2", "one draw per turn, at its start", None, None)
    ]
    a_turn = after(b_turn, {"type": "draw", "by": "B"}, {"type": "end_turn", "by": "B"})
    assert shown(a_turn, {"type": "draw", "by": "A"}) == []  # the first player draws from turn 3


def test_mj_3_5_the_hint_counts_what_this_main_phase_has_spent():
    board = main_board(cost=3, hand_a=["カブトムシ", "カブトムシ"])
    play = {"type": "play", "by": "A", "card": "カブトムシ"}
    assert shown(board, play) == []
    assert shown(after(board, play), play) == [
        (
            "MJ-3.5",
            "カブトムシ costs 2 but only 1 of 3 cost is left",
            {"cost": 3, "spent": 2, "left": 1, "card_cost": 2},
            None,
        )
    ]


def test_mj_3_4_a_card_played_out_of_turn_does_not_spend_the_turn_players_cost():
    hand_a = ["羽化", "オオカマキリ", "闘志", "闘志"]
    board = started(hand_a=hand_a, hand_b=["アシダカグモ"], lists=False)
    board = after(
        board,
        {"type": "set", "by": "A", "card": "羽化"},
        {"type": "end_turn", "by": "A"},
        {"type": "draw", "by": "B"},
        {"type": "end_turn", "by": "B"},
        {"type": "draw", "by": "A"},
    )
    assert (board.phase, board.side("A").feed) == ("set", ("羽化",))
    board, found = fold(board, [{"type": "play", "by": "B", "card": "アシダカグモ"}])
    assert [v.rule for v in found] == ["MJ-3.1", "MJ-3.5"]  # and B's own feed is empty
    # A's main phase starts with the one card of the feed, all of it to spend
    assert shown(board, {"type": "play", "by": "A", "card": "オオカマキリ"}) == []


# ---------------------------------------------------------------- MJ-1.4, MJ-3.7, MJ-4 playing cards


def test_mj_1_4_an_unknown_card_is_flagged_once():
    board = main_board()
    assert shown(board, {"type": "play", "by": "A", "card": "謎のカード"}) == [
        ("MJ-1.4", "謎のカード is not in the card catalog", None, None)
    ]
    b_turn = after(started(lists=False), {"type": "end_turn", "by": "A"})
    assert shown(b_turn, {"type": "draw", "by": "B", "card": "謎のカード"}) == [
        ("MJ-1.4", "謎のカード is not in the card catalog", None, None)
    ]
    assert shown(b_turn, {"type": "draw", "by": "B", "card": "タガメ"}) == []


def test_mj_3_7_a_card_played_must_be_in_hand():
    board = main_board(hand_a=HAND4)
    assert shown(board, {"type": "play", "by": "A", "card": "カブトムシ"}) == [
        ("MJ-3.7", "カブトムシ is not in A's hand", None, None)
    ]
    assert shown(board, {"type": "play", "by": "A", "card": "羽化"}) == []


def test_mj_4_2_an_enhancement_without_a_target_suggests_each_insect_present():
    board = flip(main_board(a=["カブトムシ"], b=["タガメ", "アシダカグモ"], hand_a=["鋼の大顎"]), "B2")
    play = {"type": "play", "by": "A", "card": "鋼の大顎"}
    assert shown(board, play) == [
        (
            "MJ-4.2",
            "enhancement (強化) 鋼の大顎 needs a target insect on the field",
            None,
            [{**play, "target": "A1"}, {**play, "target": "B1"}],
        )
    ]
    assert shown(board, {**play, "target": "B2"}) == [
        ("MJ-5.10", "B2 is flipped (裏返し) and counts as absent", None, None)
    ]
    assert shown(board, {**play, "target": "A1"}) == []
    # with no insect on the field there is nothing to suggest; a card not in hand is flagged too
    empty = main_board(hand_a=HAND4)
    assert shown(empty, play) == [
        ("MJ-3.7", "鋼の大顎 is not in A's hand", None, None),
        ("MJ-4.2", "enhancement (強化) 鋼の大顎 needs a target insect on the field", None, None),
    ]


def test_mj_4_2_house_rule_enhance_your_own_insects():
    board = main_board(a=["カブトムシ"], b=["タガメ"], hand_a=["鋼の大顎"], enhance_target="own")
    play = {"type": "play", "by": "A", "card": "鋼の大顎"}
    assert shown(board, {**play, "target": "B1"}) == [
        ("MJ-4.2", "house rule enhance_target=own: enhance your own insects", None, None)
    ]
    assert shown(board, {**play, "target": "A1"}) == []


def test_mj_4_4_a_targeted_spell_needs_its_target():
    board = main_board(b=["タガメ"], hand_a=HAND4)
    spell = {"type": "play", "by": "A", "card": "樹液の罠"}
    assert shown(board, spell) == [
        ("MJ-3.7", "樹液の罠 is not in A's hand", None, None),
        (
            "MJ-4.4",
            "targeted spell (術) 樹液の罠 needs a target insect on the field",
            None,
            [{**spell, "target": "B1"}],
        ),
    ]
    mine = main_board(a=["カブトムシ"], b=["タガメ"], hand_a=HAND4)
    assert shown(mine, {**spell, "card": "闘志", "target": "A1"}) == []  # 「自分の虫を1つ選び」


# ---------------------------------------------------------------- MJ-5 battle


def test_mj_5_3_the_hint_lists_the_attackers_techniques():
    board = main_board(a=["タガメ"], b=["カブトムシ"])
    assert shown(board, atk("A1", "つのでつく", "B1")) == [
        ("MJ-5.3", "タガメ has no technique つのでつく", {"techniques": ["すくいなげ", "かみつく"]}, None)
    ]
    assert shown(board, atk("A1", "かみつく", "B1")) == []


def test_mj_5_2_the_hint_gives_the_damage_with_the_colour_advantage():
    board = main_board(a=["オオカマキリ"], b=["タガメ"])  # 緑 beats 紫: 500 x2, タガメ has 1100
    attack = atk("A1", "かまできる", "B1")
    hit = after(board, attack)
    assert hit.field[1].damage == 1000
    assert shown(hit, attack) == [
        ("MJ-5.2", "A1 has already attacked this turn", {"attack": 1000, "damage": 2000, "hp": 1100}, None)
    ]


def test_an_attack_out_of_turn_with_no_such_insect_cites_both_rules():
    board = main_board(a=["カブトムシ"], b=["タガメ"])
    assert [r for r, *_ in shown(board, atk("B7", "かみつく", "A1", by="B"))] == ["MJ-3.1", "MJ-5.1"]


def test_mj_5_4_a_target_that_is_no_opposing_insect_suggests_the_opposing_ones():
    board = flip(main_board(a=["カブトムシ", "オオカマキリ"], b=["タガメ", "アシダカグモ"]), "B1")
    attack = atk("A1", "つのでつく", "A2")
    assert shown(board, attack) == [
        ("MJ-5.4", "A2 is not an opposing insect on the field", None, [{**attack, "target": "B2"}])
    ]
    assert shown(board, {**attack, "target": "B2"}) == []
    alone = main_board(a=["カブトムシ", "オオカマキリ"])
    assert shown(alone, attack) == [("MJ-5.4", "A2 is not an opposing insect on the field", None, None)]


def test_mj_5_4_a_direct_attack_past_an_insect_names_the_targets():
    board = main_board(a=["カブトムシ"], b=["タガメ"])
    attack = atk("A1", "つのでつく", "player")
    assert shown(board, attack) == [
        (
            "MJ-5.4",
            "the opponent has an insect on the field: the attack must target one of them (蟲がいる場合は強制的に虫を殴る)",
            {"targets": ["B1"]},
            [{**attack, "target": "B1"}],
        )
    ]
    assert shown(main_board(a=["カブトムシ"]), attack) == []


def test_mj_5_10_a_direct_attack_opened_only_by_flipping_cannot_win():
    board = flip(main_board(a=["カブトムシ"], b=["タガメ"]), "B1")
    board = board.with_side(replace(board.side("B"), territory=0))
    attack = atk("A1", "つのでつく", "player")
    assert shown(board, attack) == [
        ("MJ-5.10", "a direct attack opened only by flipping (すくいなげ) cannot win", None, None)
    ]
    won = main_board(a=["カブトムシ"])
    assert shown(won.with_side(replace(won.side("B"), territory=0)), attack) == []


# ---------------------------------------------------------------- MJ-6 effects


def test_mj_6_6_an_insect_on_the_field_is_a_source_in_play():
    board = main_board(a=["カブトムシ"], hand_a=["闘志"], effect_source_in_play=True)
    boost = {"type": "effect", "by": "A", "card": "カブトムシ", "boost": {"A1": 300}}
    assert shown(board, boost) == []
    assert shown(board, {**boost, "card": "闘志"}) == [
        ("MJ-6.6", "闘志 is not on the field nor played this turn (house rule effect_source_in_play)", None, None)
    ]


def test_mj_6_2_every_insect_an_effect_touches_is_on_the_field():
    board = main_board(a=["カブトムシ"], b=["タガメ"])
    storm = {"type": "effect", "by": "B", "card": "大嵐"}
    for field, ok, gone in (
        ("damage", {"B1": 300}, {"B9": 300}),
        ("boost", {"A1": 300}, {"A9": 300}),
        ("flip", ["B1"], ["B9"]),
        ("bounce", ["B1"], ["B9"]),
        ("destroy", ["B1"], ["B9"]),
    ):
        assert shown(board, {**storm, field: ok}) == [], field
        missing = next(iter(gone))
        assert shown(board, {**storm, field: gone}) == [
            ("MJ-6.2", f"{missing} is not an insect on the field as the effect resolves", None, None)
        ], field


def test_an_effect_recorded_for_no_player_of_the_match_is_still_checked():
    board = main_board(b=["タガメ"])
    storm = {"type": "effect", "by": "審判", "card": "大嵐"}
    assert shown(board, {**storm, "destroy": ["B9"]}) == [
        ("MJ-6.2", "B9 is not an insect on the field as the effect resolves", None, None)
    ]
    assert shown(board, {**storm, "destroy": ["B1"]}) == []


def test_mj_6_5_a_technique_touches_one_insect(tmp_path):
    board = main_board(a=["オオカマキリ王"], b=["カブトムシ", "タガメ"], catalog=extra_catalog(tmp_path))
    cut = {"type": "effect", "by": "A", "card": "オオカマキリ王", "technique": "かまできる"}
    for field in ("flip", "bounce", "destroy"):
        assert shown(board, {**cut, field: ["B1"]}) == [], field
        assert shown(board, {**cut, field: ["B2", "B1"]}) == [
            (
                "MJ-6.5",
                "かまできる chooses one insect (技の対象は1つの虫しか選べず) but its effect touches 2: B1, B2",
                {"insects": 1},
                None,
            )
        ], field


def test_mj_6_3_the_hint_lists_the_zones_the_card_reaches(tmp_path):
    board = main_board(hand_a=["ナナホシテントウ", "羽化"], catalog=extra_catalog(tmp_path))
    summon = {"type": "effect", "by": "A", "summon": ["ナナホシテントウ"]}
    assert shown(board, {**summon, "card": "大嵐"}) == [
        (
            "MJ-6.3",
            "大嵐's effect targets a card in the hand (手札): effects reach only cards on the field unless "
            "the card says so (場に出ているカードにしか使用できません)",
            {"reaches": []},
            None,
        )
    ]
    assert shown(board, {**summon, "card": "墓守"})[0][2] == {"reaches": ["discard"]}
    assert shown(board, {**summon, "card": "蟲寄せ"}) == []


def test_mj_6_4_the_message_says_why_the_on_enter_effect_cannot_fire(tmp_path):
    cat = extra_catalog(tmp_path)
    effect = {"type": "effect", "by": "A", "card": "オオムラサキ", "damage": {"B1": 300}}
    old = main_board(a=["オオムラサキ"], b=["カブトムシ"], catalog=cat)
    assert shown(old, effect) == [
        ("MJ-6.4", "オオムラサキ's 場に出たとき effect: オオムラサキ did not enter the field this turn", None, None)
    ]
    by_effect = {"type": "effect", "by": "A", "card": "蟲寄せ", "summon": ["オオムラサキ"]}
    hand = ["オオムラサキ", "羽化"]
    off = after(main_board(b=["カブトムシ"], hand_a=hand, catalog=cat, enter_effect_on_summon=False), by_effect)
    assert shown(off, effect) == [
        (
            "MJ-6.4",
            "オオムラサキ's 場に出たとき effect: オオムラサキ was put onto the field by an effect "
            "(house rule enter_effect_on_summon=false)",
            None,
            None,
        )
    ]
    on = after(main_board(b=["カブトムシ"], hand_a=hand, catalog=cat), by_effect)
    assert shown(on, effect) == []


# ---------------------------------------------------------------- MJ-3.7 cards an effect summons


def test_mj_3_7_an_effect_summons_from_the_hand_it_names(tmp_path):
    cat = extra_catalog(tmp_path)
    call = {"type": "effect", "by": "A", "card": "蟲寄せ"}
    known = main_board(hand_a=["ナナホシテントウ", *HAND4[1:]], catalog=cat)
    assert shown(known, {**call, "summon": ["ナナホシテントウ"]}) == []
    assert shown(known, {**call, "summon": ["ナナホシテントウ", "ナナホシテントウ"]}) == [
        ("MJ-3.7", "ナナホシテントウ is not in A's hand", None, None)
    ]
    # unknown cards in hand may turn out to be the ones summoned, one each
    hidden = main_board(hand_a=[None, None], catalog=cat)
    assert shown(hidden, {**call, "summon": ["ナナホシテントウ", "ナナホシテントウ"]}) == []
    mixed = main_board(hand_a=["ナナホシテントウ", None, "羽化", "羽化"], catalog=cat)
    assert shown(mixed, {**call, "summon": ["オオカマキリ", "ナナホシテントウ"]}) == []
    assert shown(mixed, {**call, "summon": ["オオカマキリ", "ナナホシテントウ", "オオカマキリ"]}) == [
        ("MJ-3.7", "オオカマキリ is not in A's hand", None, None)
    ]
    # from the discard pile the hand does not matter
    grave = {"type": "effect", "by": "A", "card": "墓守", "from": "discard", "summon": ["カブトムシ"]}
    assert shown(known, grave) == []
    assert ("MJ-3.7", "カブトムシ is not in A's hand", None, None) in shown(known, {**grave, "from": "hand"})


def test_mj_3_7_an_effect_for_the_other_player_summons_from_their_hand(tmp_path):
    board = with_hand(main_board(hand_a=HAND4, catalog=extra_catalog(tmp_path)), "B", "タガメ")
    call = {"type": "effect", "by": "A", "card": "蟲寄せ", "player": "B"}
    assert shown(board, {**call, "summon": ["タガメ"]}) == []
    assert shown(board, {**call, "summon": ["アシダカグモ"]}) == [
        ("MJ-3.7", "アシダカグモ is not in B's hand", None, None)
    ]


# ---------------------------------------------------------------- MJ-1.2, MJ-1.3 copies


def test_mj_1_2_a_third_copy_named_anywhere():
    board = started(hand_a=["羽化", None, None, None], lists=False)
    assert shown(board, {"type": "reveal", "by": "A", "cards": ["闘志", "闘志", "闘志"]}) == [
        ("MJ-1.2", "3 copies of 闘志 named: at most 2 copies of a name (同じ名前のカードは2枚まで)", {"max": 2}, None)
    ]
    assert shown(board, {"type": "reveal", "by": "A", "cards": ["闘志", "闘志", "羽化"]}) == []


def test_mj_1_3_the_hint_gives_the_deck_lists_count():
    board = started(hand_a=["羽化", None, None, None])
    assert shown(board, {"type": "reveal", "by": "A", "cards": ["タガメ"]}) == [
        ("MJ-1.3", "A's deck list has 0 タガメ, 1 seen", {"listed": 0}, None)
    ]
    assert shown(board, {"type": "reveal", "by": "A", "cards": ["カブトムシ"]}) == []


# ---------------------------------------------------------------- MJ-7.3 and the seq


def test_mj_7_3_nothing_after_the_result_and_the_violation_keeps_its_seq():
    board = main_board(a=["カブトムシ"])
    board = after(board.with_side(replace(board.side("B"), territory=0)), atk("A1", "つのでつく", "player"))
    assert board.result is not None
    end = {"type": "end_turn", "by": "A"}
    assert [(v.seq, v.rule, v.message) for v in R.check(board, {"seq": 7, **end})] == [
        (7, "MJ-7.3", "the match is already decided")
    ]
    # a move checked without a seq (a draft) is reported at 0
    assert [(v.seq, v.rule) for v in R.check(board, end)] == [(0, "MJ-7.3")]
    assert [(v.seq, v.rule) for v in R.check(started(), {"type": "end_turn", "by": "B"})] == [(0, "MJ-3.1")]
