"""Deck-versus-deck statistics over the read model's rows: pure functions, no I/O.

Counting rules (docs/stats.md says why):

* A match counts once it has a result; matches still in progress (or that the read model
  could not replay) are left out and counted separately.
* Matches count **pairwise**. Two players: one pairing. A multi-player match with a winner:
  the winner beats each other player; the non-winners' pairings are left out (the record
  says nothing about how they did against each other). A draw: every pairing is a draw.
* A draw is **half a win**: win rate = (wins + draws / 2) / games, and its Wilson 95%
  interval is taken on that proportion.
* A mirror (both sides the same deck after NFKC normalisation) is shown in the matrix but
  left out of every deck's overall, going-first and going-second records.
* Seat win rates are per match: did the player who went first (second, ...) win.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

from projections import registry
from projections.errors import LogFormatError
from projections.names import normalise_name

Z95 = 1.959963984540054
BY = ("deck", "archetype")
NO_NAME = {"deck": "(no deck)", "archetype": "(no archetype)"}
SEAT_LABELS = {1: "first", 2: "second", 3: "third", 4: "fourth"}


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for a proportion (``successes`` may be fractional: a draw is a
    half). None when there is nothing to estimate."""
    if n <= 0:
        return None
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Record:
    """Games, wins, losses and draws from one side's point of view."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, outcome: str, count: int = 1) -> None:
        self.games += count
        if outcome == "win":
            self.wins += count
        elif outcome == "loss":
            self.losses += count
        else:
            self.draws += count

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def to_json(self) -> dict[str, Any]:
        interval = wilson(self.points, self.games)
        return {
            "games": self.games, "wins": self.wins, "losses": self.losses, "draws": self.draws,
            "win_rate": _r(self.points / self.games) if self.games else None,
            "low": _r(interval[0]) if interval else None,
            "high": _r(interval[1]) if interval else None,
        }


def _r(x: float) -> float:
    return round(x, 4)


INVERSE = {"win": "loss", "loss": "win", "draw": "draw"}


# -- filters -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Filters:
    game: str | None = None
    event: str | None = None
    since: str | None = None
    until: str | None = None
    player: str | None = None
    by: str = "deck"
    min_games: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def make_filters(
    game: str | None = None, event: str | None = None, since: str | None = None,
    until: str | None = None, player: str | None = None, by: str = "deck", min_games: Any = 0,
) -> Filters:
    """Validated filters (from the CLI's options or a web form's fields); a bad value is one
    ``LogFormatError`` line naming the option."""
    problems = []
    blank = _blank
    if not blank(game):
        game = registry.canonical(str(game))
    for name, value in (("--since", since), ("--until", until)):
        if not blank(value):
            try:
                date.fromisoformat(str(value).strip())
            except ValueError:
                problems.append(f"{name}: {value!r} is not a date (YYYY-MM-DD)")
    if by not in BY:
        problems.append(f"--by: must be deck or archetype, not {by!r}")
    try:
        min_games = int(min_games or 0)
        if min_games < 0:
            raise ValueError
    except (TypeError, ValueError):
        problems.append(f"--min-games: must be a whole number >= 0, not {min_games!r}")
        min_games = 0
    if problems:
        raise LogFormatError(problems)
    return Filters(
        game=None if blank(game) else str(game),
        event=None if blank(event) else str(event).strip(),
        since=None if blank(since) else str(since).strip(),
        until=None if blank(until) else str(until).strip(),
        player=None if blank(player) else str(player).strip(),
        by=by,
        min_games=min_games,
    )


def _blank(value: Any) -> bool:
    return value is None or str(value).strip() == ""


def _key(text: Any) -> str:
    return normalise_name(text).casefold()


def select(matches: Iterable[Mapping[str, Any]], filters: Filters) -> list[Mapping[str, Any]]:
    """The matches the filters keep (finished or not). Event and player are matched after
    NFKC normalisation, case-insensitively; a player by name (a player id such as ``A`` is a
    seat, not a person, so it is used only for a player recorded without a name)."""
    event = _key(filters.event) if filters.event else None
    player = _key(filters.player) if filters.player else None
    out = []
    for m in matches:
        if filters.game and m.get("game") != filters.game:
            continue
        if event is not None and _key(m.get("event")) != event:
            continue
        if filters.since or filters.until:
            day = str(m.get("date") or "")[:10]
            if not day or (filters.since and day < filters.since) or (filters.until and day > filters.until):
                continue
        if player is not None and not any(
            player == _key(r.get("name") or r.get("player")) for r in m["results"]
        ):
            continue
        out.append(m)
    return out


# -- the report ------------------------------------------------------------------------------------


@dataclass
class _Deck:
    name: str
    matches: int = 0
    turns: list[int] = field(default_factory=list)
    overall: Record = field(default_factory=Record)
    first: Record = field(default_factory=Record)
    second: Record = field(default_factory=Record)


def pairings(results: Sequence[Mapping[str, Any]], winner: str | None) -> list[tuple[Mapping[str, Any], Mapping[str, Any], str]]:
    """(side, other side, outcome for side) for each pairing that a finished match counts."""
    if winner is None:
        return [(a, b, "draw") for i, a in enumerate(results) for b in results[i + 1:]]
    won = [r for r in results if r["player"] == winner]
    if not won:
        return []  # a winner who is not a player: nothing sound to count
    return [(won[0], r, "win") for r in results if r is not won[0]]


def report(matches: Iterable[Mapping[str, Any]], filters: Filters | None = None) -> dict[str, Any]:
    """The statistics of the selected matches as one JSON-ready dict (the shape every
    renderer and ``--json`` use)."""
    filters = filters or Filters()
    chosen = select(matches, filters)
    done = [m for m in chosen if m.get("finished") and not m.get("error")]
    column = f"{filters.by}_key"

    def name(r: Mapping[str, Any]) -> str:
        return r.get(column) or NO_NAME[filters.by]

    decks: dict[str, _Deck] = {}
    cells: dict[tuple[str, str], Record] = {}
    mirrors: dict[str, Record] = {}
    seats: dict[int, Record] = {}
    reasons: Counter[str] = Counter()
    turns: list[int] = []
    for m in done:
        results = m["results"]
        if m.get("turns") is not None:
            turns.append(int(m["turns"]))
        reasons[str(m.get("reason"))] += 1
        for deck_name in {name(r) for r in results}:
            d = decks.setdefault(deck_name, _Deck(deck_name))
            d.matches += 1
            if m.get("turns") is not None:
                d.turns.append(int(m["turns"]))
        for r in results:
            seats.setdefault(int(r["seat"]), Record()).add(r["outcome"])
        for a, b, outcome in pairings(results, m.get("winner")):
            na, nb = name(a), name(b)
            if na == nb:
                mirrors.setdefault(na, Record()).add("draw" if outcome == "draw" else "win")
                continue
            for side, other, out, n_side, n_other in ((a, b, outcome, na, nb), (b, a, INVERSE[outcome], nb, na)):
                cells.setdefault((n_side, n_other), Record()).add(out)
                d = decks[n_side]
                d.overall.add(out)
                if side.get("is_first"):
                    d.first.add(out)
                elif other.get("is_first"):
                    d.second.add(out)
    shown = sorted((d for d in decks.values() if d.matches >= filters.min_games),
                   key=lambda d: (-d.matches, d.name))
    names = [d.name for d in shown]
    visible = set(names)
    matrix = _matrix(names, cells, mirrors)
    return {
        "by": filters.by,
        "filters": filters.to_json(),
        "draws": "half a win",
        "matches": len(done),
        "unfinished": len(chosen) - len(done),
        "avg_turns": _avg(turns),
        "decks": [
            {"name": d.name, "matches": d.matches, "avg_turns": _avg(d.turns), **d.overall.to_json(),
             "first": d.first.to_json(), "second": d.second.to_json()}
            for d in shown
        ],
        "hidden_decks": sorted(set(decks) - visible),
        "matrix": matrix,
        "seats": [{"seat": s, "label": SEAT_LABELS.get(s, f"seat {s}"), **seats[s].to_json()} for s in sorted(seats)],
        "reasons": [{"reason": r, "count": c} for r, c in sorted(reasons.items(), key=lambda rc: (-rc[1], rc[0]))],
    }


def _matrix(
    names: Sequence[str], cells: Mapping[tuple[str, str], Record], mirrors: Mapping[str, Record]
) -> list[dict[str, Any]]:
    """The matchup cells among the decks shown, row by row; a mirror counts its games only."""
    matrix: list[dict[str, Any]] = []
    for row in names:
        for col in names:
            if row == col and row in mirrors:
                mr = mirrors[row]
                matrix.append({"deck": row, "opponent": col, "mirror": True, "games": mr.games,
                               "wins": mr.wins, "losses": mr.wins, "draws": mr.draws,
                               "win_rate": None, "low": None, "high": None})
            elif (row, col) in cells:
                matrix.append({"deck": row, "opponent": col, "mirror": False, **cells[(row, col)].to_json()})
    return matrix


def _avg(values: Sequence[int]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


# -- the same report, computed by the read model's database --------------------------------------


def _where(filters: Filters) -> tuple[str, list[Any]]:
    """The SQL condition on ``matches m`` that ``select`` applies in Python."""
    clauses, args = ["1"], []
    if filters.game:
        # With a narrower filter its own index picks the matches; "+" keeps the planner from
        # walking every match of the game through the game index instead (a season's tens of
        # thousands for one player's dozen).
        narrow = filters.event or filters.since or filters.until or filters.player
        clauses.append("+m.game = ?" if narrow else "m.game = ?")
        args.append(filters.game)
    if filters.event:
        clauses.append("m.event_key = ?")
        args.append(_key(filters.event))
    if filters.since or filters.until:
        day = DAY  # the expression of the read model's index on the day
        clauses.append(f"{day} != ''")
        if filters.since:
            clauses.append(f"{day} >= ?")
            args.append(filters.since)
        if filters.until:
            clauses.append(f"{day} <= ?")
            args.append(filters.until)
    if filters.player:  # the player's matches from the player index, not a test of every match
        clauses.append("m.id in (select p.match_id from results p where p.player_key = ?)")
        args.append(_key(filters.player))
    return " and ".join(clauses), args


DAY = "substr(coalesce(m.date, ''), 1, 10)"  # a match's day; readmodel.py indexes this expression


def _games(con: Any) -> list[str]:
    """The games of the ``sides`` rows, each found by one index seek (no scan)."""
    rows = con.execute(
        "with recursive g(x) as (select min(game) from sides union all "
        "select (select min(game) from sides where game > x) from g where x is not null) "
        "select x from g where x is not null").fetchall()
    return [r[0] for r in rows]


def fact_rows(
    row: Mapping[str, Any], results: Sequence[Mapping[str, Any]]
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """What ``report_sql`` counts of one match, worked out once when its rows are written
    (the read model's ``sides`` and ``pairs`` tables): nothing for a match that does not count.

    ``sides``: (match_id, game, seat, outcome, deck, archetype, deck_once, archetype_once,
    turns) per player; ``*_once`` marks the first player of the match with that name, so a
    deck is counted once per match. ``pairs``: (match_id, game, a_deck, a_archetype, b_deck,
    b_archetype, a_first, b_first, outcome) per pairing (``pairings``). A name is the
    normalised key, or ``NO_NAME`` for none, as the report shows it: the report groups the
    columns as they are, along the indexes that cover each count."""
    if not row.get("finished") or row.get("error"):
        return [], []
    match_id, game, turns = row["id"], row.get("game"), row.get("turns")
    ordered = sorted(results, key=lambda r: r["seat"])
    seen_deck: set[Any] = set()
    seen_archetype: set[Any] = set()
    sides = []
    for r in ordered:
        deck, archetype = _names(r)
        sides.append((match_id, game, r["seat"], r["outcome"], deck, archetype,
                      int(deck not in seen_deck), int(archetype not in seen_archetype), turns))
        seen_deck.add(deck)
        seen_archetype.add(archetype)
    pairs = [
        (match_id, game, *_names(a), *_names(b), int(bool(a.get("is_first"))), int(bool(b.get("is_first"))), outcome)
        for a, b, outcome in pairings(ordered, row.get("winner"))
    ]
    return sides, pairs


def _names(r: Mapping[str, Any]) -> tuple[str, str]:
    return r.get("deck_key") or NO_NAME["deck"], r.get("archetype_key") or NO_NAME["archetype"]


def report_sql(con: Any, filters: Filters | None = None) -> dict[str, Any]:
    """``report(matches, filters)`` computed by the read model's database (``con`` is its
    sqlite3 connection) from the ``sides`` and ``pairs`` rows written with each match
    (``fact_rows``): GROUP BY over rows already shaped for each count, so the work grows with
    the matches the filters keep, and no match is looked at twice. tests/stats checks that the
    two reports agree."""
    filters = filters or Filters()
    where, args = _where(filters)
    narrow = bool(filters.event or filters.since or filters.until or filters.player)
    if narrow:
        parts = [(f"match_id in (select m.id from matches m where {where})", args)]
    else:  # game by game: each count walks a covering index in its GROUP BY order (no sort)
        parts = [("game = ?", [g]) for g in ([filters.game] if filters.game else _games(con))]
    col = "deck" if filters.by == "deck" else "archetype"
    valid = "m.finished = 1 and m.error is null"
    chosen, done, turns_sum, turns_n = con.execute(
        f"select count(*), coalesce(sum({valid}), 0), sum(case when {valid} then m.turns end), "
        f"count(case when {valid} then m.turns end) from matches m where {where}", args).fetchone()
    reasons: dict[str, int] = {}
    # Grouped in the order of the index on (finished, error, reason); when a filter's own index
    # picks fewer matches, "+" keeps the planner from walking every finished match instead.
    kept = f"{'+' if narrow else ''}m.finished = 1 and m.error is null"
    for reason, count in con.execute(
            f"select m.reason, count(*) from matches m where {where} and {kept} group by m.reason", args):
        key = "None" if reason is None else str(reason)
        reasons[key] = reasons.get(key, 0) + count
    grouped: dict[tuple[Any, ...], int] = {}
    decks: dict[str, tuple[int, tuple[Any, Any]]] = {}
    seat_rows: dict[int, list[tuple[str, int]]] = {}
    for facts, facts_args in parts:
        for *key, count in con.execute(
                f"select a_{col}, b_{col}, a_first, b_first, outcome, count(*) from pairs where {facts} "
                f"group by a_{col}, b_{col}, a_first, b_first, outcome", facts_args):
            grouped[tuple(key)] = grouped.get(tuple(key), 0) + count
        for name, n, t_sum, t_n in con.execute(
                f"select {col}, count(*), sum(turns), count(turns) from sides where {facts} and {col}_once = 1 "
                f"group by {col}", facts_args):
            was_n, (was_sum, was_tn) = decks.get(name, (0, (None, 0)))
            decks[name] = (was_n + n, (t_sum if was_sum is None else was_sum + (t_sum or 0), was_tn + t_n))
        for seat, outcome, count in con.execute(
                f"select seat, outcome, count(*) from sides where {facts} group by seat, outcome", facts_args):
            seat_rows.setdefault(int(seat), []).append((outcome, count))
    return _assemble(filters, chosen, done, (turns_sum, turns_n), sorted(reasons.items()),
                     [(*k, c) for k, c in grouped.items()], decks, seat_rows)


def _record(rows: Iterable[tuple[str, int]]) -> Record:
    rec = Record()
    for outcome, count in rows:
        rec.add(outcome, count)
    return rec


def _assemble(
    filters: Filters,
    chosen: int,
    done: int,
    turns: tuple[Any, Any],
    reasons: Sequence[tuple[str, int]],
    grouped: Sequence[tuple[str, str, int, int, str, int]],
    decks: Mapping[str, tuple[int, tuple[Any, Any]]],
    seat_rows: Mapping[int, list[tuple[str, int]]],
) -> dict[str, Any]:
    """The report's dict from the counts the database grouped."""
    cells: dict[tuple[str, str], Record] = {}
    mirrors: dict[str, Record] = {}
    overall: dict[str, Record] = {}
    first: dict[str, Record] = {}
    second: dict[str, Record] = {}

    def add(table: dict[Any, Record], key: Any, outcome: str, count: int) -> None:
        table.setdefault(key, Record()).add(outcome, count)

    for a, b, af, bf, outcome, count in grouped:
        if a == b:
            add(mirrors, a, "draw" if outcome == "draw" else "win", count)
            continue
        for side, other, out, side_first, other_first in ((a, b, outcome, af, bf), (b, a, INVERSE[outcome], bf, af)):
            add(cells, (side, other), out, count)
            add(overall, side, out, count)
            if side_first:
                add(first, side, out, count)
            elif other_first:
                add(second, side, out, count)
    shown = sorted((name for name, (n, _) in decks.items() if n >= filters.min_games),
                   key=lambda name: (-decks[name][0], name))
    visible = set(shown)
    matrix = _matrix(shown, cells, mirrors)

    def avg(t: tuple[Any, Any]) -> float | None:
        total, n = t
        return round(total / n, 2) if n else None

    return {
        "by": filters.by,
        "filters": filters.to_json(),
        "draws": "half a win",
        "matches": done,
        "unfinished": chosen - done,
        "avg_turns": avg(turns),
        "decks": [
            {"name": name, "matches": decks[name][0], "avg_turns": avg(decks[name][1]),
             **overall.get(name, Record()).to_json(),
             "first": first.get(name, Record()).to_json(), "second": second.get(name, Record()).to_json()}
            for name in shown
        ],
        "hidden_decks": sorted(set(decks) - visible),
        "matrix": matrix,
        "seats": [{"seat": s, "label": SEAT_LABELS.get(s, f"seat {s}"), **_record(seat_rows[s]).to_json()}
                  for s in sorted(seat_rows)],
        "reasons": [{"reason": r, "count": c} for r, c in sorted(reasons, key=lambda rc: (-rc[1], rc[0]))],
    }


def games_sql(con: Any) -> list[str]:
    """The games present in the read model, sorted."""
    rows = con.execute(  # one index seek per game (the index on game, finished), not a walk over every match
        "with recursive g(x) as (select min(game) from matches union all "
        "select (select min(game) from matches where game > x) from g where x is not null) "
        "select x from g where x is not null").fetchall()
    return [g for (g,) in rows]
