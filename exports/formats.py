"""``kifu export --format md|json``: a Markdown report for forum posts, and the whole match
with every board as JSON for other tools. Both walk the same timeline as the HTML report."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from projections.base import N_, said
from exports.timeline import Timeline, build
from projections.errors import LogFormatError
from projections.replay import VIEWS, Replay

FORMATS = ("md", "json")


def render(format: str, header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], lang: str = "ja") -> str:
    if format not in FORMATS:
        raise LogFormatError([said(N_("--format: {format!r} is not one of jsonl, {value}"), format=format, value=', '.join(FORMATS))])
    if format == "json":
        return to_json(header, entries, lang)
    return to_markdown(build(Replay(header, entries, "ruled"), lang))


def to_json(header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], lang: str = "ja") -> str:
    """``{"kifu": 1, "header", "entries", "texts", "summary", "violations", "boards": {view: [step 0..n]}}``;
    ``texts[i]`` is ``entries[i]`` in words (notation, in ``lang``)."""
    views = {v: Replay(header, entries, v) for v in VIEWS}
    ruled = build(views["ruled"], lang)
    out = {
        "kifu": 1,
        "header": header,
        "entries": list(entries),
        "texts": [r.notation for r in ruled.rows],
        "summary": ruled.summary(),
        "violations": {v: [x.to_json() for x in rep.violations()] for v, rep in views.items()},
        "boards": {v: [rep.board_json(s) for s in range(rep.steps + 1)] for v, rep in views.items()},
    }
    return json.dumps(out, ensure_ascii=False, indent=1) + "\n"


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|<>#])")


def md(text: Any) -> str:
    """User text made inert in Markdown (and in the HTML a forum may allow inside it)."""
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")


def to_markdown(t: Timeline) -> str:
    """The match for a forum post: the header, then every line in words (notation), a note
    indented under the move it is about, a voided move struck through with what the ruled
    view plays instead."""
    from exports.i18n import gettext_for
    from exports.notation import result_text

    _ = gettext_for(t.lang)
    # the words of this page, looked up once (and where Babel's extractor can see them)
    w_player, w_deck, w_arch, w_first = _("Player"), _("deck"), _("archetype"), _("first")
    w_result, w_moves, w_recorded, w_ruled, w_void = _("Result"), _("Moves"), _("as recorded"), _("as ruled"), _("void")
    s = t.summary()
    names = {p["id"]: p["name"] for p in s["players"]}
    lines = [f"# {md(s['title'] or s['id'])}", ""]
    facts = [t.title, s["event"], _("round {n}").format(n=s["round"]) if s["round"] is not None else None,
             _("table {n}").format(n=s["table"]) if s["table"] is not None else None, s["date"], s["id"]]
    lines.append(" · ".join(md(f) for f in facts if f))
    lines += ["", f"| {w_player} | {w_deck} | {w_arch} |", "|---|---|---|"]
    for p in s["players"]:
        first = f" ({w_first})" if p["id"] == s["first"] else ""
        lines.append(f"| {md(p['name'])} ({md(p['id'])}){first} | {md(p['deck'])} | {md(p['archetype'])} |")
    res = s["result"]
    said = _("in progress") if res is None else result_text(res["winner"], res["reason"], names, t.lang)
    lines += ["", f"**{w_result}:** {md(said)} · " + _("{n} lines").format(n=s["steps"]), "", f"## {w_moves}", ""]
    for r in t.rows:
        if r.meta:
            lines.append(f"{r.seq}. &nbsp;&nbsp;{md(r.notation)}")
            target = t.row(r.target) if r.type in ("ruling", "correct") and r.target else None
            if target and target.voided:
                lines.append(f"    - {w_recorded}: ~~{md(target.notation)}~~ → {w_ruled}: "
                             f"{md('; '.join(target.ruled_as) or w_void)}")
        else:
            who = r.who(names)
            move = (f"**{md(who)}** " if who else "") + md(r.notation)
            syms = "".join(r.symbols)
            if r.voided:
                move = f"~~{move}~~ → {w_ruled}: {md('; '.join(r.ruled_as) or w_void)}"
            lines.append(f"{r.seq}. {move}{' ' + md(syms) if syms else ''}")
        for v in r.violations:
            lines.append(f"    - ✗ `{v.rule}` {md(v.message)}")
    return "\n".join(lines) + "\n"
