"""The Jinja environment and the one context builder the report and the server share.

A match page (the report file or the server's ``/matches/ID``) is ``match.html`` rendered
from ``match_context`` over a ``MatchView`` (exports/matchview.py); the move list is the
``_moves.html`` partial, which the server also renders alone for live follow and for the
window of lines around a step. No template is written twice.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from functools import cache

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from exports import boards, i18n, security
from exports.i18n import N_
from exports.matchview import TURNS_INLINE, MatchView
from exports.timeline import Timeline

TEMPLATES = Path(__file__).resolve().parent / "templates"


@cache
def env(lang: str = i18n.DEFAULT) -> Environment:
    """One Jinja environment per language, its gettext installed once (an environment is
    shared by the server's threads, so translations are never swapped per request)."""
    e = Environment(
        loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, undefined=StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"],
    )
    e.install_gettext_translations(i18n.translations(lang), newstyle=True)  # type: ignore[attr-defined]
    e.filters["safe_json"] = safe_json
    e.filters["tight"] = tight
    e.filters["js"] = js_text
    security.install(e)  # csp_nonce() for inline <script>/<style> (exports/security.py)
    e.globals["lang"] = lang
    return e


def tight(html: Any) -> Markup:
    """Markup without the whitespace between its tags: a page part drawn the same way by the
    server and by a script (the recording page) has the same nodes either way."""
    return Markup(re.sub(r">\s+<", "><", str(html).strip()))


def js_text(obj: Any) -> str:
    """``obj`` as JavaScript's JSON.stringify writes it (keys in order, no spaces): a value the
    server writes into an attribute that a script writes too (the recording page's data-move)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def safe_json(obj: Any) -> Markup:
    """JSON that is safe inside a <script> element: no ``</script>``, no ``<!--``, no ``&``."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return Markup(text)


def names_of(header: Mapping[str, Any]) -> dict[str, str]:
    return {p["id"]: p.get("name") or p["id"] for p in header["players"]}


def board_html(timeline: Timeline, step: int) -> Markup:
    return boards.render(timeline.replay.board_json(step), names_of(timeline.header), timeline.lang)


def board_table(timeline: Timeline) -> dict[str, Any]:
    """Every step's board HTML for the report, kept small: each distinct board is stored once
    (a note leaves the board as it was), and each one as a change to the one before it
    (``[common prefix length, common suffix length, middle]``); the script decodes it once."""
    seen: dict[str, int] = {}
    html: list[str] = []
    index: list[int] = []
    for step in range(timeline.steps + 1):
        text = str(board_html(timeline, step))
        if text not in seen:
            seen[text] = len(html)
            html.append(text)
        index.append(seen[text])
    return {"delta": delta_encode(html), "index": index}


def _tokens(text: str) -> list[str]:
    return re.findall(r"[^<]*<[^>]*>|[^<]+", text)


def delta_encode(texts: list[str]) -> list[Any]:
    """The first text whole; each later one as a list of pieces: ``[start, end]`` copies that
    slice of the previous text, a string is new text."""
    out: list[Any] = []
    prev = ""
    prev_tokens: list[str] = []
    for text in texts:
        tokens = _tokens(text)
        if not prev:
            out.append(text)
        else:
            offsets = [0]
            for tok in prev_tokens:
                offsets.append(offsets[-1] + len(tok))
            pieces: list[Any] = []
            matcher = difflib.SequenceMatcher(None, prev_tokens, tokens, autojunk=False)
            for op, i1, i2, j1, j2 in matcher.get_opcodes():
                if op == "equal":
                    pieces.append([offsets[i1], offsets[i2]])
                elif j2 > j1:
                    pieces.append("".join(tokens[j1:j2]))
            out.append(pieces)
        prev, prev_tokens = text, tokens
    return out


def delta_decode(chunks: list[Any]) -> list[str]:
    """The inverse of ``delta_encode`` (the script does the same in JavaScript)."""
    out: list[str] = []
    prev = ""
    for chunk in chunks:
        if isinstance(chunk, str):
            text = chunk
        else:
            text = "".join(p if isinstance(p, str) else prev[p[0]:p[1]] for p in chunk)
        out.append(text)
        prev = text
    return out


JS_TEXT = {"play": N_("play"), "pause": N_("pause"), "line": N_("line {n} / {total}"), "start": N_("start of the match")}


def match_context(
    mv: MatchView,
    *,
    mode: str,
    step: int,
    link: Callable[[int], str],
    config: dict[str, Any],
    window: tuple[int, int] | None = None,
    spoiler_free: bool = False,
    print_boards: Mapping[int, Markup] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The context of ``match.html`` (and of its partials ``_moves.html``, ``_header.html``):

    - ``m``: the header summary with ``result_text``; ``names``: player id -> name
    - ``timeline``; ``rows``: the lines of the move list shown (``window`` lo..hi, or all);
      ``row_of(seq)``: any line; ``raw(seq)``: the line as recorded (JSON)
    - ``view``, ``step``, ``caption`` (the line at ``step`` in words, in this view),
      ``board``: the board HTML at ``step``; ``print_boards``: step -> board HTML printed under
      annotated moves (the report only)
    - ``turns``, ``chart``, ``chart_title``, ``decks``; ``spoiler_free``: hide the result
    - ``link(n)``: the URL of step n; ``mode``: "report" or "server"; ``config``: the JSON
      the step-through script reads
    """
    timeline = mv.timeline
    lo, hi = window or (1, timeline.steps)
    _ = i18n.gettext_for(mv.lang)
    ctx: dict[str, Any] = {
        "m": mv.m,
        "names": names_of(timeline.header),
        "timeline": timeline,
        "rows": mv.rows(lo, hi),
        "window": {"lo": lo, "hi": hi, "total": timeline.steps},
        "row_of": timeline.row,
        "raw": mv.raw,
        "view": timeline.replay.view,
        "step": step,
        "caption": timeline.caption(step),
        "board": board_html(timeline, step),
        "print_boards": dict(print_boards or {}),
        "link": link,
        "mode": mode,
        "turns": mv.turns,
        "chart": mv.chart_upto(step if spoiler_free and mv.m["result"] is not None else None),
        "chart_title": mv.chart_title,
        "decks": mv.decks,
        "spoiler_free": spoiler_free and mv.m["result"] is not None,
        "config": dict(
            config, steps=timeline.steps, step=step, view=timeline.replay.view, mode=mode, lang=mv.lang,
            note_steps=mv.note_steps, turns=mv.turns if len(mv.turns) <= TURNS_INLINE or mode == "report" else None, finished=mv.m["result"] is not None,
            t={k: _(v) for k, v in JS_TEXT.items()},
        ),
        "record_url": None,
        "overlay_url": None,
        "log_url": None,
        "lang": mv.lang,
    }
    ctx.update(extra or {})
    return ctx


def render(name: str, context: Mapping[str, Any], lang: str | None = None) -> str:
    lang = i18n.pick(lang or context.get("lang"))
    return env(lang).get_template(name).render(**{**context, "lang": lang})


BACKGROUNDS = {"transparent": "transparent", "green": "#00b140", "magenta": "#ff00ff", "blue": "#0047bb", "dark": "#111418"}


def overlay_context(mv: MatchView, step: int, background: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """The broadcast view (``overlay.html``): the board at ``step`` and the line that led to
    it, big, on ``background`` (one of BACKGROUNDS; a chroma key or transparent)."""
    timeline = mv.timeline
    bg = background if background in BACKGROUNDS else "transparent"
    return {
        "m": mv.m,
        "timeline": timeline,
        "names": names_of(timeline.header),
        "step": step,
        "caption": timeline.caption(step),
        "board": board_html(timeline, step),
        "background": BACKGROUNDS[bg],
        "background_name": bg,
        "lang": mv.lang,
        "config": dict(config, step=step, steps=timeline.steps, view=timeline.replay.view, lang=mv.lang,
                       start=i18n.gettext_for(mv.lang)(JS_TEXT["start"])),
    }
