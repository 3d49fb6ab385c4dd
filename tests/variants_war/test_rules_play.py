"""Main phase, battle, master phase, aces, effects and the result, rule by rule."""

from __future__ import annotations

from dataclasses import replace

from exports.i18n import translations
from projections.variants_war.board import Arctos, Mod
from tests.variants_war.helpers import HYAKU, RS, SHINRA, fold, mid_game, rules_of

JA = translations("ja")  # the text board as kifu board says it by default

SHI, SAI, NAN, HOJ, GEN = SHINRA
BAR, VAI, MAR, DUK, GD = HYAKU
DORA, REP = "銅鑼ドラゴン", "レプティアの武者騎兵"


def check(board, move):  # type: ignore[no-untyped-def]
    return rules_of(RS.check(board, {"seq": 1, **move}))


def mv(board, **move):  # type: ignore[no-untyped-def]
    return RS.apply(board, {"seq": 1, **move})


# --- VW-5 main phase -------------------------------------------------------------------------
def test_vw_5_2_attack_moves_up_down_defence_left_right() -> None:
    board = mid_game({"b1": (NAN, "A", "attack"), "d1": (HOJ, "A", "defence"), "b0": (SAI, "A", None)})
    assert check(board, {"type": "move", "by": "A", "from": "b1", "to": "b2"}) == []
    sideways = RS.check(board, {"seq": 1, "type": "move", "by": "A", "from": "b1", "to": "c1"})
    assert rules_of(sideways) == ["VW-5.2"] and sideways[0].expected == {"to": ["b2"]}
    assert sideways[0].suggest == ({"type": "move", "by": "A", "from": "b1", "to": "b2"},)
    assert check(board, {"type": "move", "by": "A", "from": "d1", "to": "e1"}) == []
    assert check(board, {"type": "move", "by": "A", "from": "d1", "to": "d2"}) == ["VW-5.2"]
    assert check(board, {"type": "move", "by": "A", "from": "b0", "to": "a0"}) == ["VW-5.2"]
    assert check(board, {"type": "move", "by": "A", "from": "b1", "to": "b3"}) == ["VW-5.2"]


def test_vw_5_1_one_move_per_monster() -> None:
    board = mid_game({"b1": (NAN, "A", "attack")})
    board = mv(board, type="move", by="A", **{"from": "b1", "to": "b2"})
    assert check(board, {"type": "move", "by": "A", "from": "b2", "to": "b3"}) == ["VW-5.1"]
    board = mv(board, type="end_turn", by="A")
    board = replace(board, turn=5, active="A", drawn=True)
    assert check(board, {"type": "move", "by": "A", "from": "b2", "to": "b3"}) == []


def test_extra_move_granted_by_effect() -> None:
    board = mid_game({"b1": (NAN, "A", "attack")})
    board = mv(board, type="move", by="A", **{"from": "b1", "to": "b2"})
    board = replace(board, squares=tuple((s, replace(m, extra_moves=1)) for s, m in board.squares))
    assert check(board, {"type": "move", "by": "A", "from": "b2", "to": "b3"}) == []


def test_vw_5_3_destination_must_be_free_and_own() -> None:
    board = mid_game({"b1": (NAN, "A", "attack"), "b2": (BAR, "B", "attack"), "d3": (HOJ, "A", "attack")})
    assert check(board, {"type": "move", "by": "A", "from": "b1", "to": "b2"}) == ["VW-5.3"]
    assert check(board, {"type": "move", "by": "A", "from": "d3", "to": "d4"}) == ["VW-5.3"]
    assert check(board, {"type": "move", "by": "A", "from": "b1", "to": "b0"}) == []
    off = mid_game({"b1": (NAN, "A", "attack")}, retreat_by_move=False)
    assert check(off, {"type": "move", "by": "A", "from": "b1", "to": "b0"}) == ["VW-5.3"]


def test_vw_5_2_diagonal_only_with_a_granted_status() -> None:
    board = mid_game({"b1": (NAN, "A", "attack")})
    assert check(board, {"type": "move", "by": "A", "from": "b1", "to": "c2"}) == ["VW-5.2"]
    board = mv(board, type="effect", by="A", card=NAN, square="b1", kind="normal",
               actions=[{"do": "status", "square": "b1", "status": "diagonal"}])
    assert check(board, {"type": "move", "by": "A", "from": "b1", "to": "c2"}) == []


