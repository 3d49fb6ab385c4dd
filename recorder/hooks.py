"""Listeners told after kifu writes to a store (read models catch up here).

A listener is ``fn(store) -> None``; it must not raise for ordinary reasons (a read model
that cannot catch up is rebuilt later; the write itself already succeeded)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

AFTER_WRITE: list[Callable[[Any], None]] = []


def after_write(store: Any) -> None:
    for listener in AFTER_WRITE:
        listener(store)
