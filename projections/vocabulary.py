"""The names a field of a move can hold, from the match's own names and the ruleset's
``name_errors``: what live logging's Tab (recorder/completion.py) and the recording page's pickers
(exports/recording.py) offer. Pure functions of a board and a move spec.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from projections.base import MoveSpec
from projections.names import sifting

SQUARE_RE = re.compile(r"^[a-z]\d{1,2}$")
PAIRS_RE = re.compile(r"([A-Za-z][A-Za-z_-]*)/([^\s,;()/]+)")
ALTS_RE = re.compile(r"^\s*([a-z][a-z_-]*(?:\s*[/|]\s*[a-z][a-z_-]*)+)")


def enum_options(help_text: str) -> list[dict[str, str]]:
    """Options a field's help spells out: ``stand/立ち, side/横倒し, ...`` (value/label pairs)
    or ``normal / lateral / special`` (values)."""
    pairs = PAIRS_RE.findall(help_text)
    if len(pairs) >= 3:
        return [{"value": v, "label": label} for v, label in pairs]
    m = ALTS_RE.match(help_text.split(":", 1)[-1] if ":" in help_text[:12] else help_text)
    if m:
        return [{"value": v, "label": v} for v in re.split(r"\s*[/|]\s*", m.group(1))]
    return []


def names_for(ruleset: Any, board: Any, by: str, spec: MoveSpec, field: str, names: Sequence[str]) -> list[str]:
    """The match's names that ``field`` of a move can hold: those the ruleset's ``name_errors``
    does not refuse there. Without ``name_errors`` every name of the match is offered; a field
    where it refuses none is not a name field, and gets none."""
    find = getattr(ruleset, "name_errors", None)
    if find is None or board is None:
        return list(names)
    example = spec.example.get(field)
    out = []
    with sifting():  # one question per name: refused here or not (no hints, board sets once)
        for name in names:
            value: Any = [name] if isinstance(example, list) else ({name: "normal"} if isinstance(example, dict) else name)
            try:
                errs = find(board, {"type": spec.type, "by": by, field: value})
            except Exception:  # a ruleset's checker must not take completion down
                errs = []
            if not any(str(e.field) == field or str(e.field).startswith((f"{field}[", f"{field}.")) for e in errs):
                out.append(name)
    if len(out) == len(names) and not (isinstance(example, str) and example in names):
        return []
    return out


def squares_of(board_json: Any) -> list[str]:
    """The squares of the field, as the board JSON names them (``a1`` ... ``e6``)."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if SQUARE_RE.match(x):
                found.add(x)
        elif isinstance(x, Mapping):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)

    walk(board_json)
    return sorted(found, key=lambda q: (int(q[1:]), q[0]))


def is_square_field(spec: MoveSpec, field: str) -> bool:
    example = spec.example.get(field)
    items = example if isinstance(example, list) else [example]
    return bool(items) and all(isinstance(i, str) and SQUARE_RE.match(i) for i in items)


__all__ = ["enum_options", "is_square_field", "names_for", "squares_of"]
