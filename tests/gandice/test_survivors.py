"""Issue 18: the checks mutation testing could weaken unnoticed — fusion, evolution kin, taking a
die out of a unit, GD-3.3 with three or more players, and each branch of GD-8.2, GD-4.4, GD-5.2,
GD-8.1, GD-7.1 and GD-10.1 — each fires with its own message beside a legal twin."""

from __future__ import annotations

from tests.gandice.helpers import CORE, ISURUGI, R, SUPER, YAMI, header, nm, run, sp, summons

ATK = {"type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルギ"}
DEF = {"type": "defend", "by": "B", "die": "紅蓮のイスルギ"}


def board_at(moves: list[dict], hdr: dict | None = None):
    board, found = run(moves, hdr)
    assert found == [], found
    return board


def said(board, move: dict) -> list[tuple[str, str]]:
    return [(v.rule, v.message) for v in R.check(board, {"seq": 99, **move})]


# ---------------------------------------------------------------- GD-8.1 超眼・合身

SUPER_H = header(SUPER, ISURUGI)
SUPER_BATTLE = [
    {"type": "summon", "by": "A", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "special"}},
    summons()[1],
    sp({**ATK, "die": "武王"}),
    nm(DEF, 4),
]
FUSE = {"type": "fuse", "by": "A", "die": "武王", "partners": ["鰐蛇"], "face": "normal", "value": 5}


def test_gd_8_1_each_branch():
    board = board_at(SUPER_BATTLE, SUPER_H)
    assert said(board, FUSE) == []
    assert said(board, {**FUSE, "partners": ["雷爪"]}) == []  # any 召喚 die of the group
    # the die named is not the one fighting
    assert ("GD-8.1", "鰐蛇 is not fighting in this battle") in said(
        board, {**FUSE, "die": "鰐蛇", "partners": ["武王"]}
    )
    # a die that is no 超眼 / 核
    yami = board_at([*summons(), sp(ATK), nm(DEF, 4)])
    fuse_yami = {**FUSE, "die": "ギダン", "partners": ["爪牙"]}
    assert said(yami, fuse_yami) == [("GD-8.1", "ギダン is not a 超眼 or 核 die")]
    # already fused in this battle: a fused 特殊目 opens the item step again, but not a second 合身
    again = board_at([*SUPER_BATTLE, sp({**FUSE})], SUPER_H)
    assert again.battle is not None and again.battle.step == "attacker_item"
    assert ("GD-8.1", "武王 already fused in this battle") in said(again, {**FUSE, "partners": ["雷爪"]})
    assert said(again, {"type": "item", "by": "A", "item": "武具・羅", "face": "normal", "value": 1}) == []
    # partners: how many, which group, in the deck
    assert ("GD-8.1", "超眼 合身 takes 1 partner die(s)") in said(board, {**FUSE, "partners": ["鰐蛇", "雷爪"]})
    assert ("GD-8.1", "超眼 合身 takes 1 partner die(s)") in said(board, {**FUSE, "partners": ["武王"]})
    assert ("GD-8.1", "partner 凶鎌手 is not in A's deck") in said(board, {**FUSE, "partners": ["凶鎌手"]})
    mixed = header({**SUPER, "cards": ["武王", "鰐蛇", "雷爪", "ギダン", "呪術・笑童児"]}, ISURUGI)
    mixed_board = board_at(
        [
            {
                "type": "summon",
                "by": "A",
                "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "special", "ギダン": "special"},
            },
            *SUPER_BATTLE[1:],
        ],
        mixed,
    )
    assert ("GD-8.1", "ギダン cannot 合身 with 武王") in said(mixed_board, {**FUSE, "partners": ["ギダン"]})
    # same group but another kind of fusion die (or the same kind in another group) cannot join
    odd = {
        **SUPER,
        "cards": ["武王", "鰐蛇", "偽鰐蛇", "異雷爪", "呪術・笑童児"],
        "dice": [
            {"name": "偽鰐蛇", "kin": "竜族", "fusion": {"kind": "core", "group": "武雷蛇王"}},
            {"name": "異雷爪", "kin": "獣族", "fusion": {"kind": "super", "group": "奇改獣"}},
        ],
    }
    rolls = {"武王": "special", "鰐蛇": "special", "偽鰐蛇": "special", "異雷爪": "special"}
    odd_board = board_at([{"type": "summon", "by": "A", "rolls": rolls}, *SUPER_BATTLE[1:]], header(odd, ISURUGI))
    assert said(odd_board, FUSE) == []
    assert ("GD-8.1", "偽鰐蛇 cannot 合身 with 武王") in said(odd_board, {**FUSE, "partners": ["偽鰐蛇"]})
    assert ("GD-8.1", "異雷爪 cannot 合身 with 武王") in said(odd_board, {**FUSE, "partners": ["異雷爪"]})
    # a half-summoned partner
    half = board_at(
        [
            {"type": "summon", "by": "A", "rolls": {"武王": "special", "鰐蛇": "normal", "雷爪": "side"}},
            *SUPER_BATTLE[1:],
        ],
        SUPER_H,
    )
    assert ("GD-8.1", "partner 鰐蛇 must be 召喚 (not 半召喚/未召喚)") in said(half, FUSE)


