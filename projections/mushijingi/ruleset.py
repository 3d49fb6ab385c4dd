"""The 蟲神器 ruleset object (projections.base.Ruleset): header, board, and enumeration."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from projections.base import FieldError, Move, MoveSpec, Result, Violation
from projections.mushijingi import render
from projections.mushijingi.apply import apply_move
from projections.mushijingi.board import (
    DECK_SIZE,
    HOUSE_RULES,
    MAX_COPIES,
    Board,
    Side,
    find_insect,
    present,
)
from projections.mushijingi.catalog import Catalog, CatalogError, header_catalog, load_catalog
from projections.mushijingi.moves import MOVE_TYPES, validate_move
from projections.mushijingi.rules import check_move

_CHOICES = {"deck_out": ("empty", "last"), "enhance_target": ("any", "own")}


def _house_rule_errors(rules: Any) -> list[FieldError]:
    if rules is None:
        return []
    if not isinstance(rules, Mapping):
        return [FieldError("match.house_rules", "expected an object")]
    errors = []
    for name, value in rules.items():
        where = f"match.house_rules.{name}"
        if name not in HOUSE_RULES:
            errors.append(
                FieldError(where, f"unknown house rule (known: {', '.join(HOUSE_RULES)})")
            )
        elif name in _CHOICES and value not in _CHOICES[name]:
            errors.append(FieldError(where, f"expected one of {', '.join(_CHOICES[name])}"))
        elif isinstance(HOUSE_RULES[name], bool) and not isinstance(value, bool):
            errors.append(FieldError(where, "expected true or false"))
        elif name == "sukumi" and (not isinstance(value, str) or value.count(">") < 1):
            errors.append(FieldError(where, 'expected a cycle like "赤>緑>紫>赤"'))
    return errors


def _deck_errors(i: int, player: Mapping[str, Any], catalog: Catalog) -> list[FieldError]:
    deck = player.get("deck") or {}
    cards = deck.get("cards") if isinstance(deck, Mapping) else None
    where = f"players[{i}].deck.cards"
    if not cards:
        return []  # deck list unknown to the scorekeeper: checked in play (MJ-1.2/1.3)
    if not isinstance(cards, list):
        return [FieldError(where, "expected a list of card names")]
    errors = []
    for j, name in enumerate(cards):
        if not isinstance(name, str):
            errors.append(FieldError(f"{where}[{j}]", "expected a card name"))
        elif name not in catalog:
            errors.append(
                FieldError(
                    f"{where}[{j}]",
                    f"MJ-1.4: unknown card {name!r} (not in catalog {catalog.name})",
                )
            )
    if len(cards) != DECK_SIZE:
        errors.append(FieldError(where, f"MJ-1.1: a deck has {DECK_SIZE} cards, not {len(cards)}"))
    for name, count in Counter(c for c in cards if isinstance(c, str)).items():
        if count > MAX_COPIES:
            errors.append(
                FieldError(
                    where, f"MJ-1.2: {count} copies of {name!r}; at most {MAX_COPIES} of a name"
                )
            )
    return errors


class MushijingiRuleset:
    name = "mushijingi"
    version = 1
    aliases = ("mj", "蟲神器")
    title = "蟲神器"
    min_players = 2
    max_players = 2
    move_types: Mapping[str, MoveSpec] = MOVE_TYPES
    house_rules: Mapping[str, Any] = HOUSE_RULES

    def validate_header(self, header: Mapping[str, Any]) -> list[FieldError]:
        errors: list[FieldError] = []
        players = header.get("players") or []
        if len(players) != 2:
            errors.append(FieldError("players", "蟲神器 is played by exactly 2 players"))
        match = header.get("match") or {}
        ref = match.get("catalog") if isinstance(match, Mapping) else None
        if ref is not None and not isinstance(ref, str):
            return errors + [FieldError("match.catalog", "expected a file path")]
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

    def validate_move(self, move: Move) -> list[FieldError]:
        return validate_move(move)

    def initial_board(self, header: Mapping[str, Any]) -> Board:
        try:
            catalog = header_catalog(header)
        except CatalogError:
            catalog = load_catalog(None)
        ids = [p["id"] for p in header.get("players", [])][:2]
        sides = []
        for p in header.get("players", [])[:2]:
            deck = p.get("deck")
            cards = deck.get("cards") if isinstance(deck, Mapping) else None
            listed = (
                tuple(c for c in cards if isinstance(c, str)) if isinstance(cards, list) else ()
            )
            sides.append(Side(id=p["id"], deck=len(listed) or DECK_SIZE, deck_list=listed))
        rules = (header.get("match") or {}).get("house_rules") or {}
        rules = (
            {k: v for k, v in rules.items() if k in HOUSE_RULES}
            if isinstance(rules, Mapping)
            else {}
        )
        return Board(
            order=(ids[0], ids[1]),
            first=header.get("first") or ids[0],
            catalog=catalog,
            rules=tuple(sorted(rules.items())),
            sides=(sides[0], sides[1]),
        )

    def apply(self, board: Board, move: Move) -> Board:
        return apply_move(board, move)

    def check(self, board: Board, move: Move) -> list[Violation]:
        return check_move(board, move)

    def result(self, board: Board) -> Result | None:
        return board.result

    def board_json(self, board: Board) -> dict[str, Any]:
        return render.board_json(board)

    def render_text(self, board: Board) -> str:
        return render.render_text(board)

    def legal_moves(self, board: Board) -> Iterable[Move]:
        return legal_moves(board)

    def vocabulary(self, header: Mapping[str, Any]) -> list[str]:
        try:
            catalog = header_catalog(header)
        except CatalogError:
            catalog = load_catalog(None)
        words = set(catalog.cards)
        for card in catalog.cards.values():
            words.update(t.name for t in card.techniques)
        words.update(MOVE_TYPES)
        words.add("player")
        return sorted(words)

    def generate(
        self, rng: random.Random, match_id: str, **options: Any
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        from projections.mushijingi.generate import generate

        return generate(self, rng, match_id, **options)


def _main_moves(board: Board, by: str) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    total = board.cost if board.phase == "main" else len(board.side(by).feed)
    left = total - (board.spent if board.phase == "main" else 0)
    targets = [i.uid for o in board.order for i in present(board, o)]
    for name in sorted({c for c in board.side(by).hand if c is not None}):
        card = board.card(name)
        if card is None or card.cost > left:
            continue
        if card.kind == "enhance" or (card.kind == "spell" and card.target == "insect"):
            own = [t for t in targets if find_insect(board, t).owner == by]  # type: ignore[union-attr]
            pool = (
                own if card.kind == "enhance" and board.rule("enhance_target") == "own" else targets
            )
            moves += [{"type": "play", "by": by, "card": name, "target": t} for t in pool]
        else:
            moves.append({"type": "play", "by": by, "card": name})
    return moves + _attack_moves(board, by)


def _attack_moves(board: Board, by: str) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    defender = board.opponent(by)
    blockers = [i.uid for i in present(board, defender)]
    flipped_only = any(i.owner == defender for i in board.field) and not blockers
    win_blocked = (
        flipped_only and board.side(defender).territory == 0 and not board.rule("flip_direct_win")
    )
    for ins in present(board, by):
        card = board.card(ins.card)
        if ins.attacked or card is None:
            continue
        for tech in card.techniques:
            base = {"type": "attack", "by": by, "attacker": ins.uid, "technique": tech.name}
            if blockers:
                moves += [{**base, "target": t} for t in blockers]
            elif not tech.target and not win_blocked:
                moves.append({**base, "target": "player"})
    return moves


def legal_moves(board: Board) -> list[dict[str, Any]]:
    if board.result is not None:
        return []
    if board.phase == "setup":
        return [{"type": "setup", "by": s.id} for s in board.sides if not s.ready]
    by = board.active
    if board.phase == "draw":
        return [{"type": "draw", "by": by, "card": None}]
    moves: list[dict[str, Any]] = []
    if board.phase == "set" and not board.fed:
        moves += [
            {"type": "set", "by": by, "card": c}
            for c in sorted({c for c in board.side(by).hand if c is not None})
        ]
    return moves + _main_moves(board, by) + [{"type": "end_turn", "by": by}]


RULESET = MushijingiRuleset()