def test_vw_5_6_position_change_once_and_only_on_battlefield() -> None:
    board = mid_game({"b1": (NAN, "A", "attack"), "b0": (SAI, "A", None)})
    assert check(board, {"type": "position", "by": "A", "square": "b1"}) == []
    assert check(board, {"type": "position", "by": "A", "square": "b0"}) == ["VW-5.6"]
    board = mv(board, type="position", by="A", square="b1")
    assert board.at("b1").position == "defence"
    assert check(board, {"type": "position", "by": "A", "square": "b1"}) == ["VW-5.6"]


def test_vw_5_7_only_your_own_monsters() -> None:
    board = mid_game({"b2": (BAR, "B", "attack")})
    assert check(board, {"type": "move", "by": "A", "from": "b2", "to": "b1"}) == ["VW-5.7"]
    assert check(board, {"type": "position", "by": "A", "square": "b2"}) == ["VW-5.7"]


def test_vw_5_4_normal_effect_once_and_must_exist() -> None:
    board = mid_game({"b1": (SHI, "A", "attack"), "d1": ("銅鑼ドラゴン", "A", "attack")})
    eff = {"type": "effect", "by": "A", "card": SHI, "square": "b1", "kind": "normal",
           "actions": [{"do": "draw", "pile": "magic", "card": None}]}
    assert check(board, eff) == []
    after = mv(board, **eff)
    assert len(after.player("A").hand) == 1 and len(after.magic.cards) == 9
    assert check(after, eff) == ["VW-5.4"]
    assert check(board, {"type": "effect", "by": "A", "card": DORA, "square": "d1", "kind": "normal"}) == ["VW-5.4"]


def test_vw_5_5_lateral_effect_after_sideways_move_on_own_turn() -> None:
    board = mid_game({"b1": (NAN, "A", "defence"), "d0": (HOJ, "A", None)})
    lat = {"type": "effect", "by": "A", "card": NAN, "square": "c1", "kind": "lateral",
           "actions": [{"do": "move", "from": "d0", "to": "d1"}]}
    moved = mv(board, type="move", by="A", **{"from": "b1", "to": "c1"})
    assert check(moved, lat) == []
    twice = mv(moved, **lat)
    assert check(twice, lat) == ["VW-5.5", "VW-9.2"]  # no trigger left, and d0 is empty now
    still = mid_game({"c1": (NAN, "A", "defence"), "d0": (HOJ, "A", None)})
    assert check(still, lat) == ["VW-5.5"]


def test_vw_5_5_lateral_by_effect_move_counts_too() -> None:
    board = mid_game({"b1": ("ヴァリアンツＢ－バロン", "A", "attack"), "c2": (NAN, "A", "attack"), "b0": (HOJ, "A", None)})
    board = mv(board, type="effect", by="A", card=BAR, square="b1", kind="normal",
               actions=[{"do": "move", "from": "c2", "to": "d2"}])
    lat = {"type": "effect", "by": "A", "card": NAN, "square": "d2", "kind": "lateral",
           "actions": [{"do": "move", "from": "b0", "to": "b1"}]}
    assert check(board, lat) == ["VW-9.2"]  # b1 is occupied by バロン: the lateral trigger itself was fine
    assert board.at("d2").lateral == 1


def test_vw_5_8_sealed_monster_cannot_act() -> None:
    board = mid_game({"b1": (SHI, "A", "attack")})
    board = board.put("b1", replace(board.at("b1"), statuses=(("no_action", 3), ("no_effect", 3))))
    assert check(board, {"type": "move", "by": "A", "from": "b1", "to": "b2"}) == ["VW-5.8"]
    assert "VW-5.8" in check(board, {"type": "effect", "by": "A", "card": SHI, "square": "b1", "kind": "normal"})


# --- VW-6 battle -------------------------------------------------------------------------------
def test_vw_6_2_short_edge_atk_long_edge_def() -> None:
    board = mid_game({"b2": (REP, "A", "attack"), "b3": (DORA, "B", "defence")}, phase="battle")
    bad = RS.check(board, {"seq": 1, "type": "battle", "by": "A", "squares": ["b2", "b3"], "destroyed": ["b3"]})
    assert rules_of(bad) == ["VW-6.2"]
    assert bad[0].expected["values"] == {"b2": ["atk", 1800], "b3": ["def", 2100]}
    assert bad[0].suggest[0]["destroyed"] == ["b2"]
    side = mid_game({"b2": (REP, "A", "attack"), "c2": (DORA, "B", "defence")}, phase="battle")
    res = RS.check(side, {"seq": 1, "type": "battle", "by": "A", "squares": ["b2", "c2"], "destroyed": []})
    assert res[0].expected["values"] == {"b2": ["def", 1200], "c2": ["atk", 500]}


