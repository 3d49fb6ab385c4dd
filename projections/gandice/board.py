"""The Gandice board: frozen values only, so snapshots can share them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from projections.gandice.catalog import DieSpec
from projections.package import evolve


@dataclass(frozen=True)
class Die:
    """One physical die a player holds (or held: zone says where it is now)."""

    label: str  # as the log names it, e.g. "武具・羅#2"
    kind: str  # character | curse | weapon
    kin: str = ""
    bonus: int = 0
    ability: str = ""
    fusion_kind: str = ""
    fusion_group: str = ""
    state: str = "unsummoned"  # summoned | half | unsummoned (character dice)
    zone: str = "deck"  # deck | graveyard
    unit: str = ""  # lead die label of the 合身 unit this die is part of
    origin: str = ""  # player who brought it (裏切り moves a die to another player)
    evolved_from: str = ""

    @classmethod
    def from_spec(cls, label: str, spec: DieSpec, origin: str) -> Die:
        return cls(
            label=label,
            kind=spec.kind,
            kin=spec.kin,
            bonus=spec.bonus,
            ability=spec.ability,
            fusion_kind=spec.fusion_kind,
            fusion_group=spec.fusion_group,
            origin=origin,
        )

    @property
    def in_play(self) -> bool:
        return self.zone == "deck"

    @property
    def is_character(self) -> bool:
        return self.kind == "character"


@dataclass(frozen=True)
class Player:
    id: str
    name: str = ""
    deck_name: str = ""
    dice: tuple[Die, ...] = ()
    evolution: tuple[Die, ...] = ()  # 進化ダイス still available
    kofuda: tuple[str, ...] = ()  # 眼魔小札絵 the player may use
    kofuda_used: tuple[str, ...] = ()
    summoned: bool = False  # made the opening 眼魔召喚 roll

    def die(self, label: Any) -> Die | None:
        for d in self.dice:
            if d.label == label:
                return d
        return None

    def with_die(self, die: Die) -> Player:
        dice = tuple(die if d.label == die.label else d for d in self.dice)
        return evolve(self, dice=dice)

    @property
    def characters(self) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if d.kind == "character" and d.zone == "deck")

    @property
    def alive(self) -> int:
        return sum(1 for d in self.dice if d.kind == "character" and d.zone == "deck")

    @property
    def graveyard(self) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if d.zone == "graveyard")

    def unit_members(self, lead: str) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if lead and d.unit == lead and d.in_play)


def rollable(player: Player) -> tuple[Die, ...]:
    """Character dice a (re)summon roll covers: those in the deck and not in a 合身 unit."""
    return tuple(d for d in player.characters if not d.unit)


@dataclass(frozen=True)
class Side:
    """One side of a battle: who rolled what, and what was added to it."""

    player: str
    die: str  # the die (or 合身 unit lead) fighting
    face: str = ""  # canonical face of the latest roll of that die / unit ("" = not rolled)
    value: int = 0  # what the roll counts for
    items: int = 0  # bonus from items and 小札絵
    decided: bool = False  # the item step (アイテム使用) of this side is over
    fused: bool = False  # fused (合身) during this battle


@dataclass(frozen=True)
class Battle:
    attack: Side
    defence: Side

    @property
    def step(self) -> str:
        """What the battle waits for: defend, attacker_item, defender_item or judge."""
        if not self.defence.face:
            return "defend"
        if self.attack.face == "special" and not self.attack.decided:
            return "attacker_item"
        if self.defence.face == "special" and not self.defence.decided:
            return "defender_item"
        return "judge"


@dataclass(frozen=True)
class Outcome:
    """How the last battle ended (shown on the board)."""

    attacker: str
    attack_die: str
    defender: str
    defence_die: str
    winner: str  # attacker | defender | tie | failed
    reason: str
    attack_total: int = 0
    defence_total: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "attack_die": self.attack_die,
            "defender": self.defender,
            "defence_die": self.defence_die,
            "winner": self.winner,
            "reason": self.reason,
            "attack_total": self.attack_total,
            "defence_total": self.defence_total,
        }


@dataclass(frozen=True)
class Board:
    players: tuple[Player, ...]
    order: tuple[str, ...]  # seat order, starting with the first player
    house: tuple[tuple[str, Any], ...] = ()
    phase: str = "summon"  # summon | battle | over
    turn: int = 0
    active: str = ""
    battle: Battle | None = None
    last: Outcome | None = None
    evolve_ok: tuple[str, str] | None = None  # (player, die) that may 進化チャレンジ now
    specials: frozenset[tuple[str, str]] = frozenset()  # item dice/cards that came up 特殊目
    pending_split: tuple[str, str] | None = None  # (player, unit lead) that must split
    winner: str | None = None
    reason: str = ""

    def player(self, pid: Any) -> Player | None:
        for p in self.players:
            if p.id == pid:
                return p
        return None

    def with_player(self, player: Player) -> Board:
        return evolve(self, players=tuple(player if p.id == player.id else p for p in self.players))

    def option(self, name: str) -> Any:
        for key, value in self.house:
            if key == name:
                return value
        raise KeyError(name)

    @property
    def options(self) -> Mapping[str, Any]:
        return dict(self.house)

    def standing(self) -> tuple[str, ...]:
        """Players still in the match (some character die out of the graveyard)."""
        alive = {p.id for p in self.players if any(d.kind == "character" and d.zone == "deck" for d in p.dice)}
        return tuple(pid for pid in self.order if pid in alive)

    def next_player(self, after: str, standing: tuple[str, ...] | None = None) -> str:
        alive = set(self.standing() if standing is None else standing)
        n = len(self.order)
        start = self.order.index(after) if after in self.order else -1
        for k in range(1, n + 1):
            pid = self.order[(start + k) % n]
            if pid in alive:
                return pid
        return after
