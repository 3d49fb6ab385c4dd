"""Names the match does not have (issue 15 part 4): ``moves.name_errors`` refuses a card or player
name that cannot be right here, offering the closest; a name of this match used wrongly stays a
rule violation for ``check``."""

from __future__ import annotations

from typing import Any

from projections.base import FieldError
from projections.variants_war.moves import match_cards, name_errors
from tests.variants_war.helpers import HYAKU, RS, SHINRA, header, mid_game

SHI, SAI, NAN, HOJ, GEN = SHINRA
BAR, VAI, MAR, DUK, GD = HYAKU


def errors(move: dict[str, Any], board: Any = None) -> list[FieldError]:
    return name_errors(board if board is not None else mid_game(hand={"A": [NAN]}), {"seq": 1, **move})


def test_a_typo_in_a_card_name() -> None:
    assert errors({"type": "set", "by": "A", "card": "ヴァリアンツの忍者－南日", "to": "b0"}) == [
        FieldError("card", "'ヴァリアンツの忍者－南日' is not a card of this match; did you mean 'ヴァリアンツの忍者－南月'?")]


def test_a_short_name_is_offered_the_full_one() -> None:
    (err,) = errors({"type": "draw", "by": "A", "card": "南月"})
    assert err.field == "card" and "did you mean 'ヴァリアンツの忍者－南月'?" in err.problem


def test_a_card_of_another_game_has_no_suggestion() -> None:
    assert errors({"type": "reveal", "by": "A", "card": "ギダソ"}) == [
        FieldError("card", "'ギダソ' is not a card of this match")]


def test_draft_magic_and_effect_cards() -> None:
    board = RS.initial_board(header())
    (err,) = name_errors(board, {"seq": 1, "type": "draft", "by": "A", "card": "銅鑼ドラゴソ"})
    assert err == FieldError("card", "'銅鑼ドラゴソ' is not a card of this match; did you mean '銅鑼ドラゴン'?")
    (err,) = errors({"type": "magic", "by": "A", "card": "破天荒な嵐"})
    assert "did you mean '破天荒な風'?" in err.problem
    (err,) = errors({"type": "effect", "by": "A", "card": "ヴァリアンツの巫女－東雲雲", "square": "b1", "kind": "normal"})
    assert err.field == "card" and "'ヴァリアンツの巫女－東雲'" in err.problem


def test_cards_inside_actions() -> None:
    move = {"type": "effect", "by": "B", "card": DUK, "square": "d3", "kind": "normal",
            "actions": [{"do": "to_deck", "square": "d3"}, {"do": "summon", "card": "グランデューク", "to": "d3"},
                        {"do": "draw", "pile": "rescue", "card": "破壊竜ガンドラ"},
                        {"do": "place", "card": "ヴァリアンツＶ－ヴァイカソト", "to": "b4"},
                        {"do": "return", "card": "謎のカード", "pile": "deck"}]}
    found = errors(move, mid_game(turn=4, active="B"))
    assert [e.field for e in found] == ["actions[1].card", "actions[3].card", "actions[4].card"]
    assert f"did you mean '{GD}'?" in found[0].problem and f"'{VAI}'" in found[1].problem
    assert found[2].problem == "'謎のカード' is not a card of this match"


def test_players_by_id_name_or_typo() -> None:
    assert errors({"type": "end_turn", "by": "山田"}) == [
        FieldError("by", "'山田' is not a player of this match; did you mean 'A' (山田)?")]
    assert errors({"type": "end_turn", "by": "Z"}) == [FieldError("by", "'Z' is not a player of this match")]
    move = {"type": "magic", "by": "A", "card": "機雷化", "actions": [{"do": "lose_life", "player": "C", "amount": 1}]}
    (err,) = errors(move)
    assert err.field == "actions[0].player" and err.problem.startswith("'C' is not a player of this match")


def test_names_of_this_match_pass_even_where_the_rules_refuse_them() -> None:
    board = mid_game(hand={"A": [NAN]}, phase="standby")
    wrong = {"seq": 1, "type": "set", "by": "A", "card": BAR, "to": "b0"}  # 佐藤's card, not in 山田's hand
    assert name_errors(board, wrong) == []
    assert [v.rule for v in RS.check(board, wrong)] == ["VW-3.4"]
    null_draw = {"seq": 1, "type": "draw", "by": "A", "card": None}
    assert name_errors(board, null_draw) == []


def test_the_match_has_both_decks_the_enhancements_and_the_shared_decks() -> None:
    cards = match_cards(mid_game())
    assert len(cards) == 38 and GEN in cards and GD in cards and "深き森の長老" in cards and "ヒーローハート" in cards


def test_every_example_line_has_only_names_of_its_match() -> None:
    from tests.variants_war.helpers import load_example

    head, events = load_example()
    board = RS.initial_board(head)
    for e in events:
        if e["type"] == "annotate":
            continue
        assert name_errors(board, e) == [], e
        board = RS.apply(board, e)
