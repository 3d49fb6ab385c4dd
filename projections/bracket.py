"""The top cut (決勝トーナメント): single elimination seeded from the final Swiss standings.

``kifu round cut E --top N`` seeds the N best active players of the Swiss (seed 1 = first in
the standings) into a bracket in the usual order, so that the two best seeds meet only in the
final: a top 8 plays 1 v 8, 4 v 5, 2 v 7, 3 v 6 (tables 1-4, in that order), a top 4 plays
1 v 4, 2 v 3. When fewer active players remain than N, the missing seeds are the lowest ones,
so their slots are byes to the top seeds. Each later round pairs the winners of neighbouring
slots. The higher seed sits first (seat A) and chooses who plays first (the pairing line's
``seeds`` and ``chooses_first``).

A playoff match has no draw: it is decided when a player has the game wins the cut's format
takes (2 of a best of three), or by a match-loss penalty. A drawn game does not count towards
the N: the table plays another game (``kifu round game E --table T``) until a player wins.

The final places (``place`` of the standings): the cut's players by how far they got
(champion 1, finalist 2, the semifinal losers 3 and 4, ...; players who went out in the same
round are ordered by their seed, i.e. their Swiss rank), then everyone else in Swiss order.

Pure functions over the fold (projections/tournament.py) and the games the read model gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from projections import standings
from projections import tournament as T
from projections.standings import player_key

__all__ = ["bracket", "bracket_order", "cut_seeds", "first_round", "is_power_of_two", "next_round", "placed",
           "round_winners", "rounds_total", "stage", "table_winner", "unreported_tables"]


def is_power_of_two(n: int) -> bool:
    return n >= 2 and n & (n - 1) == 0


def bracket_order(top: int) -> list[int]:
    """The seeds in slot order: neighbours meet first (8: 1, 8, 4, 5, 2, 7, 3, 6)."""
    order = [1]
    while len(order) < top:
        size = 2 * len(order)
        order = [x for s in order for x in (s, size + 1 - s)]
    return order


def stage(players: int) -> str:
    """The name of a round by how many players it starts with: final, semifinal, quarterfinal,
    round_of_16 ..."""
    return {2: "final", 4: "semifinal", 8: "quarterfinal"}.get(players, f"round_of_{players}")


def _pairs(entrants: Sequence[tuple[int, str]], top: int, level: int) -> list[list[tuple[int, str]]]:
    """The entrants (seed, name) still in, grouped by the slot they play for at ``level``
    (0: the first playoff round), each group the higher seed first."""
    pos = {s: i for i, s in enumerate(bracket_order(top))}
    groups: dict[int, list[tuple[int, str]]] = {}
    for seed, name in entrants:
        groups.setdefault(pos[seed] // 2 ** (level + 1), []).append((seed, name))
    return [sorted(groups[k]) for k in sorted(groups)]


def _round_lines(groups: list[list[tuple[int, str]]]) -> tuple[list[dict[str, Any]], list[str]]:
    tables: list[dict[str, Any]] = []
    byes: list[str] = []
    for group in groups:
        if len(group) == 1:
            byes.append(group[0][1])
        else:
            tables.append({"table": str(len(tables) + 1), "players": [n for _, n in group],
                           "seeds": [s for s, _ in group]})
    return tables, byes


def first_round(seeded: Sequence[str], top: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The first playoff round's tables (with their seeds) and byes; ``seeded``: the cut's
    players, seed 1 first (fewer than ``top``: the missing low seeds are byes to the top ones)."""
    return _round_lines(_pairs(list(enumerate(seeded, 1)), top, 0))


def table_winner(state: T.Tournament, rnd: T.Round, seat: T.Seat, games: Iterable[standings.Game]) -> str | None:
    """The winner of a playoff table (a name as seated), or None while undecided."""
    mine = [g for g in games if g.round == rnd.number and str(g.table) == seat.table]
    if not mine:
        return None
    p = standings.Pairing(rnd.number, seat.table, tuple(player_key(n) for n in seat.players), mine)
    if not p.settle(best_of=state.best_of_in(rnd.number), closed=False):
        return None
    w = p.winner()
    return next((n for n in seat.players if player_key(n) == w), None) if w is not None else None


def round_winners(state: T.Tournament, rnd: T.Round, games: Sequence[standings.Game]) -> dict[str, str | None]:
    """Each table's winner (None: undecided) by table label."""
    return {s.table: table_winner(state, rnd, s, games) for s in rnd.tables}


def _seed_of(state: T.Tournament) -> dict[str, int]:
    return {player_key(n): i for i, n in enumerate(state.cut, 1)}


def next_round(state: T.Tournament, games: Sequence[standings.Game]) -> tuple[list[dict[str, Any]], list[str]]:
    """The next playoff round from the last one's winners and byes (the last one closed, every
    table decided: the service checks)."""
    last = state.playoff_rounds[-1]
    seed = _seed_of(state)
    winners = [w for w in round_winners(state, last, games).values() if w is not None] + list(last.byes)
    return _round_lines(_pairs([(seed[player_key(n)], n) for n in winners], state.cut_top, len(state.playoff_rounds)))


def rounds_total(state: T.Tournament) -> int:
    """How many playoff rounds the cut takes (a top 8: 3)."""
    return state.cut_top.bit_length() - 1 if state.cut_top else 0