def test_vw_6_2_tie_house_rule() -> None:
    squares = {"b2": (NAN, "A", "attack"), "b3": (NAN, "B", "attack")}
    move = {"type": "battle", "by": "A", "squares": ["b2", "b3"], "destroyed": []}
    assert check(mid_game(squares, phase="battle"), move) == []
    both = mid_game(squares, phase="battle", battle_tie="both")
    assert check(both, move) == ["VW-6.2"]
    assert check(both, {**move, "destroyed": ["b2", "b3"]}) == []


def test_vw_6_1_sortie_and_retreat_zones_never_fight() -> None:
    board = mid_game({"b3": (NAN, "A", "attack"), "b4": (BAR, "B", None)}, phase="battle")
    assert check(board, {"type": "battle", "by": "A", "squares": ["b3", "b4"], "destroyed": ["b4"]}) == ["VW-6.1"]
    far = mid_game({"b1": (NAN, "A", "attack"), "b3": (BAR, "B", "attack")}, phase="battle")
    assert check(far, {"type": "battle", "by": "A", "squares": ["b1", "b3"], "destroyed": ["b3"]}) == ["VW-6.1"]


def test_vw_6_3_destroyed_to_deck_bottom_or_retreat_zone() -> None:
    board = mid_game({"a2": (NAN, "A", "attack"), "a3": (BAR, "B", "attack")}, phase="battle", active="A")
    move = {"type": "battle", "by": "A", "squares": ["a2", "a3"], "destroyed": ["a3"], "retreat": ["a3"]}
    assert check(board, move) == []
    after = mv(board, **move)
    assert after.at("a4").card == BAR and after.at("a4").position is None
    plain = mv(board, **{**move, "retreat": []})
    assert plain.player("B").deck.cards[-1] == BAR
    bad = mid_game({"b2": (NAN, "A", "attack"), "b3": (BAR, "B", "attack")}, phase="battle")
    assert check(bad, {**move, "squares": ["b2", "b3"], "destroyed": ["b3"], "retreat": ["b3"]}) == ["VW-6.3"]
    rescue = mid_game({"a2": (NAN, "A", "attack"), "a3": ("深き森の長老", "B", "defence")}, phase="battle")
    rescue = rescue.put("a3", replace(rescue.at("a3"), source="rescue"))
    gone = mv(rescue, type="battle", by="A", squares=["a2", "a3"], destroyed=["a2"])
    assert gone.player("A").deck.cards[-1] == NAN


def test_vw_6_4_every_battle_is_fought_and_once() -> None:
    board = mid_game({"b2": (NAN, "A", "attack"), "b3": (BAR, "B", "attack")}, phase="battle")
    assert check(board, {"type": "end_turn", "by": "A"}) == ["VW-6.4"]
    board = mv(board, type="battle", by="A", squares=["b2", "b3"], destroyed=["b3"])
    assert check(board, {"type": "end_turn", "by": "A"}) == []


def test_vw_6_5_breakthrough_one_damage_each() -> None:
    board = mid_game({"b3": (NAN, "A", "attack"), "d3": (HOJ, "A", "attack")}, phase="battle")
    assert "VW-6.5" in check(board, {"type": "end_turn", "by": "A"})
    assert check(board, {"type": "breakthrough", "by": "A", "squares": ["b3"]}) == ["VW-6.5"]
    after = mv(board, type="breakthrough", by="A", squares=["b3", "d3"])
    assert after.player("B").life == 1 and after.at("b3") is None
    assert after.player("A").deck.cards[-2:] == (NAN, HOJ)


# --- VW-7 master phase / Arctos -----------------------------------------------------------------
def test_vw_7_1_master_phase_every_two_turns() -> None:
    odd = mid_game(turn=3, phase="battle")
    assert check(odd, {"type": "master", "by": "A", "dice": [6, 6]}) == ["VW-7.1"]
    even = mid_game(turn=4, active="B", phase="battle")
    assert check(even, {"type": "end_turn", "by": "B"}) == ["VW-7.1"]
    assert check(even, {"type": "master", "by": "B", "dice": [1, 2]}) == []
    assert mv(even, type="master", by="B", dice=[1, 2]).arctos is None


