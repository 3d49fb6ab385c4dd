"""GD-8.2, house rule ``core_handstand``: the 心眼 re-roll's 逆立ち read from 手順３.

Seed: 「特殊目が出れば「合身成功」。それ以外の目が出た場合、その出目での判定となる。「立ち」になった場合は合身成功の
上、無条件勝利である。」 Only 特殊目 and 立ち bring 合身成功; a 逆立ち is 「それ以外の目」, judged as that face
— and a 逆立ち wins outright (2-1 「「立ち」もしくは「逆立ち」の場合は攻撃成功」, 2-2 カウンターアタック) — so
under gandice/2 it wins without fusing. gandice/1 counted it like 立ち (won, and fused).
"""

from __future__ import annotations

from typing import Any

from projections.gandice import RULESETS
from projections.gandice.header import HOUSE_RULES, HOUSE_RULES_V1
from projections.replay import Replay
from tests.gandice.helpers import CORE, ISURUGI, header, nm, pj, run, summons

DEF = {"type": "defend", "by": "B", "die": "紅蓮のイスルギ"}
MOVES: list[dict[str, Any]] = [
    {"type": "summon", "by": "A", "rolls": {"獣幽士": "special", "闘奇子": "side", "機改人": "normal", "凶鎌手": "normal"}},
    summons()[1],
    {"type": "attack", "by": "A", "die": "獣幽士", "target": "紅蓮のイスルギ", "face": "special"},
    nm(DEF, 6),
]
FUSE = {"type": "fuse", "by": "A", "die": "獣幽士", "partners": ["闘奇子", "機改人"]}


def fused(board: Any) -> set[str]:
    return {d["name"] for d in pj(board, "A")["dice"] if d.get("fusion")}


def test_handstand_on_the_re_roll_wins_outright_without_fusing():
    board, v = run(MOVES + [{**FUSE, "face": "handstand"}], header(CORE, ISURUGI))
    assert v == [] and board.last.winner == "attacker" and board.last.reason == "attack_upright"
    assert fused(board) == set()  # 合身成功 only on 特殊目 or 立ち


def test_stand_on_the_re_roll_wins_and_fuses():
    board, v = run(MOVES + [{**FUSE, "face": "stand"}], header(CORE, ISURUGI))
    assert v == [] and board.last.reason == "attack_upright"
    assert fused(board) == {"獣幽士", "闘奇子", "機改人"}


def test_house_rule_stand_counts_handstand_like_stand():
    hdr = header(CORE, ISURUGI, house={"core_handstand": "stand"})
    board, v = run(MOVES + [{**FUSE, "face": "handstand"}], hdr)
    assert v == [] and board.last.reason == "attack_upright"
    assert fused(board) == {"獣幽士", "闘奇子", "機改人"}


def test_versions_keep_what_they_were_recorded_under():
    assert HOUSE_RULES["core_handstand"] == "face" and HOUSE_RULES_V1["core_handstand"] == "stand"
    assert {k for k in HOUSE_RULES if HOUSE_RULES[k] != HOUSE_RULES_V1[k]} == {"core_handstand"}
    assert RULESETS[1].house_rules == HOUSE_RULES_V1 and RULESETS[2].house_rules == HOUSE_RULES
    lines = [{"seq": i, **m} for i, m in enumerate(MOVES + [{**FUSE, "face": "handstand"}], 1)]
    for version, together in ((1, {"獣幽士", "闘奇子", "機改人"}), (2, set())):
        rep = Replay(dict(header(CORE, ISURUGI), rules=f"gandice/{version}"), lines)
        assert rep.ruleset is RULESETS[version]
        assert fused(rep.board(rep.steps)) == together and rep.violations() == ()
