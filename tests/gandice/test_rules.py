"""One test (or a few) per rule id of docs/rules/gandice.md, including illegal moves."""

from __future__ import annotations

from tests.gandice.helpers import CORE, ISURUGI, SUPER, YAMI, header, nm, pj, rules, run, sp, state, summons

ATK = {"type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルギ"}
DEF = {"type": "defend", "by": "B", "die": "紅蓮のイスルギ"}


# GD-2: 眼魔召喚
def test_gd_2_1_summon_table_and_order():
    board, v = run(summons({"ギダン": "special", "爪牙": "normal", "美雅羅": "side"}))
    assert v == []
    assert [state(board, "A", d) for d in ("ギダン", "爪牙", "美雅羅")] == [
        "summoned",
        "half",
        "unsummoned",
    ]
    _, v = run([summons()[1]])
    assert rules(v) == ["GD-2.1"]  # B before A
    _, v = run([{"type": "summon", "by": "A", "rolls": {"ギダン": "special"}}])
    assert rules(v) == ["GD-2.1"]  # must roll every character die
    _, v = run(summons() + [summons()[0]])
    assert "GD-2.1" in rules(v)  # twice


def test_gd_2_2_one_stand_summons_all():
    board, v = run(summons(b={"紅蓮のイスルギ": "stand", "青嵐のイスルギ": "side", "イスルギ": "normal"}))
    assert v == [] and pj(board, "B")["summoned"] == [
        "紅蓮のイスルギ",
        "青嵐のイスルギ",
        "イスルギ",
    ]
    board, _ = run(summons(b={"紅蓮のイスルギ": "handstand", "青嵐のイスルギ": "side", "イスルギ": "normal"}))
    assert state(board, "B", "青嵐のイスルギ") == "unsummoned"  # 逆立ち alone does not (default)


def test_gd_2_3_zenkai_summon_wins_at_once():
    board, v = run(summons(b={"紅蓮のイスルギ": "stand", "青嵐のイスルギ": "handstand", "イスルギ": "逆立ち"}))
    assert v == [] and board.winner == "B" and board.reason == "zenkai_summon"
    _, v = run(summons(b={"紅蓮のイスルギ": "stand", "青嵐のイスルギ": "stand", "イスルギ": "stand"}) + [sp(ATK)])
    assert rules(v) == ["GD-9.2"]


# GD-3: 攻撃ターン
def test_gd_3_1_turn_order():
    _, v = run(summons() + [{**sp(ATK), "by": "B", "die": "紅蓮のイスルギ", "target": "ギダン"}])
    assert rules(v) == ["GD-3.1"]
    _, v = run([summons()[0], sp(ATK)])
    assert rules(v) == ["GD-2.1"]
    _, v = run(summons() + [sp(ATK), sp(ATK)])
    assert rules(v) == ["GD-3.1"]  # the first battle still waits for the defence roll


def test_gd_3_2_resummon_rerolls_every_die_left():
    rolls = {"ギダン": "side", "爪牙": "normal", "美雅羅": "special"}
    board, v = run(summons() + [{"type": "resummon", "by": "A", "rolls": rolls}])
    assert v == [] and [state(board, "A", d) for d in rolls] == ["unsummoned", "half", "summoned"]
    assert board.active == "B" and board.turn == 2
    _, v = run(summons() + [{"type": "resummon", "by": "A", "rolls": {"ギダン": "side"}}])
    assert rules(v) == ["GD-3.2"]


def test_gd_3_3_only_character_dice_are_targets():
    _, v = run(summons() + [{**sp(ATK), "target": "呪術・笑童児"}])
    assert rules(v) == ["GD-3.3"]
    _, v = run(summons() + [{**sp(ATK), "target": "武具・羅"}])
    assert rules(v) == ["GD-3.3"]
    _, v = run(summons() + [{**sp(ATK), "target": "凶鎌手"}])
    assert rules(v) == ["GD-3.3"]


def test_gd_3_4_attacker_must_be_summoned_character():
    moves = summons({"ギダン": "side", "爪牙": "special", "美雅羅": "normal"})
    _, v = run(moves + [sp(ATK)])
    assert rules(v) == ["GD-3.4"]
    _, v = run(moves + [{**sp(ATK), "die": "美雅羅"}])
    assert v == []  # 半召喚 may attack by default
    _, v = run(moves + [{**sp(ATK), "die": "武具・羅"}])
    assert rules(v) == ["GD-3.4"]


# GD-4: rolls
def test_gd_4_1_attack_side_fails():
    board, v = run(summons() + [{**ATK, "face": "side"}])
    assert v == [] and board.last.reason == "attack_side" and board.active == "B"
    assert pj(board, "B")["alive"] == 3 and pj(board, "A")["alive"] == 3


