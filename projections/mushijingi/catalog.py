"""The card catalog: what a card name means (kind, cost, colour, HP, techniques).

The seed documents list no card pool, so a tournament supplies one as a JSON or TOML file
(format described in docs/rules/mushijingi.md); kifu ships a small sample in
``data/catalog.json`` that the examples and tests use. A header names a catalog with
``match.catalog``; without it the sample is used.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"
SAMPLE = DATA_DIR / "catalog.json"

KINDS = ("insect", "enhance", "spell")  # 虫 / 強化 / 術
SPELL_TARGETS = ("insect", "all", "none")  # 対象を選ぶ / 全体 / 対象なし
# Zones off the field a card's text may reach (「特別指定」, MJ-6.3): 手札 / 山札 / 捨て札 / エサ場.
ZONES = ("hand", "deck", "discard", "feed")
# Whose insect a targeted spell chooses (「自分の虫を1つ選び」 / 「相手の虫を1つ選び」, MJ-4.6).
TARGET_SIDES = ("any", "own", "opponent")
# When a technique's text happens (「直接攻撃したとき」: only after a direct attack with it, MJ-6.7).
WHENS = ("", "direct")


class CatalogError(ValueError):
    """A catalog file is missing or malformed."""


@dataclass(frozen=True)
class Technique:
    """技: an insect's attack. ``target`` is True for techniques that must choose an
    insect (すくいなげ-style, 「相手の虫を1つ選び」), which can never attack directly."""

    name: str
    attack: int
    text: str = ""
    target: bool = False
    # 「特別記載」: the technique's effect may touch more than the one chosen insect (MJ-6.5).
    multi_target: bool = False
    # "direct": the text happens when the technique attacked the player (「直接攻撃したとき」, MJ-6.7)
    when: str = ""


@dataclass(frozen=True)
class Card:
    name: str
    kind: str
    cost: int
    colour: str
    text: str = ""
    hp: int = 0
    techniques: tuple[Technique, ...] = ()
    target: str = "none"  # spells: insect / all / none
    target_side: str = "any"  # spells choosing an insect: whose (any / own / opponent; MJ-4.6)
    attack_bonus: int = 0  # enhancements
    hp_bonus: int = 0
    sets_colour: str | None = None
    # zones off the field the card's text may name as targets (MJ-6.3), e.g. ("hand",)
    reaches: tuple[str, ...] = ()
    # the card's text is a 場に出たとき (on entering the field) effect (MJ-6.4)
    on_enter: bool = False

    def technique(self, name: str) -> Technique | None:
        for tech in self.techniques:
            if tech.name == name:
                return tech
        return None


@dataclass(frozen=True)
class Catalog:
    name: str
    cards: Mapping[str, Card] = field(compare=False, hash=False)

    def get(self, name: str | None) -> Card | None:
        return self.cards.get(name) if name is not None else None

    def __contains__(self, name: object) -> bool:
        return name in self.cards


def _need(raw: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    value = raw.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise CatalogError(f"{where}.{key}: expected {kind.__name__}")
    return value


def _technique(raw: Any, where: str) -> Technique:
    if not isinstance(raw, Mapping):
        raise CatalogError(f"{where}: expected an object")
    when = str(raw.get("when", ""))
    if when not in WHENS:
        raise CatalogError(f"{where}.when: {when!r} is not one of {', '.join(w for w in WHENS if w)}")
    return Technique(
        name=_need(raw, "name", str, where),
        attack=_need(raw, "attack", int, where),
        text=str(raw.get("text", "")),
        target=bool(raw.get("target", False)),
        multi_target=bool(raw.get("multi_target", False)),
        when=when,
    )


def _card(raw: Any, where: str) -> Card:
    if not isinstance(raw, Mapping):
        raise CatalogError(f"{where}: expected an object")
    kind = _need(raw, "kind", str, where)
    if kind not in KINDS:
        raise CatalogError(f"{where}.kind: {kind!r} is not one of {', '.join(KINDS)}")
    target = str(raw.get("target", "none"))
    if target not in SPELL_TARGETS:
        raise CatalogError(f"{where}.target: {target!r} is not one of {', '.join(SPELL_TARGETS)}")
    side = str(raw.get("target_side", "any"))
    if side not in TARGET_SIDES:
        raise CatalogError(f"{where}.target_side: {side!r} is not one of {', '.join(TARGET_SIDES)}")
    reaches = raw.get("reaches", [])
    if not isinstance(reaches, list) or any(z not in ZONES for z in reaches):
        raise CatalogError(f"{where}.reaches: expected a list of {', '.join(ZONES)}")
    techs = raw.get("techniques", [])
    if not isinstance(techs, list):
        raise CatalogError(f"{where}.techniques: expected a list")
    card = Card(
        name=_need(raw, "name", str, where),
        kind=kind,
        cost=_need(raw, "cost", int, where),
        colour=_need(raw, "colour", str, where),
        text=str(raw.get("text", "")),
        hp=int(raw.get("hp", 0)),
        techniques=tuple(_technique(t, f"{where}.techniques[{i}]") for i, t in enumerate(techs)),
        target=target,
        target_side=side,
        attack_bonus=int(raw.get("attack_bonus", 0)),
        hp_bonus=int(raw.get("hp_bonus", 0)),
        sets_colour=raw.get("sets_colour"),
        reaches=tuple(reaches),
        on_enter=bool(raw.get("on_enter", False)),
    )
    if kind == "insect" and (card.hp <= 0 or not card.techniques):
        raise CatalogError(f"{where}: an insect needs hp > 0 and at least one technique")
    return card


def parse_catalog(data: Mapping[str, Any], name: str = "catalog") -> Catalog:
    """Build a catalog from parsed JSON/TOML data: ``{"name": ..., "cards": [...]}``."""
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise CatalogError("cards: expected a non-empty list")
    cards: dict[str, Card] = {}
    for i, raw in enumerate(raw_cards):
        card = _card(raw, f"cards[{i}]")
        if card.name in cards:
            raise CatalogError(f"cards[{i}].name: duplicate card {card.name!r}")
        cards[card.name] = card
    return Catalog(name=str(data.get("name", name)), cards=cards)


def resolve_path(ref: str | None) -> Path:
    """A header's ``match.catalog``: None is the sample; a relative path is tried against
    the working directory, then the shipped data directory."""
    if not ref:
        return SAMPLE
    path = Path(ref)
    if path.is_absolute() or path.exists():
        return path
    return DATA_DIR / ref


@cache
def _load(path: str) -> Catalog:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(f"cannot read catalog {path}: {exc.strerror}") from None
    try:
        data = tomllib.loads(text) if p.suffix == ".toml" else json.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"catalog {path} is not valid {p.suffix[1:] or 'JSON'}: {exc}") from None
    return parse_catalog(data, name=p.stem)


def load_catalog(ref: str | None = None) -> Catalog:
    return _load(str(resolve_path(ref)))


def header_catalog(header: Mapping[str, Any]) -> Catalog:
    match = header.get("match") or {}
    ref = match.get("catalog") if isinstance(match, Mapping) else None
    return load_catalog(ref if isinstance(ref, str) else None)
