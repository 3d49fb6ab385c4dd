"""天元突破グレンラガン GBS: the 5×6 field with its figures, and each player's zones — labels
from the catalog in the page's language, players by name, every marker explained in a legend."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section, translations_for


def _names(board: Mapping[str, Any]) -> dict[str, str]:
    players = board.get("players") or {}
    return {pid: str(p.get("name") or pid) for pid, p in players.items()}


def _figure(f: Mapping[str, Any], names: Mapping[str, str], t: Any) -> str:
    extra = []
    if f.get("supports"):
        extra.append("+" + t.pgettext("board", ", ").join(map(str, f["supports"])))
    if f.get("item"):
        extra.append("⚔" + str(f["item"]))
    acted = f.get("acted")
    owner = names.get(str(f.get("owner")), str(f.get("owner")))
    return (
        f'<div class="fig owner-{esc(f.get("owner"))}{" acted" if acted else ""}" title="{esc(owner)}">'
        f'<b>{esc(f.get("figure"))}</b> <small>P{esc(f.get("power"))} S{esc(f.get("skill"))}</small>'
        + (' <small class="done">' + esc(t.pgettext("board", "done")) + "</small>" if acted else "")
        + (f'<small class="fx">{esc(" ".join(extra))}</small>' if extra else "")
        + "</div>"
    )


def field_html(field: Mapping[str, Any], names: Mapping[str, str] | None = None, lang: str = "ja") -> str:
    t = translations_for(lang)
    names = names or {}
    cols = int(field.get("columns") or 5)
    rows = int(field.get("rows") or 6)
    letters = field.get("column_names") or [chr(97 + c) for c in range(cols)]
    squares = {(s["column"], s["row"]): s for s in field.get("squares") or []}
    zones = {"hq": t.pgettext("board", "{player}'s HQ"), "deploy": t.pgettext("board", "{player}'s deploy zone")}
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
            owner = names.get(str(s.get("zone_owner")), str(s.get("zone_owner") or ""))
            kind = zones.get(s.get("zone") or "")
            zone = kind.format(player=owner) if kind else ""
            out.append(
                f'<td class="{" ".join(cls)}" data-square="{esc(label)}" data-pick="{esc(label)}"><span class="sq-l">{esc(label)} {esc(zone)}</span>'
                + "".join(_figure(f, names, t) for f in s.get("figures") or [])
                + "</td>"
            )
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _skill(k: Any, t: Any) -> str:
    if not isinstance(k, Mapping):
        return "?" if k is None else str(k)
    card = k.get("card")
    if k.get("set"):
        return t.pgettext("board", "set: {card}").format(card=card) if card else t.pgettext("board", "set ?")
    return str(card) if card else "?"


def _battle(b: Mapping[str, Any], names: Mapping[str, str], t: Any) -> str:
    att, dfn = str(b.get("attacker")), str(b.get("defender"))
    text = t.pgettext("board", "{square}: {attacker} {figures} (attacking from {start}) vs {defender} {defenders}").format(
        square=b.get("square"), attacker=names.get(att, att), figures=t.pgettext("board", ", ").join(map(str, b.get("figures") or [])),
        start=b.get("from"), defender=names.get(dfn, dfn), defenders=t.pgettext("board", ", ").join(map(str, b.get("defenders") or [])),
    )
    if b.get("attack_bonus") or b.get("defend_bonus"):
        text += " · " + t.pgettext("board", "modifiers: attack {attack} / defence {defence}").format(
            attack=f"{int(b.get('attack_bonus') or 0):+d}", defence=f"{int(b.get('defend_bonus') or 0):+d}")
    return esc(text)


def body(board: Mapping[str, Any], lang: str = "ja") -> str:
    t = translations_for(lang)
    names = _names(board)
    out = []
    field = board.get("field")
    if field:
        out.append(field_html(field, names, lang))
    if board.get("battle"):
        out.append(section(t.pgettext("board", "in battle"), _battle(board["battle"], names, t)))
    out.append('<div class="players">')
    for pid in players_order(board):
        p = board["players"][pid]
        hand = p.get("hand") or []
        unknown = max(0, int(p.get("hand_count") or 0) - len(hand))
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            + '<div class="counters">' + kv(t.pgettext("board", "damage taken"), p.get("damage"), "big damage") + " "
            + kv(t.pgettext("board", "life left"), p.get("life"), "life") + " "
            + kv(t.pgettext("board pile", "deck"), p.get("deck"), "deck") + " "
            + kv(t.pgettext("board", "hand"), p.get("hand_count"), "hand") + "</div>"
            + section(t.pgettext("board", "hand"),
                      chips(hand) + (f'<span class="chip unknown">? ×{unknown}</span>' if unknown else ""))
            + section(t.pgettext("board", "stock"), chips(p.get("stock") or []))
            + section(t.pgettext("board", "skill zone"), chips([_skill(k, t) for k in p.get("skill_zone") or []]))
            + section(t.pgettext("board", "discard pile"), chips(p.get("discard") or []))
            + "</div>"
        )
    out.append("</div>")
    legend = t.pgettext("board", "P power · S skill (GBS card + support + item) · done: acted · +support character · "
                                 "⚔ item · HQ, deploy zone: its owner's · set: a trap set face down (? not seen) · "
                                 "? a card not seen")
    out.append(f'<p class="legend"><small>{esc(legend)}</small></p>')
    return "".join(out)
