"""The card catalog of ヴァリアンツ＝ウォー, loaded from ``data/cards.json`` (the seed's card list)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data" / "cards.json"
FACTIONS = ("森羅万象", "百識公国")


@dataclass(frozen=True)
class SummonCondition:
    """The condition printed on a card that calls an ace (切り札), which is the ace's summon rule
    (VW-8.1): the summoner and ``returns - 1`` more of its owner's monsters whose name holds
    ``family`` go from ``zones`` to the deck, and the ace comes where the summoner stood."""

    ace: str
    summoner: str
    kind: str  # the summoner's effect that calls it: "normal" or "lateral"
    returns: int  # monsters returned to the deck, the summoner included
    family: str  # 「ヴァリアンツ」モンスター: the name holds this
    zones: str  # "battlefield" (戦場ゾーン, rows 1-3) or "field" (フィールドのゾーン, every zone)
    text: str  # the sentence on the summoner's card


# One entry per ace in the catalog (tests/variants_war check that none is missing).
SUMMONS: dict[str, SummonCondition] = {
    "ヴァリアンツＧ－グランデューク": SummonCondition(
        "ヴァリアンツＧ－グランデューク", "ヴァリアンツＤ－デューク", "normal", 2, "ヴァリアンツ", "battlefield",
        "このカードを含む自分の「ヴァリアンツ」モンスター2体を戦場ゾーンからデッキに戻して、"
        "このカードのいた位置に『ヴァリアンツＧ－グランデューク』を呼び出す。"),
    "ヴァリアンツの聚－幻中": SummonCondition(
        "ヴァリアンツの聚－幻中", "ヴァリアンツの武者－北条", "lateral", 3, "ヴァリアンツ", "field",
        "このカードを含む自分の「ヴァリアンツ」モンスター3体をフィールドのゾーンからデッキに戻して、"
        "このカードのいた位置に『ヴァリアンツの聚－幻中』を呼び出す。"),
}


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


@cache
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
