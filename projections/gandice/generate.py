"""Seeded random LEGAL Gandice matches for property tests and benchmarks, and legal_moves.

The generator plays the table: it picks each roll's outcome with ``rng`` and folds every move
through ``apply``, so each move is legal on the board it lands on. ``min_events`` stretches a
match with 再召喚チャレンジ and failed (横倒し) attacks before letting it end.
"""

from __future__ import annotations

import random
from typing import Any

from projections.gandice.apply import apply
from projections.gandice.board import Board, Die, Player, rollable
from projections.gandice.header import initial_board
from projections.package import generated_header

EVO = {"kind": "character", "evolution": True}
DECKS: list[dict[str, Any]] = [
    {
        "name": "イスルギデッキ",
        "archetype": "イスルギ",
        "cards": ["紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ", "武具・羅", "呪術・笑童児"],
        "evolution": ["紅蓮のイスルギ・進化", "イスルギ・進化"],
        "kofuda": ["イスルギ", "紅蓮のイスルギ"],
        "dice": [
            {"name": "紅蓮のイスルギ・進化", "kin": "イスルギ", **EVO},
            {"name": "イスルギ・進化", "kin": "イスルギ", **EVO},
        ],
    },
    {
        "name": "闇ダイスデッキ",
        "archetype": "闇",
        "cards": ["ギダン", "爪牙", "美雅羅", "武具・羅", "武具・羅#2"],
        "evolution": ["ギダン・進化"],
        "kofuda": ["ギダン"],
        "dice": [{"name": "ギダン・進化", "kin": "闇", **EVO}],
    },
    {
        "name": "超眼デッキ",
        "archetype": "超眼",
        "cards": ["武王", "鰐蛇", "雷爪", "武具・羅", "呪術・笑童児"],
        "kofuda": ["武王", "鰐蛇", "雷爪"],
    },
    {
        "name": "核デッキ",
        "archetype": "心眼",
        "cards": ["獣幽士", "闘奇子", "機改人", "凶鎌手", "呪術・笑童児"],
    },
]
IDS = ("A", "B", "C", "D")
NAMES = ("山田", "佐藤", "鈴木", "高橋")
FACES = ("normal", "special", "side", "stand", "handstand")


class Table:
    """The generator's state: rng, the board so far, the moves so far."""

    def __init__(self, ruleset: Any, rng: random.Random, header: dict[str, Any], min_events: int):
        self.rng, self.header, self.min_events = rng, header, min_events
        self.board: Board = initial_board(header)
        self.moves: list[dict[str, Any]] = []
        self.done_effects: set[tuple[int, str, str]] = set()
        self.battles = 0

    @property
    def stretching(self) -> bool:
        return len(self.moves) < self.min_events

    @property
    def forcing(self) -> bool:
        return len(self.moves) > self.min_events + 400

    def play(self, move: dict[str, Any]) -> None:
        move = {"seq": len(self.moves) + 1, **move}
        if move["type"] == "attack":
            self.battles += 1
        self.board = apply(self.board, move)
        self.moves.append(move)

    def roll(self, faces: tuple[str, ...] = FACES, weights: tuple[float, ...] = (45, 30, 15, 5, 5)) -> dict[str, Any]:
        face = self.rng.choices(faces, weights[: len(faces)])[0]
        return {"face": face, "value": self.rng.randint(1, 6)} if face == "normal" else {"face": face}


def _summon_rolls(t: Table, p: Player, allow_zenkai: bool) -> dict[str, str]:
    dice = rollable(p)
    rolls = {d.label: t.rng.choices(FACES, (40, 30, 20, 6, 4))[0] for d in dice}
    if t.forcing:
        rolls = {d.label: "special" for d in dice}
    if not allow_zenkai and dice and all(f in ("stand", "handstand") for f in rolls.values()):
        rolls[dice[0].label] = "special"
    return rolls


def _can_attack(b: Board, d: Die) -> bool:
    if d.unit:
        return d.unit == d.label
    return (
        d.state == "summoned"
        or (d.state == "half" and b.option("half_summoned_may_attack"))
        or (d.state == "unsummoned" and b.option("unsummoned_may_attack"))
    )


