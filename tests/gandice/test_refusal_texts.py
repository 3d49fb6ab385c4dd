"""Issue 18: what a judge reads when a Gandice move is flagged — the whole message and the
``expected`` hint (``kifu show`` prints it as "(expected: {...})") — for each check whose text or
hint mutation testing could change unnoticed, each beside the same kind of move legal.

Rule ids are those of docs/rules/gandice.md."""

from __future__ import annotations

from typing import Any

from tests.gandice.helpers import CORE, ISURUGI, R, SUPER, YAMI, at, header, nm, sp, summons

ATK = {"type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルギ"}
DEF = {"type": "defend", "by": "B", "die": "紅蓮のイスルギ"}
S = summons()
NO_ITEM_A = {"type": "item", "by": "A", "item": None}


def shown(board: Any, move: dict) -> list[tuple[str, str, dict | None]]:
    """(rule, message, expected) of each violation, as the judge sees them."""
    return [(v.rule, v.message, v.expected) for v in R.check(board, {"seq": 99, **move})]


# ---------------------------------------------------------------- GD-2.1, GD-3.2 summons


def test_gd_2_1_summon_out_of_seat_order_names_who_rolls_first():
    board = at([])
    assert shown(board, S[1]) == [("GD-2.1", "A rolls the 眼魔召喚 before B (seat order)", {"by": "A"})]
    assert shown(board, S[0]) == []


def test_gd_2_1_and_3_2_the_roll_lists_the_dice_it_must_cover():
    partial = {"type": "summon", "by": "A", "rolls": {"ギダン": "special"}}
    want = (
        "the roll must cover every character die left in the deck: ギダン, 爪牙, 美雅羅",
        {"dice": ["ギダン", "爪牙", "美雅羅"]},
    )
    assert shown(at([]), partial) == [("GD-2.1", *want)]
    assert shown(at(S), {**partial, "type": "resummon"}) == [("GD-3.2", *want)]
    assert shown(at(S), {**S[0], "type": "resummon"}) == []


# ---------------------------------------------------------------- GD-2.1, GD-3.1 turns


def test_gd_2_1_no_attack_before_everyone_summoned():
    assert shown(at(S[:1]), sp(ATK)) == [
        ("GD-2.1", "every player makes the 眼魔召喚 roll before the first attack turn", None)
    ]
    assert shown(at(S), sp(ATK)) == []


def test_gd_3_1_the_hint_names_the_step_waited_for_or_the_active_player():
    assert shown(at([*S, sp(ATK)]), sp({**ATK, "die": "爪牙"})) == [
        ("GD-3.1", "the battle is not over (waiting for defend)", {"step": "defend"})
    ]
    b_attacks = sp({**ATK, "by": "B", "die": "イスルギ", "target": "ギダン"})
    assert shown(at(S), b_attacks) == [("GD-3.1", "it is A's attack turn, not B's", {"active": "A"})]
    assert shown(at([*S, nm(ATK, 1), nm(DEF, 5)]), b_attacks) == []


def test_an_unknown_player_or_a_move_after_the_result_keeps_its_seq():
    board = at(S)
    assert [(v.seq, v.rule, v.message) for v in R.check(board, {"seq": 12, **ATK, "by": "Z", "face": "side"})] == [
        (12, "GD-3.1", "unknown player 'Z'")
    ]
    zenkai = {"type": "summon", "by": "A", "rolls": {"ギダン": "stand", "爪牙": "stand", "美雅羅": "handstand"}}
    over = at([zenkai])
    assert [(v.seq, v.rule, v.message) for v in R.check(over, {"seq": 2, **S[1]})] == [
        (2, "GD-9.2", "the match is over (A won: zenkai_summon)")
    ]


# ---------------------------------------------------------------- GD-4.4, GD-4.5 rolls


def test_gd_4_5_a_normal_face_needs_its_number():
    board = at(S)
    assert shown(board, nm(ATK, 7)) == [("GD-4.5", "a 通常目 needs its number 1-6, got 7", None)]
    assert shown(board, nm(ATK, 6)) == []


def test_gd_4_4_each_defence_refusal_with_its_hint():
    assert shown(at(S), sp({**DEF, "by": "A", "die": "ギダン"})) == [
        ("GD-4.4", "there is no attack to defend against", None)
    ]
    attacked = at([*S, sp(ATK)])
    assert shown(attacked, sp(DEF)) == []
    assert shown(attacked, sp({**DEF, "by": "A"})) == [("GD-4.4", "B defends, not A", {"by": "B"})]
    assert shown(attacked, sp({**DEF, "die": "イスルギ"})) == [
        ("GD-4.4", "the attacked die 紅蓮のイスルギ rolls in defence", {"die": "紅蓮のイスルギ"})
    ]
    assert shown(at([*S, sp(ATK), sp(DEF)]), sp(DEF)) == [
        ("GD-4.4", "the defence roll is done (waiting for attacker_item)", {"step": "attacker_item"})
    ]


