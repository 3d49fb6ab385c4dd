"""The names a field of a move can hold, from the match's own names and the ruleset's
``name_errors``: what live logging's Tab (recorder/completion.py) and the recording page's pickers
(exports/recording.py) offer. Pure functions of a board and a move spec.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from projections.base import MoveSpec
from projections.names import ANY_NAME, NameFilter, Shape, remembered, sifting

SQUARE_RE = re.compile(r"^[a-z]\d{1,2}$")
PAIRS_RE = re.compile(r"([A-Za-z][A-Za-z_-]*)/([^\s,;()/]+)")
ALTS_RE = re.compile(r"^\s*([a-z][a-z_-]*(?:\s*[/|]\s*[a-z][a-z_-]*)+)")


LIST_RE = re.compile(r"^\s*([a-z][a-z_-]*(?:\s*,\s*[a-z][a-z_-]*)+,?\s+or\s+[a-z][a-z_-]*)\s*(?:\(|$)")
SAID_SPLIT_RE = re.compile(r"\s*[、,，/・]\s*|\s*または\s*")


def enum_options(help_text: str, said: str | None = None) -> list[dict[str, str]]:
    """Options a field's help spells out: ``stand/立ち, side/横倒し, ...`` (value/label pairs),
    ``normal / lateral / special`` or ``stand, handstand, side or normal`` (values). For the
    last two forms, ``said`` (the help in the reader's language, from the catalog) gives the labels
    when it lists as many words after its colon, in the same order."""
    return [{"value": v, "label": label} for v, label in _enum_pairs(help_text, said)]


@functools.lru_cache(maxsize=1024)  # the specs' help texts: a few hundred, read for every form of every state
def _enum_pairs(help_text: str, said: str | None = None) -> tuple[tuple[str, str], ...]:
    pairs = PAIRS_RE.findall(help_text)
    if len(pairs) >= 3:
        return tuple((v, label) for v, label in pairs)
    after = help_text.split(":", 1)[-1] if ":" in help_text[:24] else help_text
    m = ALTS_RE.match(after)
    if m:
        values = re.split(r"\s*[/|]\s*", m.group(1))
        return tuple(zip(values, _said_words(said, len(values)) or values))  # labels: the catalog's words
    m = LIST_RE.match(after)
    if m:
        values = [v for v in re.split(r"\s*,\s*|\s+or\s+", m.group(1)) if v]
        labels = _said_words(said, len(values)) or values
        return tuple(zip(values, labels))
    return ()


def _said_words(said: str | None, n: int) -> list[str] | None:
    if not said:
        return None
    tail = re.split(r"[:：]", said, maxsplit=1)[-1]
    words = [w.strip(" 。.") for w in SAID_SPLIT_RE.split(tail.split("（")[0].split("(")[0]) if w.strip(" 。.")]
    return words if len(words) == n else None


def names_for(ruleset: Any, board: Any, by: str, spec: MoveSpec, field: str, names: Sequence[str]) -> list[str]:
    """The match's names that ``field`` of a move can hold: those the ruleset's ``name_errors``
    does not refuse there. Without ``name_errors`` every name of the match is offered; a field
    where it refuses none is not a name field, and gets none.

    A ruleset with ``name_filter`` (board, move type, player, field, shape) says which names the
    field may hold in one go, from the board's sets (issue 25: the recording page's state after
    every move, a field at a time); without it, or when it has no answer, every name is put to
    ``name_errors`` one at a time (``sift_names``). Both give the same list
    (tests/table/test_name_filters.py)."""
    find = getattr(ruleset, "name_errors", None)
    if find is None or board is None:
        return list(names)
    example = spec.example.get(field)
    shape: Shape = "list" if isinstance(example, list) else ("map" if isinstance(example, dict) else "one")
    quick = getattr(ruleset, "name_filter", None)
    accepts: NameFilter | None = None
    with sifting():
        if quick is not None:
            try:
                accepts = quick(board, spec.type, by, field, shape)
            except Exception:  # a ruleset's filter must not take completion down: sift instead
                accepts = None
        if accepts is ANY_NAME:
            out = list(names)
        elif accepts is not None:  # the games hand the same filter object to fields of one kind
            kept = tuple(names)
            out = list(remembered(("names_for", accepts, kept), lambda: [name for name in kept if accepts(name)]))
        else:
            out = _sift(find, board, by, spec.type, field, shape, names)
    if len(out) == len(names) and not (isinstance(example, str) and example in names):
        return []
    return out


def sift_names(ruleset: Any, board: Any, by: str, spec: MoveSpec, field: str, names: Sequence[str]) -> list[str]:
    """``names_for`` without the ruleset's ``name_filter``: every name put to ``name_errors``
    (what the filters must agree with)."""
    find = getattr(ruleset, "name_errors", None)
    if find is None or board is None:
        return list(names)
    example = spec.example.get(field)
    shape: Shape = "list" if isinstance(example, list) else ("map" if isinstance(example, dict) else "one")
    with sifting():
        out = _sift(find, board, by, spec.type, field, shape, names)
    if len(out) == len(names) and not (isinstance(example, str) and example in names):
        return []
    return out


def _sift(find: Any, board: Any, by: str, kind: str, field: str, shape: Shape, names: Sequence[str]) -> list[str]:
    """One question per name: refused in ``field`` or not (inside ``sifting()``: no hints)."""
    out = []
    for name in names:
        value: Any = [name] if shape == "list" else ({name: "normal"} if shape == "map" else name)
        try:
            errs = find(board, {"type": kind, "by": by, field: value})
        except Exception:  # a ruleset's checker must not take completion down
            errs = []
        if not any(str(e.field) == field or str(e.field).startswith((f"{field}[", f"{field}.")) for e in errs):
            out.append(name)
    return out


def squares_of(board_json: Any) -> list[str]:
    """The squares of the field, as the board JSON names them (``a1`` ... ``e6``): every key and
    string value that is one, anywhere in it. A loop, not a recursion: the recording page's
    state walks the whole board after every move."""
    found: set[str] = set()
    match = SQUARE_RE.match
    todo: list[Any] = [board_json]
    while todo:
        x = todo.pop()
        if isinstance(x, str):
            if len(x) <= 4 and match(x):  # a square is 2-3 characters, and SQUARE_RE's $ lets a last newline by
                found.add(x)
        elif isinstance(x, dict):
            todo.extend(x)
            todo.extend(x.values())
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
        elif isinstance(x, Mapping):
            todo.extend(x.keys())
            todo.extend(x.values())
    return sorted(found, key=lambda q: (int(q[1:]), q[0]))


def is_square_field(spec: MoveSpec, field: str) -> bool:
    example = spec.example.get(field)
    items = example if isinstance(example, list) else [example]
    return bool(items) and all(isinstance(i, str) and SQUARE_RE.match(i) for i in items)


__all__ = ["enum_options", "is_square_field", "names_for", "sift_names", "squares_of"]