def test_gd_4_2_attack_upright_wins_outright():
    for face in ("stand", "handstand"):
        board, v = run(summons() + [{**ATK, "face": face}])
        assert v == [] and pj(board, "B")["graveyard"] == ["紅蓮のイスルギ"] and board.battle is None
        _, v = run(summons() + [{**ATK, "face": face}, sp(DEF)])
        assert rules(v) == ["GD-4.4"]


def test_gd_4_3_unsummoned_cannot_defend():
    moves = summons(b={"紅蓮のイスルギ": "side", "青嵐のイスルギ": "special", "イスルギ": "special"})
    board, v = run(moves + [nm(ATK, 1)])
    assert v == [] and board.last.reason == "undefended" and "紅蓮のイスルギ" in pj(board, "B")["graveyard"]
    _, v = run(moves + [nm(ATK, 1), sp(DEF)])
    assert rules(v) == ["GD-4.3"]


def test_gd_4_4_defence_roll():
    board, v = run(summons() + [sp(ATK), {**DEF, "face": "side"}])
    assert v == [] and board.last.reason == "defence_side" and pj(board, "B")["alive"] == 2
    board, v = run(summons() + [sp(ATK), {**DEF, "face": "stand"}])
    assert v == [] and board.last.reason == "counter" and pj(board, "A")["graveyard"] == ["ギダン"]
    _, v = run(summons() + [sp(ATK), {**sp(DEF), "die": "イスルギ"}])
    assert rules(v) == ["GD-4.4"]
    _, v = run(summons() + [sp(ATK), {**sp(DEF), "by": "A"}])
    assert "GD-4.4" in rules(v)


def test_gd_4_5_normal_face_needs_number():
    _, v = run(summons() + [{**ATK, "face": "normal"}])
    assert rules(v) == ["GD-4.5"]
    _, v = run(summons() + [nm(ATK, 9)])
    assert rules(v) == ["GD-4.5"]


# GD-5: items
def test_gd_5_1_item_step_order():
    _, v = run(summons() + [nm(ATK, 4), sp(DEF), {"type": "item", "by": "A", "item": None}])
    assert rules(v) == ["GD-5.1"]  # attacker rolled a 通常目: no item step for A
    _, v = run(summons() + [sp(ATK), sp(DEF), {"type": "item", "by": "B", "item": None}])
    assert rules(v) == ["GD-5.1"]  # attacker chooses first
    _, v = run(summons() + [sp(ATK), {"type": "item", "by": "A", "item": None}])
    assert rules(v) == ["GD-5.1"]  # before the defence roll


def test_gd_5_2_item_dice_and_5_5_graveyard():
    _, v = run(summons() + [sp(ATK), nm(DEF, 2), {"type": "item", "by": "A", "item": "爪牙", "face": "special"}])
    assert rules(v) == ["GD-5.2"]
    moves = summons() + [
        sp(ATK),
        nm(DEF, 5),
        {"type": "item", "by": "A", "item": "武具・羅", "face": "normal", "value": 3},
    ]
    board, v = run(moves)
    assert v == [] and pj(board, "A")["used_items"] == ["武具・羅"] and board.last.winner == "attacker"
    again = moves + [
        nm({**ATK, "by": "B", "die": "青嵐のイスルギ", "target": "ギダン"}, 1),
        {"type": "defend", "by": "A", "die": "ギダン", "face": "special"},
        {"type": "item", "by": "A", "item": "武具・羅", "face": "special"},
    ]
    _, v = run(again)
    assert rules(v) == ["GD-5.2"]


def test_gd_5_3_bottom_face_bonus():
    board, v = run(
        summons() + [sp(ATK), nm(DEF, 6), {"type": "item", "by": "A", "item": "武具・羅", "face": "special"}]
    )
    assert v == [] and board.last.attack_total == 8  # 3 + 3 + 底面 2


def test_gd_5_4_kofuda_once_per_match():
    use = {"type": "item", "by": "A", "card": "ギダン", "bonus": 3}
    board, v = run(summons() + [sp(ATK), nm(DEF, 5), use])
    assert v == [] and board.last.attack_total == 6 and pj(board, "A")["kofuda_used"] == ["ギダン"]
    later = [
        {
            "type": "resummon",
            "by": "B",
            "rolls": {"青嵐のイスルギ": "special", "イスルギ": "special"},
        },
        sp({**ATK, "target": "イスルギ"}),
        {"type": "defend", "by": "B", "die": "イスルギ", "face": "normal", "value": 1},
    ]
    _, v = run(summons() + [sp(ATK), nm(DEF, 5), use] + later + [use])
    assert rules(v) == ["GD-5.4"]
    _, v = run(summons() + [sp(ATK), nm(DEF, 5), {**use, "card": "爪牙"}])
    assert rules(v) == ["GD-5.4"]


