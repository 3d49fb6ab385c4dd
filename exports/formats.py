"""``kifu export --format md|json``: a Markdown report for forum posts, and the whole match
with every board as JSON for other tools. Both walk the same timeline as the HTML report."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from exports.timeline import Timeline, build
from projections.errors import LogFormatError
from projections.replay import VIEWS, Replay

FORMATS = ("md", "json")


def render(format: str, header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> str:
    if format not in FORMATS:
        raise LogFormatError([f"--format: {format!r} is not one of jsonl, {', '.join(FORMATS)}"])
    if format == "json":
        return to_json(header, entries)
    return to_markdown(build(Replay(header, entries, "ruled")))


def to_json(header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> str:
    """``{"kifu": 1, "header", "entries", "summary", "violations", "boards": {view: [step 0..n]}}``."""
    views = {v: Replay(header, entries, v) for v in VIEWS}
    ruled = build(views["ruled"])
    out = {
        "kifu": 1,
        "header": header,
        "entries": list(entries),
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
    s = t.summary()
    names = {p["id"]: p["name"] for p in s["players"]}
    lines = [f"# {md(s['title'] or s['id'])}", ""]
    facts = [t.title, s["event"], f"round {s['round']}" if s["round"] is not None else None,
             f"table {s['table']}" if s["table"] is not None else None, s["date"], f"id {s['id']}"]
    lines.append(" · ".join(md(f) for f in facts if f))
    lines += ["", "| player | deck | archetype |", "|---|---|---|"]
    for p in s["players"]:
        first = " (first)" if p["id"] == s["first"] else ""
        lines.append(f"| {md(p['name'])} ({md(p['id'])}){first} | {md(p['deck'])} | {md(p['archetype'])} |")
    res = s["result"]
    lines += ["", "**Result:** " + (
        "in progress" if res is None
        else (f"{md(res['winner_name'])} wins" if res["winner"] else "draw") + f" — reason `{res['reason']}`"
    ) + f" · {s['steps']} steps", "", "## Moves", ""]
    for r in t.rows:
        if r.meta:
            on = f" (on #{r.target})" if r.target is not None else ""
            if r.type == "annotate":
                sym = next((v for k, v in r.fields if k == "symbol"), "")
                body = f"※ {md(sym) + ' ' if sym else ''}{md(r.text)} — {md(r.by)}"
            elif r.type == "dispute":
                rule = next((v for k, v in r.fields if k == "rule"), "")
                body = f"⚑ dispute by {md(r.by)}: {md(r.text)}" + (f" `{rule}`" if rule else "")
            elif r.type == "ruling":
                f = dict(r.fields)
                body = (f"⚖ ruling by {md(r.by)}: **{md(f.get('decision', ''))}**"
                        + (f" `{f['rule']}`" if f.get("rule") else "") + f" — {md(r.text)}")
                target = t.row(r.target) if r.target else None
                if target and target.voided:
                    body += f" (as recorded: {md(target.summary)} → as ruled: {md('; '.join(target.ruled_as) or 'void')})"
            elif r.type == "correct":
                body = f"✎ correction by {md(r.by)}: {md(r.text)}"
            else:
                body = f"{md(r.type)} by {md(names.get(r.by, r.by))} " + " ".join(f"{md(k)}={md(v)}" for k, v in r.fields)
            lines.append(f"{r.seq}. &nbsp;&nbsp;{body}{on}")
        else:
            syms = "".join(r.symbols)
            move = f"**{md(r.type)}** by {md(names.get(r.by, r.by))} " + " ".join(f"{md(k)}={md(v)}" for k, v in r.fields)
            if r.voided:
                move = f"~~{move.strip()}~~ → as ruled: {md('; '.join(r.ruled_as) or 'void')}"
            lines.append(f"{r.seq}. {move.strip()}{' ' + md(syms) if syms else ''}")
        for v in r.violations:
            lines.append(f"    - ✗ `{v.rule}` {md(v.message)}")
    return "\n".join(lines) + "\n"
