"""Edge cases a mutation sweep found unguarded: each test names the behaviour it pins."""

from __future__ import annotations

from dataclasses import replace

from projections.gurren_lagann import RULESET as R

from .helpers import fold, header, last, opening, rules_of
from .test_rules import BATTLE, SETUP, draw, end, mv, put, skill

H = header()


def test_effect_without_power_adds_nothing_to_the_battle():
    """GL-7.5: only a recorded `power` counts for an effect line, not the cited card's number."""
    board, _ = fold(H, [*BATTLE, {"type": "effect", "by": "A", "card": "ドリル一閃"}])
    assert (board.battle.attack_bonus, board.battle.defend_bonus) == (0, 0)
    board, _ = fold(H, [*BATTLE, {"type": "effect", "by": "A", "card": "グレン", "power": 2}])
    assert board.battle.attack_bonus == 2
    board, _ = fold(H, [*SETUP, {"type": "effect", "by": "A", "card": "グレン", "power": 2}])
    assert board.battle is None


def test_a_skill_with_a_user_list_only_for_those_figures_gl_8_3():
    """ギガドリルブレイク: 【戦闘】《グレンラガン》のみ (requirement 3)."""
    combine = {"type": "effect", "by": "A", "card": "グレンラガン", "destroyed": ["A:ラガン", "A:グレン"],
               "deployed": {"card": "グレンラガン", "square": "d1"}}
    gl = [*SETUP, put("A", "ラガン", "d1"), combine, {"type": "effect", "by": "A", "card": "グレンラガン",
          "readied": ["グレンラガン"], "drew": ["ギガドリルブレイク"]}, put("B", "エンキ", "d2"),
          mv("A", ["グレンラガン"], "d1", "d2")]
    assert fold(H, gl)[1] == []
    assert last(H, gl, skill("A", "ギガドリルブレイク", user="グレンラガン")) == []
    drill = [*BATTLE, {"type": "effect", "by": "A", "card": "グレン", "drew": ["ギガドリルブレイク"]}]
    found = last(H, drill, skill("A", "ギガドリルブレイク", user="グレン"))
    assert found == ["GL-8.3"]
    assert last(H, drill, skill("A", "ギガドリルブレイク")) == ["GL-8.3"]  # no user named: none can


def test_a_text_that_destroys_and_redeploys_its_own_figure():
    """`destroyed` acts before `deployed`: the figure is back in stock and its card off the field."""
    again = [*SETUP, {"type": "effect", "by": "A", "card": "グレン", "drew": ["グレン"]}]
    redeploy = {"type": "effect", "by": "A", "card": "グレン", "destroyed": ["A:グレン"],
                "deployed": {"card": "グレン", "square": "a1"}}
    assert last(H, again, redeploy) == []
    assert set(last(H, again, {**redeploy, "destroyed": []})) == {"GL-4.2", "GL-9.1"}
    board, _ = fold(H, [*again, redeploy])
    assert [(u.figure, u.square) for u in board.units if u.owner == "A" and u.figure == "グレン"] == [("グレン", "a1")]


def test_equipping_a_character_card_is_one_violation_gl_5_2():
    found = R.check(fold(H, SETUP)[0], {"seq": 20, "type": "equip", "by": "A", "card": "カミナ", "target": "グレン"})
    assert rules_of(found) == ["GL-5.2"] and "character card, not item" in found[0].message


def test_moving_an_enemy_figure_moves_nothing():
    """apply trusts the record but never moves the opponent's figure for a mover (GL-6.1 flags it)."""
    board, found = fold(H, [*SETUP, mv("A", ["エンキ"], "d6", "d5")])
    assert rules_of(found) == ["GL-6.1"]
    assert [u.square for u in board.units if u.figure == "エンキ"] == ["d6"]
    board, found = fold(H, [*SETUP, mv("A", ["ロージェノム"], "d1", "d2")])  # no such figure: nothing moves
    assert "GL-6.1" in rules_of(found) and {u.square for u in board.units} == {"b1", "d1", "d6", "b6"}


def test_the_other_players_line_does_not_end_the_draw_phase():
    """GL-3.1: an effect or reveal may come from either player; only the active player's action
    ends their draw phase."""
    board, _ = fold(H, [*opening(), end("A"), {"type": "effect", "by": "A", "card": "グレン", "damage": {"B": 0}}])
    assert board.active == "B" and board.phase == "draw"
    assert last(H, [*opening(), end("A"), {"type": "reveal", "by": "A", "cards": []}], draw("B")) == []
    board, _ = fold(H, [*opening(), end("A"), {"type": "effect", "by": "B", "card": "エンキ"}])
    assert board.phase == "main"


