"""The match header: deck rules (MJ-1.x), house-rule options, and the opening board."""

from __future__ import annotations

from projections.base import N_, said

from collections import Counter
from collections.abc import Mapping
from typing import Any

from projections.base import FieldError
from projections.mushijingi.board import DECK_SIZE, MAX_COPIES, Board, Side
from projections.mushijingi.catalog import Catalog, CatalogError, header_catalog, load_catalog
from projections.package import header_version, house_rule_errors

HOUSE_RULES: dict[str, Any] = {
    # 3すくみ: each colour beats the next one in the cycle (last beats first).
    "sukumi": "赤>緑>紫>赤",
    # when a draw decides by deck-out: "empty" = a draw is attempted from an empty deck;
    # "last" = the draw that takes the last card.
    "deck_out": "empty",
    # a destroyed-by-effect insect (not by an attack) also gives its owner a territory card.
    "effect_destroy_takes_territory": False,
    # a direct attack that is only possible because every defending insect is flipped
    # (すくいなげ) may win when the defender's territory is 0.
    "flip_direct_win": False,
    # who may receive an enhancement (強化): "any" insect, or only the player's "own".
    "enhance_target": "any",
    # MJ-7.2 on a card effect's draw too (「ドローの際に」: a draw is a draw); false: only the
    # turn's draw decides, an effect drawing from an empty deck draws nothing.
    "effect_draw_deck_out": True,
    # MJ-6.4: an insect put onto the field by an effect (a spell's) triggers its 場に出たとき
    # effect; false: only an insect played from hand does.
    "enter_effect_on_summon": True,
    # MJ-6.6: an effect's SOURCE must be a card in play (on the field, or played / gone this
    # turn) — kifu's earlier reading of 「場に出ているカードにしか使用できません」.
    "effect_source_in_play": False,
    # MJ-6.3: whether the feed (エサ場) counts as "the field" for an effect's targets; by
    # default it does not (its cards are food, their texts void: MJ-6.1).
    "feed_on_field": False,
    # MJ-5.9: 「すくいなげで直接攻撃をして勝つことはできません」 — a direct attack with a technique
    # that must choose an insect (catalog ``target: true``) never wins at territory 0; true: it
    # wins as any direct attack (how mushijingi/1 and /2 folded it).
    "target_direct_win": False,
}

# mushijingi/1: the defaults matches were recorded under before the rules-fidelity fixes
# (issue 17): an effect drawing from an empty deck drew nothing, and effects had to come from
# cards in play. mushijingi/2 reads the seed literally (docs/rules/mushijingi.md, Versions).
HOUSE_RULES_V1: dict[str, Any] = {
    **HOUSE_RULES,
    "effect_draw_deck_out": False,
    "effect_source_in_play": True,
    "target_direct_win": True,
}
# mushijingi/2: the defaults matches were recorded under before issue 27 (a すくいなげ direct
# attack at territory 0 won; mushijingi/3 reads 「勝つことはできません」 literally).
HOUSE_RULES_V2: dict[str, Any] = {**HOUSE_RULES, "target_direct_win": True}

_CHOICES = {"deck_out": ("empty", "last"), "enhance_target": ("any", "own")}


# What each player's deck must say in a header, for ``kifu new`` to ask of its options before
# anything is written (projections/package.py, ``deck_required``): each entry is a set of deck
# keys of which one must be given.
DECK_REQUIRED: tuple[tuple[str, ...], ...] = ()  # a deck list the scorekeeper does not know is checked in play


def _sukumi(name: str, value: Any) -> str | None:
    return N_('expected a cycle like "赤>緑>紫>赤"') if name == "sukumi" and value.count(">") < 1 else None


def _house_rule_errors(rules: Any) -> list[FieldError]:
    return house_rule_errors(rules, HOUSE_RULES, _CHOICES, _sukumi)


