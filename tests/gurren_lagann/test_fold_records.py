"""Issue 18: the fold (``apply``) shows the board the record says — items coming back to stock
(GL-7.6), a replaced item, a recorded figure, a recorded outcome (GL-7.4), a battle whose
attacker a card text removed, invasion damage after a won battle (GL-6.8, GL-H5, GL-H6),
readied / exhausted figures, and bonuses from traps (GL-8.5) — each with the rule beside it."""

from __future__ import annotations

from typing import Any

from projections.gurren_lagann import RULESET as R
from projections.gurren_lagann.check import expected_battle

from .helpers import fold, header, rules_of
from .test_refusal_texts import MIRROR, mirror
from .test_rules import BATTLE, SETUP, dp, draw, end, mv, put, skill

H = header()
BOOMERANG = {"type": "equip", "by": "A", "card": "グレンブーメラン", "target": "グレン"}
READY_GUREN = {"type": "effect", "by": "A", "card": "グレン", "readied": ["グレン"]}


def board_after(moves: list[dict[str, Any]], hdr: dict[str, Any] = H) -> Any:
    board, _ = fold(hdr, moves)
    return board


def unit(board: Any, owner: str, figure: str) -> Any:
    (u,) = [u for u in board.units if u.owner == owner and u.figure == figure]
    return u


def side(board: Any, pid: str) -> Any:
    return next(s for s in board.sides if s.id == pid)


# ---------------------------------------------------------------- GL-7.6: the loser's cards and figures


def test_gl_7_6_a_beaten_figure_takes_its_item_figure_back_to_stock():
    # グレン (3) + グレンブーメラン (2) attacks エンキ (4) and wins 5–4; then loses the next one
    armed = [*BATTLE[:-1], BOOMERANG, mv("A", ["グレン"], "d1", "d2", "d3")]
    board, found = fold(H, [*armed, {"type": "battle", "by": "A", "attack": 3, "defend": 4, "outcome": "defender"}])
    assert "GL-7.5" in rules_of(found)  # 5 was the power: the recorded 3 is flagged, and folded as recorded
    a = side(board, "A")
    assert {"グレン", "グレンブーメラン"} <= set(a.stock)
    assert a.discard[-2:] == ("グレン", "グレンブーメラン")
    assert [u.figure for u in board.units if u.owner == "A"] == ["ラガン"]


def test_gl_7_6_a_figure_without_an_item_leaves_only_its_cards_in_the_discard_pile():
    board = board_after([*BATTLE, {"type": "battle", "by": "A", "attack": 3, "defend": 4}])
    assert side(board, "A").discard == ("グレン",)


# ---------------------------------------------------------------- equip (GL-5)


def test_gl_5_3_a_replaced_item_goes_back_like_a_destroyed_one():
    """ギガドリル recorded onto a グレン that carries a グレンブーメラン (flagged GL-5.3, GL-5.4): the
    fold keeps the record — the new item is on, the old card discarded, its figure in stock."""
    moves = [*SETUP, BOOMERANG, {"type": "effect", "by": "A", "card": "グレン", "drew": ["ギガドリル"]},
             {"type": "equip", "by": "A", "card": "ギガドリル", "target": "グレン"}]
    board, found = fold(H, moves)
    assert rules_of(found) == ["GL-5.3", "GL-5.4"]
    g = unit(board, "A", "グレン")
    assert (g.item, g.item_figure) == ("ギガドリル", "ギガドリル")
    a = side(board, "A")
    assert "グレンブーメラン" in a.stock and "ギガドリル" not in a.stock
    assert a.discard == ("グレンブーメラン",)


def test_gl_5_2_the_second_player_equips_from_their_own_stock():
    moves = [*SETUP[:-5], draw("B", "エンキソード"), dp("B", "エンキ", "d6"),
             {"type": "equip", "by": "B", "card": "エンキソード", "target": "エンキ"}]
    board, found = fold(H, moves)
    assert found == []
    assert "エンキソード" not in side(board, "B").stock
    assert unit(board, "B", "エンキ").item == "エンキソード"
    # a second sword over the first (GL-5.3): the first goes to B's discard pile, not A's
    board, found = fold(H, [*moves, {"type": "effect", "by": "B", "card": "エンキ", "drew": ["エンキソード"]},
                            {"type": "equip", "by": "B", "card": "エンキソード", "target": "エンキ"}])
    assert rules_of(found) == ["GL-5.2", "GL-5.3", "GL-9.1"]
    assert side(board, "B").discard == ("エンキソード",) and side(board, "A").discard == ()


def test_gl_5_2_a_recorded_item_figure_is_the_one_that_leaves_stock():
    board = board_after([*SETUP, {**BOOMERANG, "figure": "ギガドリル"}])
    assert unit(board, "A", "グレン").item_figure == "ギガドリル"
    assert "ギガドリル" not in side(board, "A").stock and "グレンブーメラン" in side(board, "A").stock


