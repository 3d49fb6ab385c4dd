"""ＶＶ ヴァリアンツ＝ウォー: the zones (撤退・出撃・自陣戦場・共通戦場) with each monster's
orientation and facing, アークトス and its lock-on, and each player's counts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section

FACING = {"north": "↑", "south": "↓", "east": "→", "west": "←"}


def _monster(m: Mapping[str, Any]) -> str:
    orient = m.get("orientation") or "vertical"
    arrow = FACING.get(m.get("facing") or "", "")
    pos = {"attack": "攻", "defence": "守"}.get(m.get("position") or "", "")
    st = f'<small class="fx">{esc(" ".join(map(str, m["statuses"])))}</small>' if m.get("statuses") else ""
    return (f'<div class="mon owner-{esc(m.get("owner"))} orient-{esc(orient)}" title="{esc(orient)} {esc(m.get("facing"))}">'
            f'<span class="facing">{esc(arrow)}</span><b>{esc(m.get("card"))}</b> '
            f'<small>{esc(pos)} {esc(m.get("atk"))}/{esc(m.get("def"))} {esc(orient)}</small>{st}</div>')


def _split(square: str) -> tuple[int, int]:
    return ord(square[0]) - 97, int(square[1:])


def body(board: Mapping[str, Any]) -> str:
    zones = board.get("zones") or []
    monsters: dict[str, list[Mapping[str, Any]]] = {}
    for m in board.get("monsters") or []:
        monsters.setdefault(str(m.get("square")), []).append(m)
    arctos = board.get("arctos") or {}
    out = []
    if zones:
        cells = {_split(z["square"]): z for z in zones}
        cols = max(c for c, _ in cells) + 1
        rows = max(r for _, r in cells) + 1
        out.append('<table class="grid vw"><tr><th></th>' + "".join(f"<th>{chr(97 + c)}</th>" for c in range(cols)) + "</tr>")
        for row in range(rows - 1, -1, -1):
            out.append(f"<tr><th>{row}</th>")
            for col in range(cols):
                z = cells.get((col, row))
                if z is None:
                    out.append('<td class="sq empty"></td>')
                    continue
                sq = z["square"]
                cls = f"sq zone-{esc(z.get('zone'))} zone-owner-{esc(z.get('owner'))}" + (" sealed" if z.get("sealed") else "")
                lock = f'<span class="lock">◎{esc(z["lockon"])}</span>' if z.get("lockon") else ""
                inner = "".join(_monster(m) for m in monsters.get(sq, []))
                if arctos.get("square") == sq and not board.get("arctos_destroyed"):
                    inner += (f'<div class="arctos">アークトス <small>→{esc(arctos.get("facing"))} '
                              f'dmg {esc(arctos.get("damage"))}</small></div>')
                out.append(f'<td class="{cls}" data-square="{esc(sq)}"><span class="sq-l">{esc(sq)} {esc(z.get("zone_ja"))}'
                           f'{" 封" if z.get("sealed") else ""}</span>{lock}{inner}</td>')
            out.append("</tr>")
        out.append("</table>")
    out.append('<div class="players">')
    for pid in players_order(board):
        p = board["players"][pid]
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            f'<div class="counters">{kv("life ライフ", p.get("life"), "big")} {kv("faction", p.get("faction"))} '
            f'{kv("hand 手札", p.get("hand"))} {kv("deck 山札", p.get("deck"))}</div>'
            + section("known hand", chips(p.get("hand_known") or []))
            + section("EX", chips(p.get("ex") or []))
            + section("aces gone", chips(p.get("aces_gone") or []))
            + "</div>"
        )
    out.append("</div>")
    extra = []
    for key in ("rescue_deck", "magic_deck"):
        if board.get(key) is not None:
            extra.append(kv(key, board[key]))
    if board.get("arctos_destroyed"):
        extra.append(kv("アークトス", "destroyed"))
    if extra:
        out.append('<div class="counters">' + " ".join(extra) + "</div>")
    return "".join(out)
