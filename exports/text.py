"""Terminal renderings: the numbered move list and the board with its header lines.

``kifu log`` shows each line in words (exports/notation.py) in the chosen language, with
players' names; ``kifu log --raw`` shows the lines' fields as recorded (the older layout)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from projections.base import META_TYPES
from projections.replay import Replay

ENVELOPE = ("seq", "type", "by", "at", "claimed_at", "token")  # who and when, not what was played


def describe(entry: Mapping[str, Any]) -> str:
    """One line for a log line: its type, who, and its fields."""
    fields = {k: v for k, v in entry.items() if k not in ENVELOPE}
    body = " ".join(f"{k}={json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v}" for k, v in fields.items())
    return f"{entry['type']} by {entry.get('by', '?')}" + (f"  {body}" if body else "")


def format_log(rep: Replay, lang: str = "ja", raw: bool = False) -> str:
    if raw:
        return format_raw_log(rep)
    return format_notation_log(rep, lang)


def format_notation_log(rep: Replay, lang: str = "ja") -> str:
    """The move list in words: ``seq mark name: notation``, then what the ruled view plays
    instead, the rules broken, and the notes about the line (each in words too)."""
    from exports.i18n import gettext_for
    from exports.notation import meta_text, result_text
    from exports.timeline import build

    _ = gettext_for(lang)
    t = build(rep, lang)
    names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
    by_seq = {e["seq"]: e for e in rep.entries}
    retracted = {e["on"] for e in rep.entries if e["type"] == "retract"}
    notes: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for e in rep.entries:
        if e["type"] in ("annotate", "dispute", "ruling", "correct", "appeal", "retract"):
            target = _shown_line(e, by_seq)
            if target is not None:
                notes[target].append(e)
    w_void, w_ruled, w_gone = _("void in the ruled view"), _("as ruled"), _("withdrawn")
    lines = [_heading_words(rep, lang)]
    for r in t.rows:
        if r.meta and r.type not in ("concede", "result", "penalty"):
            continue
        mark = "✗" if r.violations else " "
        who = f"{r.who(names)}: " if r.who(names) else ""
        void = f"  [{w_void}]" if r.voided and rep.view == "ruled" else ""
        lines.append(f"{r.seq:>5} {mark} {who}{r.notation}{void}")
        if void and r.ruled_as:
            lines.append(f"        → {w_ruled}: {'; '.join(r.ruled_as)}")
        for v in r.violations:  # said in lang already (exports.timeline.build)
            lines.append(f"        ✗ {v.rule}: {v.message}")
        for n in notes.get(r.seq, []):
            gone = f" ({w_gone})" if n["seq"] in retracted else ""
            lines.append(f"        #{n['seq']} {meta_text(n, lang, names)}{gone}")
    res = rep.result()
    said = _("in progress") if res is None else result_text(res.winner, res.reason, names, lang)
    lines.append(_("result: {text}").format(text=said))
    return "\n".join(lines)


def _heading_words(rep: Replay, lang: str) -> str:
    from exports.i18n import gettext_for

    _ = gettext_for(lang)
    h = rep.header
    m = h["match"]
    players = " vs ".join(
        f"{p.get('name') or p['id']} [{p['id']}] ({(p.get('deck') or {}).get('name') or '-'})" for p in h["players"]
    )
    bits = [m.get("event"), _("round {n}").format(n=m["round"]) if "round" in m else None,
            _("table {n}").format(n=m["table"]) if "table" in m else None, m.get("date")]
    where = " ".join(str(x) for x in bits if x)
    view = _("as ruled") if rep.view == "ruled" else _("as recorded")
    w_view = _("view")
    return f"{m['id']} — {rep.ruleset.title} ({h.get('rules')}) {where}\n{players}\n{w_view}: {view}"


def format_raw_log(rep: Replay) -> str:
    """Each line's type, who and fields as recorded (``kifu log --raw``)."""
    entries = rep.entries
    violations = defaultdict(list)
    for v in rep.violations():
        violations[v.seq].append(v)
    notes = defaultdict(list)
    retracted = {e["on"] for e in entries if e["type"] == "retract"}
    by_seq = {e["seq"]: e for e in entries}
    for e in entries:
        if e["type"] in ("annotate", "dispute", "ruling", "correct", "appeal", "retract"):
            target = _shown_line(e, by_seq)
            if target is not None:
                notes[target].append(e)
    voided = _voided(rep)
    lines = [_heading(rep)]
    for e in entries:
        if e["type"] in META_TYPES and e["type"] not in ("concede", "result", "penalty"):
            continue
        mark = "✗" if violations.get(e["seq"]) else " "
        strike = "  [void in the ruled view]" if e["seq"] in voided else ""
        lines.append(f"{e['seq']:>5} {mark} {describe(e)}{strike}")
        if strike:
            for m in rep.moves_by_step[e["seq"] - 1]:
                lines.append(f"        → ruled: {describe(m)}")
        for v in violations.get(e["seq"], []):
            lines.append(f"        ✗ {v.rule}: {v.message}")
        for n in notes.get(e["seq"], []):
            lines.append("        " + _note(n, retracted))
    res = rep.result()
    lines.append("result: " + ("in progress" if res is None else f"{res.winner or 'draw'} ({res.reason})"))
    return "\n".join(lines)


