"""Small helpers for the ヴァリアンツ＝ウォー tests: headers, folding moves, hand-built boards."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from projections.base import META_TYPES, Violation
from projections.variants_war import RULESETS
from projections.variants_war.board import Board, HandCard, Monster

RS = RULESETS[3]
ROOT = Path(__file__).resolve().parents[2]
SHINRA = ["ヴァリアンツの巫女－東雲", "ヴァリアンツの弓引－西園", "ヴァリアンツの忍者－南月",
          "ヴァリアンツの武者－北条", "ヴァリアンツの聚－幻中"]
HYAKU = ["ヴァリアンツＢ－バロン", "ヴァリアンツＶ－ヴァイカント", "ヴァリアンツＭ－マーキス",
         "ヴァリアンツＤ－デューク", "ヴァリアンツＧ－グランデューク"]
A_PICKS = ["レプティアの武者騎兵", "シュルブの魔導騎兵", "ダイカミナリ・ジャイクロプス", "バンドラの宝具箱"]
B_PICKS = ["銅鑼ドラゴン", "メタルフォーゼ・ゴルドライバー", "召喚師ライズベルト", "EMシール・イール"]


def header(drafted: bool = False, **house: Any) -> dict[str, Any]:
    a = SHINRA + (A_PICKS if drafted else [])
    b = HYAKU + (B_PICKS if drafted else [])
    return {"kifu": 1, "game": "variants-war", "match": {"id": "t", "house_rules": house},
            "rules": "variants-war/3",
            "players": [{"id": "A", "name": "山田", "deck": {"name": "森羅", "archetype": "森羅万象", "cards": a}},
                        {"id": "B", "name": "佐藤", "deck": {"name": "百識", "archetype": "百識公国", "cards": b}}],
            "first": "A"}


def fold(moves: list[dict[str, Any]], board: Board | None = None,
         head: dict[str, Any] | None = None) -> tuple[Board, list[Violation]]:
    board = board if board is not None else RS.initial_board(head or header())
    found: list[Violation] = []
    for i, move in enumerate(moves, 1):
        if move.get("type") in META_TYPES:
            continue
        move = {"seq": i, **move}
        found += RS.check(board, move)
        board = RS.apply(board, move)
    return board, found


def rules_of(found: list[Violation]) -> list[str]:
    return [v.rule for v in found]


def mid_game(monsters: dict[str, tuple[str, str, str | None]] | None = None, *, turn: int = 3,
             active: str = "A", phase: str = "main", hand: dict[str, list[str]] | None = None,
             **house: Any) -> Board:
    """A board on ``turn`` in ``phase`` with the draw done and monsters placed:
    ``{"b1": (card, owner, "attack"|"defence"|None)}``."""
    board = RS.initial_board(header(drafted=True, **house))
    board = replace(board, phase=phase, turn=turn, active=active, drawn=True)
    for sq, (card, owner, position) in (monsters or {}).items():
        source = "ex" if card in (SHINRA[4], HYAKU[4]) else "deck"
        board = board.put(sq, Monster(card, owner, source, position=position, arrived=1))
    for pid, cards in (hand or {}).items():
        p = board.player(pid)
        board = board.with_player(replace(p, hand=tuple(HandCard(c, "deck") for c in cards)))
    return board


def load_example(name: str = "variants-war-example.jsonl") -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = (ROOT / "examples" / name).read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]


def board_after(head: dict[str, Any], events: list[dict[str, Any]], seq: int) -> Board:
    board = RS.initial_board(head)
    for ev in events:
        if ev["seq"] > seq:
            break
        if ev["type"] not in META_TYPES:
            board = RS.apply(board, ev)
    return board
