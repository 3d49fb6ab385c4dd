"""Notation (issue 14): every move type as its players say it, in Japanese and in English, read
from the board before the move, with the players' names; never a raw dict, never an error."""

from __future__ import annotations

import random
import re

import pytest

from projections.base import META_TYPES
from projections.gurren_lagann import RULESET as R
from projections.gurren_lagann.moves import MOVE_TYPES

from .helpers import fold, header
from .test_rules import BATTLE, SETUP, dp, end, mv, put


def named(house: dict | None = None) -> dict:
    h = header(house)
    h["players"][0]["name"], h["players"][1]["name"] = "山田", "佐藤"
    return h


H = named()
TRAP_TURN = [*SETUP[:7], {"type": "skill", "by": "B", "card": "待ち伏せ", "set": True}]


def say(moves: list[dict], move: dict, lang: str = "ja") -> str:
    board, _ = fold(H, moves)
    return R.describe(board, {"seq": len(moves) + 1, **move}, lang)


# (type, moves before, the move, Japanese, English)
CASES = [
    ("draw", SETUP[:-1], {"type": "draw", "by": "A", "cards": ["グレンラガン"]},
     "山田 ドロー: グレンラガン", "山田 draws グレンラガン"),
    ("draw", SETUP[:5], {"type": "draw", "by": "B", "count": 1},
     "佐藤 ドロー 1枚 (非公開)", "佐藤 draws 1 card (unseen)"),
    ("reveal", [], {"type": "reveal", "by": "B", "cards": ["エンキ", "ビャコウ"]},
     "佐藤 手札公開: エンキ、ビャコウ", "佐藤 reveals from hand: エンキ, ビャコウ"),
    ("deploy", SETUP[:2], dp("A", "ラガン", "b1"), "山田 出陣: ラガン → b1", "山田 deploys ラガン to b1"),
    ("deploy", SETUP[:2], dp("A", "ラガン", "c1"), "山田 出陣: ラガン → c1 (本陣)",
     "山田 deploys ラガン to c1 (headquarters)"),
    ("support", SETUP, {"type": "support", "by": "A", "card": "カミナ", "target": "グレン"},
     "山田 援護: カミナ → グレン", "山田 supports グレン with カミナ"),
    ("equip", SETUP, {"type": "equip", "by": "A", "card": "グレンブーメラン", "target": "グレン"},
     "山田 装備: グレンブーメラン → グレン", "山田 equips グレン with グレンブーメラン"),
    ("skill", BATTLE, {"type": "skill", "by": "A", "card": "ドリル一閃", "user": "グレン"},
     "山田 スキル: ドリル一閃 (グレン)", "山田 uses the skill ドリル一閃 (by グレン)"),
    ("skill", SETUP[:7], {"type": "skill", "by": "B", "card": "待ち伏せ", "set": True},
     "佐藤 罠をセット: 待ち伏せ", "佐藤 sets a trap: 待ち伏せ"),
    ("skill", SETUP[:7], {"type": "skill", "by": "B", "card": None, "set": True},
     "佐藤 罠をセット (伏せ札)", "佐藤 sets a trap face down"),
    ("skill", SETUP, {"type": "skill", "by": "A", "card": "気合い", "user": "ラガン", "drew": 1},
     "山田 スキル: 気合い (ラガン) — 1枚ドロー", "山田 uses the skill 気合い (by ラガン) — draws 1 card"),
    ("trap", TRAP_TURN, {"type": "trap", "by": "B", "card": "待ち伏せ", "power": 2},
     "佐藤 罠発動: 待ち伏せ — パワー+2", "佐藤 springs the trap 待ち伏せ — power +2"),
    ("move", SETUP, mv("A", ["グレン"], "d1", "d2", "d3"), "グレン d1→d2→d3", "グレン d1→d2→d3"),
    ("move", [*SETUP, put("B", "エンキ", "d3")], mv("A", ["グレン"], "d1", "d2", "d3"),
     "グレン d1→d2→d3 (エンキに攻撃)", "グレン d1→d2→d3 (attacks エンキ)"),
    ("move", [*SETUP, put("A", "グレン", "d5")], mv("A", ["グレン"], "d5", "c5", "c6"),
     "グレン d5→c5→c6 (本陣侵入)", "グレン d5→c5→c6 (into the headquarters)"),
    ("move", [*SETUP, put("A", "グレン", "e5")], mv("A", ["グレン"], "e5", "e6"),
     "グレン e5→e6 (出陣ゾーン侵入)", "グレン e5→e6 (into the deploy zone)"),
    ("move", [*SETUP, put("A", "グレン", "a6")], mv("A", ["グレン"], "a6", "b6"),
     "グレン a6→b6 (ガンメンに攻撃)", "グレン a6→b6 (attacks ガンメン)"),
    ("move", [*SETUP, put("A", "グレン", "e6")], mv("A", ["グレン"], "e6", "e5"), "グレン e6→e5", "グレン e6→e5"),
    ("battle", BATTLE, {"type": "battle", "by": "A", "attack": 3, "defend": 4},
     "バトル解決 d3: グレン 3 対 エンキ 4 → 防御側の勝利", "battle at d3: グレン 3 vs エンキ 4 → the defender wins"),
    ("battle", [*SETUP, put("A", "グレン", "d5"), mv("A", ["グレン"], "d5", "d6")],
     {"type": "battle", "by": "A", "attack": 5, "defend": 4, "outcome": "attacker"},
     "バトル解決 d6: グレン 5 対 エンキ 4 → 攻撃側の勝利 (出陣ゾーン侵入)",
     "battle at d6: グレン 5 vs エンキ 4 → the attacker wins (into the deploy zone)"),
    ("effect", [*SETUP, put("A", "ラガン", "d1")],
     {"type": "effect", "by": "A", "card": "グレンラガン", "text": "合体", "destroyed": ["A:ラガン", "A:グレン"],
      "deployed": {"card": "グレンラガン", "square": "d1"}},
     "山田 効果: グレンラガン「合体」 — 破壊: ラガン、グレン / 出陣: グレンラガン → d1",
     '山田 effect of グレンラガン "合体" — destroys ラガン, グレン; deploys グレンラガン to d1'),
    ("effect", SETUP, {"type": "effect", "by": "A", "card": "グレン", "destroyed": ["エンキ"], "damage": {"B": 1},
                       "moved": {"ラガン": "b2"}, "readied": ["グレン"], "exhausted": ["ラガン"],
                       "discarded": [None], "drew": ["カミナ", None]},
     "山田 効果: グレン — 破壊: 佐藤のエンキ / 移動: ラガン→b2 / ダメージ: 佐藤に1 / ドロー: カミナ、非公開 1枚"
     " / 捨て札: 非公開 1枚 / 未行動に: グレン / 行動完了に: ラガン",
     "山田 effect of グレン — destroys 佐藤's エンキ; moves ラガン to b2; deals 1 damage to 佐藤; draws カミナ, 1 unseen"
     " card; discards 1 unseen card; readies グレン; exhausts ラガン"),
    ("end_turn", SETUP[:2], end("A"), "山田 ターン終了", "山田 ends the turn"),
    ("end_turn", [*SETUP[:5], {"type": "draw", "by": "B", "count": 1}], end("B", ["ビャコウ"]),
     "佐藤 ターン終了 (手札調整で捨て札: ビャコウ)", "佐藤 ends the turn (discards ビャコウ down to the hand limit)"),
]


