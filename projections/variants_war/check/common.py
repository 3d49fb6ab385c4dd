"""What every rule check writes into: findings ``(rule id, message, expected, suggest)``."""

from __future__ import annotations

from typing import Any

Found = list[tuple[str, str, dict[str, Any] | None, tuple[dict[str, Any], ...] | None]]


def flag(out: Found, rule: str, message: str, expected: dict[str, Any] | None = None,
         suggest: tuple[dict[str, Any], ...] | None = None) -> None:
    out.append((rule, message, expected, suggest))
