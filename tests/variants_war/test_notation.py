"""Notation (issue 14): every move type read the way its players say it, in Japanese and in
English, from the board before the move, with the players' names and the catalog's card names."""

from __future__ import annotations

import random
from pathlib import Path
from dataclasses import replace
from typing import Any

import pytest

from projections.variants_war.board import Arctos
from tests.variants_war.helpers import HYAKU, RS, SHINRA, header, mid_game

SHI, SAI, NAN, HOJ, GEN = SHINRA
BAR, VAI, MAR, DUK, GD = HYAKU


def both(board: Any, move: dict[str, Any]) -> tuple[str, str]:
    move = {"seq": 1, **move}
    return RS.describe(board, move), RS.describe(board, move, "en")


def clean(text: str) -> None:
    assert not any(ch in text for ch in "{}[]\""), text
    assert "None" not in text, text


def test_draft() -> None:
    ja, en = both(RS.initial_board(header()), {"type": "draft", "by": "A", "card": "銅鑼ドラゴン"})
    assert ja == "山田 ドラフト: 銅鑼ドラゴン" and en == "山田 drafts: 銅鑼ドラゴン"


def test_draw_seen_and_unseen() -> None:
    board = RS.initial_board(header(drafted=True))
    assert both(board, {"type": "draw", "by": "B", "card": BAR}) == (f"佐藤 ドロー: {BAR}", f"佐藤 draws: {BAR}")
    assert both(board, {"type": "draw", "by": "A", "card": None}) == ("山田 ドロー (非公開)", "山田 draws (unseen)")


def test_reveal() -> None:
    assert both(mid_game(), {"type": "reveal", "by": "A", "card": NAN}) == (f"山田 公開: {NAN}", f"山田 reveals: {NAN}")


def test_set() -> None:
    ja, en = both(mid_game(phase="standby", hand={"A": [NAN]}), {"type": "set", "by": "A", "card": NAN, "to": "b0"})
    assert ja == f"山田 出撃ゾーンにセット: {NAN} (b0)" and en == f"山田 sets in the sortie zone b0: {NAN}"


def test_magic_with_its_actions_as_phrases() -> None:
    board = mid_game({"b1": (NAN, "A", "attack")}, phase="standby", hand={"A": ["破天荒な風"]})
    move = {"type": "magic", "by": "A", "card": "破天荒な風",
            "actions": [{"do": "modify", "square": "b1", "stat": "both", "op": "add", "amount": 1000}]}
    ja, en = both(board, move)
    assert ja == f"山田 魔法: 破天荒な風 — {NAN}(b1) 攻撃力・守備力+1000 (ターン終了時まで)"
    assert en == f"山田 casts: 破天荒な風 — {NAN}(b1) ATK/DEF+1000 (until end of turn)"


@pytest.mark.parametrize(("monsters", "src", "dst", "ja", "en"), [
    ({"b0": (NAN, "A", None)}, "b0", "b1", "出撃", "sortie"),
    ({"b1": (NAN, "A", "attack")}, "b1", "b2", "共通戦場へ", "into the common battlefield"),
    ({"b2": (NAN, "A", "attack")}, "b2", "b3", "敵陣侵入", "into the enemy zone"),
    ({"b1": (NAN, "A", "defence")}, "b1", "a1", "横移動", "sideways"),
    ({"c1": (NAN, "A", "attack")}, "c1", "c0", "自陣の後列へ", "back to own back row"),
])
def test_move(monsters: dict[str, Any], src: str, dst: str, ja: str, en: str) -> None:
    got = both(mid_game(monsters), {"type": "move", "by": "A", "from": src, "to": dst})
    assert got == (f"山田 {NAN} {src}→{dst} ({ja})", f"山田 {NAN} {src}→{dst} ({en})")


def test_position() -> None:
    ja, en = both(mid_game({"b1": (NAN, "A", "attack")}), {"type": "position", "by": "A", "square": "b1"})
    assert ja == f"山田 {NAN}(b1) 表示形式変更: 攻撃表示→守備表示"
    assert en == f"山田 {NAN}(b1) changes position: attack→defence"


