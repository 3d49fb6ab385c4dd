"""The generator, structural validation, header checks, move-type specs and house rules."""

from __future__ import annotations

import json
import random

import pytest

from exports.i18n import translations
from projections import registry
from projections.base import Ruleset
from tests.variants_war.helpers import HYAKU, RS, SHINRA, fold, header, mid_game

JA = translations("ja")  # the text board as kifu board says it by default


@pytest.mark.parametrize("seed", [*range(8), 16, 45])
def test_generated_matches_are_legal_and_complete(seed: int) -> None:
    head, moves = RS.generate(random.Random(seed), f"gen-{seed}")
    assert RS.validate_header(head) == []
    assert [m["seq"] for m in moves] == list(range(1, len(moves) + 1))
    board = RS.initial_board(head)
    for move in moves:
        assert RS.validate_move(move) == [], move
        assert RS.check(board, move) == [], move
        board = RS.apply(board, move)
    result = RS.result(board)
    assert result is not None and result.reason == "life"
    assert board.player(result.winner).life > 0 and board.player(board.other(result.winner)).life <= 0
    json.dumps(RS.board_json(board), ensure_ascii=False)


@pytest.mark.parametrize("house", [{"main_actions": "per_monster"}, {"arctos_count_from": "next", "battle_tie": "both"},
                                   {"first_turn_draw": False, "retreat_by_move": False, "arctos_threshold": "reach"}])
def test_generated_matches_under_house_rules_are_legal(house: dict[str, object]) -> None:
    for seed in range(4):
        head, moves = RS.generate(random.Random(seed), f"h-{seed}", house_rules=house)
        assert head["match"]["house_rules"] == house and RS.validate_header(head) == []
        board = RS.initial_board(head)
        for move in moves:
            assert RS.check(board, move) == [], move
            board = RS.apply(board, move)
        assert RS.result(board) is not None


def test_generator_is_deterministic() -> None:
    assert RS.generate(random.Random(3), "x") == RS.generate(random.Random(3), "x")


def test_registry_and_protocol() -> None:
    assert registry.get("vw") is RS and registry.get("variants-war/3") is RS
    assert isinstance(RS, Ruleset)


def test_move_spec_examples_are_structurally_valid() -> None:
    for name, spec in RS.move_types.items():
        assert spec.example["type"] == name and "seq" in spec.example and "by" in spec.example
        assert RS.validate_move(spec.example) == [], name


def test_validate_move_structure() -> None:
    assert RS.validate_move({"seq": 1, "type": "fly", "by": "A"})[0].field == "type"
    assert [e.field for e in RS.validate_move({"seq": 1, "type": "move", "by": "A", "from": "z9"})] == ["to", "from"]
    assert RS.validate_move({"seq": 1, "type": "master", "by": "A", "dice": [9, 1]})[0].field == "dice"
    bad = RS.validate_move({"seq": 1, "type": "effect", "by": "A", "card": "x", "kind": "normal",
                            "actions": [{"do": "teleport"}, {"do": "move", "from": "a1"}]})
    assert [e.field for e in bad] == ["actions[0]", "actions[1].to"]


def test_validate_header_decks_and_house_rules() -> None:
    assert RS.validate_header(header()) == [] and RS.validate_header(header(drafted=True)) == []
    h = header(no_such_rule=1, battle_tie="maybe")
    assert [e.field for e in RS.validate_header(h)] == ["match.house_rules.no_such_rule", "match.house_rules.battle_tie"]
    h = header()
    h["players"][0]["deck"]["cards"] = SHINRA[:4] + ["謎のカード"]
    fields = [e.problem for e in RS.validate_header(h)]
    assert any("unknown card" in p for p in fields) and any("dedicated deck" in p for p in fields)
    h = header(drafted=True)
    h["players"][1]["deck"]["cards"] = HYAKU + ["レプティアの武者騎兵", "銅鑼ドラゴン", "召喚師ライズベルト", "EMシール・イール"]
    assert any("one player only" in e.problem for e in RS.validate_header(h))
    h = header()
    h["players"][0]["deck"] = {"name": "x", "archetype": "闇"}
    assert RS.validate_header(h)[0].field == "players[0].deck.archetype"


def test_predrafted_header_skips_the_draft() -> None:
    board = RS.initial_board(header(drafted=True))
    assert board.phase == "setup" and board.draft_pool == ()
    _, found = fold([{"type": "draft", "by": "A", "card": "銅鑼ドラゴン"}], head=header(drafted=True))
    assert [v.rule for v in found] == ["VW-2.2"]


def test_vocabulary_and_legal_moves() -> None:
    words = RS.vocabulary(header())
    assert "ヴァリアンツの忍者－南月" in words and "c2" in words and "8" in words
    assert {m["card"] for m in RS.legal_moves(RS.initial_board(header()))} >= {"銅鑼ドラゴン"}
    board = mid_game({"b1": (SHINRA[2], "A", "attack")})
    assert {"type": "move", "by": "A", "from": "b1", "to": "b2"} in list(RS.legal_moves(board))


def test_render_text_draws_every_zone() -> None:
    text = RS.render_text(mid_game({"b1": (SHINRA[2], "A", "defence"), "d3": (HYAKU[0], "B", "attack")}), JA)
    assert "(出)" in text and "(撤)" in text and "山^-南月" in text and "佐v|バロン" in text
    assert "山田 (森羅万象)  ライフ3" in text and "凡例: 山=山田 佐=佐藤" in text and "手番: 山田" in text
    assert "'" not in text and "{" not in text and "rescue" not in text
