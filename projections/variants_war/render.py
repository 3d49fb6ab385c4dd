"""What a person reads: the board JSON, the terminal drawing (VW-1 geometry), the names a
scorekeeper types, and the notation of a move."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from projections.base import Move
from projections.variants_war import catalog

from projections.variants_war.board import (
    CENTRE,
    COLS,
    LOCKON,
    Board,
    SQUARES,
    Monster,
    back_kind,
    facing,
    is_field,
    stat,
)

ZONE_JA = {"sortie": "出撃", "retreat": "撤退", "field": "自陣戦場", "common": "共通戦場"}


def monster_json(board: Board, sq: str, m: Monster) -> dict[str, Any]:
    return {
        "square": sq, "card": m.card, "owner": m.owner, "source": m.source,
        "position": m.position, "orientation": "vertical" if m.position != "defence" else "horizontal",
        "facing": facing(board, m), "atk": stat(board, m, "atk"), "def": stat(board, m, "def"),
        "moved": m.moves > 0, "acted": m.acted, "turned": m.turned,
        "statuses": [s for s, until in m.statuses if board.turn <= until],
    }


def zones_json(board: Board) -> list[dict[str, Any]]:
    out = []
    lock = {sq: n for n, sq in LOCKON.items()} if board.arctos else {}
    for r in range(5):
        for c in COLS:
            sq = f"{c}{r}"
            kind = back_kind(sq) or ("common" if r == 2 else "field")
            owner = None if r == 2 else board.players[0 if r < 2 else 1].id
            out.append({"square": sq, "zone": kind, "zone_ja": ZONE_JA[kind], "owner": owner,
                        "lockon": lock.get(sq), "sealed": any(s == sq for s, _ in board.sealed)})
    return out


def player_json(board: Board, pid: str) -> dict[str, Any]:
    p = board.player(pid)
    return {
        "life": p.life, "seat": p.seat, "faction": p.faction,
        "hand": len(p.hand), "hand_known": [h.card for h in p.hand if h.card],
        "deck": len(p.deck.cards), "deck_bottom_known": [c for c in p.deck.cards if c],
        "ex": list(p.ex), "aces_gone": list(p.gone), "picks": list(p.picks),
        "monsters": [monster_json(board, sq, m) for sq, m in board.squares if m.owner == pid],
    }


def board_json(board: Board) -> dict[str, Any]:
    arctos = None
    if board.arctos:
        arctos = {"square": CENTRE, "facing": board.arctos.facing, "damage": board.arctos.damage,
                  "since": board.arctos.since, "lockon": {str(n): sq for n, sq in LOCKON.items()}}
    return {
        "turn": board.turn, "active": board.active, "phase": board.phase,
        "players": {p.id: player_json(board, p.id) for p in board.players},
        "zones": zones_json(board),
        "monsters": [monster_json(board, sq, m) for sq, m in board.squares],
        "arctos": arctos, "arctos_destroyed": board.arctos_destroyed,
        "rescue_deck": len(board.rescue.cards), "magic_deck": len(board.magic.cards),
        "actions_used": sorted(board.used),
        "draft_left": list(board.draft_pool),
    }


def _cell(board: Board, sq: str) -> str:
    if board.arctos and sq == CENTRE:
        arrow = "v" if board.seat(board.arctos.facing) == 0 else "^"
        return f"ARCTOS{arrow}{board.arctos.damage}"
    m = board.at(sq)
    if m is None:
        if not is_field(sq):
            return "(" + ("出" if back_kind(sq) == "sortie" else "撤") + ")"
        n = {v: k for k, v in LOCKON.items()}.get(sq) if board.arctos else None
        return f"[{n}]" if n else "."
    mark = {"attack": "|", "defence": "-", None: " "}[m.position]
    arrow = "^" if facing(board, m) == "north" else "v"
    return f"{m.owner}{arrow}{mark}{short(m.card)}"


def short(name: str) -> str:
    """A short label: the part after the last '－' (東雲, バロン), else the first 5 characters."""
    return name.rsplit("－", 1)[-1][:5]


def render_text(board: Board) -> str:
    top, bottom = board.players[1], board.players[0]
    lines = [f"turn {board.turn}  active {board.active}  phase {board.phase}"]
    lines.append(_player_line(board, top.id))
    for r in reversed(range(5)):
        label = {0: "back", 1: "field", 2: "common", 3: "field", 4: "back"}[r]
        cells = "".join(_pad(_cell(board, f"{c}{r}"), 16) for c in COLS)
        lines.append(f"{r} {label:<6} {cells}".rstrip())
    lines.append("         " + "".join(_pad(c, 16) for c in COLS).rstrip())
    lines.append(_player_line(board, bottom.id))
    if board.arctos:
        lines.append(f"アルクトスXII: faces {board.arctos.facing}, damage {board.arctos.damage}")
    elif board.arctos_destroyed:
        lines.append("アルクトスXII destroyed: master phase skipped")
    if board.winner or board.reason:
        lines.append(f"result: {board.winner} ({board.reason})")
    return "\n".join(lines)


def _player_line(board: Board, pid: str) -> str:
    p = board.player(pid)
    known = ", ".join(h.card or "?" for h in p.hand)
    return f"{pid} {p.faction} life {p.life}  deck {len(p.deck.cards)}  hand {len(p.hand)} [{known}]  EX {len(p.ex)}"


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(1, width - _width(text))


def vocabulary(header: Mapping[str, Any]) -> list[str]:
    """Names a scorekeeper types: cards, squares, dice values, positions and effect kinds."""
    words = list(catalog.cards()) + list(SQUARES) + [str(n) for n in range(1, 9)]
    return words + ["attack", "defence", "normal", "lateral", "special", "heads", "tails"]


def describe(board: Board, move: Move, lang: str = "ja") -> str:
    """The move in words (placeholder until the notation lands)."""
    return f"{move.get('by')} {move.get('type')}"
