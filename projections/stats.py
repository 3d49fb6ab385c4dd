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
        clauses.append("m.game = ?")
        args.append(filters.game)
    if filters.event:
        clauses.append("m.event_key = ?")
        args.append(_key(filters.event))
    if filters.since or filters.until:
        day = "substr(coalesce(m.date, ''), 1, 10)"
        clauses.append(f"{day} != ''")
        if filters.since:
            clauses.append(f"{day} >= ?")
            args.append(filters.since)
        if filters.until:
            clauses.append(f"{day} <= ?")
            args.append(filters.until)
    if filters.player:
        clauses.append("exists (select 1 from results p where p.match_id = m.id and p.player_key = ?)")
        args.append(_key(filters.player))
    return " and ".join(clauses), args


def report_sql(con: Any, filters: Filters | None = None) -> dict[str, Any]:
    """``report(matches, filters)`` computed with GROUP BY over the read model's tables
    (``con`` is its sqlite3 connection): the work grows with the number of decks and seats,
    not with the number of matches held in Python. tests/stats checks the two agree."""
    filters = filters or Filters()
    where, args = _where(filters)
    column = "deck_key" if filters.by == "deck" else "archetype_key"
    no_name = NO_NAME[filters.by]
    con.execute("drop table if exists temp.done")
    con.execute("drop table if exists temp.sides")
    con.execute(f"create temp table done as select m.id, m.winner, m.turns, m.reason, m.finished, m.error "
                f"from matches m where {where}", args)
    chosen = con.execute("select count(*) from temp.done").fetchone()[0]
    con.execute("delete from temp.done where not (finished = 1 and error is null)")
    con.execute(
        "create temp table sides as select r.match_id, r.player, r.seat, r.is_first, r.outcome, "
        f"coalesce(nullif(r.{column}, ''), ?) as name, (r.player = d.winner) as won, "
        "(d.winner is null) as drawn, d.turns as turns "
        "from temp.done d join results r on r.match_id = d.id",
        [no_name],
    )
    con.execute("create index temp.sides_match on sides (match_id, player)")
    try:
        return _assemble(con, filters, chosen)
    finally:
        con.execute("drop table if exists temp.done")
        con.execute("drop table if exists temp.sides")


def _record(rows: Iterable[tuple[str, int]]) -> Record:
    rec = Record()
    for outcome, count in rows:
        rec.add(outcome, count)
    return rec


def _assemble(con: Any, filters: Filters, chosen: int) -> dict[str, Any]:
    done, turns_sum, turns_n = con.execute(
        "select count(*), sum(turns), count(turns) from temp.done").fetchone()
    # Pairings: the winner against each other player; in a draw, every pair once (seat order).
    pairs = """
        select w.name as a, o.name as b, w.is_first as af, o.is_first as bf, 'win' as outcome
        from temp.sides w join temp.sides o on o.match_id = w.match_id and o.player != w.player
        where w.won
        union all
        select x.name, y.name, x.is_first, y.is_first, 'draw'
        from temp.sides x join temp.sides y on y.match_id = x.match_id and y.seat > x.seat
        where x.drawn
    """
    cells: dict[tuple[str, str], Record] = {}
    mirrors: dict[str, Record] = {}
    overall: dict[str, Record] = {}
    first: dict[str, Record] = {}
    second: dict[str, Record] = {}

    def add(table: dict[Any, Record], key: Any, outcome: str, count: int) -> None:
        table.setdefault(key, Record()).add(outcome, count)

    grouped = con.execute(
        f"select a, b, af, bf, outcome, count(*) from ({pairs}) group by a, b, af, bf, outcome").fetchall()
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
    decks = {
        name: (n, (t_sum, t_n))
        for name, n, t_sum, t_n in con.execute(
            "select name, count(*), sum(turns), count(turns) from "
            "(select distinct match_id, name, turns from temp.sides) group by name")
    }
    seat_rows: dict[int, list[tuple[str, int]]] = {}
    for seat, outcome, count in con.execute("select seat, outcome, count(*) from temp.sides group by seat, outcome"):
        seat_rows.setdefault(int(seat), []).append((outcome, count))
    reasons = con.execute(
        "select coalesce(reason, 'None'), count(*) from temp.done group by 1").fetchall()
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
        "avg_turns": avg((turns_sum, turns_n)),
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
    return [g for (g,) in con.execute("select distinct game from matches where game is not null order by game")]
