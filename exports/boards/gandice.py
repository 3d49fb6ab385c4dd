"""眼魔伝ガンダイス: each player's dice with their summon state, items, graveyard, and the battle."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section

STATE_JA = {"summoned": "召喚", "half": "半召喚", "unsummoned": "未召喚"}


def _die(d: Mapping[str, Any]) -> str:
    state = d.get("state")
    gone = d.get("zone") == "graveyard"
    cls = f"die kind-{esc(d.get('kind'))} state-{esc(state)}" + (" dead" if gone else "")
    label = STATE_JA.get(state or "", d.get("kind") or "")
    evo = f' <i class="evo">← {esc(d["evolved_from"])}</i>' if d.get("evolved_from") else ""
    return (f'<span class="{cls}" title="{esc(d.get("kin"))}"><b>{esc(d.get("name"))}</b>{evo}'
            f' <small>{esc(label)}{" · 墓地" if gone else ""}</small></span>')


def _battle(label: str, b: Mapping[str, Any] | None) -> str:
    if not b:
        return ""
    if "attack" in b:
        a, d = b.get("attack") or {}, b.get("defence") or {}
        text = (f"{a.get('player')} {a.get('die')} ({a.get('face') or '?'}) {a.get('total')} vs "
                f"{d.get('player')} {d.get('die')} ({d.get('face') or '?'}) {d.get('total')}")
        return section(label, f"<span>{esc(text)}</span>")
    text = (f"{b.get('attacker')} {b.get('attack_die')} {b.get('attack_total')} vs "
            f"{b.get('defender')} {b.get('defence_die')} {b.get('defence_total')} → {b.get('winner')}")
    return section(label, f"<span>{esc(text)}</span>")


def body(board: Mapping[str, Any]) -> str:
    out = ['<div class="players">']
    for pid in players_order(board):
        p = board["players"][pid]
        dice = [d for d in p.get("dice") or [] if d.get("kind") == "character"]
        items = [d for d in p.get("dice") or [] if d.get("kind") != "character"]
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            f'<div class="counters">{kv("deck", p.get("deck", ""))} {kv("alive 生存", p.get("alive"), "big")}</div>'
            f'<div class="dice">{"".join(_die(d) for d in dice)}</div>'
            + section("items 道具", chips(d.get("name") for d in items))
            + section("used 使用済", chips(p.get("used_items") or []))
            + section("graveyard 墓地", chips(p.get("graveyard") or [], "chip dead"))
            + (section("evolution 進化", chips(p.get("evolution") or [])) if p.get("evolution") else "")
            + "</div>"
        )
    out.append("</div>")
    out.append(_battle("battle 戦闘", board.get("battle")))
    out.append(_battle("last battle", board.get("last_battle")))
    return "".join(out)