@pytest.mark.parametrize(("kind", "before", "move", "ja", "en"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_notation(kind, before, move, ja, en):
    assert move["type"] == kind
    assert say(before, move) == ja
    assert say(before, move, "en") == en
    assert say(before, move, "xx") == ja  # anything but "en" is the default, Japanese


def test_every_move_type_has_a_notation_case():
    assert {c[0] for c in CASES} == set(MOVE_TYPES)


def test_the_players_names_not_the_seats():
    assert say(SETUP[:2], end("A")).startswith("山田")
    board, _ = fold(header(), [])  # a header without names: the seat ids
    assert R.describe(board, {"seq": 1, **end("A")}) == "A ターン終了"


def test_read_from_the_board_before_the_move():
    attack = mv("A", ["グレン"], "d1", "d2", "d3")
    assert say(SETUP, attack) == "グレン d1→d2→d3"
    assert say([*SETUP, put("B", "エンキ", "d3")], attack).endswith("(エンキに攻撃)")


RAW = re.compile(r"[{}\[\]]|'card'|None|True|False")


def test_never_raises_nor_shows_raw_values():
    """Generated matches, every move also played on a wrong board, and illegal or unknown names."""
    for seed in range(4):
        hdr, moves = R.generate(random.Random(seed), f"n{seed}")
        board = R.initial_board(hdr)
        empty = R.initial_board(hdr)
        for m in moves:
            if m["type"] in META_TYPES:
                continue
            for b in (board, empty):
                for lang in ("ja", "en"):
                    text = R.describe(b, m, lang)
                    assert text and not RAW.search(text), (m, text)
            board = R.apply(board, m)
    board, _ = fold(H, SETUP)
    odd = [
        {"type": "deploy", "by": "A", "card": "アンチスパイラル", "square": "e6"},
        {"type": "move", "by": "A", "figures": ["ロージェノム"], "path": ["a1"]},
        {"type": "move", "by": "C", "figures": [], "path": []},
        {"type": "battle", "by": "A", "attack": 1, "defend": 1, "outcome": "both"},
        {"type": "effect", "by": "A", "card": "謎", "damage": {"Z": 3}, "moved": {"誰か": "a1"}, "deployed": {"card": "x", "square": "a1"}},
        {"type": "skill", "by": "B", "card": None},
        {"type": "trap", "by": "A", "card": "ない罠"},
        {"type": "draw", "by": "A", "cards": [None, None]},
        {"type": "reveal", "by": "A", "cards": []},
        {"type": "end_turn", "by": "A"},
        {"type": "support", "by": "A", "card": "カミナ", "target": "B:エンキ"},
        {"type": "equip", "by": "A", "card": "ギガドリル", "target": "ない"},
    ]
    for m in odd:
        m = {"seq": 1, **m}
        assert R.validate_move(m) == [] or m["by"] == "C", (m, R.validate_move(m))
        for lang in ("ja", "en"):
            text = R.describe(board, m, lang)
            assert text and not RAW.search(text), (m, text)
    assert R.describe(board, {"seq": 1, "type": "battle", "by": "A", "attack": 1, "defend": 1, "outcome": "both"}) == (
        "バトル解決: 攻撃 1 対 防御 1 → 相打ち (双方敗北)"
    )
    assert R.describe(board, {"seq": 1, **odd[-2]}, "en") == "山田 supports 佐藤's エンキ with カミナ"
