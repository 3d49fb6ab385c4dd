"""Issue 18: what the board shows after the fold's rarer branches (apply.py) — a 核 合身's roll in
the open battle, ties and splits of fused units, evolution and effects on dice — each read from
``board_json`` as the board page shows it. Rule ids are those of docs/rules/gandice.md."""

from __future__ import annotations

from typing import Any

from tests.gandice.helpers import CORE, ISURUGI, R, SUPER, YAMI, at, header, nm, pj, rules, run, sp, state, summons

ATK = {"type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルギ"}
DEF = {"type": "defend", "by": "B", "die": "紅蓮のイスルギ"}
S = summons()
NO_ITEM = {"type": "item", "item": None}


def battle(board: Any) -> dict[str, Any]:
    return R.board_json(board)["battle"]


def last(board: Any) -> tuple[str, str, int, int]:
    b = R.board_json(board)["last_battle"]
    return b["winner"], b["reason"], b["attack_total"], b["defence_total"]


def fusion(board: Any, pid: str) -> dict[str, str]:
    return {d["name"]: d["fusion"] for d in pj(board, pid)["dice"] if "fusion" in d}


def die(board: Any, pid: str, name: str) -> dict[str, Any]:
    return next(d for d in pj(board, pid)["dice"] if d["name"] == name)


# ---------------------------------------------------------------- GD-2.3 on a 再召喚チャレンジ

ZENKAI = {"ギダン": "stand", "爪牙": "handstand", "美雅羅": "stand"}


def test_gd_2_3_a_zenkai_resummon_ends_the_match_even_recorded_mid_battle():
    board = at([*S, {"type": "resummon", "by": "A", "rolls": ZENKAI}])
    assert (R.board_json(board)["phase"], board.winner, board.reason) == ("over", "A", "zenkai_summon")
    # recorded while a battle waits (flagged GD-3.1): the match is over, no battle is left open
    board, v = run([*S, sp(ATK), sp(DEF), {"type": "resummon", "by": "A", "rolls": ZENKAI}])
    assert rules(v) == ["GD-3.1"]
    assert (R.board_json(board)["phase"], battle(board), board.winner) == ("over", None, "A")


# ---------------------------------------------------------------- GD-8.2 心眼・合身 in the open battle

CORE_H = header(CORE, ISURUGI)
CORE_S = [
    {
        "type": "summon",
        "by": "A",
        "rolls": {"獣幽士": "special", "闘奇子": "side", "機改人": "normal", "凶鎌手": "normal"},
    },
    S[1],
]
CORE_ATK = sp({**ATK, "die": "獣幽士"})
CORE_FUSE = {"type": "fuse", "by": "A", "die": "獣幽士", "partners": ["闘奇子", "機改人"]}
TWO = [{"face": "normal", "value": 4}, {"face": "special"}]


def test_gd_8_2_a_successful_core_fusion_shows_the_two_dice_sum_while_the_defender_chooses():
    board = at([*CORE_S, CORE_ATK, sp(DEF), sp({**CORE_FUSE, "rolls": TWO})], CORE_H)
    assert battle(board)["step"] == "defender_item"
    assert battle(board)["attack"] == {
        "player": "A",
        "die": "獣幽士",
        "face": "normal",
        "value": 7,
        "items": 0,
        "total": 7,
        "fused": True,
    }
    assert fusion(board, "A") == {"獣幽士": "獣幽士", "闘奇子": "獣幽士", "機改人": "獣幽士"}
    # a 特殊目 is a success, not an outright win: the totals decide
    done = at([*CORE_S, CORE_ATK, sp(DEF), sp({**CORE_FUSE, "rolls": TWO}), {**NO_ITEM, "by": "B"}], CORE_H)
    assert last(done) == ("attacker", "higher_total", 7, 3)
    low = [{"face": "normal", "value": 1}, {"face": "normal", "value": 1}]
    lost = at([*CORE_S, CORE_ATK, nm(DEF, 6), sp({**CORE_FUSE, "rolls": low})], CORE_H)
    assert last(lost) == ("defender", "higher_total", 2, 6)