def test_vw_7_2_twelve_summons_arctos_destroying_the_centre() -> None:
    board = mid_game({"c2": (NAN, "A", "attack")}, turn=2, active="B", phase="battle")
    board = mv(board, type="master", by="B", dice=[5, 7])
    assert board.arctos == Arctos(facing="B", since=2, damage=0)
    assert board.at("c2") is None and board.player("A").deck.cards[-1] == NAN
    assert RS.board_json(board)["arctos"]["facing"] == "B"


def _with_arctos(monsters, turn=4, since=3, **house):  # type: ignore[no-untyped-def]
    """Arctos appeared on turn ``since``; by default the lock-on roll is due this turn."""
    board = mid_game(monsters, turn=turn, active="B" if turn % 2 == 0 else "A", phase="battle", **house)
    return replace(board, arctos=Arctos(facing="A", since=since, damage=5000))


def test_vw_7_3_lockon_roll_destroys_and_adds_atk() -> None:
    board = _with_arctos({"b1": (NAN, "A", "attack"), "d3": (BAR, "B", "attack")})
    after = mv(board, type="master", by="B", dice=[5, 6])
    assert after.arctos.damage == 5800 and after.at("d3") is None and after.at("b1") is not None


def test_vw_7_3_count_from_house_rule() -> None:
    """「《アルクトス》が出現したターンから数えて2ターンが終了する度に、8面ダイスを2個降る。」 read like
    「先攻のターンから数えて2ターンが終了する度に」 (turns 1 and 2, so the roll ends turn 2): the
    appearance turn is the first of the two, so the first lock-on roll ends the next turn."""
    roll = {"type": "master", "by": "A", "dice": [1, 1]}
    literal = _with_arctos({}, turn=3, since=2)  # appeared on turn 2: turns 2 and 3 end -> roll on 3
    assert check(literal, roll) == []
    assert check(replace(literal, turn=5), roll) == [] and check(replace(literal, turn=4, active="B"),
                                                                  {**roll, "by": "B"}) == ["VW-7.1"]
    assert check(replace(literal, turn=3, mastered=False), {"type": "end_turn", "by": "A"}) == ["VW-7.1"]
    option = _with_arctos({}, turn=3, since=2, arctos_count_from="next")  # turns 3 and 4 -> roll on 4
    assert check(option, roll) == ["VW-7.1"]
    assert check(replace(option, turn=4, active="B"), {**roll, "by": "B"}) == []


def test_vw_7_5_destroyed_past_6000_then_skipped() -> None:
    board = _with_arctos({"b1": (NAN, "A", "attack")})
    after = mv(board, type="master", by="B", dice=[1, 1])
    assert after.arctos is None and after.arctos_destroyed
    later = replace(after, turn=6, mastered=False)
    assert check(later, {"type": "master", "by": "B", "dice": [6, 6]}) == ["VW-7.5"]
    assert check(later, {"type": "end_turn", "by": "B"}) == []


def test_vw_7_5_threshold_house_rule() -> None:
    exact = {"b1": ("ヴァリアンツＢ－バロン", "A", "attack")}  # 800 more: 5000 + 800 … make it 6000
    over = replace(_with_arctos(exact), arctos=Arctos("A", 3, 5200))
    assert mv(over, type="master", by="B", dice=[1, 1]).arctos.damage == 6000
    reach = replace(_with_arctos(exact, arctos_threshold="reach"), arctos=Arctos("A", 3, 5200))
    assert mv(reach, type="master", by="B", dice=[1, 1]).arctos is None


def test_vw_7_4_arctos_takes_no_battle_and_no_effects() -> None:
    board = _with_arctos({"b2": (NAN, "A", "attack"), "c1": (HOJ, "A", "attack")}, turn=3)
    assert check(board, {"type": "battle", "by": "A", "squares": ["b2", "c2"], "destroyed": []}) == ["VW-7.4"]
    main = replace(board, phase="main")
    assert check(main, {"type": "move", "by": "A", "from": "c1", "to": "c2"}) == ["VW-7.4"]
    eff = {"type": "effect", "by": "A", "card": NAN, "square": "b2", "kind": "normal",
           "actions": [{"do": "move", "from": "c2", "to": "c1"}]}
    assert check(main, eff) == ["VW-7.4"]
    assert "アルクトスv5000" in RS.render_text(main, JA)