# ---------------------------------------------------------------- GD-8.2 心眼・合身

CORE_H = header(CORE, ISURUGI)
CORE_BATTLE = [
    {
        "type": "summon",
        "by": "A",
        "rolls": {"獣幽士": "special", "闘奇子": "side", "機改人": "normal", "凶鎌手": "normal"},
    },
    summons()[1],
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
TWO = [{"face": "normal", "value": 6}, {"face": "special"}]


def test_gd_8_2_fused_core_unit_rolls_two_dice_on_attack_and_defence():
    fused = [*CORE_BATTLE, CORE_FUSE]  # 7 vs 6: A's unit wins, B's turn
    b_attacks = nm({"type": "attack", "by": "B", "die": "青嵐のイスルギ", "target": "機改人"}, 5)
    board = board_at([*fused, b_attacks], CORE_H)
    defend = {"type": "defend", "by": "A", "die": "機改人", "face": "normal", "value": 9}
    assert said(board, defend) == [("GD-8.2", "a fused 核 unit rolls two dice: record them in rolls")]
    assert said(board, {**defend, "rolls": TWO[:1]}) == [
        ("GD-8.2", "a fused 核 unit rolls two dice: record them in rolls")
    ]
    assert said(board, {**defend, "rolls": TWO}) == []
    assert said(board, {**defend, "rolls": [{"face": "normal"}, {"face": "special"}]}) == [
        ("GD-4.5", "rolls[0]: a 通常目 needs its number 1-6, got None")
    ]
    # and when the unit attacks
    board = board_at([*fused, {**b_attacks, "face": "side"}], CORE_H)
    attack = nm({"type": "attack", "by": "A", "die": "獣幽士", "target": "青嵐のイスルギ"}, 9)
    assert said(board, attack) == [("GD-8.2", "a fused 核 unit rolls two dice: record them in rolls")]
    assert said(board, {**attack, "rolls": TWO}) == []
    # naming any die of the unit, not only its lead, is the unit rolling
    member = {**attack, "die": "闘奇子"}
    assert said(board, member) == [("GD-8.2", "a fused 核 unit rolls two dice: record them in rolls")]
    assert said(board, {**member, "rolls": TWO}) == []


def test_gd_8_2_core_fusion_partners():
    board = board_at(CORE_BATTLE, CORE_H)
    assert said(board, CORE_FUSE) == []
    assert ("GD-8.2", "核 合身 takes 2 partner die(s)") in said(board, {**CORE_FUSE, "partners": ["闘奇子"]})
    assert ("GD-8.2", "核 合身 takes 2 partner die(s)") in said(board, {**CORE_FUSE, "partners": ["闘奇子", "闘奇子"]})
    assert ("GD-8.2", "凶鎌手 cannot 合身 with 獣幽士") in said(board, {**CORE_FUSE, "partners": ["闘奇子", "凶鎌手"]})
    # 未召喚 and 半召喚 core partners are fine (手順２: 未召喚、半召喚であっても可能)
    assert said(board, CORE_FUSE) == []


# ---------------------------------------------------------------- GD-7.1 evolution kin

EVO = {"kind": "character", "evolution": True}
SUPER_EVO = {
    **SUPER,
    "evolution": ["武王・進化", "鰐蛇・進化"],
    "dice": [{"name": "武王・進化", "kin": "鬼族", **EVO}, {"name": "鰐蛇・進化", "kin": "竜族", **EVO}],
}


def test_gd_7_1_evolution_die_must_be_kin():
    hdr = header(SUPER_EVO, ISURUGI)
    won = board_at([*SUPER_BATTLE[:3], nm(DEF, 1)][:2] + [nm({**ATK, "die": "武王"}, 6), nm(DEF, 1)], hdr)
    evolve = {"type": "evolve", "by": "A", "die": "武王", "into": "武王・進化", "face": "special"}
    assert said(won, evolve) == []
    assert said(won, {**evolve, "into": "鰐蛇・進化"}) == [("GD-7.1", "鰐蛇・進化 (竜族) is not 同族 with 武王 (鬼族)")]
    assert said(won, {**evolve, "into": "雷爪・進化"}) == [("GD-7.1", "A has no unused evolution die '雷爪・進化'")]
    # the challenge belongs to the die that won, right after it won
    assert said(won, {**evolve, "die": "鰐蛇", "into": "鰐蛇・進化"}) == [
        ("GD-7.1", "a 進化チャレンジ comes only right after that die won an attack")
    ]
    later = board_at(
        [
            *SUPER_BATTLE[:2],
            nm({**ATK, "die": "武王"}, 6),
            nm(DEF, 1),
            {"type": "resummon", "by": "B", "rolls": {"青嵐のイスルギ": "special", "イスルギ": "special"}},
        ],
        hdr,
    )
    assert said(later, evolve) == [("GD-7.1", "a 進化チャレンジ comes only right after that die won an attack")]


# ---------------------------------------------------------------- GD-10.1 effects

BETRAY = {
    "type": "effect",
    "by": "B",
    "source": "呪術・笑童児",
    "effect": "裏切り",
    "take": {"player": "A", "die": "美雅羅"},
}
CURSE_UP = [
    *summons(),
    sp(ATK),
    sp(DEF),
    {"type": "item", "by": "A", "item": None},
    {"type": "item", "by": "B", "item": "呪術・笑童児", "face": "special"},
]


def test_gd_10_1_each_branch():
    board = board_at(CURSE_UP)
    assert said(board, BETRAY) == []
    # a named die that does not exist
    assert said(board, {**BETRAY, "take": {"player": "A", "die": "凶鎌手"}}) == [("GD-10.1", "A has no die '凶鎌手'")]
    assert said(board, {**BETRAY, "graveyard": [{"player": "C", "die": "ギダン"}]}) == [
        ("GD-10.1", "C has no die 'ギダン'")
    ]
    # the taker already has a die of that label
    assert said(board, {**BETRAY, "take": {"player": "A", "die": "武具・羅"}}) == [
        ("GD-10.1", "B already has a die labelled 武具・羅")
    ]
    assert said(board, {**BETRAY, "take": {"player": "X", "die": "美雅羅"}}) == [("GD-10.1", "X has no die '美雅羅'")]
    # the source is not the player's
    assert said(board, {**BETRAY, "source": "ギダン"}) == [("GD-10.1", "'ギダン' is not a die or 小札絵 of B")]
    # a character die's ability needs the die in play, not its 特殊目
    assert said(board, {**BETRAY, "source": "イスルギ"}) == []
    gone = board_at([*summons(), nm(ATK, 6), nm(DEF, 1)])
    assert said(gone, {**BETRAY, "source": "紅蓮のイスルギ"}) == [("GD-10.1", "紅蓮のイスルギ is in the graveyard")]


def test_gd_10_1_a_die_in_a_unit_cannot_change_sides():
    hdr = header(YAMI, SUPER)
    moves = [
        summons()[0],
        {"type": "summon", "by": "B", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "side"}},
        sp({**ATK, "target": "武王"}),
        {"type": "defend", "by": "B", "die": "武王", "face": "special"},
        {"type": "item", "by": "A", "item": None},
        {"type": "fuse", "by": "B", "die": "武王", "partners": ["鰐蛇"], "face": "normal", "value": 5},
    ]
    board = board_at(moves, hdr)
    take = {"type": "effect", "by": "A", "source": "ギダン", "effect": "テスト", "take": {"player": "B", "die": "鰐蛇"}}
    assert said(board, take) == [("GD-10.1", "鰐蛇 is part of a 合身 unit and cannot change sides")]
    assert said(board, {**take, "take": {"player": "B", "die": "雷爪"}}) == []
    after = R.apply(board, {"seq": 7, **take})
    assert after.player("A").die("鰐蛇") is not None  # a flagged move still folds as recorded


