"""One test (or more) per rule id of docs/rules/variants-war.md, legal and illegal."""

from __future__ import annotations

from dataclasses import replace

from tests.variants_war.helpers import (
    A_PICKS,
    B_PICKS,
    HYAKU,
    RS,
    SHINRA,
    fold,
    header,
    mid_game,
    rules_of,
)

NAN, HOJ, GEN = SHINRA[2], SHINRA[3], SHINRA[4]
BAR, DUK, GD = HYAKU[0], HYAKU[3], HYAKU[4]
DORA, REP = "銅鑼ドラゴン", "レプティアの武者騎兵"


def check(board, move):  # type: ignore[no-untyped-def]
    return rules_of(RS.check(board, {"seq": 1, **move}))


# --- VW-2 setup ------------------------------------------------------------------------------
def test_vw_2_2_draft_alternates_four_each() -> None:
    picks = [{"type": "draft", "by": by, "card": c} for by, c in zip("ABABABAB", A_PICKS[:1] + B_PICKS[:1] + A_PICKS[1:2] + B_PICKS[1:2] + A_PICKS[2:3] + B_PICKS[2:3] + A_PICKS[3:] + B_PICKS[3:])]
    board, found = fold(picks)
    assert found == [] and board.phase == "setup"
    assert len(board.player("A").deck.cards) == 8 and board.player("A").ex == (GEN,)
    _, found = fold([{"type": "draft", "by": "A", "card": REP}, {"type": "draft", "by": "A", "card": DORA}])
    assert rules_of(found) == ["VW-2.2"]
    _, found = fold([{"type": "draft", "by": "A", "card": REP}, {"type": "draft", "by": "B", "card": REP}])
    assert rules_of(found) == ["VW-2.2"]
    _, found = fold([{"type": "draft", "by": "A", "card": NAN}])
    assert rules_of(found) == ["VW-2.2"]


def test_vw_2_5_opening_hand_two_then_turn_one() -> None:
    draws = [{"type": "draw", "by": p, "card": None} for p in "AABB"]
    board, found = fold(draws, head=header(drafted=True))
    assert found == [] and board.turn == 1 and board.active == "A"
    assert [len(p.hand) for p in board.players] == [2, 2] and board.player("A").life == 3
    _, found = fold([{"type": "draw", "by": "A", "card": None}] * 3, head=header(drafted=True))
    assert rules_of(found) == ["VW-2.5"]


# --- VW-3 turn flow --------------------------------------------------------------------------
def test_vw_3_2_only_the_turn_player() -> None:
    board = mid_game({"b1": (NAN, "B", "attack")})
    assert check(board, {"type": "move", "by": "B", "from": "b1", "to": "b2"}) == ["VW-3.2"]


def test_vw_3_1_phase_order() -> None:
    board = mid_game(phase="main", hand={"A": [REP]})
    assert "VW-3.1" in check(board, {"type": "set", "by": "A", "card": REP, "to": "b0"})


def test_vw_3_3_draw_once_and_skip_on_empty_deck() -> None:
    board = replace(mid_game(phase="draw"), drawn=False)
    assert check(board, {"type": "end_turn", "by": "A"}) == ["VW-3.3"]
    assert check(board, {"type": "draw", "by": "A", "card": None}) == []
    drawn = RS.apply(board, {"seq": 1, "type": "draw", "by": "A", "card": None})
    assert check(drawn, {"type": "draw", "by": "A", "card": None}) == ["VW-3.3"]
    p = board.player("A")
    empty = board.with_player(replace(p, deck=replace(p.deck, cards=(), pool=())))
    assert check(empty, {"type": "end_turn", "by": "A"}) == []
    assert check(empty, {"type": "draw", "by": "A", "card": None}) == ["VW-3.3"]


def test_vw_3_3_house_rule_first_turn_draw() -> None:
    board = replace(mid_game(phase="draw", turn=1, first_turn_draw=False), drawn=False)
    assert check(board, {"type": "end_turn", "by": "A"}) == []
    assert check(board, {"type": "draw", "by": "A", "card": None}) == ["VW-3.3"]


def test_vw_3_4_unknown_card_then_reveal_keeps_counts() -> None:
    board = replace(mid_game(phase="draw"), drawn=False)
    board = RS.apply(board, {"seq": 1, "type": "draw", "by": "A", "card": None})
    assert len(board.player("A").hand) == 1 and board.player("A").hand[0].card is None
    assert check(board, {"type": "reveal", "by": "A", "card": DUK}) == ["VW-3.4"]
    assert check(board, {"type": "reveal", "by": "A", "card": NAN}) == []
    after = RS.apply(board, {"seq": 2, "type": "reveal", "by": "A", "card": NAN})
    assert after.player("A").hand[0].card == NAN and len(after.player("A").deck.cards) == 7
    assert NAN not in after.player("A").deck.pool
    assert check(replace(mid_game(phase="draw"), drawn=False), {"type": "draw", "by": "A", "card": DUK}) == ["VW-3.4"]


def test_playing_an_unseen_card_reveals_it() -> None:
    board = replace(mid_game(phase="draw"), drawn=False)
    board = RS.apply(board, {"seq": 1, "type": "draw", "by": "A", "card": None})
    move = {"type": "set", "by": "A", "card": HOJ, "to": "b0"}
    assert check(board, move) == []
    after = RS.apply(board, {"seq": 2, **move})
    assert after.at("b0").card == HOJ and after.player("A").hand == () and HOJ not in after.player("A").deck.pool


# --- VW-4 standby ----------------------------------------------------------------------------
def test_vw_4_1_set_one_monster_into_own_empty_sortie_zone() -> None:
    board = mid_game(phase="standby", hand={"A": [NAN, HOJ]})
    assert check(board, {"type": "set", "by": "A", "card": NAN, "to": "d0"}) == []
    assert check(board, {"type": "set", "by": "A", "card": NAN, "to": "a0"}) == ["VW-4.1"]
    assert check(board, {"type": "set", "by": "A", "card": NAN, "to": "b4"}) == ["VW-4.1"]
    board = RS.apply(board, {"seq": 1, "type": "set", "by": "A", "card": NAN, "to": "d0"})
    assert board.at("d0").position is None
    assert check(board, {"type": "set", "by": "A", "card": HOJ, "to": "b0"}) == ["VW-4.1"]
    assert "VW-3.4" in check(mid_game(phase="standby"), {"type": "set", "by": "A", "card": NAN, "to": "b0"})


def test_vw_4_2_magic_returns_to_bottom_of_magic_deck() -> None:
    board = mid_game({"b1": (NAN, "A", "attack")}, phase="standby", hand={"A": ["破天荒な風"]})
    move = {"type": "magic", "by": "A", "card": "破天荒な風",
            "actions": [{"do": "modify", "square": "b1", "stat": "both", "op": "add", "amount": 1000}]}
    assert check(board, move) == []
    after = RS.apply(board, {"seq": 1, **move})
    assert after.magic.cards[-1] == "破天荒な風" and after.player("A").hand == ()
    assert RS.board_json(after)["monsters"][0]["atk"] == 2800
    ended = RS.apply(after, {"seq": 2, "type": "end_turn", "by": "A"})
    assert RS.board_json(ended)["monsters"][0]["atk"] == 1800
    assert check(mid_game(hand={"A": [NAN]}, phase="standby"), {"type": "magic", "by": "A", "card": NAN}) == ["VW-4.2"]
