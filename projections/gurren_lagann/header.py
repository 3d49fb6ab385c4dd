"""The match header: deck rules (GL-1.x), house-rule options (GL-H*) and the opening board."""

from __future__ import annotations

from projections.base import N_, said

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from projections.base import FieldError
from projections.gurren_lagann.board import HAND_SIZE, ROWS, GLBoard, Side
from projections.gurren_lagann.catalog import Catalog, fits, load
from projections.package import header_version, house_rule_errors

DECK_SIZE, MAX_COPIES = 30, 3
# What each player's deck must say in a header, for ``kifu new`` to ask of its options before
# anything is written (projections/package.py, ``deck_required``): each entry is a set of deck
# keys of which one must be given.
DECK_REQUIRED: tuple[tuple[str, ...], ...] = (("cards",), ("stock",))  # GL-1.1, GL-1.3: the deck and its ストックデッキ

HOUSE_RULES: dict[str, Any] = {
    "draw_per_turn": 1,  # GL-H1 cards drawn in the ドローフェイズ (the seed gives no number)
    "split_movement": False,  # GL-H2 may a figure spend its 2 movement over several moves
    "squad_moves": True,  # GL-H3 may figures sharing a square move together as one squad
    "pass_through_enemy": False,  # GL-H4 may a move pass through a square holding enemies
    "diagonal_moves": False,  # GL-H5 do diagonal squares count as adjacent
    "invasion_damage": "per_move",  # GL-H6 "per_move" or "per_figure"
    "deckout": "empty",  # GL-H7 "empty": game ends when a deck reaches 0; "draw": on drawing from 0
    "deploy_to_headquarters": True,  # GL-H8 may a figure be deployed onto its own 本陣
    "traps_survive_turn_end": False,  # GL-H9 true: set 【罠】 cards stay until the owner's next turn start
    "invasion_on_entry": True,  # GL-H10 false: every move that ends in the enemy zone deals damage
}

# gurren-lagann/1: the defaults matches were recorded under before the rules-fidelity fixes
# (issue 17): a set 【罠】 survived its owner's turn end, and every move that ended in the enemy's
# zone dealt invasion damage, also from inside it. gurren-lagann/2 reads the seed literally
# (docs/rules/gurren-lagann.md, Versions).
HOUSE_RULES_V1: dict[str, Any] = {
    **HOUSE_RULES,
    "traps_survive_turn_end": True,
    "invasion_on_entry": False,
}
HOUSE_RULE_CHOICES: dict[str, tuple[Any, ...]] = {
    "invasion_damage": ("per_move", "per_figure"),
    "deckout": ("empty", "draw"),
}



# --- deck construction (GL-1) ------------------------------------------------------------


def deck_problems(
    cards: Sequence[Any], stock: Sequence[Any], catalog: Catalog
) -> list[tuple[str, str]]:
    """(field suffix, problem) pairs for one player's deck: GL-1.1 … GL-1.7."""
    out: list[tuple[str, str]] = []
    names = [c for c in cards if isinstance(c, str)]
    if len(names) != len(cards):
        out.append(("cards", N_("every card must be a name (string)")))
    if len(cards) != DECK_SIZE:
        out.append(("cards", said(N_("GL-1.1: the deck has {cards} cards, needs exactly {DECK_SIZE}"), cards=len(cards), DECK_SIZE=DECK_SIZE)))
    unknown = sorted({n for n in names if n not in catalog.cards})
    if unknown:
        out.append(("cards", said(N_("GL-1.7: unknown card(s) {unknown}"), unknown=', '.join(unknown))))
    for name, n in sorted(Counter(names).items()):
        if n > MAX_COPIES:
            out.append(("cards", said(N_("GL-1.2: {n} copies of {name} (at most {MAX_COPIES})"), n=n, name=name, MAX_COPIES=MAX_COPIES)))
    out += _stock_problems(names, stock, catalog)
    return out


