"""Board JSON (with the whole 5×6 field), the terminal board, the names a scorekeeper types,
and the notation of a move."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from projections.base import Move, players_of

from projections.gurren_lagann.board import (
    COLUMNS,
    ROWS,
    SQUARES,
    GLBoard,
    Side,
    Unit,
    deploy_zone,
    headquarters,
    power_of,
    skill_of,
    units_at,
    zone_of,
)
from projections.gurren_lagann.catalog import load
from projections.gurren_lagann.moves import MOVE_TYPES


def unit_json(board: GLBoard, u: Unit) -> dict[str, Any]:
    return {
        "figure": u.figure,
        "owner": u.owner,
        "card": u.card,
        "square": u.square,
        "acted": u.acted,
        "moved": u.steps,
        "supports": list(u.supports),
        "item": u.item,
        "item_figure": u.item_figure,
        "power": power_of(board, u),
        "skill": skill_of(board, u),
    }


def side_json(board: GLBoard, s: Side) -> dict[str, Any]:
    other = next((x for x in board.sides if x.id != s.id), s)
    return {
        "damage": s.damage,
        "dealt": other.damage,
        "life": max(5 - s.damage, 0),
        "deck": s.deck,
        "hand": list(s.hand),
        "hand_count": len(s.hand),
        "discard": list(s.discard),
        "stock": list(s.stock),
        "skill_zone": [{"card": k.card, "set": k.set} for k in s.skill_zone],
        "skills_used": s.skills_used,
        "deployed_this_turn": s.deployed,
        "headquarters": headquarters(s),
        "deploy_zone": list(deploy_zone(s)),
        "figures": [u.figure for u in board.units if u.owner == s.id],
    }


def field_json(board: GLBoard) -> dict[str, Any]:
    squares = []
    for sq in SQUARES:
        here = units_at(board, sq)
        zone_owner, zone = zone_of(board, sq)
        squares.append(
            {
                "square": sq,
                "column": COLUMNS.index(sq[0]),
                "row": int(sq[1:]),
                "zone": zone or None,
                "zone_owner": zone_owner,
                "owner": here[0].owner if here else None,
                "leader": here[0].figure if here else None,
                "figures": [unit_json(board, u) for u in here],
            }
        )
    return {
        "columns": len(COLUMNS),
        "rows": ROWS,
        "column_names": list(COLUMNS),
        "bottom": board.sides[0].id if board.sides else None,
        "squares": squares,
    }


def board_json(board: GLBoard) -> dict[str, Any]:
    b = board.battle
    return {
        "turn": board.turn,
        "active": board.active,
        "phase": board.phase,
        "first": board.first,
        "players": {s.id: side_json(board, s) for s in board.sides},
        "field": field_json(board),
        "battle": None
        if b is None
        else {
            "attacker": b.attacker,
            "defender": b.defender,
            "figures": list(b.figures),
            "from": b.origin,
            "square": b.square,
            "defenders": list(b.defenders),
            "attack_bonus": b.attack_bonus,
            "defend_bonus": b.defend_bonus,
        },
        "house_rules": dict(board.options),
    }


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, w: int) -> str:
    return text + " " * (w - width(text))


def _cell_lines(board: GLBoard, sq: str) -> list[str]:
    lines = [f"{u.owner}:{u.figure}{'*' if u.acted else ''}" for u in units_at(board, sq)]
    if not lines:
        owner, zone = zone_of(board, sq)
        lines = [{"hq": f"({owner}本陣)", "deploy": f"({owner}出陣)"}.get(zone, "")]
    return lines


def render_text(board: GLBoard) -> str:
    cells = {sq: _cell_lines(board, sq) for sq in SQUARES}
    w = max(8, *(width(line) for lines in cells.values() for line in lines))
    sep = "   +" + "+".join("-" * (w + 2) for _ in COLUMNS) + "+"
    out = [f"turn {board.turn}  active {board.active}  phase {board.phase}", ""]
    for s in reversed(board.sides):
        out.append(_side_line(s))
    out.append("    " + " ".join(pad(f" {c}", w + 2) for c in COLUMNS))
    for row in range(ROWS, 0, -1):
        out.append(sep)
        rows = [cells[f"{c}{row}"] for c in COLUMNS]
        for i in range(max(len(r) for r in rows)):
            label = f" {row} " if i == 0 else "   "
            out.append(
                label
                + "|"
                + "|".join(" " + pad(r[i] if i < len(r) else "", w) + " " for r in rows)
                + "|"
            )
    out.append(sep)
    out.append("(* = 行動完了 acted)")
    if board.battle:
        b = board.battle
        out.append(
            f"battle at {b.square}: {b.attacker} {'+'.join(b.figures)} vs {b.defender} {'+'.join(b.defenders)}"
        )
    for u in board.units:
        extra = [*u.supports] + ([f"装備 {u.item}"] if u.item else [])
        if extra:
            out.append(f"  {u.owner}:{u.figure} [{u.card}] ← {', '.join(extra)}")
    return "\n".join(out)


def _side_line(s: Side) -> str:
    hand = ", ".join(c or "?" for c in s.hand)
    return (
        f"{s.id}: damage {s.damage}/5  deck {s.deck}  hand {len(s.hand)} [{hand}]  "
        f"stock [{', '.join(s.stock)}]  discard {len(s.discard)}"
    )


def vocabulary(header: Mapping[str, Any]) -> list[str]:
    names: dict[str, None] = {}
    for p in header.get("players") or []:
        deck = p.get("deck") or {}
        for n in [*deck.get("cards", []), *deck.get("stock", [])]:
            if isinstance(n, str):
                names[n] = None
    if not names:
        names = dict.fromkeys(load().cards)
    return [*names, *SQUARES, *players_of(header), *MOVE_TYPES]


def describe(board: GLBoard, move: Move, lang: str = "ja") -> str:
    """The move as its players say it (placeholder until the notation lands)."""
    return f"{move.get('by')} {move.get('type')}"
