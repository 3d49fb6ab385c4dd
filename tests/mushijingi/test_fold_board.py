"""Issue 18: what the board shows after the fold's branches mutation testing found unguarded
(apply.py) — the end of a match, the draw, cards leaving the field, turn end — read from
``board_json`` (the board page) or from the checks of the next move. Rule ids are those of
docs/rules/mushijingi.md."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from projections.mushijingi import RULESET as R
from projections.mushijingi.board import Insect
from tests.mushijingi.helpers import fold, main_board, started


def after(board: Any, *moves: dict[str, Any]) -> Any:
    board, found = fold(board, list(moves))
    assert found == [], found
    return board


def said(board: Any, move: dict[str, Any]) -> list[tuple[str, str]]:
    return [(v.rule, v.message) for v in R.check(board, {"seq": 9, **move})]


def atk(attacker: str, technique: str, target: str, by: str = "A") -> dict[str, Any]:
    return {"type": "attack", "by": by, "attacker": attacker, "technique": technique, "target": target}


def territory(board: Any, pid: str, n: int) -> Any:
    return board.with_side(replace(board.side(pid), territory=n))


def insects(board: Any, pid: str) -> list[dict[str, Any]]:
    return R.board_json(board)["players"][pid]["insects"]


# ---------------------------------------------------------------- MJ-7 the end of the match


def test_mj_7_1_a_direct_attack_at_territory_0_ends_the_match():
    board = after(territory(main_board(a=["カブトムシ"]), "B", 0), atk("A1", "つのでつく", "player"))
    assert R.board_json(board)["phase"] == "over"
    assert (board.result.winner, board.result.reason) == ("A", "direct-attack")


def test_mj_7_1_a_direct_attack_recorded_past_a_blocker_still_wins_at_territory_0():
    board, found = fold(
        territory(main_board(a=["カブトムシ"], b=["タガメ"]), "B", 0), [atk("A1", "つのでつく", "player")]
    )
    assert [v.rule for v in found] == ["MJ-5.4"]  # flagged; the record stands for the judge to rule
    assert (R.board_json(board)["phase"], board.result.reason) == ("over", "direct-attack")


def test_mj_7_2_a_draw_from_an_empty_deck_ends_the_match_by_territory():
    b_turn = after(started(), {"type": "end_turn", "by": "A"})
    empty = b_turn.with_side(replace(b_turn.side("B"), deck=0, territory=2))
    board = after(empty, {"type": "draw", "by": "B"})
    assert R.board_json(board)["phase"] == "over"
    assert (board.result.winner, board.result.reason) == ("A", "deck-out")


# ---------------------------------------------------------------- MJ-3.2 the draw


def test_mj_3_2_a_second_draw_on_the_first_turn_is_one_draw_too_many():
    board, found = fold(started(), [{"type": "draw", "by": "A"}])
    assert [v.message for v in found] == [
        "the first player does not draw on the first turn (先攻1ターン目はドローなし)"
    ]
    assert said(board, {"type": "draw", "by": "A"}) == [("MJ-3.2", "one draw per turn, at its start")]


def test_mj_3_2_a_draw_by_the_other_player_is_not_the_turns_draw():
    b_turn = after(started(), {"type": "end_turn", "by": "A"})
    board, found = fold(b_turn, [{"type": "draw", "by": "A"}])
    assert [v.rule for v in found] == ["MJ-3.1"]
    assert R.board_json(board)["phase"] == "draw"
    assert said(board, {"type": "end_turn", "by": "B"}) == [("MJ-3.2", "the turn's draw (ドロー) was not recorded")]


# ---------------------------------------------------------------- MJ-3.6 turn end


def test_mj_3_6_turn_end_unflips_and_readies_every_insect():
    board = main_board(a=["カブトムシ"], b=["タガメ"])
    board = after(board, {"type": "effect", "by": "B", "card": "大嵐", "flip": ["A1"], "damage": {"B1": 100}})
    board = after(board, {"type": "end_turn", "by": "A"})
    assert [
        (i["uid"], i["damage"], i["flipped"], i["attacked"]) for i in insects(board, "A") + insects(board, "B")
    ] == [
        ("A1", 0, False, False),
        ("B1", 0, False, False),
    ]
    assert all(i["flipped"] is False for i in insects(board, "A"))


# ---------------------------------------------------------------- MJ-6.6 cards gone from the field this turn


def test_mj_6_6_an_insect_destroyed_this_turn_is_still_a_source_in_play():
    board = main_board(a=["オオカマキリ"], b=["ゲンジボタル"], effect_source_in_play=True)
    board = after(board, atk("A1", "かまできる", "B1"))  # 500 x1 (赤 beats 緑: no bonus for 緑) ≥ 300
    assert insects(board, "B") == [] and R.board_json(board)["players"]["B"]["discard"] == ["ゲンジボタル"]
    effect = {"type": "effect", "by": "B", "card": "ゲンジボタル", "draw": 1}
    assert said(board, effect) == []
    assert said(board, {**effect, "card": "タガメ"})[0][0] == "MJ-6.6"


def test_mj_6_6_a_card_played_last_turn_is_no_source_this_turn():
    board = main_board(a=["カブトムシ"], hand_a=["闘志"], effect_source_in_play=True)
    board = after(board, {"type": "play", "by": "A", "card": "闘志", "target": "A1"})
    boost = {"type": "effect", "by": "A", "card": "闘志", "boost": {"A1": 300}}
    assert said(board, boost) == []
    next_turn = after(board, {"type": "end_turn", "by": "A"})
    assert [r for r, _ in said(next_turn, boost)] == ["MJ-6.6"]


def test_mj_3_1_a_turn_end_recorded_by_the_other_player_still_passes_the_turn():
    board, found = fold(started(), [{"type": "end_turn", "by": "B"}])
    assert [v.rule for v in found] == ["MJ-3.1"]
    assert (R.board_json(board)["active"], R.board_json(board)["turn"]) == ("B", 2)


def test_mj_3_4_an_attack_starts_the_main_phase():
    board = after(started(lists=False), {"type": "end_turn", "by": "A"}, {"type": "draw", "by": "B"})
    board = board.with_side(replace(board.side("B"), feed=("羽化", "羽化")))
    board = replace(board, field=(Insect("B1", "タガメ", "B"),))  # an insect from an earlier turn
    assert (R.board_json(board)["phase"], R.board_json(board)["cost"]) == ("set", None)
    board = after(board, atk("B1", "かみつく", "player", by="B"))
    got = R.board_json(board)
    assert (got["phase"], got["cost"]) == ("main", {"total": 2, "spent": 0, "left": 2})


def test_mj_1_4_an_unknown_card_played_spends_no_cost():
    board, found = fold(main_board(cost=3), [{"type": "play", "by": "A", "card": "謎のカード"}])
    assert [v.rule for v in found] == ["MJ-1.4"]
    assert R.board_json(board)["cost"] == {"total": 3, "spent": 0, "left": 3}


# ---------------------------------------------------------------- MJ-5 attacks folded as recorded


def test_mj_5_1_an_attack_naming_an_opposing_insect_as_attacker_deals_nothing():
    board, found = fold(main_board(a=["カブトムシ"], b=["タガメ", "アシダカグモ"]), [atk("B1", "かみつく", "B2")])
    assert [v.rule for v in found] == ["MJ-5.1"]
    assert [(i["uid"], i["damage"], i["attacked"]) for i in insects(board, "B")] == [
        ("B1", 0, False),
        ("B2", 0, False),
    ]


def test_mj_5_4_an_attack_on_ones_own_insect_deals_nothing():
    board, found = fold(main_board(a=["カブトムシ", "オオカマキリ"], b=["タガメ"]), [atk("A1", "つのでつく", "A2")])
    assert [v.rule for v in found] == ["MJ-5.4"]
    assert [(i["uid"], i["damage"]) for i in insects(board, "A")] == [("A1", 0), ("A2", 0)]


def test_mj_5_5_the_territory_card_named_goes_to_the_defenders_hand():
    board = main_board(a=["ヘラクレスオオカブト"], b=["タガメ"])
    board = after(board, {**atk("A1", "つのなげ", "B1"), "territory_card": "大嵐"})
    b = R.board_json(board)["players"]["B"]
    assert (b["insects"], b["discard"], b["territory"], b["hand"][-1]) == ([], ["タガメ"], 5, "大嵐")


def test_mj_5_5_house_rule_an_effect_that_destroys_takes_territory_too():
    board = main_board(b=["ゲンジボタル"], effect_destroy_takes_territory=True)
    board = after(board, {"type": "effect", "by": "A", "card": "大嵐", "damage": {"B1": 300}})
    b = R.board_json(board)["players"]["B"]
    assert (b["insects"], b["territory"], b["hand"][-1]) == ([], 5, None)
    plain = after(main_board(b=["ゲンジボタル"]), {"type": "effect", "by": "A", "card": "大嵐", "damage": {"B1": 300}})
    assert R.board_json(plain)["players"]["B"]["territory"] == 6


# ---------------------------------------------------------------- MJ-6 what effects do to the zones


def test_mj_6_3_effects_discard_from_hand_and_feed_and_summon_from_the_deck():
    board = main_board(hand_a=["羽化", "闘志", None, None])
    board = board.with_side(replace(board.side("A"), feed=("羽化", "大嵐")))
    board, _ = fold(board, [{"type": "effect", "by": "A", "card": "大嵐", "discard": ["闘志", "カブトムシ"]}])
    a = R.board_json(board)["players"]["A"]
    assert (a["hand"], a["discard"]) == (["羽化", None], ["闘志", "カブトムシ"])
    board, _ = fold(board, [{"type": "effect", "by": "A", "card": "大嵐", "feed_discard": ["大嵐"]}])
    a = R.board_json(board)["players"]["A"]
    assert (a["feed"], a["discard"]) == (["羽化"], ["闘志", "カブトムシ", "大嵐"])
    deck = a["deck"]
    board, _ = fold(board, [{"type": "effect", "by": "A", "card": "大嵐", "from": "deck", "summon": ["カブトムシ"]}])
    a = R.board_json(board)["players"]["A"]
    assert (a["deck"], [i["card"] for i in a["insects"]], a["hand"]) == (deck - 1, ["カブトムシ"], ["羽化", None])


def test_an_effect_recorded_for_no_player_of_the_match_is_folded():
    board, _ = fold(main_board(b=["タガメ"]), [{"type": "effect", "by": "審判", "card": "大嵐", "damage": {"B1": 300}}])
    assert [(i["uid"], i["damage"]) for i in insects(board, "B")] == [("B1", 300)]


def test_mj_3_5_the_main_phase_spends_only_the_turn_players_cards():
    board = started(hand_a=["羽化", "オオカマキリ", "闘志", "闘志"], hand_b=["アシダカグモ"], lists=False)
    board = after(board, {"type": "set", "by": "A", "card": "羽化"}, {"type": "end_turn", "by": "A"})
    board = after(board, {"type": "draw", "by": "B"}, {"type": "end_turn", "by": "B"}, {"type": "draw", "by": "A"})
    board, _ = fold(board, [{"type": "play", "by": "B", "card": "アシダカグモ"}])  # out of turn (flagged)
    board = after(board, {"type": "play", "by": "A", "card": "オオカマキリ"})
    assert R.board_json(board)["cost"] == {"total": 1, "spent": 1, "left": 0}


def test_mj_6_3_summoning_the_last_card_of_the_deck_empties_it():
    board = main_board()
    board = board.with_side(replace(board.side("A"), deck=1))
    board, _ = fold(board, [{"type": "effect", "by": "A", "card": "大嵐", "from": "deck", "summon": ["カブトムシ"]}])
    assert R.board_json(board)["players"]["A"]["deck"] == 0


def test_mj_6_6_an_insect_an_effect_summoned_this_turn_stays_a_source_when_flipped():
    board = main_board(hand_a=["カブトムシ", "羽化", "闘志", "闘志"], effect_source_in_play=True)
    board, _ = fold(
        board,
        [
            {"type": "effect", "by": "A", "card": "大嵐", "summon": ["カブトムシ"]},
            {"type": "effect", "by": "B", "card": "大嵐", "flip": ["A1"]},
        ],
    )
    assert insects(board, "A")[0]["flipped"] is True
    assert said(board, {"type": "effect", "by": "A", "card": "カブトムシ", "draw": 1}) == []


def test_apply_folds_a_move_of_an_unknown_type_as_nothing():
    board = started()
    assert R.apply(board, {"seq": 3, "type": "dance", "by": "A"}) == board