def test_gd_8_2_a_failed_core_fusion_is_judged_as_rolled_and_fuses_nothing():
    board = at([*CORE_S, CORE_ATK, sp(DEF), nm(CORE_FUSE, 5)], CORE_H)
    assert battle(board)["step"] == "defender_item"
    assert battle(board)["attack"] == {
        "player": "A",
        "die": "獣幽士",
        "face": "normal",
        "value": 5,
        "items": 0,
        "total": 5,
        "fused": False,
    }
    assert fusion(board, "A") == {}
    done = at([*CORE_S, CORE_ATK, sp(DEF), nm(CORE_FUSE, 5), {**NO_ITEM, "by": "B"}], CORE_H)
    assert last(done) == ("attacker", "higher_total", 5, 3)


def test_gd_8_2_a_core_fusion_re_roll_on_its_side_loses_for_either_side():
    board = at([*CORE_S, CORE_ATK, nm(DEF, 2), {**CORE_FUSE, "face": "side"}], CORE_H)
    assert last(board)[:2] == ("failed", "attack_side")
    assert state(board, "B", "紅蓮のイスルギ") == "summoned" and pj(board, "A")["graveyard"] == []
    # the core unit defending: its 横倒し hands the attacker the win
    hdr = header(YAMI, CORE)
    core_b = {
        "type": "summon",
        "by": "B",
        "rolls": {"獣幽士": "special", "闘奇子": "side", "機改人": "normal", "凶鎌手": "normal"},
    }
    defence = [
        S[0],
        core_b,
        nm({**ATK, "target": "獣幽士"}, 2),
        {"type": "defend", "by": "B", "die": "獣幽士", "face": "special"},
    ]
    board = at([*defence, {**CORE_FUSE, "by": "B", "face": "side"}], hdr)
    assert last(board)[:2] == ("attacker", "defence_side")
    assert pj(board, "B")["graveyard"] == ["獣幽士"]


# ---------------------------------------------------------------- GD-8.1 超眼・合身 in the open battle

SUPER_H = header(SUPER, ISURUGI)
SUPER_S = [{"type": "summon", "by": "A", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "special"}}, S[1]]
FUSE = {"type": "fuse", "by": "A", "die": "武王", "partners": ["鰐蛇"]}


def test_gd_8_1_the_fused_roll_replaces_the_special_face():
    board = at([*SUPER_S, sp({**ATK, "die": "武王"}), sp(DEF), nm(FUSE, 5)], SUPER_H)
    assert battle(board)["step"] == "defender_item"
    assert {k: battle(board)["attack"][k] for k in ("face", "value", "fused")} == {
        "face": "normal",
        "value": 5,
        "fused": True,
    }
    assert fusion(board, "A") == {"武王": "武王", "鰐蛇": "武王"}


# ---------------------------------------------------------------- GD-8.3 ties and splits

CORE_DEF_H = header(YAMI, CORE)
CORE_DEF = [
    S[0],
    {
        "type": "summon",
        "by": "B",
        "rolls": {"獣幽士": "special", "闘奇子": "side", "機改人": "normal", "凶鎌手": "normal"},
    },
    sp({**ATK, "target": "獣幽士"}),
    {"type": "defend", "by": "B", "die": "獣幽士", "face": "special"},
    {**NO_ITEM, "by": "A"},
]
B_CORE_FUSE = {**CORE_FUSE, "by": "B", "face": "special"}


