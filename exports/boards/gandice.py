"""眼魔伝ガンダイス: each player's dice with their summon state, items, graveyard, and the battle."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section
from projections.gandice.catalog import FACE_JA, KIND_JA, STATE_JA
from projections.gandice.render import REASON_JA, STEP_JA, WINNER_JA

# The Japanese words of the game's own vocabulary: one table each, in the game package.
def _name(board: Mapping[str, Any], pid: Any) -> str:
    p = (board.get("players") or {}).get(pid) or {}
    return str(p.get("name") or pid or "")


def _die(board: Mapping[str, Any], pid: str, d: Mapping[str, Any]) -> str:
    state = d.get("state")
    gone = d.get("zone") == "graveyard"
    cls = f"die kind-{esc(d.get('kind'))} state-{esc(state)}" + (" dead" if gone else "")
    label = STATE_JA.get(state or "", KIND_JA.get(d.get("kind") or "", ""))
    notes = []
    if d.get("evolved_from"):
        notes.append(f"{d['evolved_from']}から進化")
    if d.get("fusion"):
        notes.append("合身" if d["fusion"] == d.get("name") else f"{d['fusion']}と合身")
    if d.get("origin") and d["origin"] != pid:
        notes.append(f"{_name(board, d['origin'])}から奪取")
    if gone:
        notes.append("墓場")
    tail = "".join(f" · {n}" for n in notes)
    return (
        f'<span class="{cls}" title="{esc(d.get("kin"))}"><b>{esc(d.get("name"))}</b>'
        f" <small>{esc(label)}{esc(tail)}</small></span>"
    )


def _face(face: Any) -> str:
    return FACE_JA.get(face, "未ロール") if face else "未ロール"


def _battle(board: Mapping[str, Any], b: Mapping[str, Any] | None) -> str:
    if not b:
        return ""
    a, d = b.get("attack") or {}, b.get("defence") or {}
    text = (
        f"{_name(board, a.get('player'))}の{a.get('die')} ({_face(a.get('face'))}) 合計{a.get('total')} 対 "
        f"{_name(board, d.get('player'))}の{d.get('die')} ({_face(d.get('face'))}) 合計{d.get('total')}"
    )
    step = STEP_JA.get(b.get("step") or "", "")
    return section(f"戦闘中 [{step}]", f"<span>{esc(text)}</span>")


def _last(board: Mapping[str, Any], o: Mapping[str, Any] | None) -> str:
    if not o:
        return ""
    winner = WINNER_JA.get(o.get("winner") or "", "")
    reason = REASON_JA.get(o.get("reason") or "", "")
    text = (
        f"{_name(board, o.get('attacker'))}の{o.get('attack_die')} {o.get('attack_total')} 対 "
        f"{_name(board, o.get('defender'))}の{o.get('defence_die')} {o.get('defence_total')} → {winner} ({reason})"
    )
    return section("前の戦闘", f"<span>{esc(text)}</span>")


def body(board: Mapping[str, Any]) -> str:
    out = ['<div class="players">']
    for pid in players_order(board):
        p = board["players"][pid]
        dice = [d for d in p.get("dice") or [] if d.get("kind") == "character"]
        items = [d for d in p.get("dice") or [] if d.get("kind") != "character" and d.get("zone") != "graveyard"]
        kofuda_left = [c for c in p.get("kofuda") or [] if c not in (p.get("kofuda_used") or [])]
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            f'<div class="counters">{kv("デッキ", p.get("deck", ""))} {kv("残りキャラ", p.get("alive"), "big alive")}</div>'
            f'<div class="dice">{"".join(_die(board, pid, d) for d in dice)}</div>'
            + section("アイテムダイス", chips(d.get("name") for d in items))
            + section("使用済み", chips(p.get("used_items") or []))
            + section("墓場", chips(p.get("graveyard") or [], "chip dead"))
            + (section("進化ダイス", chips(p.get("evolution") or [])) if p.get("evolution") else "")
            + (section("小札絵", chips(kofuda_left)) if p.get("kofuda") else "")
            + "</div>"
        )
    out.append("</div>")
    out.append(_battle(board, board.get("battle")))
    out.append(_last(board, board.get("last_battle")))
    if board.get("pending_split"):
        who, lead = board["pending_split"]
        out.append(section("合身解除待ち", f"<span>{esc(_name(board, who))}の{esc(lead)}</span>"))
    if board.get("evolution_challenge"):
        who, die = board["evolution_challenge"]
        out.append(section("進化チャレンジ可", f"<span>{esc(_name(board, who))}の{esc(die)}</span>"))
    return "".join(out)
