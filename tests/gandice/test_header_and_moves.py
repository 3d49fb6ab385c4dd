"""Header deck rules (GD-1.x), structural move checks, move specs, rendering, vocabulary."""

from __future__ import annotations

import json

from exports.i18n import translations
from projections.base import Ruleset
from tests.gandice.helpers import ISURUGI, YAMI, R, header, run

JA = translations("ja")  # the text board as kifu board says it by default


def fields(errors) -> set[str]:
    return {e.field for e in errors}


def test_protocol_and_metadata():
    assert isinstance(R, Ruleset)
    assert (R.name, R.version, R.min_players, R.max_players) == ("gandice", 2, 2, 4)
    assert "gd" in R.aliases


def test_gd_1_1_deck_of_five_known_dice():
    assert R.validate_header(header()) == []
    short = {**YAMI, "cards": YAMI["cards"][:4]}
    assert fields(R.validate_header(header(short, ISURUGI))) == {"players[0].deck.cards"}
    unknown = {**YAMI, "cards": ["ギダン", "爪牙", "美雅羅", "武具・羅", "謎のダイス"]}
    assert fields(R.validate_header(header(unknown, ISURUGI))) == {"players[0].deck.cards[4]"}
    dup = {**YAMI, "cards": ["ギダン", "爪牙", "美雅羅", "武具・羅", "武具・羅"]}
    assert fields(R.validate_header(header(dup, ISURUGI))) == {"players[0].deck.cards[4]"}
    copies = {**YAMI, "cards": ["ギダン", "爪牙", "美雅羅", "武具・羅", "武具・羅#2"]}
    assert R.validate_header(header(copies, ISURUGI)) == []
    items_only = {"cards": ["武具・羅", "武具・羅#2", "武具・羅#3", "呪術・笑童児", "呪術・笑童児#2"]}
    assert "GD-1.1" in str(R.validate_header(header(items_only, ISURUGI)))


def test_custom_dice_in_header():
    deck = {
        "cards": ["ギダン", "新キャラ", "美雅羅", "武具・新", "呪術・笑童児"],
        "dice": [
            {"name": "新キャラ", "kind": "character", "kin": "闇"},
            {"name": "武具・新", "kind": "weapon", "bonus": 1},
        ],
    }
    assert R.validate_header(header(deck, ISURUGI)) == []
    bad = {**deck, "dice": [{"name": "新キャラ", "kind": "monster"}]}
    assert "players[0].deck.dice[0].kind" in fields(R.validate_header(header(bad, ISURUGI)))


def test_gd_1_2_evolution_same_kin():
    deck = {**ISURUGI, "evolution": ["ギダン・進化"], "dice": YAMI["dice"]}
    errors = R.validate_header(header(YAMI, deck))
    assert fields(errors) == {"players[1].deck.evolution[0]"} and "GD-1.2" in str(errors)


def test_gd_1_3_kofuda():
    many = {**ISURUGI, "kofuda": ["イスルギ", "紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ"]}
    assert "GD-1.3" in str(R.validate_header(header(YAMI, many)))
    foreign = {**ISURUGI, "kofuda": ["ギダン"]}
    assert fields(R.validate_header(header(YAMI, foreign))) == {"players[1].deck.kofuda[0]"}


def test_gd_1_4_two_to_four_players():
    assert "GD-1.4" in str(R.validate_header(header(YAMI)))
    assert "GD-1.4" in str(R.validate_header(header(YAMI, YAMI, YAMI, YAMI, YAMI)))
    assert R.validate_header(header(YAMI, ISURUGI, YAMI, ISURUGI)) == []


def test_validate_move_is_structural():
    assert fields(R.validate_move({"seq": 1, "type": "teleport", "by": "A"})) == {"type"}
    assert fields(R.validate_move({"seq": 1, "type": "attack", "by": "A", "die": "ギダン"})) == {
        "target",
        "face",
    }
    bad = {
        "seq": 1,
        "type": "attack",
        "by": "A",
        "die": "ギダン",
        "target": "イスルギ",
        "face": "upside",
        "value": "5",
    }
    assert fields(R.validate_move(bad)) == {"face", "value"}
    assert fields(R.validate_move({"seq": 1, "type": "summon", "by": "A", "rolls": {"ギダン": "flying"}})) == {"rolls"}
    assert (
        R.validate_move(
            {
                "seq": 1,
                "type": "attack",
                "by": "A",
                "die": "ギダン",
                "target": "イスルギ",
                "face": "特殊目",
            }
        )
        == []
    )


def test_move_spec_examples_are_complete_and_valid():
    for name, spec in R.move_types.items():
        ex = dict(spec.example)
        assert ex["type"] == name and "seq" in ex and "by" in ex
        assert R.validate_move(ex) == [], name
        assert set(spec.required) <= set(ex) and set(ex) - {"seq", "type", "by"} <= set(spec.fields)


def test_board_json_render_and_vocabulary():
    board, _ = run(
        [
            {
                "type": "summon",
                "by": "A",
                "rolls": {"ギダン": "special", "爪牙": "normal", "美雅羅": "side"},
            }
        ]
    )
    bj = R.board_json(board)
    json.dumps(bj, ensure_ascii=False)
    assert {"turn", "active", "players"} <= set(bj) and bj["players"]["A"]["alive"] == 3
    assert "召喚" in R.render_text(board, JA) and "ギダン" in R.render_text(board, JA)
    vocab = R.vocabulary(header())
    assert {"ギダン", "紅蓮のイスルギ", "呪術・笑童児", "特殊目", "裏切り"} <= set(vocab)
    assert R.result(board) is None


def test_legal_moves_pass_check():
    board, _ = run(
        [
            {
                "type": "summon",
                "by": "A",
                "rolls": {"ギダン": "special", "爪牙": "normal", "美雅羅": "side"},
            },
            {
                "type": "summon",
                "by": "B",
                "rolls": {"紅蓮のイスルギ": "stand", "青嵐のイスルギ": "side", "イスルギ": "side"},
            },
        ]
    )
    moves = list(R.legal_moves(board))
    assert any(m["type"] == "attack" for m in moves) and any(m["type"] == "resummon" for m in moves)
    for m in moves:
        assert R.check(board, {"seq": 3, **m}) == [], m


def test_apply_never_raises_on_illegal_moves():
    board = R.initial_board(header())
    for m in [
        {"type": "defend", "by": "B", "die": "x", "face": "side"},
        {"type": "item", "by": "A", "item": "武具・羅", "face": "special"},
        {"type": "split", "by": "A", "graveyard": "ギダン"},
        {"type": "evolve", "by": "A", "die": "ギダン", "into": "y", "face": "special"},
        {"type": "fuse", "by": "A", "die": "ギダン", "partners": [], "face": "special"},
        {
            "type": "effect",
            "by": "Z",
            "source": "?",
            "effect": "?",
            "take": {"player": "B", "die": "イスルギ"},
        },
        {"type": "attack", "by": "A", "die": "?", "target": "?", "face": "normal", "value": 3},
    ]:
        board = R.apply(board, {"seq": 1, **m})
        R.check(board, {"seq": 2, **m})