def test_gd_8_3_a_tie_on_defence_unfuses_the_unit_with_every_die_summoned():
    ones = [{"face": "normal", "value": 1}, {"face": "normal", "value": 2}]  # 3 vs 3
    board = at([*CORE_DEF, {**B_CORE_FUSE, "rolls": ones}], CORE_DEF_H)
    assert last(board) == ("tie", "tie", 3, 3)
    assert fusion(board, "B") == {}
    assert pj(board, "B")["summoned"] == ["獣幽士", "闘奇子", "機改人"]
    assert pj(board, "B")["half_summoned"] == ["凶鎌手"]


def test_gd_8_3_a_beaten_core_unit_splits_and_the_others_go_back_summoned():
    low = [{"face": "side"}, {"face": "side"}]  # 0 vs 3: beaten
    beaten = at([*CORE_DEF, {**B_CORE_FUSE, "rolls": low}], CORE_DEF_H)
    assert R.board_json(beaten)["pending_split"] == ["B", "獣幽士"]
    board = at(
        [*CORE_DEF, {**B_CORE_FUSE, "rolls": low}, {"type": "split", "by": "B", "graveyard": "闘奇子"}], CORE_DEF_H
    )
    assert R.board_json(board)["pending_split"] is None
    assert pj(board, "B")["graveyard"] == ["闘奇子"] and fusion(board, "B") == {}
    assert pj(board, "B")["summoned"] == ["獣幽士", "機改人"]
    assert "fusion" not in die(board, "B", "闘奇子")


def test_gd_8_3_a_split_recorded_by_another_player_leaves_the_owners_split_pending():
    low = [{"face": "side"}, {"face": "side"}]
    board, v = run(
        [*CORE_DEF, {**B_CORE_FUSE, "rolls": low}, {"type": "split", "by": "A", "graveyard": "ギダン"}], CORE_DEF_H
    )
    assert rules(v) == ["GD-8.3"]
    assert R.board_json(board)["pending_split"] == ["B", "獣幽士"]
    assert pj(board, "A")["graveyard"] == ["ギダン"]  # the record is folded as written
    assert fusion(board, "B") == {"獣幽士": "獣幽士", "闘奇子": "獣幽士", "機改人": "獣幽士"}


# ---------------------------------------------------------------- GD-6.4 ties after effects mid-battle

CURSE_TIE = [
    *S,
    sp(ATK),
    sp(DEF),
    {"type": "item", "by": "A", "item": "呪術・笑童児", "face": "special"},  # 3 + 3
]
B_WEAPON_3 = nm({"type": "item", "by": "B", "item": "武具・羅"}, 3)  # 3 + 3: a tie


def test_gd_6_4_a_defender_made_unsummoned_mid_battle_stays_unsummoned_on_a_tie():
    weaken = {
        "type": "effect",
        "by": "A",
        "source": "呪術・笑童児",
        "effect": "テスト",
        "state": [{"player": "B", "die": "紅蓮のイスルギ", "state": "unsummoned"}],
    }
    board = at([*CURSE_TIE, weaken, B_WEAPON_3])
    assert last(board)[:2] == ("tie", "tie")
    assert state(board, "B", "紅蓮のイスルギ") == "unsummoned"


def test_gd_6_4_a_tie_after_the_defending_die_was_taken_leaves_it_with_the_taker():
    betray = {
        "type": "effect",
        "by": "A",
        "source": "呪術・笑童児",
        "effect": "裏切り",
        "take": {"player": "B", "die": "紅蓮のイスルギ"},
    }
    board = at([*CURSE_TIE, betray, B_WEAPON_3])
    assert last(board)[:2] == ("tie", "tie")
    assert die(board, "A", "紅蓮のイスルギ")["state"] == "summoned"
    assert all(d["name"] != "紅蓮のイスルギ" for d in pj(board, "B")["dice"])


# ---------------------------------------------------------------- GD-7.1 evolution

EVOLVE = {"type": "evolve", "by": "A", "die": "ギダン", "into": "ギダン・進化", "face": "special"}