def test_mirror_match_bare_names_are_the_movers():
    """Both players field グレン: a bare name in a move is the mover's own figure."""
    h = header()
    h["players"][1]["deck"] = dict(h["players"][0]["deck"])
    moves = [
        {"type": "reveal", "by": "A", "cards": ["グレン", "ラガン", "カミナ", "ドリル一閃", "グレンブーメラン", "ダヤッカイザー"]},
        {"type": "reveal", "by": "B", "cards": ["グレン", "ラガン", "カミナ", "ドリル一閃", "グレンブーメラン", "ダヤッカイザー"]},
        {"type": "deploy", "by": "A", "card": "グレン", "square": "d1"},
        end("A"),
        draw("B", "ヨーコ"),
        {"type": "deploy", "by": "B", "card": "グレン", "square": "d6"},
        end("B"),
        draw("A", "ヨーコ"),
    ]
    board, found = fold(h, [*moves, mv("A", ["グレン"], "d1", "d2")])
    assert found == []
    assert sorted((u.owner, u.square) for u in board.units) == [("A", "d2"), ("B", "d6")]
    board, found = fold(h, [*moves, {"type": "effect", "by": "A", "card": "グレン", "destroyed": ["グレン"]}])
    assert [u.owner for u in board.units] == ["A"]  # in `destroyed` a bare name is the opponent's


def test_damage_to_a_player_not_in_the_match_hurts_nobody():
    """name_errors refuses such a line before recording; a stored one still folds harmlessly."""
    board, _ = fold(H, [*SETUP, {"type": "effect", "by": "A", "card": "グレン", "damage": {"Z": 3}}])
    assert [s.damage for s in board.sides] == [0, 0]


def test_both_players_at_five_damage_is_a_draw_gl_11_1():
    both = [*SETUP, {"type": "effect", "by": "A", "card": "グレン", "damage": {"A": 5, "B": 6}}]
    board, _ = fold(H, both)
    assert R.result(board).to_json() == {"winner": None, "reason": "damage-both"}
    board, _ = fold(H, [*SETUP, {"type": "effect", "by": "A", "card": "グレン", "damage": {"A": 4, "B": 5}}])
    assert R.result(board).to_json() == {"winner": "A", "reason": "damage"}


def test_two_set_traps_spring_one_after_the_other():
    """GL-8.5: each `trap` line turns one set card face up, the named one first, else an unseen one."""
    drew = {"type": "effect", "by": "B", "card": "エンキ", "drew": ["待ち伏せ"]}
    moves = [*SETUP[:7], drew, skill("B", "待ち伏せ", set=True), skill("B", "待ち伏せ", set=True)]
    spring = {"type": "trap", "by": "B", "card": "待ち伏せ"}
    board, found = fold(H, [*moves, spring, spring])
    assert rules_of(found) == ["GL-8.8", "GL-8.8"]  # no battle B defends: 待ち伏せ's 「相手のフィギュアがバトルを仕掛けた時」 is not met (GL-8.8)
    assert [(k.card, k.set) for k in board.sides[1].skill_zone] == [("待ち伏せ", False), ("待ち伏せ", False)]
    assert last(H, [*moves, spring, spring], spring) == ["GL-8.8", "GL-8.5"]


def test_a_card_text_moving_a_figure_not_on_the_field_changes_nothing():
    board, _ = fold(H, SETUP)
    after = R.apply(board, {"seq": 20, "type": "effect", "by": "A", "card": "グレン", "moved": {"ロージェノム": "c3"}})
    assert after.units == board.units


def test_drawing_by_a_card_text_from_a_deck_that_has_cards_is_no_deck_out_gl_h7():
    h = header({"deckout": "draw"})
    board, _ = fold(h, [*SETUP, {"type": "effect", "by": "A", "card": "グレン", "drew": 2}])
    assert board.decked_out is None and R.result(board) is None
    low = replace(board, sides=(replace(board.sides[0], deck=1), board.sides[1]))
    out = R.apply(low, {"seq": 30, "type": "effect", "by": "A", "card": "グレン", "drew": 2})
    assert out.decked_out == "A" and out.sides[0].deck == 0
    assert R.result(out).to_json() == {"winner": "B", "reason": "deck-out-tie"}


