"""蟲神器: territory, feed (エサ場), the field with damage, hand and deck counts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section


def _insect(i: Mapping[str, Any]) -> str:
    hp, dmg = i.get("hp") or 0, i.get("damage") or 0
    flags = []
    if i.get("flipped"):
        flags.append("裏")
    if i.get("attacked"):
        flags.append("attacked")
    enh = f'<small> +{esc(", ".join(map(str, i["enhancements"])))}</small>' if i.get("enhancements") else ""
    cls = "insect colour-" + esc(i.get("colour")) + (" hurt" if dmg else "")
    return (f'<span class="{cls}"><b>{esc(i.get("card"))}</b>{enh} '
            f'<small>{esc(i.get("colour"))} HP {esc(hp)} dmg {esc(dmg)}'
            f'{(" · " + esc(" ".join(flags))) if flags else ""}</small></span>')


def body(board: Mapping[str, Any]) -> str:
    out = ['<div class="players">']
    for pid in players_order(board):
        p = board["players"][pid]
        hand = p.get("hand") or []
        unknown = max(0, int(p.get("hand_count") or 0) - len(hand))
        hand_html = chips(hand) + (f'<span class="chip unknown">? ×{unknown}</span>' if unknown else "")
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            f'<div class="counters">{kv("territory 縄張り", p.get("territory"), "big")} '
            f'{kv("deck 山札", p.get("deck"))} {kv("hand 手札", p.get("hand_count"))}</div>'
            + section("field 場", "".join(_insect(i) for i in p.get("insects") or []) or '<span class="none">—</span>')
            + section("feed エサ場", chips(p.get("feed") or []))
            + section("hand 手札", hand_html)
            + section("discard 捨て札", chips(p.get("discard") or []))
            + "</div>"
        )
    out.append("</div>")
    if board.get("cost") is not None:
        out.append(section("cost", esc(board["cost"])))
    return "".join(out)