def test_gd_7_1_the_evolved_die_keeps_where_it_came_from():
    board = at([*S, nm(ATK, 6), nm(DEF, 1), EVOLVE])
    assert die(board, "A", "ギダン・進化") == {
        "name": "ギダン・進化",
        "kind": "character",
        "kin": "闇",
        "zone": "deck",
        "state": "summoned",
        "evolved_from": "ギダン",
        "origin": "A",
    }
    # a die taken from another player stays that player's die when it evolves
    b_deck = {
        "name": "闇と炎",
        "cards": ["ギダン", "凶鎌手", "イスルギ", "武具・羅", "呪術・笑童児"],
        "evolution": ["闇・進化"],
        "dice": [{"name": "闇・進化", "kind": "character", "kin": "闇", "evolution": True}],
    }
    b_summon = {"type": "summon", "by": "B", "rolls": {"ギダン": "special", "凶鎌手": "special", "イスルギ": "special"}}
    take = {
        "type": "effect",
        "by": "B",
        "source": "呪術・笑童児",
        "effect": "裏切り",
        "take": {"player": "A", "die": "美雅羅"},
    }
    moves = [
        S[0],
        b_summon,
        sp({**ATK, "target": "イスルギ"}),
        {"type": "defend", "by": "B", "die": "イスルギ", "face": "special"},
        {"type": "item", "by": "A", "item": None},
        {"type": "item", "by": "B", "item": "呪術・笑童児", "face": "special"},  # 3 vs 6: B defends
        take,
        nm({"type": "attack", "by": "B", "die": "美雅羅", "target": "爪牙"}, 6),
        nm({"type": "defend", "by": "A", "die": "爪牙"}, 1),
        {"type": "evolve", "by": "B", "die": "美雅羅", "into": "闇・進化", "face": "special"},
    ]
    board = at(moves, header(YAMI, b_deck))
    assert {k: die(board, "B", "闇・進化")[k] for k in ("evolved_from", "origin")} == {
        "evolved_from": "美雅羅",
        "origin": "A",
    }


def test_gd_7_1_an_evolution_recorded_for_a_die_in_the_graveyard_does_not_revive_it():
    gone = [*S, nm(ATK, 1), nm(DEF, 6)]  # B's 紅蓮 wins the 判定; then B beats ギダン outright
    gone += [{"type": "attack", "by": "B", "die": "青嵐のイスルギ", "target": "ギダン", "face": "stand"}]
    board, v = run([*gone, EVOLVE])
    assert rules(v) == ["GD-7.1"]
    assert die(board, "A", "ギダン・進化")["zone"] == "graveyard"
    assert pj(board, "A")["graveyard"] == ["ギダン・進化"]


# ---------------------------------------------------------------- GD-10.1 effects on dice


def test_gd_10_1_graveyard_state_and_revive_effects_show_on_the_board():
    effect = {"type": "effect", "by": "A", "source": "ギダン", "effect": "テスト"}
    board = at([*S, {**effect, "graveyard": [{"player": "B", "die": "イスルギ"}]}])
    assert pj(board, "B")["graveyard"] == ["イスルギ"] and pj(board, "B")["alive"] == 2
    board = at([*S, {**effect, "state": [{"player": "B", "die": "イスルギ", "state": "half"}]}])
    assert pj(board, "B")["half_summoned"] == ["イスルギ"]
    board = at(
        [
            *S,
            {**effect, "graveyard": [{"player": "B", "die": "イスルギ"}]},
            {**effect, "revive": [{"player": "B", "die": "イスルギ"}]},
        ]
    )
    assert pj(board, "B")["graveyard"] == [] and pj(board, "B")["unsummoned"] == ["イスルギ"]