def test_drawing_the_last_card_is_no_deck_out_under_deckout_draw_gl_h7():
    """With deckout "draw" the game ends when a player must draw from an empty deck, not when
    the last card is drawn."""
    board, _ = fold(header({"deckout": "draw"}), [*SETUP[:-1]])
    last_card = replace(board, sides=(replace(board.sides[0], deck=1), board.sides[1]))
    after = R.apply(last_card, {"seq": 30, "type": "draw", "by": "A", "count": 1})
    assert after.sides[0].deck == 0 and after.decked_out is None and R.result(after) is None
    empty = R.apply(replace(after, phase="draw"), {"seq": 31, "type": "draw", "by": "A", "count": 1})
    assert empty.decked_out == "A" and R.result(empty).to_json() == {"winner": "B", "reason": "deck-out-tie"}


def test_split_movement_figure_is_ready_again_next_turn():
    """A figure that moved one square (steps 1, still 未行動) starts its next turn with 2 again."""
    h = header({"split_movement": True})
    moves = [*SETUP, mv("A", ["グレン"], "d1", "d2"), end("A"), draw("B"), end("B"), draw("A")]
    board, found = fold(h, moves)
    assert found == []
    glenn = next(u for u in board.units if u.figure == "グレン")
    assert (glenn.acted, glenn.steps) == (False, 0)
    assert last(h, moves, mv("A", ["グレン"], "d2", "d3", "d4")) == []


def test_moving_back_into_ones_own_zone_deals_no_damage_gl_6_8():
    moves = [*SETUP, mv("A", ["グレン"], "d1", "d2")]
    board, found = fold(H, [*moves, end("A"), draw("B"), end("B"), draw("A"), mv("A", ["グレン"], "d2", "c2", "c1")])
    assert found == [] and [s.damage for s in board.sides] == [0, 0]


def test_equip_on_a_figure_not_on_the_field_gl_5_2():
    board, _ = fold(H, SETUP)
    for target in ("ロージェノム", "B:エンキ"):
        move = {"seq": 20, "type": "equip", "by": "A", "card": "グレンブーメラン", "target": target}
        assert rules_of(R.check(board, move)) == ["GL-5.2"], target


def test_springing_a_trap_other_than_the_one_set_gl_8_5():
    moves = [*SETUP[:7], skill("B", "待ち伏せ", set=True)]
    assert last(H, moves, {"type": "trap", "by": "B", "card": "獣人の誇り"}) == ["GL-8.5"]
    assert last(H, moves, {"type": "trap", "by": "B", "card": "待ち伏せ"}) == ["GL-8.8"]  # no battle B defends: 待ち伏せ's 「相手のフィギュアがバトルを仕掛けた時」 is not met (GL-8.8)


def test_a_replaced_item_goes_to_the_discard_pile_and_its_figure_to_stock():
    boom = {"type": "equip", "by": "A", "card": "グレンブーメラン", "target": "グレン"}
    drew = {"type": "effect", "by": "A", "card": "グレン", "drew": ["グレンブーメラン"]}
    back = {"type": "effect", "by": "A", "card": "グレン", "moved": {}}
    board, _ = fold(H, [*SETUP, boom, drew, back, {**boom}])  # the same item again (GL-5.2, GL-5.3)
    glenn = next(u for u in board.units if u.figure == "グレン")
    assert (glenn.item, glenn.item_figure) == ("グレンブーメラン", "グレンブーメラン")
    assert "グレンブーメラン" in board.sides[0].discard


def test_combine_leaving_figures_are_the_players_own():
    """In `destroyed` a bare name is the opponent's; only the player's own leaving figures free
    their name and their figure for `deployed`."""
    h = header()
    h["players"][1]["deck"] = dict(h["players"][0]["deck"])
    cards = ["グレン", "ラガン", "カミナ", "ドリル一閃", "グレンブーメラン", "ダヤッカイザー"]
    moves = [
        {"type": "reveal", "by": "A", "cards": cards},
        {"type": "reveal", "by": "B", "cards": cards},
        {"type": "deploy", "by": "A", "card": "グレン", "square": "d1"},
        end("A"),
        draw("B", "ヨーコ"),
        {"type": "deploy", "by": "B", "card": "グレン", "square": "d6"},
        end("B"),
        draw("A", "グレン"),
    ]
    again = {"type": "effect", "by": "A", "card": "グレン", "deployed": {"card": "グレン", "square": "a1"}}
    assert set(last(h, moves, {**again, "destroyed": ["B:グレン"]})) == {"GL-4.2", "GL-9.1"}
    assert set(last(h, moves, {**again, "destroyed": ["ロージェノム"]})) == {"GL-4.2", "GL-9.1"}
    assert last(h, moves, {**again, "destroyed": ["A:グレン"]}) == []
