"""天元突破グレンラガン GBS: the 5×6 field with its figures, and each player's zones — Japanese
labels, players by name, every marker explained in a legend."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section

LEGEND = (
    "P パワー · S スキル (GBSカード+援護+装備) · 済 行動完了 · +援護キャラ · ⚔ 装備アイテム · "
    "本陣・出陣 = その持ち主の本陣・出陣ゾーン · 伏せ = セットした【罠】 (? は非公開) · ? 非公開のカード"
)


def _names(board: Mapping[str, Any]) -> dict[str, str]:
    players = board.get("players") or {}
    return {pid: str(p.get("name") or pid) for pid, p in players.items()}


def _figure(f: Mapping[str, Any], names: Mapping[str, str]) -> str:
    extra = []
    if f.get("supports"):
        extra.append("+" + "・".join(map(str, f["supports"])))
    if f.get("item"):
        extra.append("⚔" + str(f["item"]))
    acted = f.get("acted")
    owner = names.get(str(f.get("owner")), str(f.get("owner")))
    return (
        f'<div class="fig owner-{esc(f.get("owner"))}{" acted" if acted else ""}" title="{esc(owner)}">'
        f'<b>{esc(f.get("figure"))}</b> <small>P{esc(f.get("power"))} S{esc(f.get("skill"))}</small>'
        + (' <small class="done">済</small>' if acted else "")
        + (f'<small class="fx">{esc(" ".join(extra))}</small>' if extra else "")
        + "</div>"
    )


def field_html(field: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str:
    names = names or {}
    cols = int(field.get("columns") or 5)
    rows = int(field.get("rows") or 6)
    letters = field.get("column_names") or [chr(97 + c) for c in range(cols)]
    squares = {(s["column"], s["row"]): s for s in field.get("squares") or []}
    out = ['<table class="grid gbs"><tr><td></td>' + "".join(f"<th>{esc(n)}</th>" for n in letters) + "</tr>"]
    for row in range(rows, 0, -1):  # the bottom player's home row is drawn last
        out.append(f"<tr><th>{row}</th>")
        for col in range(cols):
            s = squares.get((col, row), {})
            cls = ["sq"]
            if s.get("zone"):
                cls.append(f"zone-{esc(s['zone'])} zone-owner-{esc(s.get('zone_owner'))}")
            if s.get("owner"):
                cls.append(f"held-{esc(s['owner'])}")
            label = s.get("square", f"{letters[col]}{row}")
            kind = {"hq": "本陣", "deploy": "出陣"}.get(s.get("zone") or "", "")
            owner = names.get(str(s.get("zone_owner")), str(s.get("zone_owner") or ""))
            zone = f"{owner}の{kind}" if kind else ""
            out.append(
                f'<td class="{" ".join(cls)}" data-square="{esc(label)}"><span class="sq-l">{esc(label)} {esc(zone)}</span>'
                + "".join(_figure(f, names) for f in s.get("figures") or [])
                + "</td>"
            )
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _skill(k: Any) -> str:
    if not isinstance(k, Mapping):
        return "?" if k is None else str(k)
    card = k.get("card")
    if k.get("set"):
        return f"伏せ: {card}" if card else "伏せ ?"
    return str(card) if card else "?"


def _battle(b: Mapping[str, Any], names: Mapping[str, str]) -> str:
    att, dfn = str(b.get("attacker")), str(b.get("defender"))
    text = (
        f"{b.get('square')}: {names.get(att, att)} {'・'.join(map(str, b.get('figures') or []))} "
        f"({b.get('from')} から攻撃) 対 {names.get(dfn, dfn)} {'・'.join(map(str, b.get('defenders') or []))}"
    )
    if b.get("attack_bonus") or b.get("defend_bonus"):
        text += f" · 修正 攻撃 {int(b.get('attack_bonus') or 0):+d} / 防御 {int(b.get('defend_bonus') or 0):+d}"
    return esc(text)


def body(board: Mapping[str, Any]) -> str:
    names = _names(board)
    out = []
    field = board.get("field")
    if field:
        out.append(field_html(field, names))
    if board.get("battle"):
        out.append(section("バトル中", _battle(board["battle"], names)))
    out.append('<div class="players">')
    for pid in players_order(board):
        p = board["players"][pid]
        hand = p.get("hand") or []
        unknown = max(0, int(p.get("hand_count") or 0) - len(hand))
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            f'<div class="counters">{kv("被ダメージ", p.get("damage"), "big damage")} {kv("残りライフ", p.get("life"), "life")} '
            f'{kv("山札", p.get("deck"), "deck")} {kv("手札", p.get("hand_count"), "hand")}</div>'
            + section("手札", chips(hand) + (f'<span class="chip unknown">? ×{unknown}</span>' if unknown else ""))
            + section("ストック", chips(p.get("stock") or []))
            + section("スキル置き場", chips([_skill(k) for k in p.get("skill_zone") or []]))
            + section("捨て札", chips(p.get("discard") or []))
            + "</div>"
        )
    out.append("</div>")
    out.append(f'<p class="legend"><small>{esc(LEGEND)}</small></p>')
    return "".join(out)
