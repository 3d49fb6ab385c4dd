"""Standings of an event from its recorded results (docs/standings.md).

One kifu match is one *game*. The games played at the same table in the same round of an
event (header ``match.event``, ``match.round``, ``match.table``) form one organised-play
*match* (best of one, best of three ...): whoever won more of its games won the match, equal
game wins is a drawn match. Match points: win 3, draw 1, loss 0.

Tie-breakers, in this order, as organised play uses them for TCG events:

1. opponents' match-win percentage (OMW%): the mean of each opponent's match-win
   percentage, each floored at 33%;
2. game-win percentage (GW%): game points (win 3, draw 1) over 3 × games played, floored at 33%;
3. opponents' game-win percentage (OGW%): the mean of each opponent's GW%, each floored at 33%.

A match-win percentage is match points over 3 × matches played, floored at 33%. Results are
whatever the match's record decides (the ruled view): a ``concede`` line is a game lost by the
player who conceded, a game-loss penalty a game lost by the penalised player; a match-loss
penalty or a disqualification loses the whole organised-play match for that player, whatever
the other games' results. Games still in progress keep their match out of the standings
until they finish (listed as pending), and so does a game whose result is pending a ruling
(KIFU-3: the line that decided it broke a rule; the summary's result carries ``pending``). Players are told apart by name (a player id is only
a seat). Exact fractions are kept; percentages are rounded only when printed.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

FLOOR = Fraction(33, 100)
WIN, DRAW = 3, 1
MATCH_LOSS_REASONS = frozenset({"penalty-match-loss", "penalty-disqualification"})


def player_key(name: Any) -> str:
    return " ".join(unicodedata.normalize("NFKC", str(name or "")).split())


@dataclass(frozen=True)
class Game:
    """One recorded kifu match as a game of an organised-play match."""

    match_id: str
    round: int | None
    table: str | None
    players: tuple[str, ...]  # names, in seat order
    finished: bool
    winner: str | None  # a name, or None for a draw (or while in progress)
    reason: str | None
    loser: str | None = None  # the penalised player of a match-loss penalty

    @classmethod
    def from_summary(cls, row: Mapping[str, Any]) -> Game:
        """From the summary the server's match list keeps (exports.timeline.summary)."""
        names = {p["id"]: player_key(p.get("name") or p["id"]) for p in row["players"]}
        res = row.get("result")
        winner = names.get(res["winner"]) if res and res.get("winner") else None
        reason = res["reason"] if res else None
        loser = None
        if reason in MATCH_LOSS_REASONS and winner is not None and len(names) == 2:
            loser = next(n for n in names.values() if n != winner)
        rnd = row.get("round")
        return cls(
            match_id=str(row["id"]),
            round=rnd if isinstance(rnd, int) else (int(str(rnd)) if str(rnd or "").isdigit() else None),
            table=None if row.get("table") is None else str(row["table"]),
            players=tuple(names.values()),
            finished=res is not None and not res.get("pending"),
            winner=winner,
            reason=reason,
            loser=loser,
        )


@dataclass
class Pairing:
    """One organised-play match: the games at one table in one round."""

    round: int | None
    table: str | None
    players: tuple[str, ...]
    games: list[Game] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return bool(self.games) and all(g.finished for g in self.games)

    def game_wins(self) -> dict[str, int]:
        wins = dict.fromkeys(self.players, 0)
        for g in self.games:
            if g.winner in wins:
                wins[g.winner] += 1
        return wins

    def winner(self) -> str | None:
        """The match's winner, or None for a draw."""
        losers = {g.loser for g in self.games if g.loser}
        if losers:
            rest = [p for p in self.players if p not in losers]
            return rest[0] if len(rest) == 1 else None
        wins = self.game_wins()
        best = max(wins.values(), default=0)
        top = [p for p, w in wins.items() if w == best]
        return top[0] if len(top) == 1 else None

    def score(self) -> str:
        wins = self.game_wins()
        draws = sum(1 for g in self.games if g.finished and g.winner is None)
        text = "-".join(str(wins[p]) for p in self.players)
        return f"{text}-{draws}" if draws else text


