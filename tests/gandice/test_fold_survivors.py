"""Issue 18: the fold's branches that mutation testing found unguarded (apply.py), each pinned by
what a player would see on the board."""

from __future__ import annotations

from tests.gandice.helpers import CORE, ISURUGI, R, SUPER, header, nm, pj, rules, run, sp, summons

ATK = {"type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルギ"}
DEF = {"type": "defend", "by": "B", "die": "紅蓮のイスルギ"}


def fold(moves: list[dict], hdr: dict | None = None):
    return run(moves, hdr)[0]


# ---------------------------------------------------------------- whose side an item counts for


def test_an_item_counts_for_the_side_of_the_player_who_used_it():
    both = [*summons(), sp(ATK), sp(DEF)]  # attacker_item step first
    board = fold([*both, nm({"type": "item", "by": "A", "item": "武具・羅"}, 2)])
    assert (board.battle.attack.items, board.battle.defence.items) == (2, 0)
    # the defender jumps the queue (flagged GD-5.1): its die still counts for the defence
    board, v = run([*both, nm({"type": "item", "by": "B", "item": "武具・羅"}, 4)])
    assert rules(v) == ["GD-5.1"]
    assert (board.battle.attack.items, board.battle.defence.items) == (0, 4)
    assert board.battle.step == "attacker_item"  # the attacker still chooses
    # in the defender's item step, a late attacker item counts for the attack
    board = fold([*both, {"type": "item", "by": "A", "item": None}])
    assert board.battle.step == "defender_item"
    board, v = run(
        [*both, {"type": "item", "by": "A", "item": None}, nm({"type": "item", "by": "A", "item": "武具・羅"}, 5)]
    )
    assert rules(v) == ["GD-5.1"]
    assert (board.battle.attack.items, board.battle.defence.items) == (5, 0)
    assert board.battle.step == "defender_item"


def test_an_item_die_that_lands_upright_or_on_its_side_adds_nothing():
    up = [*summons(), sp(ATK), nm(DEF, 6)]
    for face in ("side", "stand", "handstand"):
        board = fold([*up, {"type": "item", "by": "A", "item": "武具・羅", "face": face}])
        assert board.last.attack_total == 3 and board.last.winner == "defender", face


# ---------------------------------------------------------------- rolls of a fused 核 unit

CORE_H = header(CORE, ISURUGI)
CORE_FUSED = [
    {
        "type": "summon",
        "by": "A",
        "rolls": {"獣幽士": "special", "闘奇子": "side", "機改人": "normal", "凶鎌手": "normal"},
    },
    summons()[1],
    sp({**ATK, "die": "獣幽士"}),
    nm(DEF, 6),
    {
        "type": "fuse",
        "by": "A",
        "die": "獣幽士",
        "partners": ["闘奇子", "機改人"],
        "face": "special",
        "rolls": [{"face": "normal", "value": 4}, {"face": "special"}],
    },
    {"type": "attack", "by": "B", "die": "青嵐のイスルギ", "target": "機改人", "face": "side"},
]


def test_a_core_unit_counts_its_two_dice_not_the_recorded_face():
    attack = {"type": "attack", "by": "A", "die": "獣幽士", "target": "青嵐のイスルギ", "face": "normal", "value": 2}
    board = fold([*CORE_FUSED, {**attack, "rolls": [{"face": "normal", "value": 6}, {"face": "special"}]}], CORE_H)
    assert board.battle.attack.value == 9  # 6 + 3, not the recorded 2
    board = fold([*CORE_FUSED, {**attack, "rolls": [{"face": "side"}, {"face": "side"}]}], CORE_H)
    assert board.last.reason == "attack_side" and board.last.attack_total == 0


def test_stray_rolls_on_a_single_die_are_ignored():
    board = fold([*summons(), {**sp(ATK), "rolls": [{"face": "normal", "value": 6}, {"face": "normal", "value": 6}]}])
    assert board.battle.attack.face == "special" and board.battle.attack.value == 3


# ---------------------------------------------------------------- the 進化チャレンジ window


def test_the_evolution_window_survives_an_effect_and_closes_after_one_challenge():
    win = [*summons(), nm(ATK, 6), nm(DEF, 1)]
    evolve = {"type": "evolve", "by": "A", "die": "ギダン", "into": "ギダン・進化", "face": "normal", "value": 2}
    effect = {
        "type": "effect",
        "by": "A",
        "source": "ギダン",
        "effect": "テスト",
        "state": [{"player": "A", "die": "爪牙", "state": "half"}],
    }
    _, v = run([*win, effect, evolve])
    assert v == []  # an effect between the win and the challenge keeps the window open
    _, v = run([*win, evolve, evolve])
    assert rules(v) == ["GD-7.1"]  # one challenge per win
    _, v = run(
        [
            *win,
            {
                "type": "resummon",
                "by": "B",
                "rolls": {"紅蓮のイスルギ": "special", "青嵐のイスルギ": "special", "イスルギ": "special"},
            },
            evolve,
        ]
    )
    assert "GD-7.1" in rules(v)


# ---------------------------------------------------------------- names apply cannot act on


def test_unknown_names_in_fuse_and_effects_fold_without_effect():
    hdr = header(SUPER, ISURUGI)
    moves = [
        {"type": "summon", "by": "A", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "special"}},
        summons()[1],
        sp({**ATK, "die": "武王"}),
        nm(DEF, 4),
    ]
    board = fold(
        [*moves, {"type": "fuse", "by": "A", "die": "武王", "partners": ["謎"], "face": "normal", "value": 6}], hdr
    )
    assert {d["name"] for d in pj(board, "A")["dice"] if d.get("fusion")} == {"武王"}
    base = fold(summons())
    for effect in (
        {"type": "effect", "by": "A", "source": "ギダン", "effect": "x", "take": {"player": "X", "die": "美雅羅"}},
        {"type": "effect", "by": "A", "source": "ギダン", "effect": "x", "graveyard": [{"player": "B", "die": "謎"}]},
        {"type": "effect", "by": "A", "source": "ギダン", "effect": "x", "revive": [{"player": "X", "die": "爪牙"}]},
    ):
        assert R.apply(base, {"seq": 3, **effect}) == base


def test_a_kofuda_adds_its_bonus_and_nothing_without_one():
    up = [*summons(), sp(ATK), nm(DEF, 4)]
    assert fold([*up, {"type": "item", "by": "A", "card": "ギダン"}]).last.attack_total == 3
    assert fold([*up, {"type": "item", "by": "A", "card": "ギダン", "bonus": 2}]).last.attack_total == 5
