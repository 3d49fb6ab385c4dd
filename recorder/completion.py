"""What Tab offers in live logging (``kifu record MATCH -i``) and what the recording page
offers in its pickers: only this match's names, and only the fields of the move being typed.

``names_for`` asks the ruleset's ``name_errors`` which of the match's names a field can hold
(a die where a die is asked, a card where a card is); ``complete`` turns the line typed so far
into candidates: a move type first, then that type's fields not yet given, then values.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from projections.base import META_TYPES
from projections.replay import Replay
from projections.vocabulary import enum_options, is_square_field, names_for, squares_of

COMMANDS = ("board", "log", "types", "help", "quit")


def vocabulary(rep: Replay) -> list[str]:
    try:
        return [str(n) for n in rep.ruleset.vocabulary(rep.header)]
    except Exception:
        return []


def values_for(rep: Replay, kind: str, field: str, by: str) -> list[str]:
    """Candidate values of ``field`` in a ``kind`` line typed by ``by``."""
    players = [p["id"] for p in rep.header["players"]]
    if field in ("by", "player", "defender", "winner"):
        return players
    spec = rep.ruleset.move_types.get(kind)
    if spec is None:
        return []
    board = rep.board(rep.steps)
    if is_square_field(spec, field):
        return squares_of(rep.board_json(rep.steps))
    enum = enum_options(spec.fields.get(field, ""))
    if enum:
        return [o["value"] for o in enum]
    names = names_for(rep.ruleset, board, by, spec, field, vocabulary(rep))
    try:
        legal = [m for m in rep.ruleset.legal_moves(board) if m.get("type") == kind]
    except Exception:
        legal = []
    seen = [m[field] for m in legal if isinstance(m.get(field), str)]
    return list(dict.fromkeys([*seen, *names]))


def complete(rep: Replay, buffer: str, text: str) -> list[str]:
    """Candidates for the word ``text`` at the end of the line ``buffer`` typed so far."""
    try:
        words = shlex.split(buffer[: len(buffer) - len(text)])
    except ValueError:
        words = buffer.split()
    if not words:
        options = [*rep.ruleset.move_types, *sorted(META_TYPES), *COMMANDS]
        return [w for w in options if w.startswith(text)]
    kind = words[0]
    given = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    active = rep.board_json(rep.steps).get("active")
    by = given.get("by") or (str(active) if active else "")
    if "=" in text:
        field, _, prefix = text.partition("=")
        return [f"{field}={v}" for v in values_for(rep, kind, field, by) if v.startswith(prefix)]
    spec = rep.ruleset.move_types.get(kind)
    fields = ["by", *(spec.fields if spec is not None else ())]
    return [f"{f}=" for f in dict.fromkeys(fields) if f not in given and f.startswith(text)]


def readline_completer(current: Callable[[], Replay], line_buffer: Callable[[], str]) -> Callable[[str, int], str | None]:
    """A ``readline`` completer over the match as it stands (``current`` is asked each time)."""
    cache: list[str] = []

    def complete_word(text: str, state: int) -> str | None:  # pragma: no cover - needs a terminal
        if state == 0:
            cache[:] = complete(current(), line_buffer(), text)
        return cache[state] if state < len(cache) else None

    return complete_word


__all__ = ["complete", "enum_options", "is_square_field", "names_for", "readline_completer", "squares_of", "values_for"]
