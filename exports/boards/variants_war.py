"""ＶＶ ヴァリアンツ＝ウォー: the zones (撤退・出撃・自陣戦場・共通戦場) with each monster's
orientation and facing, アルクトスXII and its lock-on squares, and each player's counts —
labels from the catalog in the page's language, players by name, every marker explained in the
legend."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section, translations_for

FACING = {"north": "↑", "south": "↓", "east": "→", "west": "←"}


def zones(t: Any) -> dict[str, str]:
    """Zone codes as the players say them (the Japanese is projections/variants_war's ZONE_JA)."""
    return {"sortie": t.pgettext("vw zone", "sortie"), "retreat": t.pgettext("vw zone", "retreat"),
            "field": t.pgettext("vw zone", "own battlefield"), "common": t.pgettext("vw zone", "common battlefield")}


def orientations(t: Any) -> dict[str, str]:
    return {"vertical": t.pgettext("vw orientation", "vertical"), "horizontal": t.pgettext("vw orientation", "horizontal")}


def positions(t: Any) -> dict[str, str]:
    return {"attack": t.pgettext("vw position", "attack position"), "defence": t.pgettext("vw position", "defence position")}


def statuses(t: Any) -> dict[str, str]:
    return {"no_action": t.pgettext("vw status", "may not act"), "no_effect": t.pgettext("vw status", "may not use effects"),
            "no_position": t.pgettext("vw status", "may not change position"),
            "immune": t.pgettext("vw status", "unaffected by the opponent's effects"),
            "diagonal": t.pgettext("vw status", "may move diagonally"), "extra_move": t.pgettext("vw status", "extra move")}


def actions(t: Any) -> dict[str, str]:
    return {"move": t.pgettext("vw action", "move"), "effect": t.pgettext("vw action", "normal effect"),
            "position": t.pgettext("vw action", "position change")}


def _names(board: Mapping[str, Any]) -> dict[str, str]:
    return {pid: str(p.get("name") or pid) for pid, p in (board.get("players") or {}).items()}


def _monster(m: Mapping[str, Any], names: Mapping[str, str], t: Any) -> str:
    orient = m.get("orientation") or "vertical"
    arrow = FACING.get(m.get("facing") or "", "")
    pos = positions(t).get(m.get("position") or "", "")
    owner = names.get(str(m.get("owner")), str(m.get("owner")))
    said = [statuses(t).get(str(s), str(s)) for s in m.get("statuses") or []]
    st = f'<small class="fx">{esc(t.pgettext("board", ", ").join(said))}</small>' if said else ""
    title = t.pgettext("board", "{player}'s {card} {position}").format(
        player=owner, card=m.get("card"), position=pos or orientations(t).get(orient, ""))
    power = t.pgettext("board", "ATK {atk}/DEF {def_}").format(atk=m.get("atk"), def_=m.get("def"))
    return (f'<div class="mon owner-{esc(m.get("owner"))} orient-{esc(orient)}" title="{esc(title)}">'
            f'<span class="facing">{esc(arrow)}</span><b>{esc(m.get("card"))}</b> '
            f'<small>{esc(owner)} {esc(pos)} {esc(power)}</small>{st}</div>')


def _split(square: str) -> tuple[int, int]:
    return ord(square[0]) - 97, int(square[1:])


def body(board: Mapping[str, Any], lang: str = "ja") -> str:
    t = translations_for(lang)
    names = _names(board)
    cells_of = board.get("zones") or []
    monsters: dict[str, list[Mapping[str, Any]]] = {}
    for m in board.get("monsters") or []:
        monsters.setdefault(str(m.get("square")), []).append(m)
    arctos = board.get("arctos") or {}
    out = []
    if cells_of:
        cells = {_split(z["square"]): z for z in cells_of}
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
                lock = ""
                if z.get("lockon"):
                    tip = t.pgettext("board", "lock-on square {n}: a master-phase roll of {n} destroys the monster here")
                    lock = f'<span class="lock" title="{esc(tip.format(n=z["lockon"]))}">◎{esc(z["lockon"])}</span>'
                inner = "".join(_monster(m, names, t) for m in monsters.get(sq, []))
                if arctos.get("square") == sq and not board.get("arctos_destroyed"):
                    facing = names.get(str(arctos.get("facing")), str(arctos.get("facing")))
                    said = t.pgettext("board", "facing {player} damage {damage}/6000").format(
                        player=facing, damage=arctos.get("damage"))
                    arctos_name = t.pgettext("board", "Arctos XII")
                    inner += f'<div class="arctos">{esc(arctos_name)} <small>{esc(said)}</small></div>'
                owner = names.get(str(z.get("owner")), "")
                zone = zones(t).get(str(z.get("zone")), str(z.get("zone_ja") or z.get("zone") or ""))
                label = zone + (t.pgettext("board", ", ") + owner if owner and z.get("zone") != "common" else "")
                sealed = " " + t.pgettext("board", "sealed") if z.get("sealed") else ""
                out.append(f'<td class="{cls}" data-square="{esc(sq)}" data-pick="{esc(sq)}"><span class="sq-l">{esc(sq)} {esc(label)}'
                           f'{esc(sealed)}</span>{lock}{inner}</td>')
            out.append("</tr>")
        out.append("</table>")
    out.append('<div class="players">')
    for pid in players_order(board):
        p = board["players"][pid]
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            + '<div class="counters">' + kv(t.pgettext("board", "life"), p.get("life"), "big life") + " "
            + kv(t.pgettext("board", "faction"), p.get("faction")) + " "
            + kv(t.pgettext("board", "hand"), p.get("hand")) + " " + kv(t.pgettext("board", "deck"), p.get("deck")) + "</div>"
            + section(t.pgettext("board", "hand cards shown"), chips(p.get("hand_known") or []))
            + section(t.pgettext("board", "EX deck (aces)"), chips(p.get("ex") or []))
            + section(t.pgettext("board", "aces gone"), chips(p.get("aces_gone") or []))
            + "</div>"
        )
    out.append("</div>")
    extra = []
    if board.get("rescue_deck") is not None:
        extra.append(kv(t.pgettext("board", "rescue deck"), board["rescue_deck"]))
    if board.get("magic_deck") is not None:
        extra.append(kv(t.pgettext("board", "magic deck"), board["magic_deck"]))
    if board.get("actions_used") is not None:
        left = [label for key, label in actions(t).items() if key not in board["actions_used"]]
        extra.append(kv(t.pgettext("board", "actions left"), t.pgettext("board", ", ").join(left) or t.pgettext("board", "none")))
    if board.get("arctos_destroyed"):
        extra.append(kv(t.pgettext("board", "Arctos XII"), t.pgettext("board", "destroyed (no master phase)")))
    if extra:
        out.append('<div class="counters">' + " ".join(extra) + "</div>")
    legend = t.pgettext("board", "↑↓ facing · attack position stands upright, defence position lies sideways · ◎n lock-on "
                                 "square (destroyed on a master-phase d8 roll of n) · sealed: a zone where シール・イール's "
                                 "effect forbids cards")
    out.append(f'<p class="legend"><small>{esc(legend)}</small></p>')
    return "".join(out)
