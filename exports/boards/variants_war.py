"""ＶＶ ヴァリアンツ＝ウォー: the zones (撤退・出撃・自陣戦場・共通戦場) with each monster's
orientation and facing, アルクトスXII and its lock-on squares, and each player's counts —
labelled in Japanese, players by name, every marker explained in the legend."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section

FACING = {"north": "↑", "south": "↓", "east": "→", "west": "←"}
ORIENT_JA = {"vertical": "縦", "horizontal": "横"}
POSITION_JA = {"attack": "攻撃表示", "defence": "守備表示"}
STATUS_JA = {"no_action": "行動不可", "no_effect": "効果発動不可", "no_position": "表示形式変更不可",
             "immune": "相手の効果を受けない", "diagonal": "斜め移動可", "extra_move": "追加移動"}
ACTION_JA = {"move": "移動", "effect": "通常効果", "position": "表示形式変更"}


def _names(board: Mapping[str, Any]) -> dict[str, str]:
    return {pid: str(p.get("name") or pid) for pid, p in (board.get("players") or {}).items()}


def _monster(m: Mapping[str, Any], names: Mapping[str, str]) -> str:
    orient = m.get("orientation") or "vertical"
    arrow = FACING.get(m.get("facing") or "", "")
    pos = POSITION_JA.get(m.get("position") or "", "")
    owner = names.get(str(m.get("owner")), str(m.get("owner")))
    statuses = [STATUS_JA.get(str(s), str(s)) for s in m.get("statuses") or []]
    st = f'<small class="fx">{esc("・".join(statuses))}</small>' if statuses else ""
    title = f"{owner}の{m.get('card')} {pos or ORIENT_JA.get(orient, '')}"
    return (f'<div class="mon owner-{esc(m.get("owner"))} orient-{esc(orient)}" title="{esc(title)}">'
            f'<span class="facing">{esc(arrow)}</span><b>{esc(m.get("card"))}</b> '
            f'<small>{esc(owner)} {esc(pos)} 攻{esc(m.get("atk"))}/守{esc(m.get("def"))}</small>{st}</div>')


def _split(square: str) -> tuple[int, int]:
    return ord(square[0]) - 97, int(square[1:])


def body(board: Mapping[str, Any]) -> str:
    names = _names(board)
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
        out.append('<table class="grid vw"><tr><td></td>' + "".join(f"<th>{chr(97 + c)}</th>" for c in range(cols)) + "</tr>")
        for row in range(rows - 1, -1, -1):
            out.append(f"<tr><th>{row}</th>")
            for col in range(cols):
                z = cells.get((col, row))
                if z is None:
                    out.append('<td class="sq empty"></td>')
                    continue
                sq = z["square"]
                cls = f"sq zone-{esc(z.get('zone'))} zone-owner-{esc(z.get('owner'))}" + (" sealed" if z.get("sealed") else "")
                lock = (f'<span class="lock" title="ロックオンマス{esc(z["lockon"])}: マスターフェイズのダイスの目 '
                        f'{esc(z["lockon"])} でここのモンスターが破壊される">◎{esc(z["lockon"])}</span>') if z.get("lockon") else ""
                inner = "".join(_monster(m, names) for m in monsters.get(sq, []))
                if arctos.get("square") == sq and not board.get("arctos_destroyed"):
                    facing = names.get(str(arctos.get("facing")), str(arctos.get("facing")))
                    inner += (f'<div class="arctos">アルクトスXII <small>{esc(facing)}の方を向く '
                              f'ダメージ{esc(arctos.get("damage"))}/6000</small></div>')
                owner = names.get(str(z.get("owner")), "")
                label = f"{z.get('zone_ja')}" + (f"・{owner}" if owner and z.get("zone") != "common" else "")
                out.append(f'<td class="{cls}" data-square="{esc(sq)}"><span class="sq-l">{esc(sq)} {esc(label)}'
                           f'{" 封印" if z.get("sealed") else ""}</span>{lock}{inner}</td>')
            out.append("</tr>")
        out.append("</table>")
    out.append('<div class="players">')
    for pid in players_order(board):
        p = board["players"][pid]
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            f'<div class="counters">{kv("ライフ", p.get("life"), "big life")} {kv("陣営", p.get("faction"))} '
            f'{kv("手札", p.get("hand"))} {kv("デッキ", p.get("deck"))}</div>'
            + section("公開されている手札", chips(p.get("hand_known") or []))
            + section("EXデッキ (切り札)", chips(p.get("ex") or []))
            + section("退場した切り札", chips(p.get("aces_gone") or []))
            + "</div>"
        )
    out.append("</div>")
    extra = []
    if board.get("rescue_deck") is not None:
        extra.append(kv("救援デッキ", board["rescue_deck"]))
    if board.get("magic_deck") is not None:
        extra.append(kv("魔法デッキ", board["magic_deck"]))
    if board.get("actions_used") is not None:
        left = [label for key, label in ACTION_JA.items() if key not in board["actions_used"]]
        extra.append(kv("行動権の残り", "・".join(left) or "なし"))
    if board.get("arctos_destroyed"):
        extra.append(kv("アルクトスXII", "破壊済み (マスターフェイズはスキップ)"))
    if extra:
        out.append('<div class="counters">' + " ".join(extra) + "</div>")
    out.append('<p class="legend"><small>↑↓ 向き・攻撃表示は縦、守備表示は横。◎n ロックオンマス '
               '(マスターフェイズの8面ダイスの目 n で破壊)。封印: シール・イールの効果でカードを置けないゾーン。</small></p>')
    return "".join(out)