# GD-6: 判定
def test_gd_6_judgement_win_defend_tie():
    board, _ = run(summons() + [nm(ATK, 5), nm(DEF, 4)])
    assert board.last.winner == "attacker" and pj(board, "B")["graveyard"] == ["紅蓮のイスルギ"]
    board, _ = run(summons() + [nm(ATK, 2), nm(DEF, 4)])
    assert board.last.winner == "defender" and pj(board, "A")["alive"] == 3 and pj(board, "B")["alive"] == 3
    board, v = run(summons() + [nm(ATK, 4), nm(DEF, 4)])
    assert v == [] and board.last.winner == "tie" and state(board, "B", "紅蓮のイスルギ") == "half"
    assert state(board, "A", "ギダン") == "summoned"
    half = summons(b={"紅蓮のイスルギ": "normal", "青嵐のイスルギ": "special", "イスルギ": "special"})
    board, v = run(half + [nm(ATK, 4), nm(DEF, 4)])
    assert v == [] and state(board, "B", "紅蓮のイスルギ") == "unsummoned"


# GD-7: 進化チャレンジ
def test_gd_7_1_evolution_challenge():
    win = summons() + [nm(ATK, 6), nm(DEF, 1)]
    evolve = {
        "type": "evolve",
        "by": "A",
        "die": "ギダン",
        "into": "ギダン・進化",
        "face": "special",
    }
    board, v = run(win + [evolve])
    assert v == []
    names = [d["name"] for d in pj(board, "A")["dice"]]
    assert "ギダン・進化" in names and "ギダン" not in names and pj(board, "A")["evolution"] == []
    assert state(board, "A", "ギダン・進化") == "summoned" and pj(board, "A")["alive"] == 3
    board, v = run(win + [{**evolve, "face": "normal", "value": 2}])
    assert v == [] and pj(board, "A")["evolution"] == ["ギダン・進化"]  # no penalty
    _, v = run(summons() + [evolve])
    assert rules(v) == ["GD-7.1"]
    _, v = run(
        win
        + [
            {
                "type": "resummon",
                "by": "B",
                "rolls": {"青嵐のイスルギ": "special", "イスルギ": "special"},
            },
            evolve,
        ]
    )
    assert "GD-7.1" in rules(v)  # only right after the win
    _, v = run(win + [{**evolve, "into": "紅蓮のイスルギ"}])
    assert rules(v) == ["GD-7.1"]


# GD-8: 合身
SUPER_SUMMON = [
    {
        "type": "summon",
        "by": "A",
        "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "normal"},
    },
    summons()[1],
]
S_ATK = {"type": "attack", "by": "A", "die": "武王", "target": "紅蓮のイスルギ", "face": "special"}


def test_gd_8_1_super_fusion_attack():
    fuse = {
        "type": "fuse",
        "by": "A",
        "die": "武王",
        "partners": ["鰐蛇"],
        "face": "normal",
        "value": 6,
    }
    board, v = run(SUPER_SUMMON + [S_ATK, nm(DEF, 5), fuse], header(SUPER, ISURUGI))
    assert v == [] and board.last.attack_total == 6 and board.last.winner == "attacker"
    units = {d["name"]: d.get("fusion") for d in pj(board, "A")["dice"]}
    assert units["武王"] == "武王" and units["鰐蛇"] == "武王" and units.get("雷爪") is None
    _, v = run(SUPER_SUMMON + [S_ATK, nm(DEF, 5), {**fuse, "partners": ["雷爪"]}], header(SUPER, ISURUGI))
    assert rules(v) == ["GD-8.1"]  # 半召喚 partner
    _, v = run(
        SUPER_SUMMON + [S_ATK, nm(DEF, 5), {**fuse, "die": "鰐蛇", "partners": ["武王"]}],
        header(SUPER, ISURUGI),
    )
    assert "GD-8.1" in rules(v)
    again = {"type": "item", "by": "A", "item": "武具・羅", "face": "normal", "value": 2}
    board, v = run(
        SUPER_SUMMON + [S_ATK, nm(DEF, 5), {**fuse, "face": "special"}, again],
        header(SUPER, ISURUGI),
    )
    assert v == [] and board.last.attack_total == 5  # fused 特殊目 opens the item step again


