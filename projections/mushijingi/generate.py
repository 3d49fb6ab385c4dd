"""A seeded random legal match, for property tests and benchmarks.

The generator plays both sides with full knowledge (it shuffles real decks), so it records
every drawn card and territory card by name; spells are followed by the ``effect`` their
sample-catalog text describes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from projections.mushijingi.apply import apply_move
from projections.mushijingi.board import (
    DECK_SIZE,
    MAX_COPIES,
    OPENING_HAND,
    TERRITORY,
    Board,
    attack_value,
    find_insect,
    max_hp,
    present,
)
from projections.mushijingi.catalog import Catalog, load_catalog

MAX_MOVES = 2000


def random_deck(rng: random.Random, catalog: Catalog) -> list[str]:
    pool = [name for name in sorted(catalog.cards) for _ in range(MAX_COPIES)]
    rng.shuffle(pool)
    return sorted(pool[:DECK_SIZE])


@dataclass
class _Hidden:
    deck: list[str]
    territory: list[str] = field(default_factory=list)


def _header(match_id: str, decks: dict[str, list[str]]) -> dict[str, Any]:
    names = {"A": ("山田", "緑カブト組"), "B": ("佐藤", "紫スズメバチ組")}
    return {
        "kifu": 1,
        "game": "mushijingi",
        "match": {
            "id": match_id,
            "event": "generated",
            "round": 1,
            "table": "1",
            "date": "2026-11-29",
            "house_rules": {},
        },
        "rules": "mushijingi/1",
        "players": [
            {
                "id": pid,
                "name": names[pid][0],
                "deck": {"name": names[pid][1], "archetype": "random", "cards": decks[pid]},
            }
            for pid in ("A", "B")
        ],
        "first": "A",
    }


class _Game:
    def __init__(self, ruleset: Any, rng: random.Random, match_id: str) -> None:
        self.ruleset, self.rng = ruleset, rng
        catalog = load_catalog(None)
        decks = {pid: random_deck(rng, catalog) for pid in ("A", "B")}
        self.header = _header(match_id, decks)
        self.board: Board = ruleset.initial_board(self.header)
        self.hidden = {}
        for pid, cards in decks.items():
            shuffled = list(cards)
            rng.shuffle(shuffled)
            self.hidden[pid] = _Hidden(deck=shuffled)
        self.moves: list[dict[str, Any]] = []

    def record(self, move: dict[str, Any]) -> None:
        move = {"seq": len(self.moves) + 1, **move}
        self.moves.append(move)
        self.board = apply_move(self.board, move)

    def take_territory(self, pid: str) -> str | None:
        cards = self.hidden[pid].territory
        return cards.pop(self.rng.randrange(len(cards))) if cards else None

    def setup(self) -> None:
        for pid in self.board.order:
            h = self.hidden[pid]
            h.territory, hand, h.deck = (
                h.deck[:TERRITORY],
                h.deck[TERRITORY : TERRITORY + OPENING_HAND],
                h.deck[TERRITORY + OPENING_HAND :],
            )
            self.record({"type": "setup", "by": pid, "hand": hand})

    def draw(self) -> None:
        by = self.board.active
        deck = self.hidden[by].deck
        self.record({"type": "draw", "by": by, "card": deck.pop(0) if deck else None})

    def attack(self, move: dict[str, Any]) -> None:
        defender = self.board.opponent(move["by"])
        if move["target"] == "player":
            if self.board.side(defender).territory > 0:
                move = {**move, "territory_card": self.take_territory(defender)}
        else:
            attacker = find_insect(self.board, move["attacker"])
            target = find_insect(self.board, move["target"])
            assert attacker is not None and target is not None
            dealt = attack_value(self.board, attacker, move["technique"], target)
            destroyed = target.damage + dealt >= max_hp(self.board, target)
            if destroyed and self.board.side(defender).territory > 0:
                move = {**move, "territory_card": self.take_territory(defender)}
        attacker_card = self.board.card(find_insect(self.board, move["attacker"]).card)  # type: ignore[union-attr]
        self.record(move)
        self.flip_after(move, attacker_card)

    def flip_after(self, move: dict[str, Any], card: Any) -> None:
        """A target-choosing technique (すくいなげ) flips its target: record that effect."""
        technique = card.technique(move["technique"]) if card else None
        alive = find_insect(self.board, move["target"]) is not None
        if technique and technique.target and move["target"] != "player" and alive:
            self.record(
                {
                    "type": "effect",
                    "by": move["by"],
                    "card": card.name,
                    "technique": technique.name,
                    "text": "裏返す",
                    "flip": [move["target"]],
                }
            )

    def spell_effect(self, move: dict[str, Any]) -> None:
        name, by = move["card"], move["by"]
        if name == "大嵐":
            refs = {i.uid: 300 for o in self.board.order for i in present(self.board, o)}
            if refs:
                self.record({"type": "effect", "by": by, "card": name, "damage": refs})
        elif name == "闘志" and move.get("target"):
            self.record({"type": "effect", "by": by, "card": name, "boost": {move["target"]: 300}})
        elif name == "樹液の罠" and move.get("target"):
            self.record({"type": "effect", "by": by, "card": name, "bounce": [move["target"]]})
        elif name == "羽化" and self.hidden[by].deck:
            drawn = self.hidden[by].deck.pop(0)
            self.record({"type": "effect", "by": by, "card": name, "draw": 1})
            self.record({"type": "reveal", "by": by, "cards": [drawn]})

    def turn(self) -> None:
        from projections.mushijingi.ruleset import legal_moves

        if self.board.phase == "draw":
            self.draw()
        while self.board.result is None and len(self.moves) < MAX_MOVES:
            options = legal_moves(self.board)
            acts = [m for m in options if m["type"] != "end_turn"]
            if not acts or self.rng.random() < 0.12:
                self.record({"type": "end_turn", "by": self.board.active})
                return
            sets = [m for m in acts if m["type"] == "set"]
            move = self.rng.choice(sets if sets and self.rng.random() < 0.7 else acts)
            if move["type"] == "attack":
                self.attack(move)
            else:
                self.record(move)
                card = self.board.card(move.get("card"))
                if card is not None and card.kind == "spell" and move["type"] == "play":
                    self.spell_effect(move)


def generate(
    ruleset: Any, rng: random.Random, match_id: str, **options: Any
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    game = _Game(ruleset, rng, match_id)
    game.setup()
    while game.board.result is None and len(game.moves) < MAX_MOVES:
        game.turn()
    return game.header, game.moves