def test_gd_10_1_a_die_sent_to_the_graveyard_or_taken_out_of_a_unit_leaves_the_unit():
    hdr = header(YAMI, SUPER)
    fused = [
        S[0],
        {"type": "summon", "by": "B", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "side"}},
        sp({**ATK, "target": "武王"}),
        {"type": "defend", "by": "B", "die": "武王", "face": "special"},
        {**NO_ITEM, "by": "A"},
        nm({**FUSE, "by": "B"}, 6),  # 3 vs 6: B's unit defends and stays fused
    ]
    assert fusion(at(fused, hdr), "B") == {"武王": "武王", "鰐蛇": "武王"}
    effect = {"type": "effect", "by": "A", "source": "ギダン", "effect": "テスト"}
    board = at([*fused, {**effect, "graveyard": [{"player": "B", "die": "鰐蛇"}]}], hdr)
    assert "fusion" not in die(board, "B", "鰐蛇")
    board, v = run([*fused, {**effect, "take": {"player": "B", "die": "鰐蛇"}}], hdr)
    assert rules(v) == ["GD-10.1"]  # flagged, and folded as recorded
    assert "fusion" not in die(board, "A", "鰐蛇")


def test_malformed_die_references_fold_without_effect():
    """apply never raises: references that are not {player, die} objects change nothing."""
    base = at(S)
    effect = {"seq": 3, "type": "effect", "by": "A", "source": "ギダン", "effect": "x"}
    for move in (
        {**effect, "take": "美雅羅"},
        {**effect, "graveyard": ["イスルギ"]},
        {**effect, "state": ["イスルギ"]},
        {**effect, "revive": [["B", "イスルギ"]]},
    ):
        assert R.apply(base, move) == base, move


# ---------------------------------------------------------------- more of the battle as the board shows it


def test_gd_8_2_a_fused_core_unit_defends_with_the_sum_of_its_two_dice():
    fused = [*CORE_S, CORE_ATK, nm(DEF, 6), sp({**CORE_FUSE, "rolls": TWO})]  # 7 vs 6: A's unit wins
    b_attacks = sp({"type": "attack", "by": "B", "die": "青嵐のイスルギ", "target": "機改人"})
    defend = {"type": "defend", "by": "A", "die": "獣幽士", "face": "normal", "value": 1}
    board = at([*fused, b_attacks, {**defend, "rolls": [{"face": "normal", "value": 5}, {"face": "special"}]}], CORE_H)
    assert {k: battle(board)["defence"][k] for k in ("die", "face", "value")} == {
        "die": "獣幽士",
        "face": "normal",
        "value": 8,
    }


def test_gd_10_1_an_item_dies_special_is_good_for_its_battle_only():
    curse_up = [
        *S,
        sp(ATK),
        sp(DEF),
        {**NO_ITEM, "by": "A"},
        {"type": "item", "by": "B", "item": "呪術・笑童児", "face": "special"},
    ]
    betray = {
        "type": "effect",
        "by": "B",
        "source": "呪術・笑童児",
        "effect": "裏切り",
        "take": {"player": "A", "die": "美雅羅"},
    }
    _, v = run([*curse_up, betray])
    assert v == []
    resummon = {
        "type": "resummon",
        "by": "B",
        "rolls": {"紅蓮のイスルギ": "special", "青嵐のイスルギ": "special", "イスルギ": "special"},
    }
    _, v = run([*curse_up, resummon, betray])
    assert rules(v) == ["GD-10.1"]


def test_gd_6_2_the_last_battle_names_both_dice_and_a_higher_defence_wins():
    board = at([*S, nm(ATK, 2), nm(DEF, 5)])
    assert R.board_json(board)["last_battle"] == {
        "attacker": "A",
        "attack_die": "ギダン",
        "defender": "B",
        "defence_die": "紅蓮のイスルギ",
        "winner": "defender",
        "reason": "higher_total",
        "attack_total": 2,
        "defence_total": 5,
    }


