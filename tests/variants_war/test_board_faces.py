"""The human board faces (issue 14): the terminal board and the HTML board speak Japanese, name
the players, show no raw keys or Python values, and explain their markers."""

from __future__ import annotations

import re

from exports.i18n import translations
from exports.boards.variants_war import body
from tests.variants_war.helpers import RS, board_after, load_example

JA = translations("ja")  # the text board as kifu board says it by default

HEAD, EVENTS = load_example()
ARCTOS_UP = next(e["seq"] for e in EVENTS if e["type"] == "master")
RAW = re.compile(r"\{'|'\}|\[\]|rescue_deck|magic_deck|aces gone|known hand|None|True|False|dmg")


def html_at(seq: int) -> str:
    return body(RS.board_json(board_after(HEAD, EVENTS, seq)))


def test_html_board_in_japanese_with_names_and_explained_markers() -> None:
    h = html_at(ARCTOS_UP)
    assert not RAW.search(h), RAW.search(h)
    for label in ("救援デッキ", "魔法デッキ", "ライフ", "手札", "デッキ", "EXデッキ (切り札)", "行動権の残り"):
        assert label in h, label
    assert "アルクトスXII" in h and "佐藤の方を向く" in h and "ダメージ0/6000" in h
    assert "◎8" in h and "ロックオンマス8" in h and "◎n ロックオンマス" in h  # the marker and its legend
    assert "自陣戦場・山田" in h and "自陣戦場・佐藤" in h


def test_html_board_monsters_name_owner_and_position() -> None:
    h = html_at(max(e["seq"] for e in EVENTS))
    assert "<b>ヴァリアンツＤ－デューク</b> <small>佐藤 攻撃表示 攻2000/守2000</small>" in h
    assert not RAW.search(h)


def test_terminal_board_in_japanese() -> None:
    text = RS.render_text(board_after(HEAD, EVENTS, ARCTOS_UP), JA)
    assert not RAW.search(text)
    assert text.splitlines()[0] == "ターン2  手番: 佐藤  フェイズ: マスター"
    assert "救援デッキ10枚  魔法デッキ10枚" in text and "凡例: 山=山田 佐=佐藤" in text
    final = RS.render_text(board_after(HEAD, EVENTS, max(e["seq"] for e in EVENTS)), JA)
    assert final.splitlines()[0].endswith("対局終了") and "結果: 佐藤の勝ち (ライフ0)" in final