def _shown_line(e: Mapping[str, Any], by_seq: Mapping[int, Mapping[str, Any]]) -> int | None:
    """The listed line a note belongs under: a note on a note, a ruling, an appeal or a
    retraction follows the chain down to the move (or penalty, concession, result) it is about."""
    seen: set[int] = set()
    cur: Mapping[str, Any] | None = e
    while cur is not None and cur["seq"] not in seen:
        seen.add(cur["seq"])
        if cur is not e and (cur["type"] not in META_TYPES or cur["type"] in ("concede", "result", "penalty")):
            return int(cur["seq"])
        ref = cur.get("on", cur.get("dispute", cur.get("ruling")))
        cur = by_seq.get(ref) if isinstance(ref, int) else None
    return None


def _voided(rep: Replay) -> set[int]:
    if rep.view != "ruled":
        return set()
    recorded = Replay(rep.header, rep.entries, "recorded", rep.ruleset)
    return {
        e["seq"]
        for e, now, before in zip(rep.entries, rep.moves_by_step, recorded.moves_by_step)
        if before and now != before
    }


def _note(e: Mapping[str, Any], retracted: set[int]) -> str:
    kind = e["type"]
    if kind == "annotate":
        sym = f"{e['symbol']} " if e.get("symbol") else ""
        tags = f" [{', '.join(e['tags'])}]" if e.get("tags") else ""
        gone = " (retracted)" if e["seq"] in retracted else ""
        return f"💬 #{e['seq']} {sym}{e['text']} — {e['by']}{tags}{gone}"
    if kind == "dispute":
        rule = f" [{e['rule']}]" if e.get("rule") else ""
        return f"⚑ dispute #{e['seq']} by {e['by']}: {e['claim']}{rule}"
    if kind == "ruling":
        level = e.get("level", "floor")
        extra = " + rewind" if e.get("rewind") else ""
        rule = f" [{e['rule']}]" if e.get("rule") else ""
        return f"⚖ ruling #{e['seq']} ({level}) on dispute #{e['dispute']}: {e['decision']}{extra}{rule} — {e['text']} ({e['by']})"
    if kind == "appeal":
        return f"↑ appeal #{e['seq']} of ruling #{e['ruling']} by {e['by']}: {e['grounds']}"
    if kind == "correct":
        n = len(e.get("replace", []))
        what = "voided" if n == 0 else f"replaced by {n} move(s)"
        return f"✎ correction #{e['seq']}: {what} — {e['text']} ({e['by']})"
    if kind == "retract":
        return f"⌫ #{e['seq']} retracts note #{e['on']}" + (f": {e['text']}" if e.get("text") else "")
    return describe(e)


def _heading(rep: Replay) -> str:
    h = rep.header
    m = h["match"]
    players = " vs ".join(
        f"{p.get('name') or p['id']} [{p['id']}] ({(p.get('deck') or {}).get('name') or '-'})" for p in h["players"]
    )
    where = " ".join(str(x) for x in (m.get("event"), f"R{m['round']}" if "round" in m else None, f"T{m['table']}" if "table" in m else None, m.get("date")) if x)
    return f"{m['id']} — {rep.ruleset.title} ({h.get('rules')}) {where}\n{players}\nview: {rep.view}"


def format_board(rep: Replay, step: int, lang: str = "ja") -> str:
    from exports.i18n import gettext_for, pick, translate, translations
    from exports.notation import line_text, moves_text, result_text, with_player

    _ = gettext_for(lang)
    frame = rep.frame(step)
    entry = rep.entries[step - 1] if step else None
    names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
    last = ""
    if entry is not None:
        before = None if entry["type"] in META_TYPES else rep.board(step - 1)
        ruled = rep.moves_by_step[step - 1]
        if before is not None and rep.view == "ruled" and ruled != [entry]:
            # the ruled view plays something else here: say that, not the voided line
            last = _("as ruled: {moves}").format(moves=moves_text(rep.ruleset, before, ruled, lang, names))
        else:
            last = line_text(rep.ruleset, before, entry, lang, names)
            if before is not None:
                last = with_player(last, entry, names)
        rep.board(step)
    lines = [
        "  ".join([rep.header["match"]["id"], _("line {n} / {total}").format(n=step, total=rep.steps),
                   _("as ruled") if rep.view == "ruled" else _("as recorded")]),
        _("last: {text}").format(text=last if entry else _("start of the match")),
        rep.ruleset.render_text(frame.board, translations(pick(lang))),  # the board's words in lang
    ]
    here = [v for v in frame.violations if v.seq == step]
    for v in here:
        lines.append(f"✗ {v.rule}: {translate(lang, v.message)}")
    if frame.result:
        said = result_text(frame.result.winner, frame.result.reason, names, lang)
        lines.append(_("result: {text}").format(text=said))
    return "\n".join(lines)
