"""Issue 18: what the fold makes of each effect action (VW-9) and of the turn's bookkeeping — the
board a scorekeeper then sees: where a placed, swapped, turned, returned or destroyed card is,
its source pile, counters and statuses, and what a new turn clears (VW-5, VW-6.3, VW-8.3)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from projections.variants_war.board import Arctos, Board, HandCard, Mod, Monster, Pile
from tests.variants_war.helpers import A_PICKS, B_PICKS, RS, header, mid_game
from tests.variants_war.test_rule_ids import BAR, DORA, DUK, GD, NAN, SAI, SHI, WIND, duke, status, two

PENGUIN = "ペンギン忍者"  # a rescue monster
KNIGHT = "騎士道精神"  # a magic card


def act(board: Board, *actions: dict[str, Any], by: str = "A") -> Board:
    """``board`` after a 破天荒な風 whose text did ``actions``: any action, folded as recorded (the
    card texts only recorded, house rule card_texts: recorded; what the text fills in when checked
    is test_card_texts.py's)."""
    board = replace(board, options=tuple(sorted({**dict(board.options), "card_texts": "recorded"}.items())))
    return RS.apply(board, {"seq": 1, "type": "magic", "by": by, "card": WIND, "actions": list(actions)})


def with_hand(board: Board, pid: str, *cards: HandCard) -> Board:
    return board.with_player(replace(board.player(pid), hand=cards))


def with_deck(board: Board, pid: str, deck: Pile) -> Board:
    return board.with_player(replace(board.player(pid), deck=deck))


# ---------------------------------------------------------------- swap, move, position


def test_swap_along_a_row_is_a_sideways_move_of_the_turn_players_monster_only():
    board = mid_game({"b1": (NAN, "A", "attack"), "c1": (BAR, "B", "defence")})
    done = act(board, {"do": "swap", "a": "b1", "b": "c1"})
    assert done.at("c1") == replace(board.at("b1"), lateral=1)  # a 横移動効果 trigger (VW-5.5)
    assert done.at("b1") == board.at("c1")
    up = act(mid_game({"b1": (NAN, "A", "attack"), "b2": (BAR, "B", "attack")}), {"do": "swap", "a": "b1", "b": "b2"})
    assert (up.at("b2").card, up.at("b2").lateral, up.at("b1").card, up.at("b1").lateral) == (NAN, 0, BAR, 0)
    diagonal = act(mid_game({"b1": (NAN, "A", "attack"), "c2": (BAR, "B", "attack")}), {"do": "swap", "a": "b1", "b": "c2"})
    assert (diagonal.at("c2").card, diagonal.at("c2").lateral) == (NAN, 0)
    b_turn = replace(board, active="B", turn=4)
    done = act(b_turn, {"do": "swap", "a": "b1", "b": "c1"}, by="B")
    assert (done.at("c1").lateral, done.at("b1").lateral) == (0, 1)


def test_swap_with_an_empty_square_changes_nothing():
    board = mid_game({"b1": (NAN, "A", "attack")})
    assert act(board, {"do": "swap", "a": "b1", "b": "c1"}).squares == board.squares
    assert act(board, {"do": "swap", "a": "c1", "b": "b1"}).squares == board.squares


def test_an_effect_moving_the_opponents_monster_sideways_triggers_nothing():
    board = mid_game({"b1": (NAN, "A", "attack"), "c2": (BAR, "B", "defence")})
    assert act(board, {"do": "move", "from": "c2", "to": "d2"}).at("d2").lateral == 0
    assert act(board, {"do": "move", "from": "b1", "to": "a1"}).at("a1").lateral == 1
    assert act(board, {"do": "move", "from": "b1", "to": "b2"}).at("b2").lateral == 0
    assert act(board, {"do": "move", "from": "e1", "to": "e2"}).squares == board.squares


def test_the_position_action_turns_a_battlefield_monster_both_ways():
    board = mid_game({"b1": (NAN, "A", "attack"), "d1": (SHI, "A", "defence"), "b0": (SAI, "A", None)})
    done = act(board, {"do": "position", "square": "b1"}, {"do": "position", "square": "d1"},
               {"do": "position", "square": "b0"}, {"do": "position", "square": "c3"})
    assert [(sq, m.position) for sq, m in done.squares] == [("b0", None), ("b1", "defence"), ("d1", "attack")]
    assert done.at("b1") == replace(board.at("b1"), position="defence")  # nothing else changes (no 行動権 used)


def test_a_position_change_line_flips_and_marks_the_monster():
    board = mid_game({"b1": (NAN, "A", "defence")})
    done = RS.apply(board, {"seq": 1, "type": "position", "by": "A", "square": "b1"})
    assert (done.at("b1").position, done.at("b1").turned) == ("attack", True)
    assert "position" in done.used


# ---------------------------------------------------------------- place and summon


def test_place_from_hand_takes_the_card_and_keeps_its_pile():
    board = with_hand(mid_game(), "A", HandCard(DORA, "deck"), HandCard(None, "rescue"))
    done = act(board, {"do": "place", "card": DORA, "to": "c1"})
    assert done.at("c1") == Monster(DORA, "A", "deck", position="attack", arrived=3)
    assert done.player("A").hand == (HandCard(None, "rescue"),)
    rescued = act(board, {"do": "place", "card": PENGUIN, "to": "c1"})
    assert rescued.at("c1").source == "rescue"  # an unseen rescue card stood for it
    assert rescued.player("A").hand == (HandCard(DORA, "deck"),)
    assert rescued.rescue == Pile(board.rescue.cards, tuple(c for c in board.rescue.pool if c != PENGUIN))
    stray = act(board, {"do": "place", "card": SAI, "to": "c1"})  # not in hand: placed as recorded
    assert stray.at("c1").source == "deck" and len(stray.player("A").hand) == 2


def test_place_for_the_other_player_from_their_hand():
    board = with_hand(mid_game(), "B", HandCard(BAR, "deck"))
    done = act(board, {"do": "place", "card": BAR, "to": "c3", "player": "B"})
    assert done.at("c3") == Monster(BAR, "B", "deck", position="attack", arrived=3)
    assert done.player("B").hand == ()


def test_place_from_the_deck_known_or_unseen():
    board = with_deck(mid_game(), "B", Pile((BAR, None), (DUK,)))
    known = act(board, {"do": "place", "card": BAR, "to": "c3", "player": "B", "from": "deck"})
    assert known.player("B").deck == Pile((None,), (DUK,))
    assert known.at("c3") == Monster(BAR, "B", "deck", position="attack", arrived=3)
    unseen = act(board, {"do": "place", "card": DUK, "to": "c3", "player": "B", "from": "deck"})
    assert unseen.player("B").deck == Pile((BAR,), ())
    absent = act(board, {"do": "place", "card": GD, "to": "c3", "player": "B", "from": "deck"})
    assert absent.player("B").deck == board.player("B").deck and absent.at("c3").card == GD
    assert absent.player("B").hand == board.player("B").hand


def test_summon_for_a_named_player_in_a_named_position():
    board = duke()
    done = act(board, {"do": "summon", "card": GD, "to": "c3", "player": "B", "position": "defence"})
    assert done.at("c3") == Monster(GD, "B", "ex", position="defence", arrived=4)
    assert done.player("B").ex == ()
    assert act(board, {"do": "summon", "card": GD, "to": "c3"}, by="B").at("c3").position == "attack"


# ---------------------------------------------------------------- leaving: deck bottoms, hands, the EX deck


def test_destroyed_monsters_go_to_the_bottom_of_their_own_pile():
    board = mid_game({"b1": (NAN, "A", "attack"), "c1": (PENGUIN, "A", "attack"), "d3": (BAR, "B", "attack")})
    board = board.put("c1", replace(board.at("c1"), source="rescue"))
    done = act(board, {"do": "destroy", "square": "b1"}, {"do": "destroy", "square": "c1"},
               {"do": "to_deck", "square": "d3"})
    assert done.player("A").deck.cards[-1] == NAN and done.rescue.cards[-1] == PENGUIN
    assert done.player("B").deck.cards[-1] == BAR
    assert len(done.player("A").deck.cards) == len(board.player("A").deck.cards) + 1
    assert done.rescue.pool == board.rescue.pool


def test_an_ace_bounced_or_destroyed_leaves_the_game_vw_8_3():
    board = replace(mid_game({"d3": (GD, "B", "attack"), "b3": (BAR, "B", "attack")}), turn=4, active="B")
    for do in ("bounce", "destroy"):
        done = act(board, {"do": do, "square": "d3"}, by="B")
        assert done.player("B").gone == (GD,) and done.player("B").hand == ()
    bounced = act(board, {"do": "bounce", "square": "b3"}, by="B")
    assert bounced.player("B").hand == (HandCard(BAR, "deck"),)


def test_return_puts_a_hand_card_under_its_pile():
    board = with_hand(mid_game(), "A", HandCard(SAI, "deck"), HandCard(KNIGHT, "magic"))
    done = act(board, {"do": "return", "pile": "deck", "card": SAI})
    assert done.player("A").hand == (HandCard(KNIGHT, "magic"),) and done.player("A").deck.cards[-1] == SAI
    magic = act(board, {"do": "return", "pile": "deck", "card": KNIGHT})  # it goes where it came from
    assert magic.magic.cards[-2:] == (KNIGHT, WIND) and magic.player("A").deck == board.player("A").deck
    b = with_hand(mid_game(), "B", HandCard(BAR, "deck"))
    done = act(b, {"do": "return", "pile": "deck", "card": BAR, "player": "B"})
    assert done.player("B").hand == () and done.player("B").deck.cards[-1] == BAR
    unknown = act(board, {"do": "return", "pile": "rescue", "card": PENGUIN})  # not in hand: to the named pile
    assert unknown.rescue.cards[-1] == PENGUIN and unknown.player("A").hand == board.player("A").hand


# ---------------------------------------------------------------- draws and hidden cards


def test_an_effect_draw_names_the_card_and_the_player():
    board = with_deck(with_deck(mid_game(), "B", Pile((None,), (BAR,))), "A", Pile((None,), (SAI,)))
    done = act(board, {"do": "draw", "pile": "deck", "card": BAR, "player": "B"})
    assert done.player("B").hand == (HandCard(BAR, "deck"),) and done.player("B").deck == Pile((), ())
    assert done.player("A") == board.player("A")
    mine = act(board, {"do": "draw", "pile": "deck", "card": SAI})
    assert mine.player("A").hand == (HandCard(SAI, "deck"),)
    rescue = act(board, {"do": "draw", "pile": "rescue"})
    assert rescue.player("A").hand == (HandCard(None, "rescue"),)


def test_a_turn_draw_comes_from_the_own_deck():
    board = with_deck(replace(mid_game(), phase="draw", drawn=False), "A", Pile((None,), (SAI,)))
    done = RS.apply(board, {"seq": 1, "type": "draw", "by": "A", "card": SAI})
    assert done.player("A").hand == (HandCard(SAI, "deck"),) and done.drawn and done.phase == "draw"


def test_the_opening_draws_start_turn_one_with_the_first_player():
    board = RS.initial_board(header())
    assert board.phase == "draft"
    early = RS.apply(board, {"seq": 1, "type": "draw", "by": "A", "card": None})
    assert early.phase == "setup" and len(early.player("A").hand) == 1  # a draw ends the draft
    for i, pid in enumerate("AABB"):
        board = RS.apply(board, {"seq": i, "type": "draw", "by": pid, "card": None})
    assert (board.phase, board.turn, board.active) == ("draw", 1, "A")


def test_a_reveal_names_the_unseen_card_of_the_named_pile():
    board = with_hand(mid_game(), "A", HandCard(None, "deck"), HandCard(None, "rescue"))
    done = RS.apply(board, {"seq": 1, "type": "reveal", "by": "A", "card": PENGUIN})
    assert done.player("A").hand == (HandCard(None, "deck"), HandCard(PENGUIN, "rescue"))
    assert done.rescue == Pile(board.rescue.cards, tuple(c for c in board.rescue.pool if c != PENGUIN))
    assert done.player("A").deck == board.player("A").deck
    both = replace(board, rescue=Pile(board.rescue.cards, (*board.rescue.pool, SAI)))
    named = RS.apply(both, {"seq": 1, "type": "reveal", "by": "A", "card": SAI, "pile": "rescue"})
    assert named.player("A").hand == (HandCard(None, "deck"), HandCard(SAI, "rescue"))


def test_a_set_from_an_unseen_rescue_card_keeps_its_source():
    board = with_hand(replace(mid_game(), phase="standby"), "A", HandCard(None, "rescue"))
    done = RS.apply(board, {"seq": 1, "type": "set", "by": "A", "card": PENGUIN, "to": "b0"})
    assert done.at("b0") == Monster(PENGUIN, "A", "rescue", arrived=3)
    stray = RS.apply(board, {"seq": 1, "type": "set", "by": "A", "card": SAI, "to": "b0"})
    assert stray.at("b0") == Monster(SAI, "A", "deck", arrived=3)


def test_an_unseen_card_stands_in_only_for_a_card_its_pile_can_hold():
    board = with_hand(replace(mid_game(), phase="standby"), "A", HandCard(None, "magic"))
    done = RS.apply(board, {"seq": 1, "type": "set", "by": "A", "card": SAI, "to": "b0"})
    assert done.player("A").hand == (HandCard(None, "magic"),)
    assert done.magic == board.magic


# ---------------------------------------------------------------- modifiers, statuses, life


def test_modify_both_stats_until_a_turn():
    board = two()
    done = act(board, {"do": "modify", "square": "b1", "stat": "both", "op": "add", "amount": 300, "until": "next_turn_end"})
    assert done.at("b1").mods == (Mod("atk", "add", 300, 4), Mod("def", "add", 300, 4))
    one = act(board, {"do": "modify", "square": "b1", "stat": "def", "op": "halve"})
    assert one.at("b1").mods == (Mod("def", "halve", 0, 3),)


def test_a_permanent_atk_gain_is_kept_apart_from_the_turns_modifiers():
    board = two()
    done = act(board, {"do": "modify", "square": "b1", "stat": "atk", "op": "add", "amount": 500, "until": "permanent"})
    assert (done.at("b1").atk_bonus, done.at("b1").mods) == (500, ())
    setting = act(board, {"do": "modify", "square": "b1", "stat": "atk", "op": "set", "amount": 500, "until": "permanent"})
    assert setting.at("b1").atk_bonus == 0 and setting.at("b1").mods == (Mod("atk", "set", 500, 3),)


def test_until_the_owners_next_turn_end():
    board = mid_game({"b1": (NAN, "A", "attack"), "b3": (BAR, "B", "attack")})
    done = act(board, {"do": "status", "square": "b1", "status": "immune", "until": "owner_next_turn_end"},
               {"do": "status", "square": "b3", "status": "no_action", "until": "owner_next_turn_end"},
               {"do": "modify", "square": "b1", "stat": "atk", "op": "add", "amount": 1, "until": "owner_next_turn_end"},
               {"do": "modify", "square": "b3", "stat": "atk", "op": "add", "amount": 1, "until": "owner_next_turn_end"})
    assert done.at("b1").statuses == (("immune", 5),) and done.at("b3").statuses == (("no_action", 4),)
    assert done.at("b1").mods[0].until == 5 and done.at("b3").mods[0].until == 4
    now = act(board, {"do": "status", "square": "b1", "status": "immune", "until": "next_turn_end"},
              {"do": "status", "square": "b3", "status": "immune"})
    assert now.at("b1").statuses == (("immune", 4),) and now.at("b3").statuses == (("immune", 3),)


def test_an_extra_move_status_is_a_move_granted():
    done = act(two(), {"do": "status", "square": "b1", "status": "extra_move"})
    assert (done.at("b1").extra_moves, done.at("b1").statuses) == (1, ())


def test_lose_life_one_by_default():
    board = mid_game()
    assert act(board, {"do": "lose_life", "player": "B"}).player("B").life == 2
    assert act(board, {"do": "lose_life", "player": "B", "amount": 2}).player("B").life == 1


def test_both_lives_gone_at_once_is_a_double_life_draw():
    board = mid_game()
    board = board.with_player(replace(board.player("A"), life=1)).with_player(replace(board.player("B"), life=1))
    done = act(board, {"do": "lose_life", "player": "A"}, {"do": "lose_life", "player": "B"})
    assert (done.winner, done.reason, done.phase) == (None, "double_life", "over")
    one = act(board, {"do": "lose_life", "player": "B"})
    assert (one.winner, one.reason) == ("A", "life")


# ---------------------------------------------------------------- the turn's counters


def test_a_new_turn_clears_the_counters_and_the_expired_effects():
    board = two()
    b1 = replace(board.at("b1"), moves=1, extra_moves=1, acted=True, turned=True, lateral=2,
                 mods=(Mod("atk", "add", 1, 3), Mod("atk", "add", 2, 4)), statuses=(("immune", 3), ("no_action", 4)))
    d1 = replace(board.at("d1"), mods=(Mod("def", "add", 1, 4),), statuses=(("immune", 4),))
    board = replace(board.put("b1", b1).put("d1", d1), phase="battle", drawn=True, sortied=True, resolved=True,
                    mastered=True, used=frozenset({"move"}), fought=frozenset({"b1-b2"}))
    done = RS.apply(board, {"seq": 1, "type": "end_turn", "by": "A"})
    assert done.at("b1") == replace(b1, moves=0, extra_moves=0, acted=False, turned=False, lateral=0,
                                    mods=(Mod("atk", "add", 2, 4),), statuses=(("no_action", 4),))
    assert done.at("d1") is d1  # nothing expired, nothing to reset: kept as it is
    assert (done.drawn, done.sortied, done.resolved, done.mastered, done.used, done.fought) == (
        False, False, False, False, frozenset(), frozenset())
    quiet = replace(two(), phase="battle")
    quiet = quiet.put("b1", replace(quiet.at("b1"), acted=True))
    assert RS.apply(quiet, {"seq": 1, "type": "end_turn", "by": "A"}).at("b1").acted is False
    for counter in ("moves", "extra_moves", "turned", "lateral"):
        one = quiet.put("d1", replace(quiet.at("d1"), **{counter: 1}))
        assert getattr(RS.apply(one, {"seq": 1, "type": "end_turn", "by": "A"}).at("d1"), counter) in (0, False)


def test_a_normal_effect_marks_the_monster_a_lateral_one_spends_a_trigger():
    board = mid_game({"b1": (SHI, "A", "defence")})
    done = RS.apply(board, {"seq": 1, "type": "effect", "by": "A", "card": SHI, "square": "b1", "kind": "normal", "actions": []})
    assert done.at("b1").acted is True and "effect" in done.used
    two_sides = board.put("b1", replace(board.at("b1"), lateral=2))
    lat = RS.apply(two_sides, {"seq": 1, "type": "effect", "by": "A", "card": SHI, "square": "b1", "kind": "lateral",
                               "actions": []})
    assert (lat.at("b1").lateral, lat.at("b1").acted) == (1, False)


def test_a_granted_move_is_spent_before_the_turns_move():
    board = mid_game({"b1": (NAN, "A", "attack")}, main_actions="per_monster")
    board = board.put("b1", replace(board.at("b1"), extra_moves=2))
    first = RS.apply(board, {"seq": 1, "type": "move", "by": "A", "from": "b1", "to": "b2"})
    assert (first.at("b2").moves, first.at("b2").extra_moves) == (1, 2)  # its own move first (per_monster)
    second = RS.apply(first, {"seq": 2, "type": "move", "by": "A", "from": "b2", "to": "b3"})
    assert (second.at("b3").moves, second.at("b3").extra_moves) == (1, 1)
    per_turn = mid_game({"b1": (NAN, "A", "attack")})
    per_turn = per_turn.put("b1", replace(per_turn.at("b1"), extra_moves=1))
    done = RS.apply(per_turn, {"seq": 1, "type": "move", "by": "A", "from": "b1", "to": "b2"})
    assert (done.at("b2").moves, done.at("b2").extra_moves, "move" in done.used) == (0, 0, False)


def test_the_draft_ends_when_both_have_four_picks_and_not_before():
    board = RS.initial_board(header())
    picks = [c for pair in zip(A_PICKS, B_PICKS) for c in pair]
    for i, card in enumerate(picks):
        assert board.phase == "draft", i
        board = RS.apply(board, {"seq": i, "type": "draft", "by": "AB"[i % 2], "card": card})
    assert board.phase == "setup" and board.player("A").picks == tuple(A_PICKS)


def test_no_line_folds_after_the_result_nor_from_someone_not_playing():
    board = replace(two(), phase="over", winner="B", reason="life")
    assert RS.apply(board, {"seq": 1, "type": "move", "by": "A", "from": "b1", "to": "b2"}) is board
    live = two()
    assert RS.apply(live, {"seq": 1, "type": "move", "by": "Z", "from": "b1", "to": "b2"}) is live
    assert RS.apply(live, {"seq": 1, "type": "fly", "by": "A"}) is live


def test_a_breakthrough_is_resolved_once_per_turn():
    board = mid_game({"b3": (NAN, "A", "attack")}, phase="battle")
    done = RS.apply(board, {"seq": 1, "type": "breakthrough", "by": "A", "squares": ["b3"]})
    assert done.resolved and done.player("B").life == 2


def test_arctos_is_destroyed_past_6000_or_at_it_with_reach():
    base = replace(mid_game({"b1": (NAN, "A", "attack")}, turn=5, phase="battle"), arctos=Arctos("B", 2, damage=4200))
    done = RS.apply(base, {"seq": 1, "type": "master", "by": "A", "dice": [1, 1]})  # 4200 + 1800 = 6000
    assert done.arctos is not None and done.arctos.damage == 6000
    reach = replace(mid_game({"b1": (NAN, "A", "attack")}, turn=5, phase="battle", arctos_threshold="reach"),
                    arctos=Arctos("B", 2, damage=4200))
    assert RS.apply(reach, {"seq": 1, "type": "master", "by": "A", "dice": [1, 1]}).arctos_destroyed
    odd = replace(base, turn=4, active="B")  # no lock-on roll this turn: nothing happens
    assert RS.apply(odd, {"seq": 1, "type": "master", "by": "B", "dice": [1, 1]}).arctos == odd.arctos


def test_status_no_action_from_an_effect_is_kept_through_its_turn():
    board = status(two(), "b1", "no_action")
    assert board.at("b1").has("no_action", 3) and not board.at("b1").has("no_action", 4)


def test_arctos_damage_from_a_lock_on_counts_genchus_house_value_and_ends_past_6000():
    genchu = "ヴァリアンツの聚－幻中"
    for how in ("current", "printed"):
        board = replace(mid_game({"b1": (genchu, "A", "attack")}, turn=5, phase="battle", genchu_atk=3000,
                                 arctos_damage=how), arctos=Arctos("B", 2, damage=1000))
        done = RS.apply(board, {"seq": 1, "type": "master", "by": "A", "dice": [1, 1]})
        assert done.arctos.damage == 4000 and done.at("b1") is None
    past = replace(mid_game({"b1": (NAN, "A", "attack")}, turn=5, phase="battle"), arctos=Arctos("B", 2, damage=4201))
    assert RS.apply(past, {"seq": 1, "type": "master", "by": "A", "dice": [1, 1]}).arctos_destroyed  # 6001


def test_a_pick_outside_the_pool_still_counts_towards_the_four():
    """VW-2.2 flags a pick of a card not left in the pool; the fold counts it as recorded, so the
    draft ends after four picks each even with a card still in the pool."""
    board = RS.initial_board(header())
    picks = [c for pair in zip(A_PICKS, B_PICKS) for c in pair]
    picks[0] = NAN  # A's first pick names a monster of A's own deck
    for i, card in enumerate(picks):
        board = RS.apply(board, {"seq": i, "type": "draft", "by": "AB"[i % 2], "card": card})
    assert board.draft_pool == (A_PICKS[0],) and board.phase == "setup"


def test_vw_6_3_a_recorded_retreat_and_the_squares_after_it():
    """Both destroyed in a tie (battle_tie both): A's monster on a1 retreats to a0, B's goes to the
    bottom of B's deck; a retreat the rules do not allow is folded as a destruction."""
    board = mid_game({"a1": (NAN, "A", "attack"), "a2": (NAN, "B", "attack"), "b1": (SAI, "A", "attack")},
                     phase="battle", battle_tie="both")
    done = RS.apply(board, {"seq": 1, "type": "battle", "by": "A", "squares": ["a1", "a2"], "destroyed": ["a1", "a2"],
                            "retreat": ["a1"]})
    assert (done.at("a0"), done.at("a1"), done.at("a2")) == (replace(board.at("a1"), position=None), None, None)
    assert done.player("B").deck.cards[-1] == NAN and done.player("A").deck == board.player("A").deck
    blocked = RS.apply(board.put("a0", Monster(SHI, "A", "deck")),
                       {"seq": 1, "type": "battle", "by": "A", "squares": ["a1", "a2"], "destroyed": ["a1"],
                        "retreat": ["a1"]})
    assert blocked.at("a0").card == SHI and blocked.at("a1") is None and blocked.player("A").deck.cards[-1] == NAN
    sortie = RS.apply(board, {"seq": 1, "type": "battle", "by": "A", "squares": ["b1", "b2"], "destroyed": ["c1", "b1"],
                              "retreat": ["b1"]})  # b0 is a sortie zone: no retreat there; c1 is empty
    assert sortie.at("b0") is None and sortie.at("b1") is None and sortie.player("A").deck.cards[-1] == SAI


def test_a_breakthrough_line_skips_an_empty_square_and_goes_on():
    board = mid_game({"d3": (NAN, "A", "attack")}, phase="battle")
    done = RS.apply(board, {"seq": 1, "type": "breakthrough", "by": "A", "squares": ["b3", "d3"]})
    assert done.at("d3") is None and done.player("B").life == 2


def test_a_normal_effect_recorded_on_the_wrong_square_still_ends_the_standby_phase():
    board = replace(mid_game({"b1": (SHI, "A", "attack")}), phase="standby")
    wrong = RS.apply(board, {"seq": 1, "type": "effect", "by": "A", "card": SHI, "square": "d1", "kind": "normal",
                             "actions": []})
    assert wrong.phase == "main" and "effect" in wrong.used
    lateral = RS.apply(board, {"seq": 1, "type": "effect", "by": "A", "card": SHI, "square": "d1", "kind": "lateral",
                               "actions": []})
    assert lateral.phase == "standby"
