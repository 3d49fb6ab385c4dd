"""Issue 18: every rule id of docs/rules/gandice.md fires in a test, beside the same kind of move
legal; the branches mutation testing found unguarded each fire with their own message.

The tables below are the proof: ``test_every_documented_id_is_in_a_table`` fails when the doc
gains an id that no case here makes fire (and ``test_every_id_is_named_by_a_test_file`` when no
test file of the package names it at all).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.gandice.helpers import CORE, ISURUGI, R, SUPER, YAMI, at, header, nm, pj, sp, state, summons

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "gandice.md"
DOC_IDS = sorted(set(re.findall(r"\*\*(GD-\d+\.\d+)\*\*", DOC.read_text(encoding="utf-8"))))

ATK = {"type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルギ"}
DEF = {"type": "defend", "by": "B", "die": "紅蓮のイスルギ"}
S = summons()


def said(board: Any, move: dict) -> list[tuple[str, str]]:
    return [(v.rule, v.message) for v in R.check(board, {"seq": 99, **move})]


# ---------------------------------------------------------------- scenarios

SUPER_H = header(SUPER, ISURUGI)
SUPER_S = [
    {"type": "summon", "by": "A", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "normal"}},
    S[1],
]
SUPER_BATTLE = [*SUPER_S, sp({**ATK, "die": "武王"}), nm(DEF, 4)]
SUPER_FUSE = {"type": "fuse", "by": "A", "die": "武王", "partners": ["鰐蛇"], "face": "normal", "value": 5}
SUPER_FUSED = [*SUPER_BATTLE, {**SUPER_FUSE, "value": 6}]  # 6 vs 4: the unit wins and stays fused

CORE_H = header(CORE, ISURUGI)
CORE_S = [
    {
        "type": "summon",
        "by": "A",
        "rolls": {"獣幽士": "special", "闘奇子": "side", "機改人": "normal", "凶鎌手": "normal"},
    },
    S[1],
]
CORE_BATTLE = [*CORE_S, sp({**ATK, "die": "獣幽士"}), nm(DEF, 6)]
CORE_FUSE = {
    "type": "fuse",
    "by": "A",
    "die": "獣幽士",
    "partners": ["闘奇子", "機改人"],
    "face": "special",
    "rolls": [{"face": "normal", "value": 4}, {"face": "special"}],
}
CORE_FUSED = [*CORE_BATTLE, CORE_FUSE]  # 7 vs 6: the core unit wins; B's turn

BETRAY = {
    "type": "effect",
    "by": "B",
    "source": "呪術・笑童児",
    "effect": "裏切り",
    "take": {"player": "A", "die": "美雅羅"},
}
CURSE_UP = [
    *S,
    sp(ATK),
    sp(DEF),
    {"type": "item", "by": "A", "item": None},
    {"type": "item", "by": "B", "item": "呪術・笑童児", "face": "special"},
]

SUPER_DEF_H = header(YAMI, SUPER)
SUPER_DEF = [
    S[0],
    {"type": "summon", "by": "B", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "side"}},
    sp({**ATK, "target": "武王"}),
    {"type": "defend", "by": "B", "die": "武王", "face": "special"},
    {"type": "item", "by": "A", "item": None},
]
SUPER_DEF_FUSE = {"type": "fuse", "by": "B", "die": "武王", "partners": ["鰐蛇"], "face": "normal", "value": 2}

# id -> list of (moves before, header, the move that breaks the rule, message part, legal twin,
#               moves before the twin or None for the same position)
Case = tuple[list[dict], dict | None, dict, str, dict, list[dict] | None]
FIRES: dict[str, list[Case]] = {
    "GD-2.1": [
        ([], None, {"type": "summon", "by": "B", "rolls": S[1]["rolls"]}, "A rolls the 眼魔召喚 before B", S[0], None),
        ([], None, {"type": "summon", "by": "A", "rolls": {"ギダン": "special"}}, "every character die", S[0], None),
        (S[:1], None, S[0], "A already made the opening 眼魔召喚 roll", S[1], None),
        (S[:1], None, sp(ATK), "every player makes the 眼魔召喚 roll before the first attack turn", sp(ATK), S),
    ],
    "GD-3.1": [
        (
            S,
            None,
            sp({**ATK, "by": "B", "die": "イスルギ", "target": "ギダン"}),
            "it is A's attack turn, not B's",
            sp(ATK),
            None,
        ),
        (
            [*S, sp(ATK)],
            None,
            sp({**ATK, "die": "爪牙"}),
            "the battle is not over (waiting for defend)",
            sp({**ATK, "die": "爪牙"}),
            S,
        ),
        (S, None, {**sp(ATK), "by": "Z"}, "unknown player 'Z'", sp(ATK), None),
    ],
    "GD-3.2": [
        (
            S,
            None,
            {"type": "resummon", "by": "A", "rolls": {"ギダン": "side"}},
            "every character die left in the deck: ギダン, 爪牙, 美雅羅",
            {"type": "resummon", "by": "A", "rolls": {"ギダン": "side", "爪牙": "side", "美雅羅": "side"}},
            None,
        ),
    ],
    "GD-3.3": [
        (
            S,
            None,
            sp({**ATK, "target": "武具・羅"}),
            "武具・羅 is a weapon die: only character dice can be attacked",
            sp(ATK),
            None,
        ),
        (S, None, sp({**ATK, "target": "鰐蛇"}), "no opponent has '鰐蛇' in the deck", sp(ATK), None),
    ],
    "GD-3.4": [
        (
            S,
            None,
            sp({**ATK, "die": "武具・羅"}),
            "武具・羅 is a weapon die; only character dice attack",
            sp(ATK),
            None,
        ),
        (
            S,
            None,
            sp({**ATK, "die": "紅蓮のイスルギ"}),
            "A has no die '紅蓮のイスルギ' in the deck to attack with",
            sp(ATK),
            None,
        ),
        (
            summons({"ギダン": "side", "爪牙": "special", "美雅羅": "special"}),
            None,
            sp(ATK),
            "ギダン is 未召喚 and cannot attack",
            sp({**ATK, "die": "爪牙"}),
            None,
        ),
    ],
    "GD-4.3": [
        (
            [*summons(b={"紅蓮のイスルギ": "side", "青嵐のイスルギ": "special", "イスルギ": "special"}), nm(ATK, 1)],
            None,
            sp(DEF),
            "紅蓮のイスルギ was 未召喚 and cannot defend",
            sp(DEF),
            [*S, nm(ATK, 1)],
        ),
    ],
    "GD-4.4": [
        (
            S,
            None,
            sp({**DEF, "by": "A", "die": "ギダン"}),
            "there is no attack to defend against",
            sp(DEF),
            [*S, sp(ATK)],
        ),
        (
            [*S, sp(ATK)],
            None,
            sp({**DEF, "die": "イスルギ"}),
            "the attacked die 紅蓮のイスルギ rolls in defence",
            sp(DEF),
            None,
        ),
        ([*S, sp(ATK)], None, sp({**DEF, "by": "A"}), "B defends, not A", sp(DEF), None),
        (
            [*S, sp(ATK), sp(DEF)],
            None,
            sp(DEF),
            "the defence roll is done (waiting for attacker_item)",
            sp(DEF),
            [*S, sp(ATK)],
        ),
    ],
    "GD-4.5": [
        (S, None, {**ATK, "face": "normal"}, "a 通常目 needs its number 1-6, got None", nm(ATK, 6), None),
        (S, None, nm(ATK, 7), "got 7", nm(ATK, 1), None),
    ],
    "GD-5.1": [
        (
            [*S, nm(ATK, 4), sp(DEF)],
            None,
            {"type": "item", "by": "A", "item": None},
            "B chooses an item first (defender_item)",
            {"type": "item", "by": "B", "item": None},
            None,
        ),
        (
            [*S, nm(ATK, 4), nm(DEF, 2)],
            None,
            {"type": "item", "by": "B", "item": None},
            "items are used only after a 特殊目",
            {"type": "item", "by": "B", "item": None},
            [*S, nm(ATK, 4), sp(DEF)],
        ),
    ],
    "GD-5.2": [
        (
            [*S, sp(ATK), nm(DEF, 5)],
            None,
            nm({"type": "item", "by": "A", "item": "ギダン"}, 2),
            "ギダン is a character die, not a 武具 or 呪術 die",
            nm({"type": "item", "by": "A", "item": "武具・羅"}, 2),
            None,
        ),
        (
            [*S, sp(ATK), nm(DEF, 5)],
            None,
            nm({"type": "item", "by": "A", "item": "武具・羅#2"}, 2),
            "A has no unused item die '武具・羅#2'",
            nm({"type": "item", "by": "A", "item": "武具・羅"}, 2),
            None,
        ),
        (
            [*S, sp(ATK), nm(DEF, 5)],
            None,
            {"type": "item", "by": "A", "item": "武具・羅"},
            "an item die roll needs its face",
            sp({"type": "item", "by": "A", "item": "武具・羅"}),
            None,
        ),
    ],
    "GD-5.4": [
        (
            [*S, sp(ATK), nm(DEF, 5)],
            None,
            {"type": "item", "by": "A", "card": "爪牙"},
            "爪牙 is not one of A's 小札絵",
            {"type": "item", "by": "A", "card": "ギダン", "bonus": 1},
            None,
        ),
    ],
    "GD-7.1": [
        (
            [*S, nm(ATK, 6), nm(DEF, 1)],
            None,
            {"type": "evolve", "by": "A", "die": "爪牙", "into": "ギダン・進化", "face": "special"},
            "a 進化チャレンジ comes only right after that die won an attack",
            {"type": "evolve", "by": "A", "die": "ギダン", "into": "ギダン・進化", "face": "special"},
            None,
        ),
    ],
    "GD-8.1": [
        (SUPER_BATTLE, SUPER_H, {**SUPER_FUSE, "partners": ["雷爪"]}, "partner 雷爪 must be 召喚", SUPER_FUSE, None),
    ],
    "GD-8.2": [
        (
            CORE_BATTLE,
            CORE_H,
            {**CORE_FUSE, "rolls": None},
            "after 合身成功 the two other core dice are rolled",
            CORE_FUSE,
            None,
        ),
    ],
    "GD-8.3": [
        (
            [*SUPER_DEF, SUPER_DEF_FUSE],
            SUPER_DEF_H,
            {"type": "split", "by": "A", "graveyard": "ギダン"},
            "A has no beaten 合身 unit to split",
            {"type": "split", "by": "B", "graveyard": "鰐蛇"},
            None,
        ),
        (
            [*SUPER_DEF, SUPER_DEF_FUSE],
            SUPER_DEF_H,
            {"type": "split", "by": "B", "graveyard": "雷爪"},
            "choose one of 武王, 鰐蛇",
            {"type": "split", "by": "B", "graveyard": "武王"},
            None,
        ),
        (
            [*SUPER_DEF, SUPER_DEF_FUSE],
            SUPER_DEF_H,
            {"type": "resummon", "by": "B", "rolls": {"雷爪": "special"}},
            "B splits the beaten 合身 unit first",
            {"type": "resummon", "by": "B", "rolls": {"鰐蛇": "special", "雷爪": "special"}},
            [*SUPER_DEF, SUPER_DEF_FUSE, {"type": "split", "by": "B", "graveyard": "武王"}],
        ),
    ],
    "GD-8.4": [
        (
            [*SUPER_FUSED, nm({"type": "attack", "by": "B", "die": "青嵐のイスルギ", "target": "武王"}, 5)],
            SUPER_H,
            {"type": "defend", "by": "A", "die": "武王", "face": "side"},
            "a fused 超眼 die has no 横倒し",
            nm({"type": "defend", "by": "A", "die": "武王"}, 2),
            None,
        ),
    ],
    "GD-9.2": [
        (
            [{"type": "summon", "by": "A", "rolls": {"ギダン": "stand", "爪牙": "stand", "美雅羅": "handstand"}}],
            None,
            S[1],
            "the match is over (A won: zenkai_summon)",
            S[1],
            S[:1],
        ),
    ],
    "GD-10.1": [
        (
            [
                *S,
                sp(ATK),
                sp(DEF),
                {"type": "item", "by": "A", "item": None},
                nm({"type": "item", "by": "B", "item": "呪術・笑童児"}, 1),
            ],
            None,
            BETRAY,
            "呪術・笑童児's ability needs its 特殊目 in this battle",
            BETRAY,
            CURSE_UP,
        ),
    ],
}
# header rules: (bad deck for A, message part)
HEADER: dict[str, tuple[dict[str, Any], str]] = {
    "GD-1.1": ({**YAMI, "cards": YAMI["cards"][:4]}, "GD-1.1: a deck is 5 dice, got 4"),
    "GD-1.2": (
        {**YAMI, "evolution": ["イスルギ"]},
        "GD-1.2: イスルギ is not 同族 (kin) with a character die of the deck",
    ),
    "GD-1.3": ({**YAMI, "kofuda": ["ギダン", "爪牙", "美雅羅", "ギダン#2"]}, "GD-1.3: at most 3 小札絵, got 4"),
}


def board_at(moves: list[dict], hdr: dict | None) -> Any:
    board = R.initial_board(hdr or header())
    for i, m in enumerate(moves, 1):
        board = R.apply(board, {"seq": i, **m})
    return board


CASES = [(rule, i, case) for rule, cases in FIRES.items() for i, case in enumerate(cases)]


@pytest.mark.parametrize(("rule", "i", "case"), CASES, ids=[f"{r}-{i}" for r, i, _ in CASES])
def test_rule_fires_and_its_twin_is_legal(rule, i, case):
    before, hdr, bad, message, good, good_before = case
    found = said(board_at(before, hdr), bad)
    assert any(r == rule and message in m for r, m in found), found
    twin = board_at(good_before if good_before is not None else before, hdr)
    assert good["type"] == bad["type"], "the twin is the same kind of move"
    assert said(twin, good) == []


@pytest.mark.parametrize("rule", sorted(HEADER))
def test_header_rule_fires_and_the_shipped_deck_is_legal(rule):
    deck, message = HEADER[rule]
    assert message in [e.problem for e in R.validate_header(header(deck, ISURUGI))]
    assert R.validate_header(header(YAMI, ISURUGI)) == []


def test_gd_1_4_player_count():
    assert "GD-1.4: 2 to 4 players, got 1" in [e.problem for e in R.validate_header(header(YAMI))]
    five = header(YAMI, ISURUGI, YAMI, ISURUGI, YAMI)
    assert "GD-1.4: 2 to 4 players, got 5" in [e.problem for e in R.validate_header(five)]
    assert R.validate_header(header(YAMI, ISURUGI, YAMI, ISURUGI)) == []


# ---------------------------------------------------------------- rules the fold carries out


def _gd_2_2() -> None:  # one 立ち summons the whole roll; without one, each die by its face
    b = at(summons({"ギダン": "stand", "爪牙": "normal", "美雅羅": "side"}))
    assert state(b, "A", "美雅羅") == "summoned"
    b = at(summons({"ギダン": "special", "爪牙": "normal", "美雅羅": "side"}))
    assert state(b, "A", "美雅羅") == "unsummoned"


def _gd_2_3() -> None:
    b = at([{"type": "summon", "by": "A", "rolls": {"ギダン": "stand", "爪牙": "handstand", "美雅羅": "stand"}}])
    assert R.result(b).reason == "zenkai_summon"
    b = at([{"type": "summon", "by": "A", "rolls": {"ギダン": "stand", "爪牙": "handstand", "美雅羅": "special"}}])
    assert R.result(b) is None


def _gd_4_1() -> None:
    b = at([*S, {**ATK, "face": "side"}])
    assert b.last.reason == "attack_side" and pj(b, "B")["alive"] == 3 and b.active == "B"


def _gd_4_2() -> None:
    b = at([*S, {**ATK, "face": "handstand"}])
    assert b.last.reason == "attack_upright" and pj(b, "B")["graveyard"] == ["紅蓮のイスルギ"]
    assert at([*S, sp(ATK)]).battle is not None


def _gd_5_3() -> None:
    up = [*S, sp(ATK), nm(DEF, 6)]
    b = at([*up, sp({"type": "item", "by": "A", "item": "武具・羅"})])
    assert b.last.attack_total == 8  # 3 + 3 + 底面 2
    b = at([*up, {**sp({"type": "item", "by": "A", "item": "武具・羅"}), "bonus": 0}])
    assert b.last.attack_total == 6


def _gd_5_5() -> None:
    b = at([*S, sp(ATK), nm(DEF, 6), nm({"type": "item", "by": "A", "item": "武具・羅"}, 1)])
    assert pj(b, "A")["used_items"] == ["武具・羅"] and "武具・羅" not in pj(b, "A")["items"]


def _gd_6_1() -> None:
    assert at([*S, nm(ATK, 5), nm(DEF, 4)]).last.winner == "attacker"
    assert at([*S, nm(ATK, 4), nm(DEF, 5)]).last.winner == "defender"


def _gd_6_2() -> None:
    b = at([*S, nm(ATK, 5), nm(DEF, 4)])
    assert pj(b, "B")["graveyard"] == ["紅蓮のイスルギ"] and state(b, "A", "ギダン") == "summoned"


def _gd_6_3() -> None:
    b = at([*S, nm(ATK, 4), nm(DEF, 5)])
    assert pj(b, "A")["alive"] == 3 and pj(b, "B")["alive"] == 3
    assert state(b, "A", "ギダン") == "summoned" and state(b, "B", "紅蓮のイスルギ") == "summoned"


def _gd_6_4() -> None:
    b = at([*S, nm(ATK, 4), nm(DEF, 4)])
    assert state(b, "B", "紅蓮のイスルギ") == "half"
    b = at([*S, nm(ATK, 4), nm(DEF, 3)])
    assert "紅蓮のイスルギ" in pj(b, "B")["graveyard"]


def _gd_9_1() -> None:
    hdr = header(YAMI, ISURUGI)
    kill = [{"player": "B", "die": d} for d in ("紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ")]
    b = at([*S, {"type": "effect", "by": "A", "source": "ギダン", "effect": "x", "graveyard": kill}], hdr)
    assert R.result(b).winner == "A" and R.result(b).reason == "all_graveyard"
    b = at([*S, {"type": "effect", "by": "A", "source": "ギダン", "effect": "x", "graveyard": kill[:2]}], hdr)
    assert R.result(b) is None


BEHAVIOUR: dict[str, Callable[[], None]] = {
    "GD-2.2": _gd_2_2,
    "GD-2.3": _gd_2_3,
    "GD-4.1": _gd_4_1,
    "GD-4.2": _gd_4_2,
    "GD-5.3": _gd_5_3,
    "GD-5.5": _gd_5_5,
    "GD-6.1": _gd_6_1,
    "GD-6.2": _gd_6_2,
    "GD-6.3": _gd_6_3,
    "GD-6.4": _gd_6_4,
    "GD-9.1": _gd_9_1,
}


@pytest.mark.parametrize("rule", sorted(BEHAVIOUR))
def test_rule_carried_out_by_the_fold(rule):
    BEHAVIOUR[rule]()


def test_every_documented_id_is_in_a_table():
    covered = set(FIRES) | set(HEADER) | set(BEHAVIOUR) | {"GD-1.4"}
    assert DOC_IDS and set(DOC_IDS) == covered, (set(DOC_IDS) - covered, covered - set(DOC_IDS))


def test_every_id_is_named_by_a_test_file():
    text = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))
    missing = [rule for rule in DOC_IDS if rule not in text]
    assert missing == [], missing


def test_every_id_the_checks_cite_is_documented():
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "projections" / "gandice").rglob("*.py"))
    cited = set(re.findall(r"GD-\d+\.\d+", source))
    assert cited <= set(DOC_IDS), cited - set(DOC_IDS)
