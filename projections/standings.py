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

An event may order them otherwise, and may add ``oomw`` (opponents' opponents' match-win
percentage: the mean of each opponent's OMW%, Appendix C's method one level further, as
Pokémon and Bandai events rank).

A match-win percentage is match points over 3 × matches played, floored at 33%. Results are
whatever the match's record decides (the ruled view): a ``concede`` line is a game lost by the
player who conceded, a game-loss penalty a game lost by the penalised player; a match-loss
penalty or a disqualification loses the whole organised-play match for that player, whatever
the other games' results. Games still in progress keep their match out of the standings
until they finish (listed as pending), and so does a game whose result is pending a ruling
(KIFU-3: the line that decided it broke a rule; the summary's result carries ``pending``).
Players are told apart by name (a player id is only a seat). Exact fractions are kept; percentages are rounded only when printed.

An event with a tournament stream passes what only the stream knows, as keyword options of
``standings`` (Magic: The Gathering Tournament Rules, Appendix C): the roster, the byes, the
drops, the rounds closed, the match format (``best_of``), the tiebreak order and how a game
unfinished at time counts. Without them (old stores) the standings are exactly as before.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from projections.base import N_, said
from projections.errors import KifuError

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
    ruling: bool = False  # decided by a line that broke a rule: awaits a judge (KIFU-3)

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
            ruling=bool(res and res.get("pending")),
        )


TIEBREAKS: tuple[str, ...] = ("omw", "gw", "ogw")  # the default order (MTR 3.1)
TIEBREAK_NAMES: tuple[str, ...] = (*TIEBREAKS, "oomw")  # every name an event may order
# How a game unfinished at time counts: a drawn game (MTR), left out, or a loss for both
# players (両者敗北: equal game wins then lose the match for both, 0 match points each).
UNFINISHED = ("draw", "exclude", "double-loss")
BYE_GAMES = 2  # a bye is a 2-0 match win (Appendix C, "Byes")
TIME_REASON = "time"  # a judge's result of no winner for time: the game unfinished at time