def test_effect_normal_summon() -> None:
    board = mid_game({"d3": (DUK, "B", "attack"), "b3": (BAR, "B", "attack")}, turn=4, active="B")
    move = {"type": "effect", "by": "B", "card": DUK, "square": "d3", "kind": "normal",
            "actions": [{"do": "to_deck", "square": "d3"}, {"do": "to_deck", "square": "b3"},
                        {"do": "summon", "card": GD, "to": "d3"}]}
    ja, en = both(board, move)
    assert ja == (f"佐藤 {DUK}(d3) 通常効果: {DUK}(d3)をデッキに戻す、{BAR}(b3)をデッキに戻す、"
                  f"{GD}をd3に呼び出す(EXから)")
    assert en == (f"佐藤 {DUK}(d3) normal effect: back to the deck: {DUK}(d3); back to the deck: {BAR}(b3); "
                  f"summon {GD} on d3 (from EX)")


def test_effect_lateral_and_special_with_every_action() -> None:
    board = mid_game({"b1": (SAI, "A", "defence"), "d3": (BAR, "B", "attack"), "d0": (HOJ, "A", None)})
    acts = [{"do": "coin", "result": "heads"}, {"do": "bounce", "square": "d3"}, {"do": "die", "result": 4},
            {"do": "swap", "a": "b1", "b": "d0"}, {"do": "destroy", "square": "b1"},
            {"do": "draw", "pile": "rescue", "card": None}, {"do": "return", "card": NAN, "pile": "deck"},
            {"do": "place", "card": VAI, "to": "c3", "from": "deck"}, {"do": "position", "square": "d0"},
            {"do": "status", "square": "d0", "status": "no_effect", "until": "owner_next_turn_end"},
            {"do": "lose_life", "player": "B", "amount": 1}, {"do": "seal_zone", "square": "e2"},
            {"do": "move", "from": "c3", "to": "c2"}]
    ja, en = both(board, {"type": "effect", "by": "A", "card": SAI, "square": "b1", "kind": "lateral", "actions": acts})
    assert ja.startswith(f"山田 {SAI}(b1) 横移動効果: コイントス: 表、{BAR}(d3)を手札に戻す、サイコロ: 4、")
    assert f"{HOJ}(b1)を破壊" in ja  # read on the board the swap left
    assert "山田が救援デッキから1枚ドロー" in ja and "佐藤のライフ-1" in ja and "e2を封印" in ja
    assert "効果の発動不可 (持ち主の次のターン終了時まで)" in ja and f"{VAI}(c3)をc2へ移動" in ja
    assert en.startswith(f"山田 {SAI}(b1) lateral-move effect: coin toss: heads; return to hand: {BAR}(d3); die roll: 4; ")
    assert "佐藤 loses 1 life" in en and "seal e2" in en and "cannot use effects" in en
    for text in (ja, en):
        clean(text)
    board = mid_game({"d3": (GD, "B", "attack"), "d0": (SAI, "A", None)}, turn=4, active="B")
    ja, en = both(board, {"type": "effect", "by": "B", "card": GD, "square": "d3", "kind": "special",
                          "actions": [{"do": "destroy", "square": "d0"}]})
    assert ja == f"佐藤 {GD}(d3) 特殊効果: {SAI}(d0)を破壊" and en == f"佐藤 {GD}(d3) special effect: destroy {SAI}(d0)"


