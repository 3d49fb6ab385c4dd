"""Names a match does not have, shared by every game's ``name_errors`` (in its moves.py).

A move that names a die, card, figure or player this match does not have is refused before
it is recorded, with the closest names offered: ``'ギタン' is not a die of this match; did
you mean 'ギダン'?``. These helpers find the closest names and word the hint, so every game
offers names the same way; what counts as a name of the match stays each game's own.
"""

from __future__ import annotations

import difflib
import functools
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal, TypeVar

from projections.base import N_, said
from projections.base import FieldError

# Inside ``sifting()`` (vocabulary.names_for asking name_errors about every name of the match,
# one at a time, to learn which a field may hold) only *whether* a name is refused matters:
# the hint's closest names (difflib, most of that time) are not worked out, and what a check
# derives from the board alone is derived once per board, not once per name.
_SIFTING: ContextVar[dict[Any, Any] | None] = ContextVar("kifu_names_sifting", default=None)
F = TypeVar("F", bound=Callable[..., Any])


# How a name stands in a field when the pickers ask about it (vocabulary.names_for): the name
# itself, a one-name list (``[name]``: cards, figures) or a one-key map (``{name: "normal"}``:
# a Gandice summon's rolls).
Shape = Literal["one", "list", "map"]
# What a game's ``name_filter`` answers: which names the field may hold (``ANY_NAME``: every
# name, the check refuses none there), or None: no quicker answer, ask ``name_errors`` per name.
NameFilter = Callable[[str], bool]


def ANY_NAME(name: str) -> bool:  # named as a constant: names_for knows it by identity
    """The filter of a field where ``name_errors`` refuses no name."""
    return True


def remembered(key: Any, compute: Callable[[], Any]) -> Any:
    """``compute()``, kept under ``key`` within one ``sifting()`` (one board): fields whose
    filters are the same object share one answer. Outside it, computed on every call."""
    memo = _SIFTING.get()
    if memo is None:
        return compute()
    try:
        hash(key)
    except TypeError:  # a key that cannot be kept (a filter over a mutable set): not shared
        return compute()
    if key not in memo:
        memo[key] = compute()
    return memo[key]


@contextmanager
def sifting() -> Iterator[None]:
    """Name checks without hints, their board-derived sets computed once (see ``per_board``).
    Nested inside another ``sifting()`` it shares that one's sets (one board, many fields)."""
    memo = _SIFTING.get()
    token = _SIFTING.set({} if memo is None else memo)
    try:
        yield
    finally:
        _SIFTING.reset(token)


def per_board(fn: F) -> F:
    """``fn(board, *args)`` (a pure function of the board) remembered within one ``sifting()``,
    where the board does not change; outside it, computed on every call as before."""
    @functools.wraps(fn)
    def wrapper(board: Any, *args: Any) -> Any:
        memo = _SIFTING.get()
        if memo is None:
            return fn(board, *args)
        key = (fn, id(board), args)
        if key not in memo:
            memo[key] = (board, fn(board, *args))  # the board kept: its id cannot be reused meanwhile
        return memo[key][1]
    return wrapper  # type: ignore[return-value]


def closest(
    name: str, known: Iterable[str], *, cutoff: float = 0.6, near: float | None = None, within: bool = False
) -> list[str]:
    """Up to three names of ``known`` most like ``name`` (``difflib`` ratio at least ``cutoff``).

    ``near``: keep only the names within ``near`` of the best ratio (when names share a long
    prefix, ヴァリアンツの…, all of them are otherwise "close"). ``within``: when none is
    close, the names that contain ``name`` (a short form: 南月 for ヴァリアンツの忍者－南月).
    """
    if _SIFTING.get() is not None:  # nobody reads the hint
        return []
    names = list(dict.fromkeys(known))
    close = difflib.get_close_matches(name, names, n=3, cutoff=cutoff)
    if close and near is not None:
        best = difflib.SequenceMatcher(None, name, close[0]).ratio()
        close = [c for c in close if difflib.SequenceMatcher(None, name, c).ratio() >= best - near]
    if not close and within and name:
        close = [c for c in names if name in c][:3]
    return close


def did_you_mean(close: Sequence[str]) -> str:
    """``"; did you mean 'A' or 'B'?"``, or ``""`` when there is nothing to offer."""
    return said(N_("; did you mean {names}?"), names=either([repr(c) for c in close])) if close else ""


def either(items: Sequence[str]) -> str:
    """``'A' or 'B' or 'C'``, said in the reader's language."""
    return items[0] if len(items) == 1 else said(N_("{first} or {last}"), first=either(items[:-1]), last=items[-1])


def unknown_name(field: str, value: Any, known: Iterable[str], what: str, *, cutoff: float = 0.5) -> list[FieldError]:
    """A FieldError when ``value`` (a name) is not among ``known``, offering the closest ones:
    ``'ギタン' is not a die of this match; did you mean 'ギダン'?`` (``what`` = "a die")."""
    if not isinstance(value, str):
        return []
    names = set(known)
    if value in names:
        return []
    return [
        FieldError(field, said(N_("{value!r} is not {what} of this match{value2}"), value=value, what=what, value2=did_you_mean(closest(value, sorted(names), cutoff=cutoff))))
    ]


def normalise_name(text: Any) -> str:
    """The key deck and archetype names are matched on: NFKC (full-width and half-width
    spellings become one), trimmed, inner runs of whitespace collapsed to one space."""
    if text is None:
        return ""
    return " ".join(unicodedata.normalize("NFKC", str(text)).split())


def name_key(text: Any) -> str:
    """What event and player filters compare: the normalised name, case-folded."""
    return normalise_name(text).casefold()