# ---------------------------------------------------------------- GD-5.1, GD-5.2 items


def test_gd_5_1_the_hint_names_the_step_or_the_side_that_chooses_first():
    assert shown(at(S), NO_ITEM_A) == [
        ("GD-5.1", "items are used only after a 特殊目, in the item step (now: no battle)", {"step": "no battle"})
    ]
    assert shown(at([*S, sp(ATK)]), NO_ITEM_A) == [
        ("GD-5.1", "items are used only after a 特殊目, in the item step (now: defend)", {"step": "defend"})
    ]
    both = at([*S, sp(ATK), sp(DEF)])
    assert shown(both, {**NO_ITEM_A, "by": "B"}) == [("GD-5.1", "A chooses an item first (attacker_item)", {"by": "A"})]
    assert shown(both, NO_ITEM_A) == []


def test_gd_5_2_an_item_die_roll_needs_its_face():
    board = at([*S, sp(ATK), nm(DEF, 5)])
    item = {"type": "item", "by": "A", "item": "武具・羅"}
    assert shown(board, item) == [("GD-5.2", "an item die roll needs its face", None)]
    assert shown(board, sp(item)) == []


# ---------------------------------------------------------------- GD-8 fusion

SUPER_H = header(SUPER, ISURUGI)
SUPER_S = [{"type": "summon", "by": "A", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "special"}}, S[1]]
FUSE = {"type": "fuse", "by": "A", "die": "武王", "partners": ["鰐蛇"], "face": "normal", "value": 6}


def test_gd_8_1_fusion_is_declared_only_in_the_item_step():
    before_defence = at([*SUPER_S, sp({**ATK, "die": "武王"})], SUPER_H)
    assert shown(before_defence, FUSE) == [
        ("GD-5.1", "合身 is declared only after a 特殊目, in the item step (now: defend)", {"step": "defend"})
    ]
    assert shown(at([*SUPER_S, sp({**ATK, "die": "武王"}), nm(DEF, 4)], SUPER_H), FUSE) == []


def test_gd_8_1_each_side_may_fuse_once_in_the_same_battle():
    both = header(SUPER, SUPER)
    summon_b = {**SUPER_S[0], "by": "B"}
    battle = [SUPER_S[0], summon_b, sp({**ATK, "die": "武王", "target": "武王"}), sp({**DEF, "die": "武王"})]
    b_fuse = {**FUSE, "by": "B"}
    # the attacker's 合身 does not use up the defender's
    attacker_fused = at([*battle, FUSE], both)
    assert attacker_fused.battle.step == "defender_item"
    assert shown(attacker_fused, b_fuse) == []
    # a defender whose fused roll is a 特殊目 chooses again, but not a second 合身
    defender_fused = at([*battle, NO_ITEM_A, sp(b_fuse)], both)
    assert defender_fused.battle.step == "defender_item"
    assert shown(defender_fused, {**b_fuse, "partners": ["雷爪"]}) == [
        ("GD-8.1", "武王 already fused in this battle", None)
    ]


def test_gd_8_1_a_partner_in_the_graveyard_or_another_unit_is_not_in_the_deck():
    # B's 立ち beats 鰐蛇 outright: it is in A's graveyard when 武王 rolls its 特殊目
    beaten = [
        *SUPER_S,
        {**ATK, "die": "雷爪", "face": "side"},
        {"type": "attack", "by": "B", "die": "イスルギ", "target": "鰐蛇", "face": "stand"},
        sp({**ATK, "die": "武王"}),
        nm(DEF, 4),
    ]
    board = at(beaten, SUPER_H)
    assert shown(board, FUSE) == [("GD-8.1", "partner 鰐蛇 is not in A's deck", None)]
    assert shown(board, {**FUSE, "partners": ["雷爪"]}) == []
    # 武王 and 鰐蛇 won fused and stay a unit: 雷爪 cannot take 鰐蛇 out of it
    fused = [
        *SUPER_S,
        sp({**ATK, "die": "武王"}),
        nm(DEF, 4),
        FUSE,
        {"type": "attack", "by": "B", "die": "イスルギ", "target": "雷爪", "face": "side"},
        sp({**ATK, "die": "雷爪", "target": "青嵐のイスルギ"}),
        nm({**DEF, "die": "青嵐のイスルギ"}, 4),
    ]
    board = at(fused, SUPER_H)
    assert shown(board, {**FUSE, "die": "雷爪"}) == [("GD-8.1", "partner 鰐蛇 is not in A's deck", None)]


CORE_H = header(CORE, ISURUGI)
CORE_BATTLE = [
    {
        "type": "summon",
        "by": "A",
        "rolls": {"獣幽士": "special", "闘奇子": "side", "機改人": "normal", "凶鎌手": "normal"},
    },
    S[1],
    sp({**ATK, "die": "獣幽士"}),
    nm(DEF, 6),
]
CORE_FUSE = {
    "type": "fuse",
    "by": "A",
    "die": "獣幽士",
    "partners": ["闘奇子", "機改人"],
    "face": "special",
    "rolls": [{"face": "normal", "value": 4}, {"face": "special"}],
}


