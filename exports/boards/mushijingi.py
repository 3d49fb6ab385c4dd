"""蟲神器: territory (縄張り), feed (エサ場), the field with damage, hand and deck counts —
Japanese labels, players by name, insects by card name with their field number."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section

LEGEND = "[A1] 場の虫の番号 (持ち主と登場順) · 裏返し: ターン終了時までいないものとして扱う · ? 非公開のカード"


def _insect(i: Mapping[str, Any]) -> str:
    hp, dmg = i.get("hp") or 0, i.get("damage") or 0
    flags = []
    if i.get("flipped"):
        flags.append("裏返し")
    if i.get("attacked"):
        flags.append("攻撃済み")
    if i.get("attack_bonus"):
        flags.append(f"攻撃力+{i['attack_bonus']}")
    enh = (
        f'<small> 強化: {esc(", ".join(map(str, i["enhancements"])))}</small>'
        if i.get("enhancements")
        else ""
    )
    cls = "insect colour-" + esc(i.get("colour")) + (" hurt" if dmg else "")
    return (
        f'<span class="{cls}"><b>{esc(i.get("card"))}</b> <small class="uid">[{esc(i.get("uid"))}]</small>'
        f"{enh} <small>{esc(i.get('colour'))} 体力 {esc(hp - dmg)}/{esc(hp)} ダメージ {esc(dmg)}"
        f"{(' · ' + esc(' · '.join(flags))) if flags else ''}</small></span>"
    )


def _cost(cost: Mapping[str, Any]) -> str:
    return (
        f"残り <b>{esc(cost.get('left'))}</b> / {esc(cost.get('total'))} "
        f"<small>(使用 {esc(cost.get('spent'))})</small>"
    )


def body(board: Mapping[str, Any]) -> str:
    out = ['<div class="players">']
    for pid in players_order(board):
        p = board["players"][pid]
        hand = p.get("hand") or []
        unknown = max(0, int(p.get("hand_count") or 0) - len(hand))
        hand_html = chips(hand) + (f'<span class="chip unknown">? ×{unknown}</span>' if unknown else "")
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            f'<div class="counters">{kv("縄張り", p.get("territory"), "big territory")} '
            f'{kv("山札", p.get("deck"), "deck")} {kv("手札", p.get("hand_count"), "hand")}</div>'
            + section("場", "".join(_insect(i) for i in p.get("insects") or []) or '<span class="none">—</span>')
            + section("エサ場", chips(p.get("feed") or []))
            + section("手札", hand_html)
            + section("捨て札", chips(p.get("discard") or []))
            + "</div>"
        )
    out.append("</div>")
    cost = board.get("cost")
    if isinstance(cost, Mapping):
        out.append(section("コスト", _cost(cost)))
    out.append(f'<p class="legend"><small>{esc(LEGEND)}</small></p>')
    return "".join(out)