def _deck_errors(i: int, player: Mapping[str, Any], catalog: Catalog) -> list[FieldError]:
    deck = player.get("deck") or {}
    cards = deck.get("cards") if isinstance(deck, Mapping) else None
    where = f"players[{i}].deck.cards"
    if not cards:
        return []  # deck list unknown to the scorekeeper: checked in play (MJ-1.2/1.3)
    if not isinstance(cards, list):
        return [FieldError(where, N_("expected a list of card names"))]
    errors = []
    for j, name in enumerate(cards):
        if not isinstance(name, str):
            errors.append(FieldError(f"{where}[{j}]", N_("expected a card name")))
        elif name not in catalog:
            errors.append(
                FieldError(
                    f"{where}[{j}]",
                    said(N_("MJ-1.4: unknown card {name!r} (not in catalog {name2})"), name=name, name2=catalog.name),
                )
            )
    if len(cards) != DECK_SIZE:
        errors.append(FieldError(where, said(N_("MJ-1.1: a deck has {DECK_SIZE} cards, not {cards}"), DECK_SIZE=DECK_SIZE, cards=len(cards))))
    for name, count in Counter(c for c in cards if isinstance(c, str)).items():
        if count > MAX_COPIES:
            errors.append(
                FieldError(
                    where, said(N_("MJ-1.2: {count} copies of {name!r}; at most {MAX_COPIES} of a name"), count=count, name=name, MAX_COPIES=MAX_COPIES)
                )
            )
    return errors


def validate_header(header: Mapping[str, Any]) -> list[FieldError]:
    errors: list[FieldError] = []
    players = header.get("players") or []
    if len(players) != 2:
        errors.append(FieldError("players", N_("蟲神器 is played by exactly 2 players")))
    match = header.get("match") or {}
    ref = match.get("catalog") if isinstance(match, Mapping) else None
    if ref is not None and not isinstance(ref, str):
        return errors + [FieldError("match.catalog", N_("expected a file path"))]
    try:
        catalog = load_catalog(ref)
    except CatalogError as exc:
        return errors + [FieldError("match.catalog", str(exc))]
    if isinstance(match, Mapping):
        errors += _house_rule_errors(match.get("house_rules"))
    for i, player in enumerate(players):
        if isinstance(player, Mapping):
            errors += _deck_errors(i, player, catalog)
    return errors


def house_rules_of(
    header: Mapping[str, Any], defaults: Mapping[str, Any] = HOUSE_RULES
) -> dict[str, Any]:
    """Every house rule of the match: the header's choices over the version's defaults."""
    given = (header.get("match") or {}).get("house_rules") or {}
    out = dict(defaults)
    if isinstance(given, Mapping):
        out.update({k: v for k, v in given.items() if k in HOUSE_RULES})
    return out


def initial_board(header: Mapping[str, Any], defaults: Mapping[str, Any] = HOUSE_RULES) -> Board:
    try:
        catalog = header_catalog(header)
    except CatalogError:
        catalog = load_catalog(None)
    ids = [p["id"] for p in header.get("players", [])][:2]
    sides = []
    for p in header.get("players", [])[:2]:
        deck = p.get("deck")
        cards = deck.get("cards") if isinstance(deck, Mapping) else None
        listed = tuple(c for c in cards if isinstance(c, str)) if isinstance(cards, list) else ()
        name = p.get("name")
        sides.append(
            Side(
                id=p["id"],
                deck=len(listed) or DECK_SIZE,
                deck_list=listed,
                name=name if isinstance(name, str) and name else str(p["id"]),
            )
        )
    return Board(
        order=(ids[0], ids[1]),
        first=header.get("first") or ids[0],
        catalog=catalog,
        rules=tuple(sorted(house_rules_of(header, defaults).items())),
        sides=(sides[0], sides[1]),
    )


# The header role of mushijingi/1: the same deck rules, the defaults of HOUSE_RULES_V1.
VERSION_1 = header_version(__name__, HOUSE_RULES_V1, validate_header, initial_board)
VERSION_2 = header_version(__name__, HOUSE_RULES_V2, validate_header, initial_board)