def test_gl_1_7_an_item_not_in_the_catalog_still_folds():
    board, found = fold(H, [*SETUP, {**BOOMERANG, "card": "超銀河ブーメラン"}])
    assert rules_of(found) == ["GL-10.1", "GL-1.7"]
    assert unit(board, "A", "グレン").item_figure == "超銀河ブーメラン"


def test_gl_5_2_in_a_mirror_match_the_item_goes_on_the_equipping_players_figure():
    board = board_after([*MIRROR, BOOMERANG], mirror())
    assert unit(board, "A", "グレン").item == "グレンブーメラン"
    assert unit(board, "B", "グレン").item is None


# ---------------------------------------------------------------- battles (GL-7)


def test_gl_7_4_the_recorded_outcome_is_folded_even_against_the_powers():
    board, found = fold(H, [*BATTLE, {"type": "battle", "by": "A", "attack": 3, "defend": 4, "outcome": "attacker"}])
    assert rules_of(found) == ["GL-7.4"]
    assert [(u.owner, u.figure, u.square) for u in board.units if u.square == "d3"] == [("A", "グレン", "d3")]
    assert "エンキ" in side(board, "B").stock


MIRROR_BATTLE = [*MIRROR, READY_GUREN, mv("A", ["グレン"], "d1", "d2", "d3")]


def test_gl_7_6_in_a_mirror_match_the_attackers_are_the_attacking_players():
    board, found = fold(mirror(), [*MIRROR_BATTLE, {"type": "battle", "by": "A", "attack": 3, "defend": 5}])
    assert found == []
    assert [(u.owner, u.figure) for u in board.units if u.figure == "グレン"] == [("B", "グレン")]
    assert "グレン" in side(board, "A").stock


def test_gl_7_6_an_attacker_a_card_text_destroyed_takes_nobody_with_it():
    """B's text destroys the attacking グレン mid-battle; the battle then ends with no attacker:
    B's own グレン, the defender, stays."""
    gone = {"type": "effect", "by": "B", "card": "カミナ", "destroyed": ["グレン"]}
    board = board_after([*MIRROR_BATTLE, gone, {"type": "battle", "by": "A", "attack": 0, "defend": 5}], mirror())
    assert [(u.owner, u.figure, u.square) for u in board.units if u.figure == "グレン"] == [("B", "グレン", "d3")]
    assert board.battle is None


def test_gl_7_6_the_winners_are_acted_even_with_split_movement():
    """GL-H2 split_movement keeps a figure that moved one square 未行動; winning a battle ends its
    action (GL-7.6)."""
    hdr = header({"split_movement": True})
    moves = [*SETUP, put("B", "エンキ", "d2"), mv("A", ["グレン"], "d1", "d2")]
    assert unit(board_after(moves, hdr), "A", "グレン").acted is False
    board = board_after([*moves, {"type": "battle", "by": "A", "attack": 5, "defend": 4}], hdr)
    g = unit(board, "A", "グレン")
    assert (g.square, g.acted) == ("d2", True)


def test_gl_6_8_no_invasion_damage_for_a_battle_won_in_your_own_zone():
    # ラガン steps back from b2 into its own deploy zone onto a ガンメン there, and wins
    moves = [*SETUP, put("A", "ラガン", "b2"), put("B", "ガンメン", "b1"), mv("A", ["ラガン"], "b2", "b1"),
             {"type": "battle", "by": "A", "attack": 2, "defend": 1}]
    board, found = fold(H, moves)
    assert found == []
    assert unit(board, "A", "ラガン").square == "b1"
    assert [s.damage for s in board.sides] == [0, 0]


def test_gl_h6_per_figure_after_a_won_battle_in_the_headquarters():
    """GL-6.8: a won battle on the enemy 本陣 completes the move: 2 damage; GL-H6 per_figure
    multiplies by the attacking figures (one here)."""
    moves = [*SETUP, put("A", "グレン", "c5"), READY_GUREN, put("B", "ガンメン", "c6"), mv("A", ["グレン"], "c5", "c6"),
             {"type": "battle", "by": "A", "attack": 3, "defend": 1}]
    for hdr in (header(), header({"invasion_damage": "per_figure"})):
        board, found = fold(hdr, moves)
        assert found == []
        assert side(board, "B").damage == 2


def test_gl_h5_a_won_battle_reentering_the_zone_deals_damage_by_its_path():
    """GL-6.8 with GL-H5 diagonal_moves: e6→e5→d6 leaves the enemy zone and comes back in, so the
    won battle on d6 deals 1, though e6 and d6 are both in the zone."""
    hdr = header({"diagonal_moves": True})
    moves = [*SETUP, put("A", "グレン", "e6"), READY_GUREN, mv("A", ["グレン"], "e6", "e5", "d6"),
             {"type": "battle", "by": "A", "attack": 3, "defend": 4, "outcome": "attacker"}]
    board, found = fold(hdr, moves)
    assert rules_of(found) == ["GL-7.4"]
    assert unit(board, "A", "グレン").square == "d6"
    assert side(board, "B").damage == 1


# ---------------------------------------------------------------- readied / exhausted


