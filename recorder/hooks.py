"""Listeners told after kifu writes to a store (read models catch up here).

The writes run them themselves: recorder/service.py after a match's line or a new match,
recorder/bulk.py after an import, recorder/tournament_service.py after a tournament's line,
so every face (the CLI, the server, a script) keeps the read models current without
registering anything. The read model's listener lives with the read model
(``projections.readmodel.after_write``); it is listed here, imported when a write first runs it.

A listener is ``fn(store, known) -> None``. ``known`` maps a match id to the ruled-view
``Replay`` the writer already folded to the head it just wrote (the record path keeps one),
so a read model need not load and fold that match again; it may be empty. A listener that
raises does not fail the write (it already succeeded): the runner warns on stderr, in the
run's language, and the read model catches up at its next reading."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

LANGUAGE: str | None = None  # the language of the warning (the CLI's --lang); else the environment's


def read_model(store: Any, known: Mapping[str, Any]) -> None:
    """The statistics read model's listener (projections/readmodel.py)."""
    from projections import readmodel

    readmodel.after_write(store, known)


AFTER_WRITE: list[Callable[[Any, Mapping[str, Any]], None]] = [read_model]


def after_write(store: Any, known: Mapping[str, Any] | None = None) -> None:
    for listener in AFTER_WRITE:
        try:
            listener(store, known or {})
        except Exception as exc:  # the hook must not fail a write that succeeded
            if os.environ.get("KIFU_DEBUG"):
                raise
            from exports import i18n
            from projections.base import N_

            lang = LANGUAGE or i18n.from_environment()
            said = i18n.gettext_for(lang)(
                N_("warning: stats read model not updated ({error}); kifu stats will catch up")).format(error=exc)
            print(f"kifu: {said}", file=sys.stderr)