@dataclass
class Pairing:
    """One organised-play match: the games at one table in one round."""

    round: int | None
    table: str | None
    players: tuple[str, ...]
    games: list[Game] = field(default_factory=list)
    # The games that count (each a winner's name, None for a drawn game), once ``settle`` has
    # decided the match; None while it is pending or never settled.
    counted: list[str | None] | None = None
    # Games counted as lost by both players (the game unfinished at time under ``double-loss``).
    lost_by_both: int = 0

    @property
    def finished(self) -> bool:
        return bool(self.games) and all(g.finished for g in self.games)

    def game_wins(self) -> dict[str, int]:
        wins = dict.fromkeys(self.players, 0)
        for winner in self._results():
            if winner in wins:
                wins[winner] += 1
        return wins

    def _results(self) -> list[str | None]:
        if self.counted is not None:
            return self.counted
        return [g.winner for g in self.games if g.finished]

    def double_loss(self) -> bool:
        """Both players lost the match (両者敗北): a game was lost by both at time and neither
        has more game wins (a match-loss penalty decides first)."""
        if not self.lost_by_both or any(g.loser for g in self.games):
            return False
        wins = self.game_wins()
        return len(set(wins.values())) <= 1

    def winner(self) -> str | None:
        """The match's winner, or None for a draw (or a double loss: ``double_loss``)."""
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
        draws = sum(1 for w in self._results() if w is None)
        text = "-".join(str(wins[p]) for p in self.players)
        return f"{text}-{draws}" if draws else text

    def settle(self, *, best_of: int | None = None, closed: bool = False, unfinished: str = "draw") -> bool:
        """Decide which games count; False while the match is still pending.

        Without ``best_of`` (old stores) a match is decided when every game recorded at its
        table is finished. With ``best_of`` it is decided as soon as a player has the game
        wins that take the match (2 of a best-of-three) or a match-loss penalty: a game row
        still open then is not counted. In a closed round nothing is pending: the first
        open game was the one in progress at time and counts as ``unfinished`` says (a drawn
        game, or not counted); open games after it were never played and are not counted.
        A game awaiting a ruling (KIFU-3) was played to its end, not stopped by time: its match
        stays pending until the judge rules, closed round or not.
        """
        self.lost_by_both = 0
        # a judge's ``result`` of no winner for ``time`` (TIME_REASON): the match ended at time
        # with that game unfinished; it counts as ``unfinished`` says, open or closed round
        timed = [g for g in self.games if g.finished and g.winner is None and g.reason == TIME_REASON]
        if timed and best_of is not None:
            done = [g.winner for g in self.games if g.finished and g not in timed]
            if not (any(g.loser for g in self.games)
                    or any(sum(1 for w in done if w == p) >= best_of // 2 + 1 for p in self.players)):
                if unfinished == "draw":
                    done.append(None)
                elif unfinished == "double-loss":
                    self.lost_by_both = 1
                self.counted = done
                return True
        done = [g.winner for g in self.games if g.finished]
        if best_of is None:
            decided = bool(self.games) and len(done) == len(self.games)
        else:
            # drawn games do not count towards the N of a best-of-N: the match goes on until
            # a player has the wins it takes, a match loss, or time
            need = best_of // 2 + 1
            decided = (any(g.loser for g in self.games)
                       or any(sum(1 for w in done if w == p) >= need for p in self.players))
        if not decided and (not closed or any(g.ruling for g in self.games)):
            self.counted = None
            return False
        if not decided and unfinished == "draw" and len(done) < len(self.games):
            done.append(None)  # MTR Appendix C: "Unfinished games are considered draws."
        if not decided and unfinished == "double-loss" and len(done) < len(self.games):
            self.lost_by_both = 1  # 両者敗北: the game at time is lost by both players
        self.counted = done
        return True


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
    byes: int = 0  # counted in wins, points, MW% and GW% (each a 2-0), never as an opponent
    dropped_after: int | None = None  # the round after which the player dropped (still ranked)
    missed: int = 0  # rounds missed before a late entry: each a match loss (0-2), against nobody
    no_show: bool = False  # not checked in for round 1: dropped after round 0, still listed
    oomw: Fraction | None = None  # opponents' opponents' MW%, when the event ranks by it
    place: int | None = None  # the final place (a top cut's players by how far they got, then Swiss order)

    @property
    def record(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank, "player": self.player, "points": self.points, "record": self.record,
            "wins": self.wins, "losses": self.losses, "draws": self.draws,
            "games": {"won": self.games_won, "lost": self.games_lost, "drawn": self.games_drawn},
            "mwp": pct(self.mwp), "omw": pct(self.omw), "gwp": pct(self.gwp), "ogw": pct(self.ogw),
            "opponents": self.opponents, "byes": self.byes, "dropped_after": self.dropped_after,
            "missed": self.missed, "no_show": self.no_show,
            **({"oomw": pct(self.oomw)} if self.oomw is not None else {}),
            **({"place": self.place} if self.place is not None else {}),
        }


@dataclass
class Table:
    """The standings of one event."""

    event: str
    rows: list[Standing]
    pairings: list[Pairing]
    pending: list[Pairing]  # matches with a game still in progress (not counted yet)
    upto_round: int | None = None  # the standings as of this round (None: every round)
    tiebreaks: tuple[str, ...] = TIEBREAKS
    by_place: bool = False  # rows ordered by ``place`` (a top cut's players first: projections/bracket.py)


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


def check_options(tiebreaks: Iterable[str], unfinished: str, best_of: int | None) -> tuple[str, ...]:
    """The tiebreak order as a tuple; a KifuError naming the bad value otherwise."""
    order = tuple(tiebreaks)
    bad = [t for t in order if t not in TIEBREAK_NAMES]
    if bad or len(set(order)) != len(order):
        raise KifuError(said(N_("tiebreaks: {value}: each of {known} at most once"), value=", ".join(order),
                             known=", ".join(TIEBREAK_NAMES)))
    if unfinished not in UNFINISHED:
        raise KifuError(said(N_("unfinished: {value}: one of {choices}"), value=unfinished, choices=", ".join(UNFINISHED)))
    if best_of is not None and (not isinstance(best_of, int) or best_of < 1):
        raise KifuError(said(N_("best_of: {value}: a whole number of games, 1 or more"), value=best_of))
    return order


class _Tally:
    """What one player has accumulated: match and game records, opponents, byes."""

    def __init__(self) -> None:
        self.points = self.played = self.byes = 0
        self.wld = [0, 0, 0]
        self.gwld = [0, 0, 0]
        self.opponents: list[str] = []

    def mwp(self) -> Fraction:
        return max(FLOOR, Fraction(self.points, 3 * self.played)) if self.played else FLOOR

    def gwp(self) -> Fraction:
        w, lost, d = self.gwld
        n = w + lost + d
        return max(FLOOR, Fraction(WIN * w + DRAW * d, 3 * n)) if n else FLOOR


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def standings(
    event: str,
    games: Iterable[Game],
    *,
    roster: Iterable[str] = (),
    byes: Mapping[int, Iterable[str]] | None = None,
    dropped: Mapping[str, int] | None = None,
    upto_round: int | None = None,
    best_of: int | None = None,
    tiebreaks: Iterable[str] = TIEBREAKS,
    unfinished: str = "draw",
    closed_rounds: Iterable[int] = (),
    missed: Mapping[str, Iterable[int]] | None = None,
    no_shows: Iterable[str] = (),
    unfinished_in: Mapping[int, str] | None = None,
) -> Table:
    """The standings of ``event`` (docs/standings.md).

    ``roster``: every registered player is listed, with 0 points before their first match.
    ``byes``: ``{round: [names]}``, each a 2-0 match win left out of the opponents' averages.
    ``dropped``: ``{name: after_round}``, a mark only (a dropped player stays ranked).
    ``upto_round``: the standings as of that round (only rounds ≤ N counted; games with no
    round are left out). ``best_of``: the match format (None: whatever was played, decided
    when every game at the table is finished). ``tiebreaks``: the order after match points,
    names ``omw``, ``gw``, ``ogw``. ``closed_rounds``: rounds whose time is over, where an
    unfinished game counts as ``unfinished`` says (``draw``, the Tournament Rules' choice,
    or ``exclude``, or ``double-loss``); ``unfinished_in``: ``{round: how}`` for the rounds
    whose close said how its unreported tables count (``kifu round close --unreported``).
    ``missed``: ``{name: [rounds]}``, the rounds a late entrant missed, each
    a match loss 0-2 in the player's own record and nobody's opponent (no OMW% counts it).
    ``no_shows``: players who never checked in (a mark only, as a drop after round 0).
    """
    order = check_options(tiebreaks, unfinished, best_of)
    closed = set(closed_rounds)

    def counts(rnd: int | None) -> bool:
        return upto_round is None or (rnd is not None and rnd <= upto_round)

    allp = pairings(g for g in games if counts(g.round))
    done: list[Pairing] = []
    pending: list[Pairing] = []
    for p in allp:
        how = (unfinished_in or {}).get(p.round or 0, unfinished)
        settled = p.settle(best_of=best_of, closed=p.round in closed, unfinished=how)
        (done if settled else pending).append(p)
    tally: dict[str, _Tally] = {}

    def of(name: str) -> _Tally:
        if name not in tally:
            tally[name] = _Tally()
        return tally[name]

    for name in roster:
        of(player_key(name))
    for p in done:
        winner = p.winner()
        for name in p.players:
            t = of(name)
            t.played += 1
            t.opponents.extend(o for o in p.players if o != name)
            if p.double_loss():
                t.wld[1] += 1  # 両者敗北: a loss in both records, no match point
            elif winner is None:
                t.points += DRAW
                t.wld[2] += 1
            elif winner == name:
                t.points += WIN
                t.wld[0] += 1
            else:
                t.wld[1] += 1
            for game_winner in p.counted or []:
                t.gwld[2 if game_winner is None else 0 if game_winner == name else 1] += 1
            t.gwld[1] += p.lost_by_both
    for rnd, names in sorted((int(r), n) for r, n in (byes or {}).items()):
        if not counts(rnd):
            continue
        for name in names:
            t = of(player_key(name))
            t.byes += 1
            t.played += 1
            t.points += WIN
            t.wld[0] += 1
            t.gwld[0] += BYE_GAMES
    missing = _missed_losses(of, missed, counts)
    drops = {player_key(n): int(r) for n, r in (dropped or {}).items() if counts(int(r))}
    absent = {player_key(n) for n in no_shows}

    def omw(t: _Tally) -> Fraction:
        return _mean([tally[o].mwp() for o in t.opponents])

    rows = []
    for name, t in tally.items():
        (w, lost, d), (gw, gl, gd) = t.wld, t.gwld
        rows.append(Standing(
            rank=0, player=name, points=t.points, wins=w, losses=lost, draws=d,
            games_won=gw, games_lost=gl, games_drawn=gd, mwp=t.mwp(),
            omw=omw(t), gwp=t.gwp(),
            ogw=_mean([tally[o].gwp() for o in t.opponents]),
            opponents=t.opponents, byes=t.byes, dropped_after=drops.get(name),
            missed=missing.get(name, 0), no_show=name in absent,
            oomw=_mean([omw(tally[o]) for o in t.opponents]) if "oomw" in order else None,
        ))

    def key(s: Standing) -> tuple[Any, ...]:
        return (s.points, *(getattr(s, _FIELD[t]) for t in order))

    rows.sort(key=lambda s: (tuple(-k for k in key(s)), s.player))
    for i, s in enumerate(rows):
        prev = rows[i - 1] if i else None
        s.rank = prev.rank if prev is not None and key(prev) == key(s) else i + 1
    return Table(event, rows, done, pending, upto_round, order)


_FIELD = {"omw": "omw", "gw": "gwp", "ogw": "ogw", "oomw": "oomw"}


def _missed_losses(of: Any, missed: Mapping[str, Iterable[int]] | None, counts: Any) -> dict[str, int]:
    """A late entrant's missed rounds in the tally: each a match played and lost 0-2 (so in
    MW% and GW%), with no opponent (so in nobody's OMW%/OGW%, and not in the player's own)."""
    out: dict[str, int] = {}
    for name, rounds in (missed or {}).items():
        key = player_key(name)
        for rnd in rounds:
            if not counts(int(rnd)):
                continue
            t = of(key)
            t.played += 1
            t.wld[1] += 1
            t.gwld[1] += BYE_GAMES
            out[key] = out.get(key, 0) + 1
    return out


def from_summaries(event: str, summaries: Iterable[Mapping[str, Any]], **options: Any) -> Table:
    """Standings of ``event`` from match summaries (every match of any event may be given);
    ``options`` are those of ``standings``."""
    return standings(event, [Game.from_summary(r) for r in summaries if r.get("event") == event], **options)


__all__ = ["FLOOR", "TIEBREAKS", "TIEBREAK_NAMES", "UNFINISHED", "Game", "Pairing", "Standing", "Table", "check_options",
           "from_summaries", "pairings", "pct", "player_key", "standings"]