# ---------------------------------------------------------------- GD-3.3 with three or four players


def test_gd_3_3_with_three_players_names_the_defender():
    hdr = header(YAMI, ISURUGI, ISURUGI)
    rolls = {"紅蓮のイスルギ": "special", "青嵐のイスルギ": "special", "イスルギ": "special"}
    board = board_at([*summons(), {"type": "summon", "by": "C", "rolls": rolls}], hdr)
    attack = sp({**ATK, "target": "イスルギ"})
    assert said(board, attack) == [("GD-3.3", "イスルギ is ambiguous: name the defender (B, C)")]
    assert said(board, {**attack, "defender": "C"}) == []
    assert said(board, {**attack, "defender": "B"}) == []
    assert said(board, {**attack, "defender": "A"}) == [("GD-3.3", "no opponent has 'イスルギ' in the deck")]
    after = R.apply(board, {"seq": 4, **attack, "defender": "C"})
    assert after.battle.defence.player == "C"
    # a die only one opponent still has in play is not ambiguous
    kill = {
        "type": "effect",
        "by": "A",
        "source": "ギダン",
        "effect": "x",
        "graveyard": [{"player": "B", "die": "イスルギ"}],
    }
    one = board_at([*summons(), {"type": "summon", "by": "C", "rolls": rolls}, kill], hdr)
    assert said(one, attack) == []
    assert R.apply(one, {"seq": 5, **attack}).battle.defence.player == "C"