# --- VW-8 aces ----------------------------------------------------------------------------------
def test_vw_8_1_ace_only_through_its_card_effect() -> None:
    board = mid_game({"d3": (DUK, "B", "attack"), "b3": (BAR, "B", "attack")}, turn=4, active="B")
    summon = {"type": "effect", "by": "B", "card": DUK, "square": "d3", "kind": "normal",
              "actions": [{"do": "to_deck", "square": "d3"}, {"do": "to_deck", "square": "b3"},
                          {"do": "summon", "card": GD, "to": "d3"}]}
    assert check(board, summon) == []
    after = mv(board, **summon)
    assert after.at("d3").card == GD and after.player("B").ex == ()
    wrong = {"type": "effect", "by": "B", "card": BAR, "square": "b3", "kind": "normal",
             "actions": [{"do": "summon", "card": GD, "to": "b3"}]}
    assert check(board, wrong) == ["VW-8.1"]
    standby = replace(board, phase="standby")
    assert check(standby, {"type": "set", "by": "B", "card": GD, "to": "b4"}) == ["VW-8.1"]


def test_vw_8_2_ace_cannot_move_on_arrival_turn() -> None:
    board = mid_game({"d3": (DUK, "B", "attack"), "b3": (BAR, "B", "attack")}, turn=4, active="B")
    board = mv(board, type="effect", by="B", card=DUK, square="d3", kind="normal",
               actions=[{"do": "to_deck", "square": "d3"}, {"do": "to_deck", "square": "b3"},
                        {"do": "summon", "card": GD, "to": "d3"}])
    assert check(board, {"type": "move", "by": "B", "from": "d3", "to": "d2"}) == ["VW-8.2"]
    nxt = replace(board, turn=6)
    assert check(nxt, {"type": "move", "by": "B", "from": "d3", "to": "d2"}) == []


def test_vw_8_3_ace_never_returns() -> None:
    board = mid_game({"d3": (GD, "B", "attack"), "b1": (DUK, "B", "attack"), "c1": (BAR, "B", "attack")},
                     turn=4, active="B")
    board = board.with_player(replace(board.player("B"), ex=()))
    board = mv(board, type="effect", by="B", card=DUK, square="b1", kind="normal",
               actions=[{"do": "destroy", "square": "d3"}])
    assert GD not in board.player("B").deck.cards and board.player("B").gone == (GD,)
    again = {"type": "effect", "by": "B", "card": DUK, "square": "b1", "kind": "normal",
             "actions": [{"do": "summon", "card": GD, "to": "b1"}]}
    assert "VW-8.3" in check(replace(board, squares=tuple((s, replace(m, acted=False)) for s, m in board.squares)), again)


def test_vw_8_4_genchu_stats_house_rule() -> None:
    board = mid_game({"c2": (GEN, "A", "attack")}, genchu_atk=3000)
    assert RS.board_json(board)["monsters"][0]["atk"] == 3000
    assert RS.board_json(mid_game({"c2": (GEN, "A", "attack")}))["monsters"][0]["atk"] == 2500


# --- VW-9 effects, VW-10 result ------------------------------------------------------------------
def test_vw_9_1_effect_card_must_be_there() -> None:
    board = mid_game({"b1": (SHI, "A", "attack")})
    assert check(board, {"type": "effect", "by": "A", "card": NAN, "square": "b1", "kind": "normal"}) == ["VW-9.1"]


def test_vw_9_3_immune_monster() -> None:
    board = mid_game({"b2": ("アサルト・アルマート", "A", "attack"), "b3": (BAR, "B", "attack")})
    board = board.put("b3", replace(board.at("b3"), statuses=(("immune", 4),)))
    eff = {"type": "effect", "by": "A", "card": "アサルト・アルマート", "square": "b2", "kind": "normal",
           "actions": [{"do": "modify", "square": "b3", "stat": "both", "op": "add", "amount": -1000}]}
    assert check(board, eff) == ["VW-9.3"]


def test_effect_modifiers_feed_battle_values() -> None:
    board = mid_game({"b2": ("アサルト・アルマート", "A", "attack"), "b3": (NAN, "B", "attack")})
    board = mv(board, type="effect", by="A", card="アサルト・アルマート", square="b2", kind="normal",
               actions=[{"do": "modify", "square": "b3", "stat": "both", "op": "add", "amount": -1000}])
    board = replace(board, phase="battle")
    assert check(board, {"type": "battle", "by": "A", "squares": ["b2", "b3"], "destroyed": ["b3"]}) == []
    halved = mid_game({"b2": (SAI, "A", "attack"), "b3": (NAN, "B", "attack")})
    halved = mv(halved, type="effect", by="A", card=SAI, square="b2", kind="normal",
                actions=[{"do": "coin", "result": "tails"},
                         {"do": "modify", "square": "b3", "stat": "atk", "op": "halve", "until": "owner_next_turn_end"}])
    assert halved.at("b3").mods[0].until == 4
    halved = replace(halved, phase="battle")
    assert check(halved, {"type": "battle", "by": "A", "squares": ["b2", "b3"], "destroyed": ["b3"]}) == []


