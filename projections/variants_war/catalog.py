"""The card catalog of ヴァリアンツ＝ウォー, loaded from ``data/cards.json`` (the seed's card list)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data" / "cards.json"
FACTIONS = ("森羅万象", "百識公国")


@cache
def _data() -> dict[str, Any]:
    with DATA.open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


@cache
def cards() -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in _data()["cards"]}


def card(name: str | None) -> dict[str, Any] | None:
    return cards().get(name) if name else None


def starter(faction: str) -> tuple[str, ...]:
    """The faction's dedicated deck (専用デッキ), ace included, in catalog order."""
    return tuple(_data()["factions"][faction])


def group(name: str) -> tuple[str, ...]:
    return tuple(n for n, c in cards().items() if c["group"] == name)


def enhancements() -> tuple[str, ...]:
    return group("enhancement")


def rescue_cards() -> tuple[str, ...]:
    return group("rescue")


def magic_cards() -> tuple[str, ...]:
    return group("magic")


def is_ace(name: str | None) -> bool:
    c = card(name)
    return bool(c and c["kind"] == "ace")


def is_magic(name: str | None) -> bool:
    c = card(name)
    return bool(c and c["kind"] == "magic")


def ace_of(faction: str) -> str:
    return next(n for n in starter(faction) if is_ace(n))


def faction_of(name: str) -> str | None:
    c = card(name)
    return c["group"] if c and c["group"] in FACTIONS else None


def has_effect(name: str, kind: str) -> bool:
    c = card(name)
    return bool(c and c.get(kind))


def base_stat(name: str, stat: str, options: dict[str, Any]) -> int:
    """Printed ATK/DEF; 幻中 has none printed, so the house rule ``genchu_atk``/``genchu_def`` fills in."""
    c = card(name)
    if c is None:
        return 0
    value = c.get(stat)
    if value is None:
        return int(options.get(f"genchu_{stat}", 0))
    return int(value)
