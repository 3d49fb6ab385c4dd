"""Issue 18: what a judge reads when a battle (GL-7.4, GL-7.5, GL-7.7, GL-3.1), an equip (GL-5.2,
GL-5.3, GL-5.4, GL-9.1, GL-10.1) or a sprung trap (GL-8.5, GL-10.4) is refused — the exact text,
`expected` and `suggest` — each beside the same move made legally; and, in a mirror match where
both players field a グレン, that a bare figure name means the mover's own."""

from __future__ import annotations

from typing import Any

from projections.gurren_lagann import RULESET as R

from .helpers import HAND_A, DECKS, fold, header, opening
from .test_rules import BATTLE, SETUP, dp, draw, end, put, skill

H = header()
BOOMERANG = {"type": "equip", "by": "A", "card": "グレンブーメラン", "target": "グレン"}


def said(moves: list[dict[str, Any]], move: dict[str, Any], hdr: dict[str, Any] = H) -> list[tuple[Any, ...]]:
    """(rule, message, expected, suggest) of each violation of ``move`` after the legal ``moves``."""
    board, found = fold(hdr, moves)
    assert found == [], found
    return [(v.rule, v.message, v.expected, v.suggest) for v in R.check(board, {"seq": 99, **move})]


# ---------------------------------------------------------------- battles (GL-7)


def test_gl_7_7_a_battle_line_without_a_battle_says_so():
    assert said(SETUP, {"type": "battle", "by": "A", "attack": 3, "defend": 4}) == [
        ("GL-7.7", "no battle is in progress", None, None)
    ]
    assert said(BATTLE, {"type": "battle", "by": "A", "attack": 3, "defend": 4}) == []


def test_gl_3_1_the_defender_does_not_record_the_battle():
    assert said(BATTLE, {"type": "battle", "by": "B", "attack": 3, "defend": 4}) == [
        ("GL-3.1", "the attacker A records the battle", None, None)
    ]


def test_gl_7_4_an_outcome_against_the_powers_names_the_right_one():
    # グレン (3) attacks エンキ (4): the attacker loses
    assert said(BATTLE, {"type": "battle", "by": "A", "attack": 3, "defend": 4, "outcome": "attacker"}) == [
        ("GL-7.4", "power 3 against 4 means outcome defender, not attacker", {"outcome": "defender"}, None)
    ]
    assert said(BATTLE, {"type": "battle", "by": "A", "attack": 3, "defend": 4, "outcome": "defender"}) == []


def test_gl_7_5_powers_against_the_cards_suggest_the_computed_battle():
    computed = {"attack": 3, "defend": 4, "outcome": "defender"}
    assert said(BATTLE, {"type": "battle", "by": "A", "attack": 5, "defend": 4}) == [
        (
            "GL-7.5",
            "recorded power 5–4, the cards say 3–4 (record skill/effect power to explain)",
            computed,
            ({"type": "battle", "by": "A", **computed},),
        )
    ]


# ---------------------------------------------------------------- a mirror match


def mirror() -> dict[str, Any]:
    """Both players bring 大グレン団: each has a グレン of their own."""
    hdr = header()
    deck = DECKS["大グレン団"]
    hdr["players"][1]["deck"] = {"name": "大グレン団", "archetype": deck["archetype"],
                                 "cards": list(deck["cards"]), "stock": list(deck["stock"])}
    return hdr


# B's グレン (with カミナ: power 5) reaches the field on turn 2 and stands on d3; A's (power 3)
# comes on turn 3
MIRROR = [
    {"type": "reveal", "by": "A", "cards": list(HAND_A)},
    {"type": "reveal", "by": "B", "cards": list(HAND_A)},
    dp("A", "ラガン", "b1"),
    end("A"),
    draw("B", "シモン"),
    dp("B", "グレン", "d6"),
    {"type": "support", "by": "B", "card": "カミナ", "target": "グレン"},
    put("B", "グレン", "d3"),
    end("B"),
    draw("A", "グレンラガン"),
    dp("A", "グレン", "d1"),
]


def test_gl_5_2_a_bare_figure_name_is_the_equipping_players_own():
    hdr = mirror()
    assert R.validate_header(hdr) == []
    assert said(MIRROR, BOOMERANG, hdr) == []
    assert said(MIRROR, {**BOOMERANG, "target": "B:グレン"}, hdr) == [
        ("GL-5.2", "B:グレン is not A's figure on the field", None, None)
    ]