def _stock_problems(
    names: list[str], stock: Sequence[Any], catalog: Catalog
) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    figs = [s for s in stock if isinstance(s, str)]
    if len(figs) != len(stock):
        out.append(("stock", N_("every figure must be a name (string)")))
    for name, n in sorted(Counter(figs).items()):
        if n > 1:
            out.append(("stock", said(N_("GL-1.3: {n} figures of {name} (one per name)"), n=n, name=name)))
    bad = sorted(set(figs) - catalog.figures())
    if bad:
        out.append(("stock", said(N_("GL-1.7: unknown figure(s) {bad}"), bad=', '.join(bad))))
    known = [catalog.cards[n] for n in dict.fromkeys(names) if n in catalog.cards]
    missing = sorted({c.figure_name() for c in known if c.needs_figure} - set(figs))
    if missing:
        out.append(("stock", said(N_("GL-1.4: no figure in stock for {missing}"), missing=', '.join(missing))))
    for card in known:
        for part in card.combine:
            if part not in figs or not any(
                k.figure_name() == part and k.kind == "gbs" for k in known
            ):
                out.append(("cards", said(N_("GL-1.6: {name} needs {part} in deck and stock"), name=card.name, part=part)))
    pieces = {(c.figure_name(), c.cells) for c in known if c.needs_figure and not c.combine}
    if not fits([cells for _, cells in pieces]):
        total = sum(len(cells) for _, cells in pieces)
        out.append(("cards", said(N_("GL-1.5: base shapes ({total} cells) do not fit 3 units of 2×3"), total=total)))
    return out



# --- the header as a whole ----------------------------------------------------------------


def validate_header(header: Mapping[str, Any]) -> list[FieldError]:
    errors: list[FieldError] = []
    players = header.get("players") or []
    if len(players) != 2:
        errors.append(FieldError("players", N_("GBS is a game for exactly 2 players")))
    catalog = load()
    for i, p in enumerate(players):
        deck = p.get("deck") if isinstance(p, Mapping) else None
        base = f"players[{i}].deck"
        if not isinstance(deck, Mapping):
            errors.append(FieldError(base, N_("missing (needs cards and stock)")))
            continue
        cards, stock = deck.get("cards"), deck.get("stock")
        if not isinstance(cards, list):
            errors.append(FieldError(f"{base}.cards", N_("missing: a list of 30 card names")))
            continue
        if not isinstance(stock, list):
            errors.append(FieldError(f"{base}.stock", N_("missing: a list of figure names (ストックデッキ)")))
            stock = []
        errors += [FieldError(f"{base}.{f}", problem) for f, problem in deck_problems(cards, stock, catalog)]
    return errors + _house_rule_errors(header)


def _draw_per_turn(name: str, value: Any) -> str | None:
    return N_("must be 0 or more") if name == "draw_per_turn" and value < 0 else None


def _house_rule_errors(header: Mapping[str, Any]) -> list[FieldError]:
    given = (header.get("match") or {}).get("house_rules")
    return house_rule_errors(given, HOUSE_RULES, HOUSE_RULE_CHOICES, _draw_per_turn)


def initial_board(header: Mapping[str, Any], defaults: Mapping[str, Any] = HOUSE_RULES) -> GLBoard:
    """The board before any move; ``defaults`` are the house rules of the ruleset version."""
    players = header.get("players", [])
    sides = []
    for i, p in enumerate(players[:2]):
        deck = p.get("deck") or {}
        cards = tuple(c for c in deck.get("cards", []) if isinstance(c, str))
        stock = tuple(sorted(s for s in deck.get("stock", []) if isinstance(s, str)))
        sides.append(
            Side(
                id=p["id"],
                home_row=1 if i == 0 else ROWS,
                deck=max(len(cards) - HAND_SIZE, 0),
                hand=(None,) * min(HAND_SIZE, len(cards)),
                stock=stock,
                decklist=cards,
                name=p["name"] if isinstance(p.get("name"), str) and p["name"] else p["id"],
            )
        )
    given = (header.get("match") or {}).get("house_rules") or {}
    options = tuple(sorted((k, v) for k, v in given.items() if k in HOUSE_RULES))
    rules = tuple(sorted({**defaults, **dict(options)}.items()))
    first = header.get("first") or (sides[0].id if sides else "A")
    return GLBoard(
        turn=1, active=first, first=first, phase="main", sides=tuple(sides), options=options, rules=rules
    )


# The header role of gurren-lagann/1: the same deck rules, the defaults of HOUSE_RULES_V1.
VERSION_1 = header_version(__name__, HOUSE_RULES_V1, validate_header, initial_board)
