"""眼魔伝ガンダイス: each player's dice with their summon state, items, graveyard, and the battle.
Every label comes from the catalog (exports/locale) in the page's language; names as recorded."""

from __future__ import annotations

from collections.abc import Mapping
from gettext import NullTranslations
from typing import Any

from exports.boards.common import chips, esc, kv, player_head, players_order, section, translations_for
from projections.gandice.render import faces, kinds, reasons, states, steps, winners


# The game's own vocabulary by the codes of the board JSON: the tables the game's text board says
# them with (projections/gandice/render.py), so the terminal and the page use the same words.
__all__ = ["body", "faces", "kinds", "reasons", "states", "steps", "winners"]


def _name(board: Mapping[str, Any], pid: Any) -> str:
    p = (board.get("players") or {}).get(pid) or {}
    return str(p.get("name") or pid or "")


def _die(board: Mapping[str, Any], pid: str, d: Mapping[str, Any], t: NullTranslations) -> str:
    state = d.get("state")
    gone = d.get("zone") == "graveyard"
    cls = f"die kind-{esc(d.get('kind'))} state-{esc(state)}" + (" dead" if gone else "")
    label = states(t).get(state or "", kinds(t).get(d.get("kind") or "", ""))
    notes = []
    if d.get("evolved_from"):
        notes.append(t.pgettext("board", "evolved from {die}").format(die=d["evolved_from"]))
    if d.get("fusion"):
        notes.append(t.pgettext("board", "fused") if d["fusion"] == d.get("name")
                     else t.pgettext("board", "fused with {die}").format(die=d["fusion"]))
    if d.get("origin") and d["origin"] != pid:
        notes.append(t.pgettext("board", "taken from {player}").format(player=_name(board, d["origin"])))
    if gone:
        notes.append(t.pgettext("board", "graveyard"))
    tail = "".join(f" · {n}" for n in notes)
    return (
        f'<span class="{cls}" title="{esc(d.get("kin"))}" data-pick="{esc(d.get("name"))}"><b>{esc(d.get("name"))}</b>'
        f" <small>{esc(label)}{esc(tail)}</small></span>"
    )


def _face(face: Any, t: NullTranslations) -> str:
    not_rolled = t.pgettext("board", "not rolled")
    return faces(t).get(face, not_rolled) if face else not_rolled


def _battle(board: Mapping[str, Any], b: Mapping[str, Any] | None, t: NullTranslations) -> str:
    if not b:
        return ""
    a, d = b.get("attack") or {}, b.get("defence") or {}
    text = t.pgettext("board", "{player}'s {die} ({face}) total {total} vs {player2}'s {die2} ({face2}) total {total2}").format(
        player=_name(board, a.get("player")), die=a.get("die"), face=_face(a.get("face"), t), total=a.get("total"),
        player2=_name(board, d.get("player")), die2=d.get("die"), face2=_face(d.get("face"), t), total2=d.get("total"),
    )
    step = steps(t).get(b.get("step") or "", "")
    return section(t.pgettext("board", "in battle [{step}]").format(step=step), f"<span>{esc(text)}</span>")


def _last(board: Mapping[str, Any], o: Mapping[str, Any] | None, t: NullTranslations) -> str:
    if not o:
        return ""
    text = t.pgettext("board", "{player}'s {die} {total} vs {player2}'s {die2} {total2} → {winner} ({reason})").format(
        player=_name(board, o.get("attacker")), die=o.get("attack_die"), total=o.get("attack_total"),
        player2=_name(board, o.get("defender")), die2=o.get("defence_die"), total2=o.get("defence_total"),
        winner=winners(t).get(o.get("winner") or "", ""), reason=reasons(t).get(o.get("reason") or "", ""),
    )
    return section(t.pgettext("board", "last battle"), f"<span>{esc(text)}</span>")


def body(board: Mapping[str, Any], lang: str = "ja") -> str:
    t = translations_for(lang)
    out = ['<div class="players">']
    for pid in players_order(board):
        p = board["players"][pid]
        dice = [d for d in p.get("dice") or [] if d.get("kind") == "character"]
        items = [d for d in p.get("dice") or [] if d.get("kind") != "character" and d.get("zone") != "graveyard"]
        kofuda_left = [c for c in p.get("kofuda") or [] if c not in (p.get("kofuda_used") or [])]
        out.append(
            f'<div class="player">{player_head(pid, p, board)}'
            + '<div class="counters">' + kv(t.pgettext("board", "deck"), p.get("deck", "")) + " "
            + kv(t.pgettext("board", "characters left"), p.get("alive"), "big alive") + "</div>"
            + f'<div class="dice">{"".join(_die(board, pid, d, t) for d in dice)}</div>'
            + section(t.pgettext("board", "item dice"), chips(d.get("name") for d in items))
            + section(t.pgettext("board", "used"), chips(p.get("used_items") or []))
            + section(t.pgettext("board", "graveyard"), chips(p.get("graveyard") or [], "chip dead"))
            + (section(t.pgettext("board", "evolution dice"), chips(p.get("evolution") or [])) if p.get("evolution") else "")
            + (section(t.pgettext("board", "kofuda"), chips(kofuda_left)) if p.get("kofuda") else "")
            # a closed deck list (projections/secrecy.py): how many dice are not shown yet
            + (section(t.pgettext("board", "dice not shown (closed list)"), f"<span>{int(p['hidden'])}</span>")
               if p.get("hidden") else "")
            + "</div>"
        )
    out.append("</div>")
    out.append(_battle(board, board.get("battle"), t))
    out.append(_last(board, board.get("last_battle"), t))
    if board.get("pending_split"):
        who, lead = board["pending_split"]
        said = t.pgettext("board", "{player}'s {die}").format(player=_name(board, who), die=lead)
        out.append(section(t.pgettext("board", "waiting for a split"), f"<span>{esc(said)}</span>"))
    if board.get("evolution_challenge"):
        who, die = board["evolution_challenge"]
        said = t.pgettext("board", "{player}'s {die}").format(player=_name(board, who), die=die)
        out.append(section(t.pgettext("board", "evolution challenge open"), f"<span>{esc(said)}</span>"))
    return "".join(out)
