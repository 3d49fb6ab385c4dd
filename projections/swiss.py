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
6. how far apart the two are in a seeded draw of each score group (neighbours in the draw
   meet), so pairings within a score group are random but reproducible.

The same input and seed give the same pairing. The matching is first solved on the tables a
best pairing can use (within a score group, or down across a group boundary that needs one),
one score-group chain at a time, and widened only as far as a pairing found proves enough
(``_Bounds``); a test checks it against the complete graph.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from projections.base import N_, said
from projections.errors import KifuError
from projections.standings import Table

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
    every pair that has played; ``had_bye``: who has had a bye; ``seed`` (recorded by the
    caller): with the round number, it seeds round 1's shuffle and the draw within score
    groups of later rounds. A dropped player among ``players`` is refused.
    """
    active = list(players)
    if len(set(active)) != len(active):
        twice = sorted({p for p in active if active.count(p) > 1})
        raise KifuError(said(N_("players: {players}: listed twice"), players=", ".join(twice)))
    gone = sorted(set(active) & set(dropped))
    if gone:
        raise KifuError(said(N_("players: {players}: dropped, never paired"), players=", ".join(gone)))
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
                   met: Collection[frozenset[str]], had_bye: Collection[str], rng: random.Random,
                   *, sparse: bool = True) -> Pairing:
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
    maxima = [1, 1, n - 1, spread, n - 1, n - 1]
    bases = [size * m + 1 for m in maxima]

    def cost(tiers: list[int]) -> int:
        total = 0
        for value, base in zip(tiers, bases, strict=True):
            total = total * base + value
        return total

    # the seeded draw: each score group in a shuffled order, players next to each other in
    # it meet (places are consecutive within a group, which also keeps the matching quick)
    shuffled = list(range(n))
    rng.shuffle(shuffled)
    lot = {p: k for k, p in enumerate(shuffled)}
    drawn = sorted(range(n), key=lambda i: (-pts[i], lot[i]))
    place = {p: k for k, p in enumerate(drawn)}
    bounds = _Bounds(order, pts, had_bye)
    edges: list[tuple[int, int, int, int]] = []  # a, b, cost, slack (see _Bounds)
    for i in range(n):
        for j in range(i + 1, n):
            gap = abs(pts[i] - pts[j])
            edges.append((i, j, cost([0, int(frozenset((order[i], order[j])) in met), 0, gap,
                                      (j - i) if gap else 0, abs(place[i] - place[j])]), bounds.slack(i, j)))
        if bye_node is not None:
            edges.append((i, bye_node, cost([int(order[i] in had_bye), 0, n - 1 - i, 0, 0, 0]), 0))
    top = max(e[2] for e in edges) + 1

    def solve(limit: int | None) -> list[tuple[int, int]]:
        graph = nx.Graph()
        if limit is None:
            graph.add_weighted_edges_from((a, b, top - c) for a, b, c, _ in edges)
            parts = [graph]
        else:
            # only the tables of slack ≤ limit, and the bye for the one it must go to: score
            # groups apart from each other fall into components, each matched on its own
            graph.add_weighted_edges_from((a, b, top - c) for a, b, c, slack in edges
                                          if slack <= limit and (b != bye_node or a == bounds.bye))
            parts = [graph.subgraph(c).copy() for c in sorted(nx.connected_components(graph), key=min)]
        return [(min(a, b), max(a, b)) for part in parts
                for a, b in nx.max_weight_matching(part, maxcardinality=True)]

    matching = None
    if sparse:
        # Most tables of an optimal pairing lie inside a score group or pair down across one
        # boundary; solve on those first, widening only as far as a found pairing proves
        # enough (``_Bounds``). The result is the one the complete graph would give.
        limit = 0
        while True:
            found = solve(limit)
            excess = bounds.excess(found, size, bye_node, met, order)
            if excess is not None:
                matching = found if excess <= limit else solve(excess)
                break
            if limit >= bounds.widest:
                break  # a rematch or another bye cannot be helped: the complete graph decides
            limit = max(3 * limit, bounds.step)
    if matching is None:
        matching = solve(None)
    bye = None
    tables = []
    for a, b in matching:
        if b == bye_node:
            bye = order[a]
        else:
            tables.append((a, b))
    tables.sort(key=lambda t: (-max(pts[t[0]], pts[t[1]]), -min(pts[t[0]], pts[t[1]]), t[0]))
    return Pairing(round_no, tuple((order[a], order[b]) for a, b in tables), bye)


class _Bounds:
    """What any pairing must pay, to prune the graph without changing the answer.

    With the bye fixed (to the lowest-ranked player without one, which tiers 1 and 3 demand),
    cut the ranking between two neighbouring point values: if an odd number of players lies
    above the cut, some table crosses it (a pair-down); any table crossing a cut with an even
    number above forces a second table across it. So a pairing's point differences are at
    least ``lower`` (the sum of the odd cuts' gaps), and a table whose span includes even cuts
    adds at least twice their gaps (its ``slack``). Once a pairing with no second bye, no
    rematch and the right bye is found with ``lower + X`` in differences, the best pairing
    uses only tables of slack ≤ X: the graph of those tables gives the same answer as the
    complete one.
    """

    def __init__(self, order: list[str], pts: list[int], had_bye: Collection[str]) -> None:
        n = len(order)
        eligible = [i for i in range(n) if order[i] not in had_bye]
        self.bye = (eligible[-1] if eligible else n - 1) if n % 2 else None
        values = sorted(set(pts), reverse=True)
        self.index = {v: k for k, v in enumerate(values)}
        self.pts = pts
        counted = [p for i, p in enumerate(pts) if i != self.bye]
        self.lower = 0
        self.even = [0]  # prefix sums of the gaps of even cuts
        for k in range(len(values) - 1):
            gap = values[k] - values[k + 1]
            odd = sum(1 for p in counted if p >= values[k]) % 2
            self.lower += gap * odd
            self.even.append(self.even[-1] + (0 if odd else gap))
        self.widest = 2 * self.even[-1]
        self.step = 2 * min((values[k] - values[k + 1] for k in range(len(values) - 1)), default=1)

    def slack(self, i: int, j: int) -> int:
        a, b = sorted((self.index[self.pts[i]], self.index[self.pts[j]]))
        return 2 * (self.even[b] - self.even[a])

    def excess(self, matching: list[tuple[int, int]], size: int, bye_node: int | None,
               met: Collection[frozenset[str]], order: list[str]) -> int | None:
        """The differences beyond ``lower`` of a pairing that is perfect, has the right bye
        and no rematch; None for any other."""
        if len(matching) != size:
            return None
        total = 0
        for a, b in matching:
            if b == bye_node:
                if a != self.bye:
                    return None
            elif frozenset((order[a], order[b])) in met:
                return None
            else:
                total += abs(self.pts[a] - self.pts[b])
        return total - self.lower


__all__ = ["Pairing", "pair_from_standings", "pair_round"]