def _unit_roll(t: Table, p: Player, lead: str, decisive: bool) -> dict[str, Any]:
    """A roll of ``lead`` (a 核 unit rolls two dice; a fused 超眼 never lands 横倒し)."""
    members = p.unit_members(lead)
    if len(members) > 2:
        rolls = [t.roll(("normal", "special")) for _ in range(2)]
        total = sum(r.get("value", 3) for r in rolls)
        return {"face": "normal", "value": total, "rolls": rolls}
    if decisive:
        return {"face": "stand"}
    if members:
        return t.roll(("normal", "special", "stand", "handstand"), (50, 30, 5, 5))
    return t.roll()


def _turn(t: Table) -> dict[str, Any]:
    b = t.board
    p = b.player(b.active)
    assert p is not None
    attackers = [d for d in p.characters if _can_attack(b, d)]
    targets = [(q.id, d.label) for q in b.players if q.id != p.id for d in q.characters]
    if not attackers or not targets or (t.rng.random() < (0.5 if t.stretching else 0.12) and not t.forcing):
        allow = not t.stretching and t.rng.random() < 0.3
        return {"type": "resummon", "by": p.id, "rolls": _summon_rolls(t, p, allow)}
    die = t.rng.choice(attackers)
    defender, target = t.rng.choice(targets)
    move: dict[str, Any] = {"type": "attack", "by": p.id, "die": die.label, "target": target}
    if len(b.players) > 2:
        move["defender"] = defender
    if t.stretching and not die.unit:
        return {**move, "face": "side"}
    return {**move, **_unit_roll(t, p, die.label, t.forcing)}


def _fuse_options(p: Player, die: Die | None) -> list[list[str]]:
    if die is None or not die.fusion_kind or die.unit:
        return []
    mates = [
        d.label
        for d in p.characters
        if d.label != die.label
        and not d.unit
        and d.fusion_group == die.fusion_group
        and d.fusion_kind == die.fusion_kind
    ]
    if die.fusion_kind == "super":
        return [[m] for m in mates if p.die(m).state == "summoned"]  # type: ignore[union-attr]
    return [mates[:2]] if len(mates) >= 2 else []


def _fuse(t: Table, p: Player, die: Die, partners: list[str]) -> dict[str, Any]:
    move: dict[str, Any] = {"type": "fuse", "by": p.id, "die": die.label, "partners": partners}
    if die.fusion_kind == "super":
        return {**move, **t.roll(("normal", "special", "stand", "handstand"), (50, 30, 5, 5))}
    roll = t.roll(("special", "normal", "stand", "side"), (55, 30, 5, 10))
    if roll["face"] == "special":  # 立ち: 合身成功 and an outright win, nothing more to roll
        roll["rolls"] = [t.roll(("normal", "special")) for _ in range(2)]
    return {**move, **roll}


def _item_step(t: Table) -> dict[str, Any]:
    b = t.board
    battle = b.battle
    assert battle is not None
    side = battle.attack if battle.step == "attacker_item" else battle.defence
    p = b.player(side.player)
    assert p is not None
    choices: list[Any] = [None]
    choices += [d.label for d in p.dice if d.in_play and d.kind in ("weapon", "curse")]
    choices += [("card", c) for c in p.kofuda if c not in p.kofuda_used]
    if not battle.attack.fused and not battle.defence.fused:
        choices += [("fuse", opt) for opt in _fuse_options(p, p.die(side.die))]
    pick = t.rng.choice(choices)
    if pick is None:
        return {"type": "item", "by": p.id, "item": None}
    if isinstance(pick, str):
        return {
            "type": "item",
            "by": p.id,
            "item": pick,
            **t.roll(("normal", "special", "side"), (50, 40, 10)),
        }
    if pick[0] == "card":
        return {"type": "item", "by": p.id, "card": pick[1], "bonus": t.rng.randint(0, 3)}
    return _fuse(t, p, p.die(side.die), pick[1])  # type: ignore[arg-type]


def _battle_step(t: Table) -> dict[str, Any]:
    b = t.board
    battle = b.battle
    assert battle is not None
    if battle.step == "defend":
        d = battle.defence
        p = b.player(d.player)
        assert p is not None
        roll = {"face": "side"} if t.forcing else _unit_roll(t, p, d.die, False)
        return {"type": "defend", "by": d.player, "die": d.die, **roll}
    return _item_step(t)


