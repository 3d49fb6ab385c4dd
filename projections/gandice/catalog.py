"""The dice kifu knows by name, and the vocabulary of resting positions (出目).

A header names dice; ``deck.dice`` may define or override dice for that player. A die label
``name#2`` is a second physical copy of ``name`` (labels are unique per player so moves can
name the die they mean).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

KINDS = ("character", "curse", "weapon")
ITEM_KINDS = ("curse", "weapon")
FUSION_KINDS = ("super", "core")
SPECIAL_VALUE = 3  # 特殊目数値「３」
NORMAL_VALUES = range(1, 7)

# resting position -> canonical English id (Japanese terms are accepted in logs as written)
FACES: dict[str, str] = {
    "stand": "stand",
    "handstand": "handstand",
    "side": "side",
    "special": "special",
    "normal": "normal",
    "立ち": "stand",
    "逆立ち": "handstand",
    "横倒し": "side",
    "特殊目": "special",
    "通常目": "normal",
}
FACE_JA = {
    "stand": "立ち",
    "handstand": "逆立ち",
    "side": "横倒し",
    "special": "特殊目",
    "normal": "通常目",
}
FACE_EN = {
    "stand": "stand",
    "handstand": "handstand",
    "side": "side",
    "special": "special",
    "normal": "normal",
}
UPRIGHT = ("stand", "handstand")

STATES = ("summoned", "half", "unsummoned")
STATE_JA = {"summoned": "召喚", "half": "半召喚", "unsummoned": "未召喚"}
STATE_EN = {"summoned": "summoned", "half": "half-summoned", "unsummoned": "unsummoned"}
KIND_JA = {"character": "キャラ", "curse": "呪術", "weapon": "武具"}


@dataclass(frozen=True)
class DieSpec:
    """What is printed on a kind of die."""

    name: str
    kind: str
    kin: str = ""
    bonus: int = 0  # bottom-face (底面) bonus added when an item die shows its 特殊目
    ability: str = ""
    fusion_kind: str = ""  # "super" (超眼) or "core" (核) or ""
    fusion_group: str = ""
    evolution: bool = False


def spec_from_json(obj: Mapping[str, Any]) -> DieSpec:
    fusion = obj.get("fusion") or {}
    return DieSpec(
        name=str(obj["name"]),
        kind=str(obj.get("kind", "character")),
        kin=str(obj.get("kin", "")),
        bonus=int(obj.get("bonus", 0) or 0),
        ability=str(obj.get("ability", "") or ""),
        fusion_kind=str(fusion.get("kind", "")),
        fusion_group=str(fusion.get("group", "")),
        evolution=bool(obj.get("evolution", False)),
    )


@cache
def catalog() -> dict[str, DieSpec]:
    path = Path(__file__).parent / "data" / "dice.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {d["name"]: spec_from_json(d) for d in data["dice"]}


def base_name(label: str) -> str:
    """``武具・羅#2`` -> ``武具・羅``."""
    name, sep, tail = label.rpartition("#")
    return name if sep and tail.isdigit() and name else label


def custom_specs(deck: Mapping[str, Any]) -> dict[str, DieSpec]:
    out: dict[str, DieSpec] = {}
    for obj in deck.get("dice") or []:
        if isinstance(obj, Mapping) and isinstance(obj.get("name"), str):
            try:
                out[obj["name"]] = spec_from_json(obj)
            except (TypeError, ValueError):
                continue
    return out


def lookup(label: str, custom: Mapping[str, DieSpec]) -> DieSpec | None:
    base = base_name(label)
    for key in (label, base):
        if key in custom:
            return custom[key]
    return catalog().get(base)


def face_of(value: Any) -> str | None:
    """Canonical face id of a recorded face, or None when unknown."""
    return FACES.get(value) if isinstance(value, str) else None


def roll_value(face: str, value: Any) -> int:
    """The number a character die's roll counts for in judgement (立ち/横倒し count 0)."""
    if face == "special":
        return SPECIAL_VALUE
    if face == "normal" and isinstance(value, int) and not isinstance(value, bool):
        return value
    return 0