def test_gd_9_1_the_winning_battle_ends_the_match_without_a_next_turn():
    one_left = at(
        [
            *S,
            {
                "type": "effect",
                "by": "A",
                "source": "ギダン",
                "effect": "テスト",
                "graveyard": [{"player": "B", "die": d} for d in ("青嵐のイスルギ", "イスルギ")],
            },
        ]
    )
    assert (one_left.turn, one_left.active) == (1, "A")
    board = at(
        [
            *S,
            *[],
            {
                "type": "effect",
                "by": "A",
                "source": "ギダン",
                "effect": "テスト",
                "graveyard": [{"player": "B", "die": d} for d in ("青嵐のイスルギ", "イスルギ")],
            },
            nm(ATK, 6),
            nm(DEF, 1),
        ]
    )
    got = R.board_json(board)
    assert (got["phase"], got["turn"], got["active"], board.winner) == ("over", 1, "A", "A")


def test_gd_6_4_a_tie_after_the_attacking_die_was_taken_mid_battle():
    take = {
        "type": "effect",
        "by": "B",
        "source": "イスルギ",
        "effect": "テスト",
        "take": {"player": "A", "die": "ギダン"},
    }
    board = at([*S, sp(ATK), sp(DEF), {**NO_ITEM, "by": "A"}, take, {**NO_ITEM, "by": "B"}])
    assert last(board) == ("tie", "tie", 3, 3)
    assert die(board, "B", "ギダン")["state"] == "summoned" and state(board, "B", "紅蓮のイスルギ") == "half"


def test_gd_8_3_a_unit_left_with_one_die_is_beaten_and_tied_like_a_single_die():
    hdr = header(YAMI, SUPER)
    fused = [
        S[0],
        {"type": "summon", "by": "B", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "side"}},
        sp({**ATK, "target": "武王"}),
        {"type": "defend", "by": "B", "die": "武王", "face": "special"},
        {**NO_ITEM, "by": "A"},
        nm({**FUSE, "by": "B"}, 6),  # 3 vs 6: B's unit stays fused; B's turn
        {
            "type": "effect",
            "by": "A",
            "source": "ギダン",
            "effect": "テスト",
            "graveyard": [{"player": "B", "die": "鰐蛇"}],
        },
        {"type": "resummon", "by": "B", "rolls": {"雷爪": "side"}},  # 武王 is still a unit: not rolled
    ]
    beaten = at([*fused, nm({**ATK, "target": "武王"}, 6), nm({"type": "defend", "by": "B", "die": "武王"}, 1)], hdr)
    assert R.board_json(beaten)["pending_split"] is None
    assert pj(beaten, "B")["graveyard"] == ["武王", "鰐蛇"] and "fusion" not in die(beaten, "B", "武王")
    tied = at([*fused, nm({**ATK, "target": "武王"}, 4), nm({"type": "defend", "by": "B", "die": "武王"}, 4)], hdr)
    assert last(tied)[:2] == ("tie", "tie")
    assert state(tied, "B", "武王") == "half" and fusion(tied, "B") == {"武王": "武王"}


def test_an_attack_on_ones_own_die_folds_as_recorded_with_items_on_the_right_side():
    own = sp({**ATK, "target": "爪牙", "defender": "A"})
    moves = [*S, own, {"type": "defend", "by": "A", "die": "爪牙", "face": "special"}, {**NO_ITEM, "by": "A"}]
    board, v = run([*moves, nm({"type": "item", "by": "A", "item": "武具・羅"}, 4)])
    assert rules(v) == ["GD-3.3"]
    assert last(board) == ("defender", "higher_total", 3, 7)


def test_gd_9_2_a_zenkai_summon_recorded_mid_battle_closes_the_battle():
    board, v = run([*S, sp(ATK), sp(DEF), {"type": "summon", "by": "A", "rolls": ZENKAI}])
    assert rules(v) == ["GD-2.1"]
    assert (R.board_json(board)["phase"], battle(board), board.reason) == ("over", None, "zenkai_summon")


