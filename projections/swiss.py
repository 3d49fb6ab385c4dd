"""Swiss pairing of the next round of an event (docs/standings.md, "Pairing").

Round 1 is random, from a seed the caller records. Later rounds pair by match points as the
Tournament Rules' Swiss does: players of the same points meet, a score group with an odd
number of players pairs its lowest-ranked player down to the highest-ranked of the next
group, nobody meets an opponent twice while another pairing exists, and with an odd number of
players the bye goes to the lowest-ranked player who has not had one. Dropped players are
never paired (the caller passes only the active players).

Rather than a greedy pass down the standings, which can paint itself into a corner (the last
players left have all met), a round is one maximum-weight perfect matching (Edmonds' blossom
algorithm, networkx's ``max_weight_matching``) on the complete graph of the players, plus a
BYE node when their number is odd. Every edge carries a cost made of tiers, compared
lexicographically over the whole matching (each tier's weight exceeds everything the tiers
below it can add up to, in exact integers):

1. a second bye to a player while someone has not had one;
2. a rematch;
3. how far from the bottom of the ranking the bye goes;
4. the point difference of a pair (pairing down as little as possible);
5. for a pair across score groups, how far apart the two are in the ranking (so the lowest
   of the upper group meets the highest of the lower);
6. a seeded random number, so pairings within a score group are random but reproducible.

The same input and seed give the same pairing.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from projections.errors import KifuError
from projections.standings import Table

NOISE = 1000  # range of the random tier, per edge


@dataclass(frozen=True)
class Pairing:
    """One round's pairing: tables in order (highest score group first), and the bye."""

    round: int
    tables: tuple[tuple[str, str], ...]
    bye: str | None = None

    def players(self) -> list[str]:
        return [p for t in self.tables for p in t] + ([self.bye] if self.bye else [])

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "tables": [{"table": i, "players": list(t)} for i, t in enumerate(self.tables, 1)],
                "bye": self.bye}


def pair_round(
    round_no: int,
    players: Iterable[str],
    *,
    points: Mapping[str, int],
    ranking: Sequence[str],
    met: Collection[frozenset[str]],
    had_bye: Collection[str],
    seed: int | str,
    dropped: Collection[str] = (),
) -> Pairing:
    """Pair round ``round_no`` of the active ``players``.

    ``points``: match points so far; ``ranking``: the standings order, best first (players
    missing from it rank after it, by points then name); ``met``: ``frozenset({a, b})`` of
    every pair that has played; ``had_bye``: who has had a bye; ``seed``: round 1's shuffle
    and the random tier of later rounds. A dropped player among ``players`` is refused.
    """
    active = list(players)
    if len(set(active)) != len(active):
        twice = sorted({p for p in active if active.count(p) > 1})
        raise KifuError(f"players: {', '.join(twice)}: listed twice")
    gone = sorted(set(active) & set(dropped))
    if gone:
        raise KifuError(f"players: {', '.join(gone)}: dropped, never paired")
    rng = random.Random(f"{seed}/{round_no}")
    if round_no <= 1:
        return _random_round(round_no, active, had_bye, rng)
    order = _order(active, points, ranking)
    return _matched_round(round_no, order, points, met, had_bye, rng)


def pair_from_standings(round_no: int, table: Table, players: Iterable[str], *, seed: int | str,
                        dropped: Collection[str] = ()) -> Pairing:
    """Pair round ``round_no`` from the standings as of the round before (``table``)."""
    rows = table.rows
    met = {frozenset((s.player, o)) for s in rows for o in s.opponents}
    return pair_round(round_no, players, points={s.player: s.points for s in rows},
                      ranking=[s.player for s in rows], met=met,
                      had_bye={s.player for s in rows if s.byes}, seed=seed, dropped=dropped)


def _random_round(round_no: int, active: list[str], had_bye: Collection[str], rng: random.Random) -> Pairing:
    shuffled = sorted(active)
    rng.shuffle(shuffled)
    bye = None
    if len(shuffled) % 2:
        # the last player of the shuffle, unless an awarded bye already went to them
        bye = next((p for p in reversed(shuffled) if p not in had_bye), shuffled[-1])
        shuffled.remove(bye)
    tables = tuple((shuffled[i], shuffled[i + 1]) for i in range(0, len(shuffled), 2))
    return Pairing(round_no, tables, bye)


def _order(active: list[str], points: Mapping[str, int], ranking: Sequence[str]) -> list[str]:
    here = set(active)
    order = [p for p in dict.fromkeys(ranking) if p in here]
    seen = set(order)
    order += sorted((p for p in active if p not in seen), key=lambda p: (-points.get(p, 0), p))
    return order


def _matched_round(round_no: int, order: list[str], points: Mapping[str, int],
                   met: Collection[frozenset[str]], had_bye: Collection[str], rng: random.Random) -> Pairing:
    n = len(order)
    if n == 0:
        return Pairing(round_no, ())
    if n == 1:
        return Pairing(round_no, (), order[0])
    pts = [points.get(p, 0) for p in order]
    bye_node = n if n % 2 else None
    size = (n + 1) // 2  # edges in every perfect matching
    spread = max(pts) - min(pts)
    # per-edge maxima of tiers 1..6, then each tier's base: more than the tiers below can sum to
    maxima = [1, 1, n - 1, spread, n - 1, NOISE - 1]
    bases = [size * m + 1 for m in maxima]

    def cost(tiers: list[int]) -> int:
        total = 0
        for value, base in zip(tiers, bases, strict=True):
            total = total * base + value
        return total

    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        for j in range(i + 1, n):
            gap = abs(pts[i] - pts[j])
            edges.append((i, j, cost([0, int(frozenset((order[i], order[j])) in met), 0, gap,
                                      (j - i) if gap else 0, rng.randrange(NOISE)])))
        if bye_node is not None:
            edges.append((i, bye_node, cost([int(order[i] in had_bye), 0, n - 1 - i, 0, 0, 0])))
    top = max(c for *_, c in edges) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, top - c) for a, b, c in edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    bye = None
    tables = []
    for a, b in matching:
        a, b = min(a, b), max(a, b)
        if b == bye_node:
            bye = order[a]
        else:
            tables.append((a, b))
    tables.sort(key=lambda t: (-max(pts[t[0]], pts[t[1]]), -min(pts[t[0]], pts[t[1]]), t[0]))
    return Pairing(round_no, tuple((order[a], order[b]) for a, b in tables), bye)


__all__ = ["Pairing", "pair_from_standings", "pair_round"]
