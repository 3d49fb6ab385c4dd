"""The card catalog of ヴァリアンツ＝ウォー, loaded from ``data/cards.json`` (the seed's card list)."""

from __future__ import annotations

import json
import re
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


def card(name: Any) -> dict[str, Any] | None:
    return cards().get(name) if isinstance(name, str) and name else None


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


# --- the card texts, sentence by sentence (VW-11) ------------------------------------------------
TEXT_KINDS = ("normal", "lateral", "special", "effect")
KIND_LABELS = {"normal": "通常効果", "lateral": "横移動効果", "special": "特殊効果", "effect": "効果"}
NONE_TEXT = "なし"  # the seed prints なし for a monster without a normal or lateral effect


def sentences(name: str) -> list[tuple[str, str]]:
    """``(kind, sentence)`` for each sentence of the card's texts, in print order: a monster's
    normal and lateral effect (``なし`` when it has none) and an ace's special effect; a magic
    card's effect. Sentences end at 。; a closing note in brackets stands as its own."""
    c = card(name) or {}
    kinds = ("effect",) if c.get("kind") == "magic" else ("special",) if c.get("kind") == "ace" else ("normal", "lateral")
    out: list[tuple[str, str]] = []
    for kind in kinds:
        text = c.get(kind)
        pieces = re.findall(r"[^。]+。?", text) if text else [NONE_TEXT]
        out += [(kind, p) for p in pieces]
    return out


@dataclass(frozen=True)
class Term:
    """What a card's text fixes of one ``modify`` or ``status`` action (VW-11.7): the stat and
    the operation (``modify``) or the status, the amount (None: none, or computed from the line:
    グランデューク, ライズベルト), and how long it lasts."""

    do: str  # "modify" or "status"
    what: str  # modify: "atk" / "def" / "both"; status: its name
    op: str | None = None  # modify: "add" / "halve" / "set"
    amount: int | None = None
    until: str = "turn_end"


# (card, text kind) -> the modify/status actions its text makes. The fold fills in what a line
# leaves out (amount, until) from here; the checks compare what a line says with it.
TERMS: dict[tuple[str, str], tuple[Term, ...]] = {
    ("ヴァリアンツの弓引－西園", "normal"): (Term("status", "no_effect", until="owner_next_turn_end"),
                                   Term("modify", "atk", "halve", until="owner_next_turn_end")),
    ("ヴァリアンツＤ－デューク", "lateral"): (Term("status", "no_position", until="next_turn_end"),
                                    Term("status", "no_effect", until="next_turn_end")),
    ("ヴァリアンツＧ－グランデューク", "special"): (Term("modify", "atk", "add", until="permanent"),),
    ("召喚師ライズベルト", "normal"): (Term("modify", "both", "add"),),
    ("シュルブの魔導騎兵", "normal"): (Term("status", "immune", until="next_turn_end"),),
    ("EMシール・イール", "normal"): (Term("status", "no_effect", until="owner_next_turn_end"),),
    ("忍者義賊ゴエゴエ", "normal"): (Term("status", "diagonal"),),
    ("超重武者ソード－９９９", "normal"): (Term("modify", "atk", "set", 0),),
    ("瞬着ボマー", "normal"): (Term("status", "revenge"),),
    ("アサルト・アルマート", "normal"): (Term("modify", "both", "add", -1000),),
    ("幻惑の巻物", "effect"): (Term("status", "no_action", until="owner_next_turn_end"),),
    ("騎士道精神", "effect"): (Term("status", "immune", until="next_turn_end"),),
    ("一点着地", "effect"): (Term("status", "diagonal"),),
    ("士気高揚", "effect"): (Term("status", "extra_move"),),
    ("破天荒な風", "effect"): (Term("modify", "both", "add", 1000),),
    ("ヒーローハート", "effect"): (Term("modify", "atk", "halve"), Term("status", "extra_move")),
}


def term(card_name: Any, kind: Any, act: dict[str, Any]) -> Term | None:
    """The term of ``card_name``'s ``kind`` text that ``act`` (a modify or status) stands for."""
    for t in TERMS.get((str(card_name), str(kind)), ()):
        if t.do == act.get("do") and (t.do == "modify" or t.what == act.get("status")):
            return t
    return None