def test_gd_3_3_with_four_players_skips_players_who_are_out():
    hdr = header(YAMI, ISURUGI, SUPER, CORE)
    board = board_at(
        [
            *summons(),
            {"type": "summon", "by": "C", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "special"}},
            {
                "type": "summon",
                "by": "D",
                "rolls": {"獣幽士": "special", "闘奇子": "special", "機改人": "special", "凶鎌手": "special"},
            },
        ],
        hdr,
    )
    assert said(board, sp({**ATK, "target": "凶鎌手"})) == []
    assert said(board, sp({**ATK, "target": "凶鎌手", "defender": "C"})) == [
        ("GD-3.3", "no opponent has '凶鎌手' in the deck")
    ]
    assert said(board, sp({**ATK, "target": "爪牙"})) == [("GD-3.3", "no opponent has '爪牙' in the deck")]


def test_violations_carry_the_seq_of_the_move():
    board = board_at(summons())
    found = R.check(
        board, {"seq": 41, "type": "attack", "by": "B", "die": "イスルギ", "target": "ギダン", "face": "special"}
    )
    assert [(v.seq, v.rule) for v in found] == [(41, "GD-3.1")]
    found = R.check(board, {"type": "attack", "by": "B", "die": "イスルギ", "target": "ギダン", "face": "special"})
    assert [(v.seq, v.rule) for v in found] == [(0, "GD-3.1")]
