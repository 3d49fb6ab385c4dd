"""蟲神器: territory (縄張り), feed (エサ場), the field with damage, hand and deck counts —
labels from the catalog in the page's language, players by name, insects by card name with
their field number."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section, translations_for


def _insect(i: Mapping[str, Any], t: Any) -> str:
    hp, dmg = i.get("hp") or 0, i.get("damage") or 0
    flags = []
    if i.get("flipped"):
        flags.append(t.pgettext("board", "flipped"))
    if i.get("attacked"):
        flags.append(t.pgettext("board", "has attacked"))
    if i.get("attack_bonus"):
        flags.append(t.pgettext("board", "attack +{n}").format(n=i["attack_bonus"]))
    enh = (
        "<small> " + esc(t.pgettext("board", "enhanced: {cards}").format(cards=", ".join(map(str, i["enhancements"]))))
        + "</small>"
        if i.get("enhancements")
        else ""
    )
    cls = "insect colour-" + esc(i.get("colour")) + (" hurt" if dmg else "")
    health = t.pgettext("board", "health {left}/{hp} damage {damage}").format(left=hp - dmg, hp=hp, damage=dmg)
    return (
        f'<span class="{cls}" data-pick="{esc(i.get("uid"))}"><b>{esc(i.get("card"))}</b> <small class="uid">[{esc(i.get("uid"))}]</small>'
        f"{enh} <small>{esc(i.get('colour'))} {esc(health)}"
        f"{(' · ' + esc(' · '.join(flags))) if flags else ''}</small></span>"
    )


def _cost(cost: Mapping[str, Any], t: Any) -> str:
    left, spent = t.pgettext("board", "left"), t.pgettext("board", "spent {n}").format(n=cost.get("spent"))
    return f"{esc(left)} <b>{esc(cost.get('left'))}</b> / {esc(cost.get('total'))} <small>({esc(spent)})</small>"


def body(board: Mapping[str, Any], lang: str = "ja") -> str:
    t = translations_for(lang)
    out = ['<div class="players">']
    for pid in players_order(board):
        p = board["players"][pid]
        hand = p.get("hand") or []
        unknown = max(0, int(p.get("hand_count") or 0) - len(hand))
        hand_html = chips(hand) + (f'<span class="chip unknown">? ×{unknown}</span>' if unknown else "")
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            + '<div class="counters">' + kv(t.pgettext("board", "territory"), p.get("territory"), "big territory") + " "
            + kv(t.pgettext("board pile", "deck"), p.get("deck"), "deck") + " "
            + kv(t.pgettext("board", "hand"), p.get("hand_count"), "hand") + "</div>"
            + section(t.pgettext("board", "field"),
                      "".join(_insect(i, t) for i in p.get("insects") or []) or '<span class="none">—</span>')
            + section(t.pgettext("board", "feed"), chips(p.get("feed") or []))
            + section(t.pgettext("board", "hand"), hand_html)
            + section(t.pgettext("board", "discard pile"), chips(p.get("discard") or []))
            + "</div>"
        )
    out.append("</div>")
    cost = board.get("cost")
    if isinstance(cost, Mapping):
        out.append(section(t.pgettext("board", "cost"), _cost(cost, t)))
    legend = t.pgettext("board", "[A1] an insect's number on the field (its owner and order of arrival) · flipped: counts "
                                 "as absent until the end of the turn · ? a card not seen")
    out.append(f'<p class="legend"><small>{esc(legend)}</small></p>')
    return "".join(out)
