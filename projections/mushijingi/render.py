"""Board JSON (DESIGN.md, Board JSON), a plain-text board for the terminal, the names a
scorekeeper types (vocabulary), and the notation of a move (describe)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.base import Move
from projections.mushijingi.board import Board, Insect, attack_bonus, colour_of, max_hp
from projections.mushijingi.catalog import CatalogError, header_catalog, load_catalog
from projections.mushijingi.moves import MOVE_TYPES

PHASES = {
    "setup": "準備 setup",
    "draw": "ドロー draw",
    "set": "セット set",
    "main": "メイン main",
    "over": "終了 over",
}


def insect_json(board: Board, ins: Insect) -> dict[str, Any]:
    return {
        "uid": ins.uid,
        "card": ins.card,
        "colour": colour_of(board, ins),
        "hp": max_hp(board, ins),
        "damage": ins.damage,
        "attack_bonus": attack_bonus(board, ins),
        "enhancements": [name for name, _ in ins.enhancements],
        "flipped": ins.flipped,
        "attacked": ins.attacked,
    }


def board_json(board: Board) -> dict[str, Any]:
    players: dict[str, Any] = {}
    for side in board.sides:
        players[side.id] = {
            "territory": side.territory,
            "deck": side.deck,
            "hand_count": len(side.hand),
            "hand": list(side.hand),
            "feed": list(side.feed),
            "discard": list(side.discard),
            "insects": [insect_json(board, i) for i in board.field if i.owner == side.id],
        }
    out: dict[str, Any] = {
        "turn": board.turn,
        "active": board.active,
        "phase": board.phase,
        "cost": {"total": board.cost, "spent": board.spent, "left": board.cost - board.spent}
        if board.phase == "main"
        else None,
        "players": players,
        "catalog": board.catalog.name,
    }
    return out


def _insect_line(board: Board, ins: Insect) -> str:
    hp = max_hp(board, ins)
    parts = [f"[{ins.uid}] {ins.card} ({colour_of(board, ins)}) HP {hp - ins.damage}/{hp}"]
    bonus = attack_bonus(board, ins)
    if bonus:
        parts.append(f"攻+{bonus}")
    if ins.enhancements:
        parts.append("強化: " + ", ".join(n for n, _ in ins.enhancements))
    if ins.flipped:
        parts.append("裏返し(absent)")
    if ins.attacked:
        parts.append("攻撃済")
    return "  ".join(parts)


def _side_lines(board: Board, pid: str) -> list[str]:
    side = board.side(pid)
    hand = ", ".join(c if c is not None else "?" for c in side.hand) or "-"
    mark = "▶" if pid == board.active else " "
    lines = [
        (
            f"{mark} {pid}  縄張り {side.territory}  山札 {side.deck}  "
            f"手札 {len(side.hand)}  捨て札 {len(side.discard)}"
        ),
        f"    手札: {hand}",
        f"    エサ場({len(side.feed)}): {', '.join(side.feed) or '-'}",
    ]
    insects = [i for i in board.field if i.owner == pid]
    lines += [f"    {_insect_line(board, i)}" for i in insects] or ["    (虫なし)"]
    return lines


def render_text(board: Board) -> str:
    head = f"蟲神器  turn {board.turn}  {PHASES.get(board.phase, board.phase)}"
    if board.phase == "main":
        head += f"  cost {board.cost - board.spent}/{board.cost}"
    lines = [head]
    for pid in board.order:
        lines += _side_lines(board, pid)
    if board.result is not None:
        winner = board.result.winner or "draw"
        lines.append(f"result: {winner} ({board.result.reason})")
    return "\n".join(lines)


def vocabulary(header: Mapping[str, Any]) -> list[str]:
    try:
        catalog = header_catalog(header)
    except CatalogError:
        catalog = load_catalog(None)
    words = set(catalog.cards)
    for card in catalog.cards.values():
        words.update(t.name for t in card.techniques)
    words.update(MOVE_TYPES)
    words.add("player")
    return sorted(words)


def describe(board: Board, move: Move, lang: str = "ja") -> str:
    """The move as its players say it (placeholder until the notation lands)."""
    fields = " ".join(f"{k}={v}" for k, v in move.items() if k not in ("seq", "type", "by"))
    return f"{move.get('by')} {move.get('type')} {fields}".strip()
