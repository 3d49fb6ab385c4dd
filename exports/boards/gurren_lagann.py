"""天元突破グレンラガン GBS: the 5×6 field with its figures, and each player's zones."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section


def _figure(f: Mapping[str, Any]) -> str:
    extra = []
    if f.get("supports"):
        extra.append("+" + "・".join(map(str, f["supports"])))
    if f.get("item"):
        extra.append("⚔" + str(f["item"]))
    acted = " acted" if f.get("acted") else ""
    return (f'<div class="fig owner-{esc(f.get("owner"))}{acted}"><b>{esc(f.get("figure"))}</b> '
            f'<small>P{esc(f.get("power"))} S{esc(f.get("skill"))}</small>'
            + (f'<small class="fx">{esc(" ".join(extra))}</small>' if extra else "") + "</div>")


def field_html(field: Mapping[str, Any]) -> str:
    cols = int(field.get("columns") or 5)
    rows = int(field.get("rows") or 6)
    names = field.get("column_names") or [chr(97 + c) for c in range(cols)]
    squares = {(s["column"], s["row"]): s for s in field.get("squares") or []}
    out = ['<table class="grid gbs"><tr><th></th>' + "".join(f"<th>{esc(n)}</th>" for n in names) + "</tr>"]
    for row in range(rows, 0, -1):  # the bottom player's home row is drawn last
        out.append(f"<tr><th>{row}</th>")
        for col in range(cols):
            s = squares.get((col, row), {})
            cls = ["sq"]
            if s.get("zone"):
                cls.append(f"zone-{esc(s['zone'])} zone-owner-{esc(s.get('zone_owner'))}")
            if s.get("owner"):
                cls.append(f"held-{esc(s['owner'])}")
            label = s.get("square", f"{names[col]}{row}")
            zone = {"hq": "HQ", "deploy": "配置"}.get(s.get("zone") or "", "")
            out.append(f'<td class="{" ".join(cls)}" data-square="{esc(label)}"><span class="sq-l">{esc(label)} {esc(zone)}</span>'
                       + "".join(_figure(f) for f in s.get("figures") or []) + "</td>")
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def body(board: Mapping[str, Any]) -> str:
    out = []
    field = board.get("field")
    if field:
        out.append(field_html(field))
    out.append('<div class="players">')
    for pid in players_order(board):
        p = board["players"][pid]
        hand = p.get("hand") or []
        unknown = max(0, int(p.get("hand_count") or 0) - len(hand))
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            f'<div class="counters">{kv("damage 被ダメージ", p.get("damage"), "big")} {kv("life", p.get("life"))} '
            f'{kv("deck 山札", p.get("deck"))} {kv("hand 手札", p.get("hand_count"))}</div>'
            + section("hand 手札", chips(hand) + (f'<span class="chip unknown">? ×{unknown}</span>' if unknown else ""))
            + section("stock ストック", chips(p.get("stock") or []))
            + section("skill zone", chips(p.get("skill_zone") or []))
            + section("discard 捨て札", chips(p.get("discard") or []))
            + "</div>"
        )
    out.append("</div>")
    if board.get("battle"):
        out.append(section("battle", esc(board["battle"])))
    return "".join(out)