def test_gl_7_5_the_attackers_power_is_their_own_figures_in_a_mirror_match():
    hdr = mirror()
    battle = [*MIRROR, {"type": "effect", "by": "A", "card": "グレン", "readied": ["グレン"]},
              {"type": "move", "by": "A", "figures": ["グレン"], "path": ["d1", "d2", "d3"]}]
    assert said(battle, {"type": "battle", "by": "A", "attack": 3, "defend": 5}, hdr) == []
    assert [r for r, *_ in said(battle, {"type": "battle", "by": "A", "attack": 5, "defend": 5}, hdr)] == ["GL-7.5"]


# ---------------------------------------------------------------- equip (GL-5)


def test_gl_5_4_an_item_on_a_figure_it_does_not_fit_names_the_figures_it_does():
    assert said(SETUP, {**BOOMERANG, "target": "ラガン"}) == [
        ("GL-5.4", "グレンブーメラン may be equipped only to グレン, グレンラガン",
         {"targets": ["グレン", "グレンラガン"]}, None)
    ]
    assert said(SETUP, BOOMERANG) == []


def test_gl_5_2_an_enemy_target_is_refused_with_its_name():
    assert said(SETUP, {**BOOMERANG, "target": "B:エンキ"}) == [
        ("GL-5.2", "B:エンキ is not A's figure on the field", None, None)
    ]


def test_gl_3_1_an_equip_out_of_turn_is_refused_even_with_the_right_card():
    before_a = SETUP[:-2]  # B's turn 2, B has drawn
    assert said(before_a, BOOMERANG) == [("GL-3.1", "it is B's turn", {"active": "B"}, None)]


def test_gl_9_1_a_second_boomerang_while_the_first_is_on_the_field():
    again = [*SETUP, BOOMERANG, {"type": "effect", "by": "A", "card": "グレン", "drew": ["グレンブーメラン"]}]
    assert said(again, BOOMERANG) == [
        ("GL-5.2", "the item figure グレンブーメラン is not in A's stock", None, None),
        ("GL-5.3", "グレン already carries グレンブーメラン (one item per character)", None, None),
        ("GL-9.1", "グレンブーメラン is already on A's field (自軍ユニーク)", None, None),
    ]


def test_gl_5_2_the_second_player_equips_from_their_own_hand_and_stock():
    # B holds エンキソード and has its figure in stock; A has neither
    b_turn = [*opening(), end("A"), draw("B", "エンキソード"), dp("B", "エンキ", "d6")]
    sword = {"type": "equip", "by": "B", "card": "エンキソード", "target": "エンキ"}
    assert said(b_turn, sword) == []
    without = [*opening(), end("A"), draw("B", "螺旋王の命令"), dp("B", "エンキ", "d6")]
    assert said(without, sword) == [
        ("GL-10.1", "エンキソード is not in B's hand", {"hand": ["ビャコウ", "ガンメン", "ヴィラル", "獣人の誇り", "待ち伏せ", "螺旋王の命令"]}, None)
    ]


# ---------------------------------------------------------------- traps (GL-8.5, GL-10.4)

B_TURN = [*opening(), end("A"), draw("B", "螺旋王の命令"), dp("B", "エンキ", "d6")]


def test_gl_8_5_springing_a_trap_never_set_names_it():
    assert said(B_TURN, {"type": "trap", "by": "B", "card": "待ち伏せ"}) == [AMBUSH_NOT_ATTACKED, (
        "GL-8.5", "B has no set 【罠】 card 待ち伏せ to spring", None, None)
    ]
    assert said(B_TURN, {"type": "trap", "by": "B", "card": None}) == [
        ("GL-8.5", "B has no set 【罠】 card  to spring", None, None)
    ]
    assert said([*B_TURN, skill("B", "待ち伏せ", set=True)], {"type": "trap", "by": "B", "card": "待ち伏せ"}) == [
        AMBUSH_NOT_ATTACKED
    ]


AMBUSH_NOT_ATTACKED = ("GL-8.8", "待ち伏せ springs 「相手のフィギュアがバトルを仕掛けた時」: only in a battle B defends", None, None)


def _unseen_trap(known_ambushes: int) -> list[dict[str, Any]]:
    """B's hand shows ``known_ambushes`` × 待ち伏せ, then B sets a card nobody saw."""
    return [
        {"type": "reveal", "by": "B", "cards": ["エンキ", *["待ち伏せ"] * known_ambushes]},
        end("A"),
        draw("B"),
        dp("B", "エンキ", "d6"),
        skill("B", None, set=True),
    ]


def test_gl_10_4_an_unseen_trap_sprung_as_a_fourth_copy():
    ambush = {"type": "trap", "by": "B", "card": "待ち伏せ"}
    assert said(_unseen_trap(2), ambush) == [AMBUSH_NOT_ATTACKED]
    assert said(_unseen_trap(3), ambush) == [
        AMBUSH_NOT_ATTACKED, ("GL-10.4", "B would hold 4 × 待ち伏せ; the deck has 3", None, None)
    ]
