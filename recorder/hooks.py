"""Listeners told after kifu writes to a store (read models catch up here).

A listener is ``fn(store, known) -> None``. ``known`` maps a match id to the ruled-view
``Replay`` the writer already folded to the head it just wrote (the record path keeps one),
so a read model need not load and fold that match again; it may be empty. A listener must
not raise for ordinary reasons (a read model that cannot catch up is rebuilt later; the
write itself already succeeded)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

AFTER_WRITE: list[Callable[[Any, Mapping[str, Any]], None]] = []


def after_write(store: Any, known: Mapping[str, Any] | None = None) -> None:
    for listener in AFTER_WRITE:
        listener(store, known or {})
