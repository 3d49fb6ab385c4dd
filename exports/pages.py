"""The Jinja environment and the one context builder the report and the server share.

A match page (the report file or the server's ``/matches/ID``) is ``match.html`` rendered
from ``match_context``; the move list is the ``_moves.html`` partial, which the server also
renders alone for live follow. No template is written twice.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from exports import boards
from exports.timeline import Timeline

TEMPLATES = Path(__file__).resolve().parent / "templates"
ENV = Environment(
    loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, undefined=StrictUndefined,
    trim_blocks=True, lstrip_blocks=True,
)


def safe_json(obj: Any) -> Markup:
    """JSON that is safe inside a <script> element: no ``</script>``, no ``<!--``, no ``&``."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return Markup(text)


ENV.filters["safe_json"] = safe_json


def names_of(header: Mapping[str, Any]) -> dict[str, str]:
    return {p["id"]: p.get("name") or p["id"] for p in header["players"]}


def board_html(timeline: Timeline, step: int) -> Markup:
    return boards.render(timeline.replay.board_json(step), names_of(timeline.header))


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


def match_context(
    timeline: Timeline,
    *,
    mode: str,
    step: int,
    link: Callable[[int], str],
    config: dict[str, Any],
    print_boards: Mapping[int, Markup] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The context of ``match.html`` (and of ``_moves.html``):

    - ``m``: the header summary (timeline.summary()); ``names``: player id -> name
    - ``timeline``: rows of the move list; ``view``: the view shown; ``step``: the step shown
    - ``board``: the board HTML at ``step``; ``print_boards``: step -> board HTML printed
      under annotated moves (the report only)
    - ``link(n)``: the URL of step n; ``mode``: "report" or "server"; ``config``: the JSON
      the step-through script reads
    """
    ctx: dict[str, Any] = {
        "m": timeline.summary(),
        "names": names_of(timeline.header),
        "timeline": timeline,
        "view": timeline.replay.view,
        "step": step,
        "board": board_html(timeline, step),
        "print_boards": dict(print_boards or {}),
        "link": link,
        "mode": mode,
        "config": dict(config, steps=timeline.steps, step=step, view=timeline.replay.view, mode=mode),
        "record_url": None,
    }
    ctx.update(extra or {})
    return ctx


def render(name: str, context: Mapping[str, Any]) -> str:
    return ENV.get_template(name).render(**context)