def test_battle() -> None:
    board = mid_game({"b2": (NAN, "A", "attack"), "b3": ("銅鑼ドラゴン", "B", "defence")}, phase="battle")
    ja, en = both(board, {"type": "battle", "by": "A", "squares": ["b2", "b3"], "destroyed": ["b2"]})
    assert ja == f"戦闘: {NAN}(b2 攻1800) × 銅鑼ドラゴン(b3 守2100) → {NAN} 破壊"
    assert en == f"battle: {NAN}(b2 ATK 1800) × 銅鑼ドラゴン(b3 DEF 2100) → {NAN} destroyed"
    board = mid_game({"b1": (NAN, "A", "attack"), "b2": (DUK, "B", "attack")}, phase="battle")
    ja, en = both(board, {"type": "battle", "by": "A", "squares": ["b1", "b2"], "destroyed": ["b1"], "retreat": ["b1"]})
    assert ja.endswith(f"→ {NAN}(撤退ゾーンへ) 破壊") and en.endswith(f"→ {NAN}(to the retreat zone) destroyed")


def test_breakthrough() -> None:
    board = mid_game({"d3": (NAN, "A", "attack")}, phase="battle")
    ja, en = both(board, {"type": "breakthrough", "by": "A", "squares": ["d3"]})
    assert ja == f"山田 敵陣突破: {NAN}(d3) → 佐藤に1ダメージ" and en == f"山田 breaks through: {NAN}(d3) → 1 damage to 佐藤"


def test_master_appearance_lockon_and_miss() -> None:
    board = mid_game(turn=2, active="B", phase="battle")
    assert both(board, {"type": "master", "by": "B", "dice": [4, 8]}) == (
        "佐藤 マスターフェイズ: 4・8 (合計12) → アルクトスXII出現!", "佐藤 master phase: 4, 8 (total 12) → Arctos XII appears!")
    assert both(board, {"type": "master", "by": "B", "dice": [4, 3]})[0] == "佐藤 マスターフェイズ: 4・3 (合計7)"
    lock = replace(mid_game({"b1": (NAN, "A", "attack")}, phase="battle"), arctos=Arctos("B", 2))
    ja, en = both(lock, {"type": "master", "by": "A", "dice": [1, 1]})
    assert ja == f"山田 マスターフェイズ: 1・1 (合計2) → ロックオン1(b1) {NAN} 破壊"
    assert en == f"山田 master phase: 1, 1 (total 2) → lock-on 1(b1) {NAN} destroyed"
    assert both(lock, {"type": "master", "by": "A", "dice": [2, 3]})[0].endswith("→ ロックオンマスは空")


def test_end_turn() -> None:
    assert both(mid_game(), {"type": "end_turn", "by": "A"}) == ("山田 ターン終了", "山田 ends the turn")


def test_every_move_type_is_covered_here() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    for kind in RS.move_types:
        assert f'"type": "{kind}"' in source, kind


def test_never_raises_and_never_shows_raw_data() -> None:
    """Illegal moves, unknown cards, empty squares, unknown players: still a sentence."""
    boards = [RS.initial_board(header()), mid_game(), mid_game({"c2": (NAN, "A", "attack")}, phase="battle")]
    odd = [dict(spec.example) for spec in RS.move_types.values()]
    odd += [{"seq": 1, "type": "move", "by": "Z", "from": "a1", "to": "a2"},
            {"seq": 1, "type": "effect", "by": "A", "card": "ギダソ", "kind": "normal",
             "actions": [{"do": "modify", "square": "e4", "stat": "atk", "op": "set", "amount": 0},
                         {"do": "lose_life", "player": "Q"}, {"do": "summon", "card": "謎", "to": "a1"}]},
            {"seq": 1, "type": "battle", "by": "A", "squares": ["a1", "e4"], "destroyed": []},
            {"seq": 1, "type": "breakthrough", "by": "A", "squares": []}]
    for board in boards:
        for move in odd:
            for lang in ("ja", "en"):
                text = RS.describe(board, move, lang)
                assert text and isinstance(text, str)
                assert not any(ch in text for ch in "{}[]\""), text
    _, moves = RS.generate(random.Random(5), "n")
    board = RS.initial_board(_)
    for move in moves:
        clean(RS.describe(board, move))
        clean(RS.describe(board, move, "en"))
        board = RS.apply(board, move)