def test_gd_8_2_after_a_successful_core_fusion_both_dice_are_recorded_with_their_numbers():
    board = at(CORE_BATTLE, CORE_H)
    assert shown(board, CORE_FUSE) == []
    assert shown(board, {**CORE_FUSE, "rolls": None}) == [
        ("GD-8.2", "after 合身成功 the two other core dice are rolled: record them in rolls", None)
    ]
    bad = [{"face": "special"}, {"face": "normal", "value": 0}]
    assert shown(board, {**CORE_FUSE, "rolls": bad}) == [
        ("GD-4.5", "rolls[1]: a 通常目 needs its number 1-6, got 0", None)
    ]


SUPER_DEF_H = header(YAMI, SUPER)
SUPER_DEF = [
    S[0],
    {"type": "summon", "by": "B", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "side"}},
    sp({**ATK, "target": "武王"}),
    {"type": "defend", "by": "B", "die": "武王", "face": "special"},
    NO_ITEM_A,
    {"type": "fuse", "by": "B", "die": "武王", "partners": ["鰐蛇"], "face": "normal", "value": 2},
]  # 3 vs 2: ギダン beats B's fused unit, which B must now split


def test_gd_8_4_a_fused_super_unit_never_lands_on_its_side():
    fused = [*SUPER_S, sp({**ATK, "die": "武王"}), nm(DEF, 4), FUSE]  # 6 vs 4: the unit wins, stays fused
    b_attacks = nm({"type": "attack", "by": "B", "die": "青嵐のイスルギ", "target": "武王"}, 5)
    defending = at([*fused, b_attacks], SUPER_H)
    defend = {"type": "defend", "by": "A", "die": "武王", "face": "side"}
    assert shown(defending, defend) == [("GD-8.4", "a fused 超眼 die has no 横倒し", None)]
    assert shown(defending, nm(defend, 2)) == []
    attacking = at([*fused, {**b_attacks, "face": "side"}], SUPER_H)
    attack = {**ATK, "die": "武王", "target": "青嵐のイスルギ", "face": "side"}
    assert shown(attacking, attack) == [("GD-8.4", "a fused 超眼 die has no 横倒し", None)]
    assert shown(attacking, nm(attack, 2)) == []


def test_gd_8_3_the_split_hint_lists_the_dice_to_choose_from():
    board = at(SUPER_DEF, SUPER_DEF_H)
    assert board.pending_split == ("B", "武王")
    assert shown(board, {"type": "split", "by": "B", "graveyard": "雷爪"}) == [
        ("GD-8.3", "choose one of 武王, 鰐蛇", {"graveyard": ["武王", "鰐蛇"]})
    ]
    resummon = {"type": "resummon", "by": "B", "rolls": {"雷爪": "special"}}
    assert ("GD-8.3", "B splits the beaten 合身 unit first", {"by": "B"}) in shown(board, resummon)
    assert shown(board, {"type": "split", "by": "B", "graveyard": "鰐蛇"}) == []


def test_gd_8_3_the_winner_may_evolve_or_use_an_effect_before_the_split():
    board = at(SUPER_DEF, SUPER_DEF_H)
    assert board.pending_split == ("B", "武王") and board.evolve_ok == ("A", "ギダン")
    evolve = {"type": "evolve", "by": "A", "die": "ギダン", "into": "ギダン・進化", "face": "special"}
    assert shown(board, evolve) == []
    effect = {
        "type": "effect",
        "by": "A",
        "source": "ギダン",
        "effect": "テスト",
        "state": [{"player": "A", "die": "爪牙", "state": "summoned"}],
    }
    assert shown(board, effect) == []
    # any other move waits for the split
    assert shown(board, nm({**ATK, "die": "爪牙", "target": "雷爪"}, 3))[0] == (
        "GD-8.3",
        "B splits the beaten 合身 unit first",
        {"by": "B"},
    )


# ---------------------------------------------------------------- GD-10.1 effects


def test_gd_10_1_every_die_an_effect_names_must_exist():
    board = at(S)
    effect = {"type": "effect", "by": "A", "source": "ギダン", "effect": "テスト"}
    for field, ref in (
        ("state", {"player": "B", "die": "凶鎌手", "state": "half"}),
        ("revive", {"player": "B", "die": "凶鎌手"}),
        ("graveyard", {"player": "B", "die": "凶鎌手"}),
    ):
        assert shown(board, {**effect, field: [ref]}) == [("GD-10.1", "B has no die '凶鎌手'", None)], field
        assert shown(board, {**effect, field: [{**ref, "die": "イスルギ"}]}) == [], field
