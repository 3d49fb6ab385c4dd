"""Legal moves at a point of the match, and seeded random legal matches for property tests
and benchmarks.

The generator plays both sides with full knowledge (it shuffles real decks), so it records
every drawn card and territory card by name; spells are followed by the ``effect`` their
sample-catalog text describes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from projections.mushijingi.apply import apply
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
from projections.package import generated_header

MAX_MOVES = 2000


def random_deck(rng: random.Random, catalog: Catalog) -> list[str]:
    pool = [name for name in sorted(catalog.cards) for _ in range(MAX_COPIES)]
    rng.shuffle(pool)
    return sorted(pool[:DECK_SIZE])


@dataclass
class _Hidden:
    deck: list[str]
    territory: list[str] = field(default_factory=list)


PLAYERS = (("A", "山田", "緑カブト組"), ("B", "佐藤", "紫スズメバチ組"))


def _header(ruleset: Any, match_id: str, decks: dict[str, list[str]]) -> dict[str, Any]:
    players = [
        {"id": pid, "name": name, "deck": {"name": deck, "archetype": "random", "cards": decks[pid]}}
        for pid, name, deck in PLAYERS
    ]
    return generated_header(ruleset, match_id, players, "A")


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
            theirs = [t for t in targets if t not in own]
            pool = (
                own if card.kind == "enhance" and board.rule("enhance_target") == "own" else targets
            )
            if card.kind == "spell" and card.target_side != "any":  # MJ-4.6
                pool = own if card.target_side == "own" else theirs
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


class _Game:
    def __init__(self, ruleset: Any, rng: random.Random, match_id: str) -> None:
        self.ruleset, self.rng = ruleset, rng
        catalog = load_catalog(None)
        decks = {pid: random_deck(rng, catalog) for pid in ("A", "B")}
        self.header = _header(ruleset, match_id, decks)
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
        self.board = apply(self.board, move)

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