def _fused_defender() -> list[dict]:
    hdr_moves = [
        summons()[0],
        {
            "type": "summon",
            "by": "B",
            "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "side"},
        },
        {**ATK, "target": "武王", "face": "special"},
        {"type": "defend", "by": "B", "die": "武王", "face": "special"},
        {"type": "item", "by": "A", "item": None},
    ]
    return hdr_moves


def test_gd_8_3_fused_defence_outcomes():
    hdr = header(YAMI, SUPER)
    fuse = {
        "type": "fuse",
        "by": "B",
        "die": "武王",
        "partners": ["鰐蛇"],
        "face": "normal",
        "value": 5,
    }
    board, v = run(_fused_defender() + [fuse], hdr)  # 3 vs 5: defended, stays fused
    assert v == [] and board.last.winner == "defender" and state(board, "B", "鰐蛇") == "summoned"
    assert {d.get("fusion") for d in pj(board, "B")["dice"] if d["name"] in ("武王", "鰐蛇")} == {"武王"}
    board, v = run(_fused_defender() + [{**fuse, "value": 3}], hdr)  # tie: unfused, both 召喚
    assert v == [] and board.last.winner == "tie"
    assert all("fusion" not in d for d in pj(board, "B")["dice"]) and state(board, "B", "武王") == "summoned"
    board, v = run(_fused_defender() + [{**fuse, "value": 2}], hdr)  # attacker wins: owner splits
    assert v == [] and board.pending_split == ("B", "武王") and pj(board, "B")["alive"] == 3
    _, v = run(
        _fused_defender() + [{**fuse, "value": 2}, {"type": "resummon", "by": "B", "rolls": {}}],
        hdr,
    )
    assert "GD-8.3" in rules(v)
    _, v = run(
        _fused_defender() + [{**fuse, "value": 2}, {"type": "split", "by": "B", "graveyard": "雷爪"}],
        hdr,
    )
    assert rules(v) == ["GD-8.3"]
    board, v = run(
        _fused_defender() + [{**fuse, "value": 2}, {"type": "split", "by": "B", "graveyard": "鰐蛇"}],
        hdr,
    )
    assert v == [] and pj(board, "B")["graveyard"] == ["鰐蛇"] and state(board, "B", "武王") == "summoned"
    assert board.pending_split is None and pj(board, "B")["alive"] == 2


def test_gd_8_4_fused_super_never_side():
    hdr = header(YAMI, SUPER)
    fuse = {
        "type": "fuse",
        "by": "B",
        "die": "武王",
        "partners": ["鰐蛇"],
        "face": "normal",
        "value": 5,
    }
    later = [{"type": "attack", "by": "B", "die": "武王", "target": "ギダン", "face": "side"}]
    _, v = run(_fused_defender() + [fuse] + later, hdr)
    assert rules(v) == ["GD-8.4"]


def test_gd_8_2_core_fusion():
    hdr = header(CORE, ISURUGI)
    moves = [
        {
            "type": "summon",
            "by": "A",
            "rolls": {
                "獣幽士": "special",
                "闘奇子": "side",
                "機改人": "normal",
                "凶鎌手": "normal",
            },
        },
        summons()[1],
        {
            "type": "attack",
            "by": "A",
            "die": "獣幽士",
            "target": "紅蓮のイスルギ",
            "face": "special",
        },
        nm(DEF, 6),
    ]
    core = {
        "type": "fuse",
        "by": "A",
        "die": "獣幽士",
        "partners": ["闘奇子", "機改人"],
        "face": "special",
        "rolls": [{"face": "normal", "value": 4}, {"face": "special"}],
    }
    board, v = run(moves + [core], hdr)
    assert v == [] and board.last.attack_total == 7 and board.last.winner == "attacker"
    assert {d["name"] for d in pj(board, "A")["dice"] if d.get("fusion") == "獣幽士"} == {
        "獣幽士",
        "闘奇子",
        "機改人",
    }
    board, v = run(moves + [{**core, "face": "normal", "value": 2, "rolls": None}], hdr)
    assert v == [] and board.last.winner == "defender" and all("fusion" not in d for d in pj(board, "A")["dice"])
    board, v = run(moves + [{**core, "face": "stand"}], hdr)
    assert v == [] and board.last.reason == "attack_upright"
    _, v = run(moves + [{**core, "partners": ["闘奇子"]}], hdr)
    assert "GD-8.2" in rules(v)
    _, v = run(moves + [{**core, "rolls": None}], hdr)
    assert rules(v) == ["GD-8.2"]
    # the fused 核 unit then always rolls two dice
    nxt = [
        nm({**ATK, "by": "B", "die": "青嵐のイスルギ", "target": "機改人"}, 5),
        {
            "type": "defend",
            "by": "A",
            "die": "機改人",
            "face": "normal",
            "value": 9,
            "rolls": [{"face": "normal", "value": 6}, {"face": "special"}],
        },
    ]
    board, v = run(moves + [core] + nxt, hdr)
    assert v == [] and board.last.winner == "defender" and board.last.defence_total == 9


