"""Board JSON, the terminal board, and the names a scorekeeper types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.base import Move
from projections.gandice.board import Battle, Board, Die, Player, Side
from projections.gandice.catalog import FACE_JA, STATE_JA, base_name, catalog, custom_specs


def die_json(d: Die) -> dict[str, Any]:
    out: dict[str, Any] = {"name": d.label, "kind": d.kind, "kin": d.kin, "zone": d.zone}
    if d.kind == "character":
        out["state"] = d.state
    if d.unit:
        out["fusion"] = d.unit
    if d.evolved_from:
        out["evolved_from"] = d.evolved_from
    if d.origin:
        out["origin"] = d.origin
    return out


def player_json(p: Player) -> dict[str, Any]:
    return {
        "name": p.name,
        "deck": p.deck_name,
        "alive": p.alive,
        "dice": [die_json(d) for d in p.dice],
        "summoned": [d.label for d in p.characters if d.state == "summoned"],
        "half_summoned": [d.label for d in p.characters if d.state == "half"],
        "unsummoned": [d.label for d in p.characters if d.state == "unsummoned"],
        "items": [d.label for d in p.dice if d.kind != "character" and d.in_play],
        "graveyard": [d.label for d in p.graveyard],
        "used_items": [d.label for d in p.graveyard if d.kind != "character"],
        "evolution": [e.label for e in p.evolution],
        "kofuda": list(p.kofuda),
        "kofuda_used": list(p.kofuda_used),
    }


def side_json(s: Side) -> dict[str, Any]:
    return {
        "player": s.player,
        "die": s.die,
        "face": s.face or None,
        "value": s.value,
        "items": s.items,
        "total": s.value + s.items,
        "fused": s.fused,
    }


def battle_json(b: Battle | None) -> dict[str, Any] | None:
    if b is None:
        return None
    return {"step": b.step, "attack": side_json(b.attack), "defence": side_json(b.defence)}


def board_json(board: Board) -> dict[str, Any]:
    return {
        "turn": board.turn,
        "active": board.active,
        "phase": board.phase,
        "order": list(board.order),
        "players": {p.id: player_json(p) for p in board.players},
        "battle": battle_json(board.battle),
        "last_battle": board.last.to_json() if board.last else None,
        "evolution_challenge": list(board.evolve_ok) if board.evolve_ok else None,
        "pending_split": list(board.pending_split) if board.pending_split else None,
        "house_rules": dict(board.house),
    }


def _die_text(d: Die) -> str:
    tag = (
        STATE_JA.get(d.state, d.state)
        if d.kind == "character"
        else {"weapon": "武具", "curse": "呪術"}.get(d.kind, d.kind)
    )
    fused = f" 合身:{d.unit}" if d.unit else ""
    return f"{d.label}[{tag}{fused}]"


def _side_text(s: Side) -> str:
    face = FACE_JA.get(s.face, "-") if s.face else "未ロール"
    return f"{s.player}:{s.die} {face} {s.value}+{s.items}={s.value + s.items}"


def render_text(board: Board) -> str:
    head = {
        "summon": "眼魔召喚",
        "battle": f"ターン {board.turn}  攻撃: {board.active}",
        "over": "終了",
    }[board.phase]
    lines = [f"ガンダイス  {head}"]
    for p in board.players:
        mark = ">" if p.id == board.active and board.phase != "over" else " "
        lines.append(f"{mark} {p.id} {p.name} 「{p.deck_name}」 残り{p.alive}体")
        lines.append("    デッキ: " + (" ".join(_die_text(d) for d in p.dice if d.in_play) or "-"))
        lines.append("    墓場:   " + (" ".join(d.label for d in p.graveyard) or "-"))
        if p.evolution:
            lines.append("    進化:   " + " ".join(e.label for e in p.evolution))
        if p.kofuda:
            left = [c for c in p.kofuda if c not in p.kofuda_used]
            lines.append("    小札絵: " + (" ".join(left) or "-"))
    if board.battle:
        b = board.battle
        lines.append(f"  戦闘中 ({b.step}): {_side_text(b.attack)} vs {_side_text(b.defence)}")
    elif board.last:
        o = board.last
        lines.append(
            f"  前の戦闘: {o.attacker}:{o.attack_die} → {o.defender}:{o.defence_die}  {o.winner} ({o.reason}) "
            f"{o.attack_total} vs {o.defence_total}"
        )
    if board.pending_split:
        lines.append(f"  合身解除待ち: {board.pending_split[0]} {board.pending_split[1]}")
    if board.phase == "over":
        lines.append(f"  勝者: {board.winner} ({board.reason})")
    return "\n".join(lines)


def vocabulary(header: Mapping[str, Any]) -> list[str]:
    words: set[str] = set(catalog())
    for p in header.get("players", []):
        deck = p.get("deck") or {} if isinstance(p, Mapping) else {}
        words.update(str(x) for x in deck.get("cards") or [])
        words.update(str(x) for x in deck.get("evolution") or [])
        words.update(str(x) for x in deck.get("kofuda") or [])
        words.update(custom_specs(deck))
        words.update(base_name(str(x)) for x in deck.get("cards") or [])
    words.update(["立ち", "逆立ち", "横倒し", "特殊目", "通常目", "裏切り"])
    return sorted(words)


def describe(board: Board, move: Move, lang: str = "ja") -> str:
    """The move as its players say it (placeholder until the notation lands)."""
    return f"{move.get('by', '')} {move.get('type', '')}"