def test_readied_and_exhausted_figures():
    board = board_after([*SETUP, mv("A", ["グレン"], "d1", "d2")])
    g = unit(board, "A", "グレン")
    assert (g.acted, g.steps) == (True, 1)
    ready = board_after([*SETUP, mv("A", ["グレン"], "d1", "d2"), READY_GUREN])
    g = unit(ready, "A", "グレン")
    assert (g.acted, g.steps) == (False, 0)  # 未行動, with its 2 squares again
    assert [(u.figure, u.acted) for u in ready.units if u.figure != "グレン"] == [
        (u.figure, u.acted) for u in board.units if u.figure != "グレン"]
    tired = board_after([*SETUP, mv("A", ["グレン"], "d1", "d2"), READY_GUREN,
                         {"type": "effect", "by": "A", "card": "グレン", "exhausted": ["グレン"]}])
    assert unit(tired, "A", "グレン").acted is True
    split = board_after([*SETUP, mv("A", ["グレン"], "d1", "d2"),
                         {"type": "effect", "by": "A", "card": "グレン", "exhausted": ["グレン"]}],
                        header({"split_movement": True}))
    assert (unit(split, "A", "グレン").acted, unit(split, "A", "グレン").steps) == (True, 1)  # steps kept
    _, found = fold(H, [*SETUP, mv("A", ["グレン"], "d1", "d2"), READY_GUREN, mv("A", ["グレン"], "d2", "d3", "d4")])
    assert found == []
    _, found = fold(H, [*SETUP, mv("A", ["グレン"], "d1", "d2"), mv("A", ["グレン"], "d2", "d3")])
    assert rules_of(found) == ["GL-6.1"]


def test_readied_names_the_players_own_figure_in_a_mirror_match():
    board = board_after([*MIRROR, READY_GUREN], mirror())
    assert unit(board, "A", "グレン").acted is False
    assert unit(board, "B", "グレン").acted is True  # B's turn ended: B's figures 行動完了
    tired = board_after([*MIRROR, READY_GUREN, {"type": "effect", "by": "A", "card": "グレン", "exhausted": ["グレン"]}],
                        mirror())
    assert unit(tired, "A", "グレン").acted is True


# ---------------------------------------------------------------- 合体 with a recorded figure


def test_gl_4_5_a_recorded_figure_is_the_one_placed():
    combine = {"type": "effect", "by": "A", "card": "グレンラガン", "destroyed": ["A:ラガン", "A:グレン"],
               "deployed": {"card": "グレンラガン", "square": "d1", "figure": "グレンラガン改"}}
    board = board_after([*SETUP, put("A", "ラガン", "d1"), combine])
    assert [(u.figure, u.card, u.square) for u in board.units if u.owner == "A"] == [("グレンラガン改", "グレンラガン", "d1")]


def test_apply_ignores_a_deployed_outcome_without_a_square():
    board = board_after(SETUP)
    bad = {"seq": 99, "type": "effect", "by": "A", "card": "グレンラガン",
           "deployed": {"card": "グレンラガン", "square": "z9"}}
    assert R.validate_move(bad)
    assert R.apply(board, bad) == board


# ---------------------------------------------------------------- skills and traps in a battle


def _b_attacks(*extra: dict[str, Any], drawn: Any = "待ち伏せ") -> tuple[Any, list[str]]:
    """B's turn 4: B draws (``drawn``, None: unseen) and sets a trap, then エンキ (4) attacks グレン (3) on d3."""
    moves = [*SETUP, put("A", "グレン", "d3"), end("A"), draw("B", *[c for c in [drawn] if c]),
             put("B", "エンキ", "d4"), {"type": "effect", "by": "B", "card": "エンキ", "readied": ["エンキ"]},
             *extra[:1], mv("B", ["エンキ"], "d4", "d3"), *extra[1:]]
    board, found = fold(H, moves)
    return board, rules_of(found)


def test_gl_8_5_the_attacker_springing_a_trap_adds_to_the_attack():
    board, found = _b_attacks(skill("B", "待ち伏せ", set=True), {"type": "trap", "by": "B", "card": "待ち伏せ", "power": 2})
    assert found == ["GL-8.8"]  # 待ち伏せ is the defender's card: flagged, and still folded as recorded
    assert expected_battle(board) == {"attack": 6, "defend": 3, "outcome": "attacker"}


def test_gl_8_5_a_trap_named_only_when_sprung_adds_nothing_unless_recorded():
    unseen = {"type": "skill", "by": "B", "card": None, "set": True}
    board, found = _b_attacks(unseen, {"type": "trap", "by": "B", "card": None}, drawn=None)
    assert found == []
    assert expected_battle(board) == {"attack": 4, "defend": 3, "outcome": "attacker"}
    board, _ = _b_attacks(skill("B", "待ち伏せ", set=True), {"type": "trap", "by": "B", "card": "待ち伏せ"})
    assert expected_battle(board)["attack"] == 4  # a 【罠】 card's own power is not a 【戦闘】 skill's