def bracket(state: T.Tournament, games: Sequence[standings.Game], upto: int | None = None) -> dict[str, Any]:
    """The bracket as the page and ``/api/events/E/bracket`` show it: the seeds, each playoff
    round paired (tables with seeds, game score and winner; byes), the champion once decided."""
    seed = _seed_of(state)
    size = state.cut_top if state.cut else 0
    rounds = []
    champion = None
    playoff = [r for r in state.playoff_rounds if upto is None or r.number <= upto]
    for k, rnd in enumerate(playoff):
        best_of = state.best_of_in(rnd.number)
        matches = []
        for s in rnd.tables:
            mine = [g for g in games if g.round == rnd.number and str(g.table) == s.table]
            keys = tuple(player_key(n) for n in s.players)
            p = standings.Pairing(rnd.number, s.table, keys, mine)
            decided = bool(mine) and p.settle(best_of=best_of, closed=False)
            wins = p.game_wins()  # the games finished so far
            w = table_winner(state, rnd, s, games) if decided else None
            matches.append({"table": s.table, "match": s.match, "chooses_first": s.players[0],
                            "players": [{"name": n, "seed": seed.get(player_key(n)),
                                         "wins": wins.get(player_key(n), 0)} for n in s.players],
                            "winner": w, "decided": w is not None})
        byes = [{"name": n, "seed": seed.get(player_key(n))} for n in rnd.byes]
        rounds.append({"round": rnd.number, "stage": stage(max(size // 2**k, 2)), "closed": rnd.closed,
                       "best_of": best_of, "matches": matches, "byes": byes})
        if k + 1 == rounds_total(state) and rnd.tables and all(m["decided"] for m in matches):
            champion = matches[0]["winner"] if len(matches) == 1 else None
        elif k + 1 == rounds_total(state) and not rnd.tables and len(rnd.byes) == 1:
            champion = rnd.byes[0]
    return {"event": state.name, "top": size, "format": state.cut_format, "rounds_total": rounds_total(state),
            "seeds": [{"seed": i, "player": n} for i, n in enumerate(state.cut, 1)],
            "rounds": rounds, "champion": champion}


def _depths(state: T.Tournament, games: Sequence[standings.Game], upto: int | None) -> dict[str, int]:
    """How far each cut player got: the playoff rounds they played or had a bye in, plus the
    rounds they came through (champion of a top 8: 3 + 3, finalist 3 + 2, a semifinal loser
    2 + 1, a quarterfinal loser 1 + 0)."""
    depth = {player_key(n): 0 for n in state.cut}
    for rnd in state.playoff_rounds:
        if upto is not None and rnd.number > upto:
            break
        winners = round_winners(state, rnd, games)
        for n in [p for s in rnd.tables for p in s.players] + [n for n in rnd.byes] * 2:
            depth[player_key(n)] = depth.get(player_key(n), 0) + 1
        for w in winners.values():
            if w is not None:
                depth[player_key(w)] += 1
    return depth


def placed(state: T.Tournament, table: standings.Table, games: Sequence[standings.Game],
           upto: int | None = None) -> standings.Table:
    """The standings with every row's ``place``, ordered by it: the cut's players by how far
    they got (ties by seed, i.e. Swiss rank), then everyone else in Swiss order. Before a cut
    (or as of a Swiss round) the place is the Swiss order."""
    rows = list(table.rows)
    cut_on = bool(state.cut) and state.playoff_rounds and (upto is None or upto > state.rounds)
    if cut_on:
        seed = _seed_of(state)
        depth = _depths(state, games, upto)
        top = sorted((r for r in rows if player_key(r.player) in seed),
                     key=lambda r: (-depth.get(player_key(r.player), 0), seed[player_key(r.player)]))
        rows = top + [r for r in rows if player_key(r.player) not in seed]
        table.by_place = True
    for i, r in enumerate(rows, 1):
        r.place = i
    table.rows = rows
    return table


def cut_seeds(state: T.Tournament, table: standings.Table, top: int) -> list[str]:
    """The cut's players from the final Swiss standings: the first ``top`` active players."""
    dropped = {player_key(n) for n in state.dropped()}
    names = {player_key(p.name): p.name for p in state.players.values()}
    active = [names.get(r.player, r.player) for r in table.rows if player_key(r.player) not in dropped]
    return active[:top]




def unreported_tables(st: T.Tournament, rnd: T.Round, games: Sequence[standings.Game]) -> list[tuple[T.Seat, str]]:
    """The tables of a round with no result (what ``kifu round close`` refuses on), each with
    why: ``no_result`` (a game of it still open, or a playoff table without a winner) or
    ``awaiting_ruling`` (a game decided by a line a judge has to rule on). A Swiss table whose
    games all have results stands as they say (1-1-1 at time: a drawn match)."""
    out = []
    paired = T.paired_games(st, games)
    for seat in rnd.tables:
        mine = [g for g in paired if g.round == rnd.number and str(g.table) == seat.table]
        p = standings.Pairing(rnd.number, seat.table, tuple(player_key(n) for n in seat.players), mine)
        if any(g.ruling for g in mine):
            out.append((seat, "awaiting_ruling"))
        elif not p.settle(best_of=st.best_of_in(rnd.number), closed=False) and (
                rnd.playoff or not mine or any(not g.finished for g in mine)):
            out.append((seat, "no_result"))
    return out
