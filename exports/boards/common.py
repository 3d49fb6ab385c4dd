"""Pieces every board renderer uses: escaping, the status line, violations, small widgets."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from markupsafe import escape


def esc(value: Any) -> str:
    return str(escape("" if value is None else value))


def players_order(board: Mapping[str, Any]) -> list[str]:
    order = board.get("order")
    players = board.get("players") or {}
    if order:
        return [p for p in order if p in players]
    return list(players)


def translations_for(lang: str) -> Any:
    """The catalog of ``lang`` (exports/locale): a board's labels are ``t.pgettext("board", ...)``
    (the context keeps a board's short words apart from the pages' own)."""
    from exports import i18n

    return i18n.translations(i18n.pick(lang))


def phase_names(t: Any) -> dict[str, dict[str, str]]:
    """What each game's phase codes (the board JSON's "phase") read as. The Japanese is the one
    the game's own text board uses (projections/<game>/render.py)."""
    return {
        "gandice": {"summon": t.pgettext("gandice phase", "summoning"), "battle": t.pgettext("gandice phase", "battle"),
                    "over": t.pgettext("gandice phase", "match over")},
        "mushijingi": {"setup": t.pgettext("mushijingi phase", "setup"), "draw": t.pgettext("mushijingi phase", "draw"),
                       "set": t.pgettext("mushijingi phase", "set phase"),
                       "main": t.pgettext("mushijingi phase", "main phase"), "over": t.pgettext("mushijingi phase", "over")},
        "gurren-lagann": {"draw": t.pgettext("gurren-lagann phase", "draw phase"),
                          "main": t.pgettext("gurren-lagann phase", "main phase")},
        "variants-war": {"draft": t.pgettext("variants-war phase", "draft"), "setup": t.pgettext("variants-war phase", "setup"),
                         "draw": t.pgettext("variants-war phase", "draw"), "standby": t.pgettext("variants-war phase", "standby"),
                         "main": t.pgettext("variants-war phase", "main"), "battle": t.pgettext("variants-war phase", "battle"),
                         "master": t.pgettext("variants-war phase", "master"), "over": t.pgettext("variants-war phase", "over")},
    }


def __getattr__(name: str) -> Any:
    """``PHASE_NAMES``: game -> phase code -> (Japanese, English), read from the catalog."""
    if name == "PHASE_NAMES":
        ja, en = phase_names(translations_for("ja")), phase_names(translations_for("en"))
        return {game: {code: (ja[game][code], en[game][code]) for code in codes} for game, codes in ja.items()}
    raise AttributeError(name)


def phase_name(game: Any, phase: Any, lang: str = "ja") -> str:
    """A phase as people say it, in Japanese unless ``lang`` is "en"; a phase this table does
    not know (a game added later) as its code."""
    name = phase_names(translations_for(lang)).get(str(game), {}).get(str(phase))
    return str(phase) if name is None else name


def status_line(board: Mapping[str, Any], names: Mapping[str, str], lang: str = "ja") -> str:
    # No step number here: a note leaves the board as it was, so equal boards dedupe.
    from exports.i18n import gettext_for
    from exports.notation import result_text

    _ = gettext_for(lang)
    bits = []
    res = board.get("result")
    if board.get("turn") is not None:
        turn = _("turn {n}").format(n=board["turn"])
        bits.append(f'<span class="b-turn">{esc(turn)}</span>')
    if board.get("active") and not res:  # once decided, nobody is to play
        who = board["active"]
        label = f"{names[who]} ({who})" if who in names else who
        to_play = _("to play: {name}").format(name=label)
        bits.append(f'<span class="b-active">{esc(to_play)}</span>')
    if board.get("phase"):
        phase = phase_name(board.get("game"), board["phase"], lang)
        bits.append(f'<span class="b-phase" data-phase="{esc(board["phase"])}">{esc(phase)}</span>')
    view = board.get("view", "")
    view_name = {"ruled": _("as ruled"), "recorded": _("as recorded")}.get(view, view)
    bits.append(f'<span class="b-view" data-view="{esc(view)}">{esc(view_name)}</span>')
    if res:
        text = result_text(res.get("winner"), res.get("reason"), names, lang)
        said = _("result: {text}").format(text=text)
        bits.append(f'<span class="b-result" data-reason="{esc(res.get("reason"))}">{esc(said)}</span>')
    return '<div class="b-status">' + " · ".join(bits) + "</div>"


def violations_html(board: Mapping[str, Any], lang: str = "ja") -> str:
    from exports.i18n import translate

    here = [v for v in board.get("violations") or [] if v.get("seq") == board.get("step")]
    if not here:
        return ""
    items = "".join(
        f'<li><b class="rule">{esc(v.get("rule"))}</b> {esc(translate(lang, str(v.get("message") or "")))}</li>'
        for v in here
    )
    return f'<ul class="b-violations">{items}</ul>'


def chips(values: Iterable[Any], cls: str = "chip") -> str:
    out = [f'<span class="{cls}">{esc(v)}</span>' if v is not None else '<span class="chip unknown">?</span>'
           for v in values]
    return "".join(out) if out else '<span class="none">—</span>'


def kv(label: str, value: Any, cls: str = "") -> str:
    return f'<span class="kv {cls}"><span class="k">{esc(label)}</span> <b>{esc(value)}</b></span>'


def player_head(pid: str, p: Mapping[str, Any], board: Mapping[str, Any]) -> str:
    active = " active" if board.get("active") == pid else ""
    name = p.get("name")
    label = f"{name} ({pid})" if name and name != pid else pid
    return f'<h3 class="p-head{active}">{esc(label)}</h3>'


def section(label: str, inner: str) -> str:
    return f'<div class="sect"><span class="sect-l">{esc(label)}</span> {inner}</div>'


def generic_body(board: Mapping[str, Any], lang: str = "ja") -> str:
    """For games without a renderer: each player's fields as a table (the fields' own names)."""
    out = ['<div class="players">']
    for pid in players_order(board):
        p = board["players"][pid]
        rows = "".join(
            f"<tr><th>{esc(k)}</th><td>{esc(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False))}</td></tr>"
            for k, v in p.items()
        )
        out.append(f'<div class="player">{player_head(pid, p, board)}<table class="kvt">{rows}</table></div>')
    out.append("</div>")
    return "".join(out)
