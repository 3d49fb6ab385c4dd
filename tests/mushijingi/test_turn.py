"""Setup (MJ-2) and the turn: draw, set phase, cost, main phase, turn end (MJ-3, MJ-4.1)."""

from __future__ import annotations

from dataclasses import replace

from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import fold, header, insect, main_board, one, rules_of, started


def test_setup_makes_territory_and_opening_hand():
    board = R.initial_board(header())
    assert board.phase == "setup"
    board, found = fold(
        board, [{"type": "setup", "by": "A", "hand": ["カブトムシ"]}, {"type": "setup", "by": "B"}]
    )
    assert not found
    a = R.board_json(board)["players"]["A"]
    assert (a["territory"], a["deck"], a["hand"]) == (6, 10, ["カブトムシ", None, None, None])
    assert (board.turn, board.active, board.phase) == (1, "A", "set")


def test_setup_twice_and_moves_before_setup():
    board = R.initial_board(header())
    _, found = one(board, {"type": "draw", "by": "A"})
    assert found == ["MJ-2.3"]
    board, _ = one(board, {"type": "setup", "by": "A"})
    _, found = one(board, {"type": "setup", "by": "A"})
    assert found == ["MJ-2.3"]


def test_no_mulligan_opening_hand_is_four():
    board = R.initial_board(header())
    _, found = one(board, {"type": "setup", "by": "A", "hand": [None] * 5})
    assert found == ["MJ-2.2"]


def test_first_player_does_not_draw_on_turn_one():
    _, found = one(started(), {"type": "draw", "by": "A"})
    assert found == ["MJ-3.2"]


def test_second_player_draws_and_only_once():
    board, found = fold(
        started(),
        [
            {"type": "end_turn", "by": "A"},
            {"type": "draw", "by": "B", "card": "タガメ"},
            {"type": "draw", "by": "B"},
        ],
    )
    assert rules_of(found) == ["MJ-3.2"]
    assert board.side("B").deck == 8 and board.side("B").hand[-2:] == ("タガメ", None)


def test_missing_draw_is_flagged_once():
    _board, found = fold(
        started(),
        [
            {"type": "end_turn", "by": "A"},
            {"type": "set", "by": "B", "card": "タガメ"},
            {"type": "end_turn", "by": "B"},
        ],
    )
    assert rules_of(found) == ["MJ-3.2"]


def test_only_the_active_player_acts():
    _, found = one(started(), {"type": "set", "by": "B", "card": "タガメ"})
    assert "MJ-3.1" in found


def test_set_phase_one_card_then_main_with_cost():
    board = started(hand_a=["羽化", "オオカマキリ", "カブトムシ", None])
    board, found = fold(
        board,
        [
            {"type": "set", "by": "A", "card": "羽化"},
            {"type": "set", "by": "A", "card": "カブトムシ"},
        ],
    )
    assert rules_of(found) == ["MJ-3.3"]
    assert board.phase == "main" and board.cost == 1


def test_set_after_main_started_is_flagged():
    board = started(hand_a=["オオカマキリ", "ナナホシテントウ", "羽化", None])
    board, found = fold(
        board,
        [
            {"type": "play", "by": "A", "card": "ナナホシテントウ"},
            {"type": "set", "by": "A", "card": "羽化"},
        ],
    )
    assert rules_of(found) == ["MJ-3.3"]


def test_card_must_be_in_hand():
    board = started(hand_a=["羽化", "オオカマキリ", "カブトムシ", "闘志"])
    _, found = one(board, {"type": "set", "by": "A", "card": "タガメ"})
    assert "MJ-3.7" in found
    # an unknown (null) card in hand may turn out to be anything in the deck
    board = started(hand_a=["羽化", None])
    board, found = one(board, {"type": "set", "by": "A", "card": "闘志"})
    assert found == [] and board.side("A").hand.count(None) == 2


def test_over_spending_cost():
    board = started(hand_a=["羽化", "カブトムシ", "オオカマキリ", None])
    board, found = fold(
        board,
        [
            {"type": "set", "by": "A", "card": "羽化"},
            {"type": "play", "by": "A", "card": "カブトムシ"},
        ],
    )
    assert rules_of(found) == ["MJ-3.5"]
    assert found[0].expected == {"cost": 1, "spent": 0, "left": 1, "card_cost": 2}


def test_cost_is_fixed_at_main_start_and_spent_across_plays():
    board = started(hand_a=["羽化", "オオカマキリ", "ナナホシテントウ", "オオカマキリ"])
    board, found = fold(
        board,
        [
            {"type": "set", "by": "A", "card": "羽化"},
            {"type": "play", "by": "A", "card": "オオカマキリ"},
            {"type": "play", "by": "A", "card": "ナナホシテントウ"},
            {"type": "play", "by": "A", "card": "オオカマキリ"},
        ],
    )
    assert rules_of(found) == ["MJ-3.5"]


def test_removing_feed_does_not_lower_cost():
    board = started(hand_a=["羽化", "ミヤマクワガタ", None, None])
    board = board.with_side(replace(board.side("A"), feed=("闘志", "羽化")))
    board, _ = one(board, {"type": "set", "by": "A", "card": "羽化"})
    assert board.cost == 3
    # some card text sends two feed cards away (which card is beside the point here)
    board, _ = one(
        board,
        {
            "type": "effect",
            "by": "B",
            "card": "大嵐",
            "player": "A",
            "feed_discard": ["闘志", "羽化"],
        },
    )
    assert board.side("A").feed == ("羽化",)
    board, found = one(board, {"type": "play", "by": "A", "card": "ミヤマクワガタ"})
    assert found == [] and board.cost == 3 and board.spent == 3


def test_no_summoning_sickness_and_no_colour_restriction():
    board = started(hand_a=["羽化", "オオカマキリ", None, None])
    board, found = fold(
        board,
        [
            {"type": "set", "by": "A", "card": "羽化"},
            {"type": "play", "by": "A", "card": "オオカマキリ"},
            {
                "type": "attack",
                "by": "A",
                "attacker": "A1",
                "technique": "かまできる",
                "target": "player",
            },
        ],
    )
    assert found == []  # a green insect from a feed holding only a (green) spell, attacking at once
    board = main_board(cost=3, hand_a=["ミヤマクワガタ"])
    assert one(board, {"type": "play", "by": "A", "card": "ミヤマクワガタ"})[1] == []


def test_unlimited_insects_on_the_field():
    board = main_board(a=["ナナホシテントウ"] * 30, cost=0, hand_a=["ナナホシテントウ"])
    board, found = one(board, {"type": "play", "by": "A", "card": "ナナホシテントウ"})
    assert rules_of_copies(found) == [] and len(board.field) == 31


def rules_of_copies(found):
    return [r for r in found if r not in ("MJ-1.2", "MJ-1.3")]


def test_turn_end_clears_damage_boosts_and_attacks():
    board = main_board(a=["ヘラクレスオオカブト"], b=["ヘラクレスオオカブト"])
    board, _found = fold(
        board,
        [
            {
                "type": "attack",
                "by": "A",
                "attacker": "A1",
                "technique": "つのなげ",
                "target": "B1",
            },
            {"type": "effect", "by": "A", "card": "ヘラクレスオオカブト", "boost": {"A1": 300}},
        ],
    )
    assert insect(board, "B1").damage == 1200 and insect(board, "A1").attacked
    board, _ = one(board, {"type": "end_turn", "by": "A"})
    assert insect(board, "B1").damage == 0 and insect(board, "A1").boost == 0
    assert not insect(board, "A1").attacked
    assert (board.active, board.turn, board.phase) == ("B", 2, "draw")