@dataclass
class Standing:
    rank: int
    player: str
    points: int
    wins: int
    losses: int
    draws: int
    games_won: int
    games_lost: int
    games_drawn: int
    mwp: Fraction
    omw: Fraction
    gwp: Fraction
    ogw: Fraction
    opponents: list[str]

    @property
    def record(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank, "player": self.player, "points": self.points, "record": self.record,
            "wins": self.wins, "losses": self.losses, "draws": self.draws,
            "games": {"won": self.games_won, "lost": self.games_lost, "drawn": self.games_drawn},
            "mwp": pct(self.mwp), "omw": pct(self.omw), "gwp": pct(self.gwp), "ogw": pct(self.ogw),
            "opponents": self.opponents,
        }


@dataclass
class Table:
    """The standings of one event."""

    event: str
    rows: list[Standing]
    pairings: list[Pairing]
    pending: list[Pairing]  # matches with a game still in progress (not counted yet)


def pct(x: Fraction) -> float:
    """A percentage rounded to 4 places, as printed (3 decimals of a percent)."""
    return round(float(x) * 100, 4)


def pairings(games: Iterable[Game]) -> list[Pairing]:
    grouped: dict[tuple[Any, Any, tuple[str, ...]], Pairing] = {}
    for g in sorted(games, key=lambda g: (g.round or 0, _table_order(g.table), g.match_id)):
        # The same table in the same round can only hold one pairing; a table label reused
        # by other players (a second flight) is still told apart by its players.
        key = (g.round, g.table, tuple(sorted(g.players)))
        if key not in grouped:
            grouped[key] = Pairing(g.round, g.table, g.players)
        grouped[key].games.append(g)
    return list(grouped.values())


def _table_order(table: str | None) -> tuple[int, str]:
    text = table or ""
    return (int(text), "") if text.isdigit() else (10**9, text)


def standings(event: str, games: Iterable[Game]) -> Table:
    allp = pairings(games)
    done = [p for p in allp if p.finished]
    pending = [p for p in allp if not p.finished]
    points: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    wld: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    gwld: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    opponents: dict[str, list[str]] = defaultdict(list)
    for p in done:
        winner = p.winner()
        for name in p.players:
            played[name] += 1
            opponents[name].extend(o for o in p.players if o != name)
            if winner is None:
                points[name] += DRAW
                wld[name][2] += 1
            elif winner == name:
                points[name] += WIN
                wld[name][0] += 1
            else:
                wld[name][1] += 1
        for g in p.games:
            for name in p.players:
                if g.winner is None:
                    gwld[name][2] += 1
                elif g.winner == name:
                    gwld[name][0] += 1
                else:
                    gwld[name][1] += 1

    def mwp(name: str) -> Fraction:
        return max(FLOOR, Fraction(points[name], 3 * played[name])) if played[name] else FLOOR

    def gwp(name: str) -> Fraction:
        w, lost, d = gwld[name]
        n = w + lost + d
        return max(FLOOR, Fraction(WIN * w + DRAW * d, 3 * n)) if n else FLOOR

    def mean(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else Fraction(0)

    rows = []
    for name in played:
        opp = opponents[name]
        (w, lost, d), (gw, gl, gd) = wld[name], gwld[name]
        rows.append(Standing(
            rank=0, player=name, points=points[name], wins=w, losses=lost, draws=d,
            games_won=gw, games_lost=gl, games_drawn=gd,
            mwp=mwp(name), omw=mean([mwp(o) for o in opp]), gwp=gwp(name), ogw=mean([gwp(o) for o in opp]),
            opponents=opp,
        ))
    rows.sort(key=lambda s: (-s.points, -s.omw, -s.gwp, -s.ogw, s.player))
    for i, s in enumerate(rows):
        prev = rows[i - 1] if i else None
        same = prev is not None and (prev.points, prev.omw, prev.gwp, prev.ogw) == (s.points, s.omw, s.gwp, s.ogw)
        s.rank = prev.rank if same and prev is not None else i + 1
    return Table(event, rows, done, pending)


def from_summaries(event: str, summaries: Iterable[Mapping[str, Any]]) -> Table:
    """Standings of ``event`` from match summaries (every match of any event may be given)."""
    return standings(event, [Game.from_summary(r) for r in summaries if r.get("event") == event])


__all__ = ["FLOOR", "Game", "Pairing", "Standing", "Table", "from_summaries", "pairings", "pct", "standings"]