def test_gd_9_2_the_result_stands_after_a_flagged_effect():
    zenkai = at([{"type": "summon", "by": "A", "rolls": ZENKAI}])
    wipe = {
        "type": "effect",
        "by": "A",
        "source": "ギダン",
        "effect": "テスト",
        "graveyard": [{"player": "B", "die": d} for d in ("紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ")],
    }
    board, v = run([{"type": "summon", "by": "A", "rolls": ZENKAI}, wipe])
    assert rules(v) == ["GD-9.2"]
    assert (board.winner, board.reason) == (zenkai.winner, "zenkai_summon")


def test_gd_9_1_the_match_ends_when_an_effect_takes_the_last_die_even_mid_battle():
    rest = {
        "type": "effect",
        "by": "A",
        "source": "ギダン",
        "effect": "テスト",
        "graveyard": [{"player": "B", "die": d} for d in ("紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ")],
    }
    board = at([*S, sp(ATK), sp(DEF), rest])
    got = R.board_json(board)
    assert (got["phase"], got["battle"], board.winner, board.reason) == ("over", None, "A", "all_graveyard")
    # every character die of both players gone: nobody wins
    both = {
        **rest,
        "graveyard": [*rest["graveyard"], *({"player": "A", "die": d} for d in ("ギダン", "爪牙", "美雅羅"))],
    }
    for moves in ([*S, both], [*S, sp(ATK), sp(DEF), both]):  # also while a battle waits
        board = at(moves)
        got = R.board_json(board)
        assert (got["phase"], got["battle"], board.winner, board.reason) == ("over", None, None, "all_graveyard")


def test_gd_3_3_the_defender_is_the_player_who_has_the_die_named():
    hdr = header(YAMI, ISURUGI, SUPER)
    c_summon = {"type": "summon", "by": "C", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "side"}}
    undefended = at([*S, c_summon, nm({**ATK, "target": "雷爪"}, 1)], hdr)  # 未召喚: A wins outright
    assert pj(undefended, "C")["graveyard"] == ["雷爪"] and undefended.active == "B"
    # B attacks the die in C's graveyard (flagged): the battle is still against C, who has it
    board, v = run(
        [*S, c_summon, nm({**ATK, "target": "雷爪"}, 1), sp({**ATK, "by": "B", "die": "イスルギ", "target": "雷爪"})],
        hdr,
    )
    assert rules(v) == ["GD-3.3"]
    assert R.board_json(board)["last_battle"]["defender"] == "C"


def test_gd_3_3_an_attack_on_a_die_nobody_has_wins_nothing():
    board, v = run([*S, sp({**ATK, "target": "謎のダイス"})])
    assert rules(v) == ["GD-3.3"]
    assert R.board_json(board)["last_battle"]["defender"] == "B"
    assert pj(board, "B")["graveyard"] == []


def test_gd_4_1_an_attack_on_its_side_is_a_failed_attack():
    board = at([*S, {**ATK, "face": "side"}])
    assert last(board) == ("failed", "attack_side", 0, 0)
    assert (board.turn, board.active) == (2, "B")


def test_gd_8_1_a_fused_super_unit_rolls_one_die():
    fused = [*SUPER_S, sp({**ATK, "die": "武王"}), nm(DEF, 4), nm(FUSE, 6)]  # 6 vs 4: the unit wins
    fused += [{"type": "attack", "by": "B", "die": "イスルギ", "target": "雷爪", "face": "side"}]
    stray = [{"face": "normal", "value": 6}, {"face": "normal", "value": 6}]
    board = at([*fused, {**nm({**ATK, "die": "鰐蛇", "target": "青嵐のイスルギ"}, 2), "rolls": stray}], SUPER_H)
    assert {k: battle(board)["attack"][k] for k in ("die", "face", "value")} == {
        "die": "武王",
        "face": "normal",
        "value": 2,
    }


