"""Issue 17: where the seed's wording decides a point, quoted sentence by sentence.

Each test quotes the seed sentence (docs/seeds/gandice-reiwa.ja.txt) it rests on; a house
rule is shown with its literal default and its option.
"""

from __future__ import annotations

from pathlib import Path

from projections.gandice.header import HOUSE_RULES
from tests.gandice.helpers import CORE, ISURUGI, YAMI, header, nm, pj, rules, run, state, summons

ROOT = Path(__file__).resolve().parents[2]
SEED = (ROOT / "docs" / "seeds" / "gandice-reiwa.ja.txt").read_text(encoding="utf-8")
DOC = ROOT / "docs" / "rules" / "gandice.md"

ATK = {"type": "attack", "by": "A", "die": "美雅羅", "target": "紅蓮のイスルギ"}
DEF = {"type": "defend", "by": "B", "die": "紅蓮のイスルギ"}
HALF_A = summons({"ギダン": "special", "爪牙": "special", "美雅羅": "normal"})  # 美雅羅 半召喚


# ---------------------------------------------------------------- 17.6 心眼・合身 「立ち」

CORE_STAND = "「立ち」になった場合は合身成功の上、無条件勝利である。"
CORE_MOVES = [
    {
        "type": "summon",
        "by": "A",
        "rolls": {"獣幽士": "special", "闘奇子": "side", "機改人": "normal", "凶鎌手": "normal"},
    },
    summons()[1],
    {"type": "attack", "by": "A", "die": "獣幽士", "target": "紅蓮のイスルギ", "face": "special"},
    nm(DEF, 6),
]
FUSE = {"type": "fuse", "by": "A", "die": "獣幽士", "partners": ["闘奇子", "機改人"]}


def test_core_stand_is_an_outright_win_with_nothing_left_to_roll():
    """手順３: 「立ち」になった場合は合身成功の上、無条件勝利である。"""
    assert CORE_STAND in SEED
    board, v = run([*CORE_MOVES, {**FUSE, "face": "stand"}], header(CORE, ISURUGI))
    assert v == []  # no GD-8.2 demand for the two partner dice' rolls
    assert board.last.winner == "attacker" and board.last.reason == "attack_upright"
    assert "紅蓮のイスルギ" in pj(board, "B")["graveyard"] and board.battle is None
    fused = {d["name"] for d in pj(board, "A")["dice"] if d.get("fusion") == "獣幽士"}
    assert fused == {"獣幽士", "闘奇子", "機改人"}  # 合身成功: the unit stands
    # the same move on the defender's side: the 核 defender wins outright (counter)
    # while a 特殊目 re-roll still needs the two other core dice rolled (手順４)
    _, v = run([*CORE_MOVES, {**FUSE, "face": "special"}], header(CORE, ISURUGI))
    assert rules(v) == ["GD-8.2"] and "rolls" in v[0].message
    _, v = run(
        [*CORE_MOVES, {**FUSE, "face": "special", "rolls": [{"face": "normal", "value": 2}, {"face": "special"}]}],
        header(CORE, ISURUGI),
    )
    assert v == []


def test_core_stand_on_defence_wins_outright_without_rolls():
    """「立ち」になった場合は合身成功の上、無条件勝利である (on defence: a counter)."""
    moves = [
        CORE_MOVES[0],
        summons()[1],
        {"type": "attack", "by": "A", "die": "獣幽士", "target": "紅蓮のイスルギ", "face": "side"},
        {"type": "attack", "by": "B", "die": "紅蓮のイスルギ", "target": "獣幽士", "face": "normal", "value": 6},
        {"type": "defend", "by": "A", "die": "獣幽士", "face": "special"},
        {**FUSE, "face": "stand"},
    ]
    board, v = run(moves, header(CORE, ISURUGI))
    assert v == [] and board.last.winner == "defender" and board.last.reason == "counter"
    assert "紅蓮のイスルギ" in pj(board, "B")["graveyard"]


# ---------------------------------------------------------------- 3-1 / 3-3 召喚状態のまま

WIN_SENTENCE = "勝利したダイスは召喚状態のままデッキへ戻す。"
TIE_SENTENCE = "攻撃側のダイスは召喚状態のままデッキに戻す。"


def test_half_summoned_attacker_that_wins_returns_summoned_by_default():
    """3-1: 勝利したダイスは召喚状態のままデッキへ戻す。 (literal reading: back 召喚)."""
    assert WIN_SENTENCE in SEED and HOUSE_RULES["attacker_returns_summoned"] is True
    board, v = run([*HALF_A, nm(ATK, 6), nm(DEF, 2)])
    assert v == [] and board.last.winner == "attacker"
    assert state(board, "A", "美雅羅") == "summoned"
    # the option: the winner keeps the state it attacked in
    board, v = run([*HALF_A, nm(ATK, 6), nm(DEF, 2)], header(house={"attacker_returns_summoned": False}))
    assert v == [] and board.last.winner == "attacker" and state(board, "A", "美雅羅") == "half"


def test_half_summoned_attacker_that_ties_returns_summoned_by_default():
    """3-3: 攻撃側のダイスは召喚状態のままデッキに戻す。"""
    assert TIE_SENTENCE in SEED
    board, v = run([*HALF_A, nm(ATK, 4), nm(DEF, 4)])
    assert v == [] and board.last.winner == "tie"
    assert state(board, "A", "美雅羅") == "summoned" and state(board, "B", "紅蓮のイスルギ") == "half"
    board, _ = run([*HALF_A, nm(ATK, 4), nm(DEF, 4)], header(house={"attacker_returns_summoned": False}))
    assert state(board, "A", "美雅羅") == "half" and state(board, "B", "紅蓮のイスルギ") == "half"


def test_outright_wins_and_lost_judgements_leave_the_attacker_as_it_was():
    """2-1: 「攻撃側のダイスを元に戻し」 (an outright win puts the die back as it was); 3-2: a
    defended attack returns 「互いのダイスを元の状態のまま」."""
    assert "攻撃側のダイスを元に戻し攻守交替となる。" in SEED
    assert "互いのダイスを元の状態のままデッキに戻す。" in SEED
    board, v = run([*HALF_A, {**ATK, "face": "stand"}])
    assert v == [] and board.last.reason == "attack_upright" and state(board, "A", "美雅羅") == "half"
    board, v = run([*HALF_A, nm(ATK, 2), nm(DEF, 5)])
    assert v == [] and board.last.winner == "defender" and state(board, "A", "美雅羅") == "half"
    board, v = run([*HALF_A, nm(ATK, 5), {**DEF, "face": "side"}])
    assert v == [] and board.last.reason == "defence_side" and state(board, "A", "美雅羅") == "half"


def test_the_winner_then_evolves_in_its_new_state():
    """3-1 then 「開眼！進化チャレンジ」: the evolution die takes the die's state (召喚)."""
    deck = {
        **YAMI,
        "evolution": ["美雅羅・進化"],
        "dice": [{"name": "美雅羅・進化", "kind": "character", "kin": "闇", "evolution": True}],
    }
    evolve = {"type": "evolve", "by": "A", "die": "美雅羅", "into": "美雅羅・進化", "face": "special"}
    board, v = run([*HALF_A, nm(ATK, 6), nm(DEF, 2), evolve], header(deck, ISURUGI))
    assert v == [] and state(board, "A", "美雅羅・進化") == "summoned"


def test_house_rule_is_documented_with_default_and_sentence():
    doc = DOC.read_text(encoding="utf-8")
    assert "`attacker_returns_summoned`" in doc and WIN_SENTENCE in doc and TIE_SENTENCE in doc
    assert CORE_STAND in doc
