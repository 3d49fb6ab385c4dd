"""Issue 14: every move type read the way its players say it, in Japanese and in English."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from exports.i18n import translations
from exports.boards import gandice as html_board
from projections.gandice.moves import name_errors
from tests.gandice.helpers import CORE, ISURUGI, SUPER, YAMI, R, header, run, summons

JA = translations("ja")  # the text board as kifu board says it by default

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "gandice-example.jsonl"
NAMED = header(YAMI, ISURUGI)
NAMED["players"][0]["name"] = "山田"
NAMED["players"][1]["name"] = "佐藤"
ATK = {"type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルギ"}
DEF = {"type": "defend", "by": "B", "die": "紅蓮のイスルギ"}


def before(moves: list[dict], hdr: dict | None = None):
    board, _ = run(moves, hdr or NAMED)
    return board


def say(board, move: dict) -> tuple[str, str]:
    return R.describe(board, {"seq": 99, **move}, "ja"), R.describe(board, {"seq": 99, **move}, "en")


def test_summon():
    move = {"type": "summon", "by": "A", "rolls": {"ギダン": "special", "美雅羅": "normal", "爪牙": "side"}}
    assert say(before([]), move) == (
        "山田 眼魔召喚: ギダン(特殊目)・美雅羅(通常目)・爪牙(横倒し)",
        "山田 summons: ギダン (special), 美雅羅 (normal), 爪牙 (side)",
    )
    stand = {**move, "rolls": {"ギダン": "立ち", "美雅羅": "normal", "爪牙": "side"}}
    ja, en = say(before([]), stand)
    assert ja.endswith("ギダン(立ち)・美雅羅(通常目)・爪牙(横倒し) → 全召喚") and en.endswith("→ all summoned")
    zenkai = {**move, "rolls": {"ギダン": "stand", "美雅羅": "handstand", "爪牙": "stand"}}
    ja, en = say(before([]), zenkai)
    assert ja.endswith("→ 全開召喚！") and en.endswith("→ full summon wins")


def test_resummon():
    move = {"type": "resummon", "by": "A", "rolls": {"ギダン": "special", "爪牙": "normal", "美雅羅": "side"}}
    assert say(before(summons()), move) == (
        "山田 再召喚チャレンジ: ギダン(特殊目)・爪牙(通常目)・美雅羅(横倒し)",
        "山田 re-summon challenge: ギダン (special), 爪牙 (normal), 美雅羅 (side)",
    )


def test_attack():
    board = before(summons())
    assert say(board, {**ATK, "face": "special"}) == (
        "山田: ギダン(特殊目)→紅蓮のイスルギ 攻撃",
        "山田: ギダン (special) attacks 紅蓮のイスルギ",
    )
    assert say(board, {**ATK, "face": "normal", "value": 5}) == (
        "山田: ギダン(5の目)→紅蓮のイスルギ 攻撃",
        "山田: ギダン (5) attacks 紅蓮のイスルギ",
    )


def test_attack_with_three_players_names_the_defender():
    hdr = header(YAMI, ISURUGI, SUPER)
    moves = [
        *summons(),
        {"type": "summon", "by": "C", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "special"}},
    ]
    board = before(moves, hdr)
    move = {**ATK, "target": "武王", "defender": "C", "face": "stand"}
    assert say(board, move) == ("A: ギダン(立ち)→Cの武王 攻撃", "A: ギダン (stand) attacks 武王 of C")


def test_defend():
    board = before([*summons(), {**ATK, "face": "special"}])
    assert say(board, {**DEF, "face": "handstand"}) == (
        "佐藤: 紅蓮のイスルギ(逆立ち) 防御",
        "佐藤: 紅蓮のイスルギ (handstand) defends",
    )


def test_core_unit_rolls_two_dice():
    hdr = header(CORE, ISURUGI)
    moves = [
        {
            "type": "summon",
            "by": "A",
            "rolls": {"獣幽士": "special", "闘奇子": "side", "機改人": "normal", "凶鎌手": "normal"},
        },
        summons()[1],
        {"type": "attack", "by": "A", "die": "獣幽士", "target": "紅蓮のイスルギ", "face": "special"},
        {**DEF, "face": "normal", "value": 6},
    ]
    fuse = {"type": "fuse", "by": "A", "die": "獣幽士", "partners": ["闘奇子", "機改人"], "face": "special"}
    rolls = [{"face": "normal", "value": 4}, {"face": "special"}]
    board = before(moves, hdr)
    assert say(board, {**fuse, "rolls": rolls}) == (
        "A: 獣幽士 心眼・合身(闘奇子・機改人) 特殊目 4の目+特殊目=7",
        "A: 獣幽士 core fusion with 闘奇子, 機改人, rolls special 4+special=7",
    )
    board = before([*moves, {**fuse, "rolls": rolls}], hdr)
    attack = {"type": "attack", "by": "B", "die": "青嵐のイスルギ", "target": "機改人", "face": "normal", "value": 5}
    board = before([*moves, {**fuse, "rolls": rolls}, attack], hdr)
    defend = {
        "type": "defend",
        "by": "A",
        "die": "機改人",
        "face": "normal",
        "value": 9,
        "rolls": [{"face": "normal", "value": 6}, {"face": "special"}],
    }
    assert say(board, defend) == ("A: 機改人(6の目+特殊目=9) 防御", "A: 機改人 (6+special=9) defends")


def test_item():
    board = before([*summons(), {**ATK, "face": "special"}, {**DEF, "face": "normal", "value": 5}])
    assert say(board, {"type": "item", "by": "A", "item": "武具・羅", "face": "normal", "value": 1}) == (
        "山田: 武具・召喚 武具・羅(1の目)",
        "山田: uses weapon die 武具・羅 (1)",
    )
    assert say(board, {"type": "item", "by": "A", "item": "呪術・笑童児", "face": "special"}) == (
        "山田: 呪術・召喚 呪術・笑童児(特殊目)",
        "山田: uses curse die 呪術・笑童児 (special)",
    )
    assert say(board, {"type": "item", "by": "A", "card": "ギダン", "bonus": 2}) == (
        "山田: 小札絵「ギダン」 特殊能力発動 +2",
        "山田: plays kofuda card ギダン +2",
    )
    assert say(board, {"type": "item", "by": "A", "item": None}) == ("山田: 何も使わない", "山田: uses no item")


def test_super_fusion():
    hdr = header(SUPER, ISURUGI)
    moves = [
        {"type": "summon", "by": "A", "rolls": {"武王": "special", "鰐蛇": "special", "雷爪": "normal"}},
        summons()[1],
        {"type": "attack", "by": "A", "die": "武王", "target": "紅蓮のイスルギ", "face": "special"},
        {**DEF, "face": "normal", "value": 4},
    ]
    move = {"type": "fuse", "by": "A", "die": "武王", "partners": ["鰐蛇"], "face": "normal", "value": 5}
    assert say(before(moves, hdr), move) == (
        "A: 武王 超眼・合身(鰐蛇) 5の目",
        "A: 武王 fusion with 鰐蛇, rolls 5",
    )


def test_split():
    assert say(before(summons()), {"type": "split", "by": "A", "graveyard": "鰐蛇"}) == (
        "山田: 合身解除 鰐蛇を墓場へ",
        "山田: splits the fused unit, 鰐蛇 to the graveyard",
    )


def test_evolve():
    board = before([*summons(), {**ATK, "face": "normal", "value": 6}, {**DEF, "face": "normal", "value": 1}])
    move = {"type": "evolve", "by": "A", "die": "ギダン", "into": "ギダン・進化", "face": "special"}
    assert say(board, move) == (
        "山田: 開眼！進化チャレンジ ギダン→ギダン・進化(特殊目) 成功",
        "山田: evolution challenge ギダン → ギダン・進化 (special), success",
    )
    ja, en = say(board, {**move, "face": "normal", "value": 2})
    assert ja.endswith("(2の目) 失敗") and en.endswith("(2), no change")


def test_effect_actions_read_as_phrases():
    board = before(summons())
    take = {
        "type": "effect",
        "by": "B",
        "source": "呪術・笑童児",
        "effect": "裏切り",
        "take": {"player": "A", "die": "美雅羅"},
    }
    assert say(board, take) == (
        "佐藤: 呪術・笑童児「裏切り」 山田の美雅羅を奪う",
        "佐藤: 呪術・笑童児 uses 裏切り: takes 美雅羅 of 山田",
    )
    many = {
        "type": "effect",
        "by": "B",
        "source": "イスルギ",
        "effect": "謎の力",
        "graveyard": [{"player": "A", "die": "爪牙"}],
        "state": [{"player": "B", "die": "イスルギ", "state": "half"}],
        "revive": [{"player": "B", "die": "紅蓮のイスルギ"}],
        "text": "卓で合意",
    }
    assert say(board, many) == (
        "佐藤: イスルギ「謎の力」 山田の爪牙を墓場へ、イスルギを半召喚に、紅蓮のイスルギを墓場から戻す(未召喚)、「卓で合意」",
        "佐藤: イスルギ uses 謎の力: sends 爪牙 of 山田 to the graveyard; sets イスルギ half-summoned; "
        'brings 紅蓮のイスルギ back (unsummoned); "卓で合意"',
    )


def test_every_move_type_has_a_notation_test_here():
    source = Path(__file__).read_text(encoding="utf-8")
    for kind in R.move_types:
        assert f'"type": "{kind}"' in source, kind


@pytest.mark.parametrize(
    "move",
    [
        {"type": "attack", "by": "Z", "die": "ギダソ", "target": "謎", "face": "normal", "value": 99},
        {"type": "item", "by": "A", "card": "存在しない札"},
        {"type": "item", "by": "A", "item": "謎のダイス", "face": "逆立ち"},
        {"type": "fuse", "by": "A", "die": "ギダン", "partners": [], "face": "special", "rolls": []},
        {"type": "effect", "by": "Q", "source": "x", "effect": "y", "take": {"player": "Z", "die": "w"}},
        {"type": "summon", "by": "A", "rolls": {}},
        {"type": "split", "by": "C", "graveyard": "無"},
        {"type": "evolve", "by": "B", "die": "a", "into": "b", "face": "side"},
        {
            "type": "defend",
            "by": "A",
            "die": "ギダン",
            "face": "normal",
            "value": 3,
            "rolls": [{"face": "side"}, {"face": "side"}],
        },
        {"type": "resummon", "by": "B", "rolls": {"ギダン": "stand"}},
    ],
)
def test_never_raises_on_illegal_or_unknown_names(move):
    for board in (before([]), before(summons()), before([*summons(), {**ATK, "face": "special"}])):
        move = {"seq": 1, **move}
        assert R.validate_move(move) == []
        for lang in ("ja", "en"):
            text = R.describe(board, move, lang)
            assert text and not any(c in text for c in "{}[]\\"), text


def test_pure_readable_and_from_the_board_before_along_generated_matches():
    for seed in range(8):
        hdr, moves = R.generate(random.Random(seed), "m", players=2 + seed % 3)
        board = R.initial_board(hdr)
        names = {p["id"]: p["name"] for p in hdr["players"]}
        for m in moves:
            kept = copy.deepcopy(board)
            for lang in ("ja", "en"):
                text = R.describe(board, m, lang)
                assert text.startswith(names[m["by"]]), text
                assert not any(c in text for c in "{}[]\"'"), text
            assert board == kept
            board = R.apply(board, m)


def test_the_example_reads_like_the_seed():
    lines = [json.loads(x) for x in EXAMPLE.read_text(encoding="utf-8").splitlines() if x.strip()]
    board = R.initial_board(lines[0])
    said = {}
    for m in lines[1:]:
        if m["type"] == "annotate":
            continue
        said[m["seq"]] = R.describe(board, m)
        board = R.apply(board, m)
    assert said[5] == "闇ダイス組: ギダン(特殊目)→紅蓮のイスルギ 攻撃"
    assert said[3].endswith("→ 全召喚")
    assert said[17] == "イスルギ組: 呪術・笑童児「裏切り」 闇ダイス組の美雅羅を奪う"


def test_board_faces_say_names_not_raw_keys():
    lines = [json.loads(x) for x in EXAMPLE.read_text(encoding="utf-8").splitlines() if x.strip()]
    board = R.initial_board(lines[0])
    for m in lines[1:]:
        if m["type"] != "annotate":
            board = R.apply(board, m)
        text = R.render_text(board, JA)
        assert "闇ダイス組" in text and "イスルギ組" in text
        assert not any(w in text for w in ("{", "attacker", "defender", "higher_total", "summoned", "'"))
    assert "勝者: イスルギ組" in text
    html = html_board.body(R.board_json(board))
    assert "イスルギ組の" in html and "攻撃側の勝利" in html and "{" not in html and "墓場" in html


NAMES = ["", "謎", "A", "Z", "ギダン", "武具・羅", "ギダン・進化", "イスルギ"]
ODD_VALUES: list = [None, 0, 7, "x", [1, 2], {"face": 3}, [{"face": "normal"}, {"value": "2"}], True]


def _fuzzed(rng: random.Random, base: dict) -> dict:
    move = dict(base)
    for key in list(move):
        if key in ("seq", "type"):
            continue
        roll = rng.random()
        if roll < 0.3 and isinstance(move[key], str):
            move[key] = rng.choice(NAMES)
        elif roll < 0.45:
            move[key] = rng.choice(ODD_VALUES)
        elif roll < 0.55:
            del move[key]
    for key in ("rolls", "text", "bonus", "value", "defender", "take", "state", "revive", "graveyard"):
        if rng.random() < 0.15:
            move[key] = rng.choice(ODD_VALUES + NAMES)
    return move


def test_never_raises_on_any_structurally_valid_move():
    """Fuzz: moves of every type with names, values and extra fields scrambled; whatever passes
    ``validate_move`` reads without an exception and without raw dicts or lists."""
    rng = random.Random(14)
    hdr, moves = R.generate(random.Random(3), "fuzz", players=3)
    bases = [dict(spec.example) for spec in R.move_types.values()] + moves
    board = R.initial_board(hdr)
    boards = [board]
    for m in moves:
        board = R.apply(board, m)
        boards.append(board)
    tried = 0
    for _ in range(5000):
        move = _fuzzed(rng, rng.choice(bases))
        if R.validate_move(move):
            continue
        tried += 1
        b = rng.choice(boards)
        for lang in ("ja", "en"):
            text = R.describe(b, move, lang)
            assert isinstance(text, str) and text
            assert not any(c in text for c in "{}[]"), (move, text)
        # the rest of the protocol holds on the same moves: no exception either
        R.check(b, {"seq": 1, **move})
        R.apply(b, move)
        name_errors(b, move)
    assert tried > 500