# GD-9: 勝利
def test_gd_9_1_win_and_three_players():
    hdr = header(YAMI, ISURUGI, SUPER)
    moves = summons() + [
        {
            "type": "summon",
            "by": "C",
            "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "special"},
        }
    ]
    board, v = run(moves, hdr)
    assert v == [] and board.phase == "battle"
    kills = []
    for target in ("武王", "鰐蛇", "雷爪"):  # A, B, C rotate; A and B pick off C's dice
        kills += [
            {
                "type": "attack",
                "by": "A",
                "die": "ギダン",
                "target": target,
                "defender": "C",
                "face": "stand",
            },
            {
                "type": "attack",
                "by": "B",
                "die": "イスルギ",
                "target": "爪牙",
                "defender": "A",
                "face": "side",
            },
            {
                "type": "resummon",
                "by": "C",
                "rolls": {d: "special" for d in ("武王", "鰐蛇", "雷爪") if d not in kills_done(target)},
            },
        ]
    board, v = run(moves + kills[:-1], hdr)
    assert v == [] and pj(board, "C")["alive"] == 0 and board.phase == "battle" and board.active == "A"  # C is skipped
    assert board.standing() == ("A", "B")


def kills_done(current: str) -> set[str]:
    order = ["武王", "鰐蛇", "雷爪"]
    return set(order[: order.index(current) + 1])


def test_gd_9_2_no_moves_after_result():
    win = [{**ATK, "target": t, "face": "stand"} for t in ()]
    assert win == []
    board, v = run(
        summons(b={"紅蓮のイスルギ": "stand", "青嵐のイスルギ": "stand", "イスルギ": "stand"})
        + [
            {
                "type": "resummon",
                "by": "A",
                "rolls": {"ギダン": "special", "爪牙": "special", "美雅羅": "special"},
            }
        ]
    )
    assert "GD-9.2" in rules(v) and board.winner == "B"


# GD-10: printed abilities
def test_gd_10_1_effects_cite_a_special_item():
    betray = {
        "type": "effect",
        "by": "B",
        "source": "呪術・笑童児",
        "effect": "裏切り",
        "take": {"player": "A", "die": "美雅羅"},
    }
    base = summons() + [sp(ATK), sp(DEF), {"type": "item", "by": "A", "item": None}]
    board, v = run(base + [{"type": "item", "by": "B", "item": "呪術・笑童児", "face": "special"}, betray])
    assert v == [] and pj(board, "B")["alive"] == 4 and pj(board, "A")["alive"] == 2
    _, v = run(
        base
        + [
            {"type": "item", "by": "B", "item": "呪術・笑童児", "face": "normal", "value": 1},
            betray,
        ]
    )
    assert rules(v) == ["GD-10.1"]
    _, v = run(summons() + [betray])
    assert rules(v) == ["GD-10.1"]
    _, v = run(
        base
        + [
            {"type": "item", "by": "B", "item": "呪術・笑童児", "face": "special"},
            {**betray, "take": {"player": "A", "die": "凶鎌手"}},
        ]
    )
    assert rules(v) == ["GD-10.1"]


def test_betrayal_of_last_character_wins():
    one_left = [nm({**ATK, "die": "ギダン", "target": "紅蓮のイスルギ"}, 6)]
    assert one_left
    hdr = header({**YAMI}, ISURUGI)
    moves = summons() + [
        {
            "type": "effect",
            "by": "A",
            "source": "ギダン",
            "effect": "テスト",
            "graveyard": [{"player": "B", "die": d} for d in ("紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ")],
        }
    ]
    board, v = run(moves, hdr)
    assert v == [] and board.winner == "A" and board.reason == "all_graveyard"


def test_gd_10_1_fused_die_cannot_change_sides():
    hdr = header(YAMI, SUPER)
    fuse = {
        "type": "fuse",
        "by": "B",
        "die": "武王",
        "partners": ["鰐蛇"],
        "face": "normal",
        "value": 5,
    }
    take = {
        "type": "effect",
        "by": "A",
        "source": "ギダン",
        "effect": "テスト",
        "take": {"player": "B", "die": "鰐蛇"},
    }
    _, v = run(_fused_defender() + [fuse, take], hdr)
    assert rules(v) == ["GD-10.1"]
