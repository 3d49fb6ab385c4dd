"""Small helpers for the 蟲神器 ruleset tests: headers, folding, and ready-made boards."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from projections.base import META_TYPES, Violation
from projections.mushijingi import RULESET as R
from projections.mushijingi.board import Board, Insect

ROOT = Path(__file__).resolve().parents[2]

A_DECK = (
    ["ヘラクレスオオカブト"] * 2
    + ["カブトムシ"] * 2
    + ["オオカマキリ"] * 2
    + ["ナナホシテントウ"] * 2
    + ["ノコギリクワガタ"] * 2
    + ["ミヤマクワガタ"] * 2
    + ["鋼の大顎"] * 2
    + ["硬い外骨格"] * 2
    + ["闘志"] * 2
    + ["羽化"] * 2
)
B_DECK = (
    ["オオスズメバチ"] * 2
    + ["アシダカグモ"] * 2
    + ["タガメ"] * 2
    + ["ゲンジボタル"] * 2
    + ["ノコギリクワガタ"] * 2
    + ["ミヤマクワガタ", "カブトムシ"]
    + ["紅の紋様"] * 2
    + ["紫の紋様"] * 2
    + ["樹液の罠"] * 2
    + ["大嵐"] * 2
)


def header(
    a_cards: list[str] | None = None,
    b_cards: list[str] | None = None,
    catalog: str | None = None,
    **house_rules: Any,
) -> dict[str, Any]:
    h = {
        "kifu": 1,
        "game": "mushijingi",
        "match": {
            "id": "t",
            "event": "test",
            "round": 1,
            "table": "1",
            "date": "2026-11-29",
            "house_rules": dict(house_rules),
        },
        "rules": "mushijingi/3",
        "players": [
            {
                "id": "A",
                "name": "山田",
                "deck": {
                    "name": "a",
                    "archetype": "緑",
                    "cards": A_DECK if a_cards is None else a_cards,
                },
            },
            {
                "id": "B",
                "name": "佐藤",
                "deck": {
                    "name": "b",
                    "archetype": "紫",
                    "cards": B_DECK if b_cards is None else b_cards,
                },
            },
        ],
        "first": "A",
    }
    if catalog is not None:
        h["match"]["catalog"] = catalog  # type: ignore[index]
    return h


# Cards beyond the sample catalog for the effect rules (MJ-6.3 to MJ-6.5): their texts name
# zones off the field, a 場に出たとき effect, a technique that hits every insect.
EXTRA_CARDS: list[dict[str, Any]] = [
    {"name": "オオムラサキ", "kind": "insect", "cost": 2, "colour": "紫", "hp": 800,
     "on_enter": True, "text": "場に出たとき、相手の虫を1つ選び、300ダメージ。",
     "techniques": [{"name": "はばたく", "attack": 400}]},
    {"name": "蟲寄せ", "kind": "spell", "cost": 1, "colour": "緑", "target": "none",
     "reaches": ["hand"], "text": "手札から虫を1つ選び、コストを払わずに場に出す。"},
    {"name": "墓守", "kind": "spell", "cost": 2, "colour": "紫", "target": "none",
     "reaches": ["discard"], "text": "自分の捨て札から虫を1つ選び、場に出す。"},
    {"name": "オオカマキリ王", "kind": "insect", "cost": 4, "colour": "緑", "hp": 1500,
     "techniques": [
         {"name": "かまあらし", "attack": 300, "multi_target": True,
          "text": "相手の虫すべてに300ダメージ。"},
         {"name": "かまできる", "attack": 600, "text": "選んだ虫をターン終了時まで裏返す。"}]},
]  # fmt: skip


def extra_catalog(tmp_path: Path) -> str:
    """The sample catalog plus EXTRA_CARDS, written under ``tmp_path``; its path."""
    sample = json.loads((ROOT / "projections/mushijingi/data/catalog.json").read_text("utf-8"))
    path = tmp_path / "extra-catalog.json"
    data = {"name": "test-extra", "cards": sample["cards"] + EXTRA_CARDS}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def fold(board: Board, moves: list[dict[str, Any]]) -> tuple[Board, list[Violation]]:
    """Apply moves in order (seq filled in), collecting every violation ``check`` reports."""
    found: list[Violation] = []
    for i, move in enumerate(moves, start=1):
        move = {"seq": i, **move}
        if move["type"] in META_TYPES:
            continue
        assert R.validate_move(move) == [], (move, R.validate_move(move))
        found += R.check(board, move)
        board = R.apply(board, move)
    return board, found


def started(
    hand_a: list[str | None] | None = None,
    hand_b: list[str | None] | None = None,
    lists: bool = True,
    catalog: str | None = None,
    **house_rules: Any,
) -> Board:
    """Both players set up; turn 1, A active in the set phase. Without ``lists`` the header
    gives no deck lists (a scorekeeper who does not know the decks)."""
    h = header(catalog=catalog, **house_rules) if lists else header([], [], catalog, **house_rules)
    board = R.initial_board(h)
    board, found = fold(
        board,
        [
            {"type": "setup", "by": "A", "hand": hand_a or []},
            {"type": "setup", "by": "B", "hand": hand_b or []},
        ],
    )
    assert not found
    return board


def main_board(
    a: list[str] = (),
    b: list[str] = (),
    cost: int = 10,  # type: ignore[assignment]
    hand_a: list[str | None] | None = None,
    catalog: str | None = None,
    **house_rules: Any,
) -> Board:
    """A's main phase with ``cost`` to spend and insects A1.. / B1.. already on the field
    (no deck lists, so any catalog card may be in hand)."""
    board = started(hand_a=hand_a, lists=False, catalog=catalog, **house_rules)
    field = tuple(Insect(f"A{i}", c, "A") for i, c in enumerate(a, 1))
    field += tuple(Insect(f"B{i}", c, "B") for i, c in enumerate(b, 1))
    sides = tuple(replace(s, summoned=len(a) if s.id == "A" else len(b)) for s in board.sides)
    return replace(board, field=field, phase="main", cost=cost, spent=0, sides=sides)


def rules_of(found: list[Violation]) -> list[str]:
    return [v.rule for v in found]


def one(board: Board, move: dict[str, Any]) -> tuple[Board, list[str]]:
    """Check and apply a single move; returns the new board and the rule ids broken."""
    board, found = fold(board, [move])
    return board, rules_of(found)


def insect(board: Board, uid: str) -> Insect | None:
    return next((i for i in board.field if i.uid == uid), None)


def read_example(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = (ROOT / "examples" / name).read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]