def _aside(t: Table) -> dict[str, Any] | None:
    """Moves between turns: 進化チャレンジ, a printed ability (裏切り), a 合身 split."""
    b = t.board
    if b.evolve_ok:
        pid, label = b.evolve_ok
        p, die = b.player(pid), b.player(pid).die(label)  # type: ignore[union-attr]
        evo = [e for e in p.evolution if die and e.kin == die.kin]  # type: ignore[union-attr]
        if evo and t.rng.random() < 0.7:
            return {
                "type": "evolve",
                "by": pid,
                "die": label,
                "into": evo[0].label,
                **t.roll(("special", "normal", "side"), (50, 40, 10)),
            }
    for pid, label in sorted(b.specials):
        key = (t.battles, pid, label)
        die = b.player(pid).die(label)  # type: ignore[union-attr]
        if key in t.done_effects or die is None or die.ability != "裏切り":
            continue
        t.done_effects.add(key)
        me = b.player(pid)
        mine = {d.label for d in me.dice}  # type: ignore[union-attr]
        prey = [
            (q.id, d.label)
            for q in b.players
            if q.id != pid and q.alive > 1
            for d in q.characters
            if not d.unit and d.label not in mine
        ]
        if prey and b.phase != "over":
            owner, victim = t.rng.choice(prey)
            return {
                "type": "effect",
                "by": pid,
                "source": label,
                "effect": "裏切り",
                "take": {"player": owner, "die": victim},
            }
    if b.pending_split:
        pid, lead = b.pending_split
        members = [d.label for d in b.player(pid).unit_members(lead)]  # type: ignore[union-attr]
        return {"type": "split", "by": pid, "graveyard": t.rng.choice(members)}
    return None


def next_move(t: Table) -> dict[str, Any]:
    b = t.board
    aside = _aside(t)
    if aside is not None:
        return aside
    if b.phase == "summon":
        p = b.player(b.active)
        assert p is not None
        return {
            "type": "summon",
            "by": b.active,
            "rolls": _summon_rolls(t, p, t.rng.random() < 0.05),
        }
    if b.battle is not None:
        return _battle_step(t)
    return _turn(t)


def make_header(ruleset: Any, rng: random.Random, match_id: str, n: int) -> dict[str, Any]:
    players = []
    for i in range(n):
        deck = dict(rng.choice(DECKS))
        players.append({"id": IDS[i], "name": NAMES[i], "deck": deck})
    return generated_header(ruleset, match_id, players, IDS[rng.randrange(n)])


def generate(
    ruleset: Any, rng: random.Random, match_id: str, min_events: int = 0, players: int | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header = make_header(ruleset, rng, match_id, players or rng.choice((2, 2, 3, 4)))
    t = Table(ruleset, rng, header, min_events)
    while t.board.phase != "over":
        t.play(next_move(t))
    return header, t.moves


def suggestions(board: Board) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What the recording page offers beside the legal moves (exports/recording.py): a printed
    ability a special face just allowed (裏切り: one whole move per die it may take), before
    the legal moves. Nothing here is checked: the checks judge what is recorded."""
    first: list[dict[str, Any]] = []
    if board.phase == "over":
        return first, []
    for pid, label in sorted(board.specials):
        me = board.player(pid)
        die = me.die(label) if me else None
        if me is None or die is None or die.ability != "裏切り":
            continue
        mine = {d.label for d in me.dice}
        first += [{"type": "effect", "by": pid, "source": label, "effect": "裏切り", "take": {"player": q.id, "die": d.label}}
                  for q in board.players if q.id != pid and q.alive > 1
                  for d in q.characters if not d.unit and d.label not in mine]
    return first, []


def legal_moves(board: Board) -> list[dict[str, Any]]:
    """Each legal choice once, with one representative outcome (the table rolls the real one)."""
    if board.phase == "over":
        return []
    t = Table(None, random.Random(0), {"players": []}, 0)
    t.board = board
    if board.pending_split:
        pid, lead = board.pending_split
        owner = board.player(pid)
        members = owner.unit_members(lead) if owner else ()
        return [{"type": "split", "by": pid, "graveyard": d.label} for d in members]
    if board.phase == "summon" or board.battle is not None:
        return [next_move(t)]
    p = board.player(board.active)
    assert p is not None
    out: list[dict[str, Any]] = [{"type": "resummon", "by": p.id, "rolls": {d.label: "special" for d in rollable(p)}}]
    for die in (d for d in p.characters if _can_attack(board, d)):
        for q in board.players:
            for target in q.characters if q.id != p.id else ():
                out.append(
                    {
                        "type": "attack",
                        "by": p.id,
                        "die": die.label,
                        "target": target.label,
                        "defender": q.id,
                        "face": "special",
                    }
                )
    return out