def test_gd_8_2_a_fused_core_unit_attacks_with_its_two_dice():
    fused = [*CORE_S, CORE_ATK, nm(DEF, 6), sp({**CORE_FUSE, "rolls": TWO})]  # 7 vs 6: the unit wins
    fused += [{"type": "attack", "by": "B", "die": "青嵐のイスルギ", "target": "機改人", "face": "side"}]
    attack = nm({**ATK, "die": "闘奇子", "target": "青嵐のイスルギ"}, 1)  # any die of the unit names it
    board = at([*fused, {**attack, "rolls": [{"face": "normal", "value": 6}, {"face": "special"}]}], CORE_H)
    assert {k: battle(board)["attack"][k] for k in ("die", "face", "value")} == {
        "die": "獣幽士",
        "face": "normal",
        "value": 9,
    }
    board = at([*fused, {**attack, "rolls": [{"face": "side"}, {"face": "side"}]}], CORE_H)
    assert battle(board) is None
    assert R.board_json(board)["last_battle"] == {
        "attacker": "A",
        "attack_die": "獣幽士",
        "defender": "B",
        "defence_die": "青嵐のイスルギ",
        "winner": "failed",
        "reason": "attack_side",
        "attack_total": 0,
        "defence_total": 0,
    }


def test_gd_10_1_a_new_attack_clears_the_last_battles_specials():
    curse_up = [
        *S,
        sp(ATK),
        sp(DEF),
        {**NO_ITEM, "by": "A"},
        {"type": "item", "by": "B", "item": "呪術・笑童児", "face": "special"},
    ]
    betray = {
        "type": "effect",
        "by": "B",
        "source": "呪術・笑童児",
        "effect": "裏切り",
        "take": {"player": "A", "die": "美雅羅"},
    }
    b_attack = nm({"type": "attack", "by": "B", "die": "イスルギ", "target": "爪牙"}, 4)
    _, v = run([*curse_up, b_attack, betray])
    assert rules(v) == ["GD-10.1"]


def test_gd_5_4_a_kofuda_played_lets_its_ability_be_recorded_after_its_die_was_taken():
    taken = [
        *S,
        sp({**ATK, "die": "爪牙"}),
        sp(DEF),
        {**NO_ITEM, "by": "A"},
        {"type": "item", "by": "B", "item": "呪術・笑童児", "face": "special"},  # 3 vs 6: B defends
        {
            "type": "effect",
            "by": "B",
            "source": "呪術・笑童児",
            "effect": "裏切り",
            "take": {"player": "A", "die": "ギダン"},
        },
        nm({"type": "attack", "by": "B", "die": "イスルギ", "target": "爪牙"}, 4),
        {"type": "defend", "by": "A", "die": "爪牙", "face": "special"},
    ]
    ability = {"type": "effect", "by": "A", "source": "ギダン", "effect": "小札絵の能力"}
    _, v = run([*taken, {"type": "item", "by": "A", "card": "ギダン", "bonus": 2}, ability])
    assert v == []  # A's 小札絵 ギダン (its die now B's) was played in this battle
    _, v = run([*taken, {"type": "item", "by": "A", "item": None}, ability])
    assert [(x.rule, x.message) for x in v] == [("GD-10.1", "ギダン's ability needs its 特殊目 in this battle")]


def test_gd_8_1_a_fused_special_reopens_the_item_step_even_after_the_side_chose():
    both = header(SUPER, SUPER)
    battle_moves = [
        SUPER_S[0],
        {**SUPER_S[0], "by": "B"},
        sp({**ATK, "die": "武王", "target": "武王"}),
        sp({**DEF, "die": "武王"}),
    ]
    chose = at([*battle_moves, {**NO_ITEM, "by": "A"}], both)  # A chose no item: B's step
    assert battle(chose)["step"] == "defender_item"
    board, v = run([*battle_moves, {**NO_ITEM, "by": "A"}, sp(FUSE)], both)
    assert rules(v) == ["GD-5.1"]
    assert battle(board)["step"] == "attacker_item"