def test_vw_10_life_zero_wins_and_match_over() -> None:
    board = mid_game({"b3": (NAN, "A", "attack")}, phase="battle")
    board = board.with_player(replace(board.player("B"), life=1))
    board = mv(board, type="breakthrough", by="A", squares=["b3"])
    assert RS.result(board).winner == "A" and RS.result(board).reason == "life"
    assert check(board, {"type": "end_turn", "by": "A"}) == ["VW-10.2"]
    assert "結果: 山田の勝ち (ライフ0)" in RS.render_text(board, JA)


def test_bounce_returns_to_owner_hand() -> None:
    board = mid_game({"b1": (HOJ, "A", "attack"), "d4": (BAR, "B", None)})
    board = mv(board, type="effect", by="A", card=HOJ, square="b1", kind="normal",
               actions=[{"do": "bounce", "square": "d4"}])
    assert board.player("B").hand[-1].card == BAR and board.at("d4") is None
    _, found = fold([])
    assert found == []


def test_vw_5_8_no_position_status() -> None:
    board = mid_game({"b1": (NAN, "A", "attack")})
    board = board.put("b1", replace(board.at("b1"), statuses=(("no_position", 4),)))
    assert check(board, {"type": "position", "by": "A", "square": "b1"}) == ["VW-5.8"]


def test_vw_9_4_sealed_zone() -> None:
    board = mid_game({"b1": ("EMシール・イール", "A", "defence"), "d3": (NAN, "B", "attack")})
    board = mv(board, type="move", by="A", **{"from": "b1", "to": "a1"})
    board = mv(board, type="effect", by="A", card="EMシール・イール", square="a1", kind="lateral",
               actions=[{"do": "seal_zone", "square": "d2"}])
    assert RS.board_json(board)["zones"][13]["sealed"] is True
    board = replace(mv(board, type="end_turn", by="A"), drawn=True, phase="main")  # through B's turn
    assert check(board, {"type": "move", "by": "B", "from": "d3", "to": "d2"}) == ["VW-9.4"]
    later = replace(mv(board, type="end_turn", by="B"), drawn=True, phase="main")
    assert RS.board_json(later)["zones"][13]["sealed"] is False


def test_arctos_damage_house_rule_printed() -> None:
    monsters = {"b1": (SHI, "A", "attack")}  # 東雲 ATK 500, +1000 this turn
    current = _with_arctos(monsters)
    current = current.put("b1", replace(current.at("b1"), mods=(Mod("atk", "add", 1000, 4),)))
    assert mv(current, type="master", by="B", dice=[1, 1]).arctos is None  # 5000 + 1500 > 6000
    printed = _with_arctos(monsters, arctos_damage="printed")
    printed = printed.put("b1", replace(printed.at("b1"), mods=(Mod("atk", "add", 1000, 4),)))
    assert mv(printed, type="master", by="B", dice=[1, 1]).arctos.damage == 5500


def test_apply_and_check_never_raise_on_odd_but_wellformed_moves() -> None:
    from projections.variants_war.moves import ACTIONS

    boards = [RS.initial_board(__import__("tests.variants_war.helpers", fromlist=["header"]).header()),
              mid_game(), mid_game({"c2": (NAN, "A", "attack")}, phase="battle")]
    moves = [dict(spec.example) for spec in RS.move_types.values()]
    moves += [{"seq": 1, "type": "effect", "by": "A", "card": NAN, "square": "c2", "kind": "normal",
               "actions": [{"do": d, **{f: ("c3" if f in ("from", "to", "a", "b", "square") else "x") for f in fs}}
                           for d, fs in ACTIONS.items()]}]
    moves += [{"seq": 1, "type": "move", "by": "Z", "from": "a1", "to": "a2"},
              {"seq": 1, "type": "magic", "by": "A", "card": "x", "actions": [{"do": "lose_life", "player": "Q"}]}]
    for board in boards:
        for move in moves:
            RS.check(board, move)
            RS.apply(board, move)
