"""The metagame (``kifu stats --meta``, ``--trend``): deck share of the field, match win rate
per archetype with its Wilson interval, the matchup matrix, conversion into a top cut, and
share and win rate per archetype for each week or month of a season. Pure functions over the
read model's rows, and the SQL that fetches them.

Counting rules (docs/stats.md says why):

* The **field** is the entries of the decided matches the filters keep: one entry per player
  per event with each deck (event and player by their NFKC, case-folded keys; a match without
  an event is an event of its own). A player who plays five rounds with one deck is one entry,
  not five. **Share** = a deck's (archetype's) entries / all entries.
* **Win rate** is the statistics report's (``projections.stats``): pairwise, a draw is half a
  win, mirrors left out, Wilson 95% interval. So the metagame's win rates equal
  ``kifu stats --by archetype`` (``--by deck``) of the same filters.
* **Conversion**: of an archetype's entries in an event, how many are among the players of
  its top cut; rate with its Wilson interval.
* A **period** is an ISO week (Monday to Sunday, ``2026-W48``) or a calendar month
  (``2026-11``); the periods run from the first to the last match day of the matches kept
  (or the ``--since``/``--until`` bounds), empty periods included. Each period's figures are
  exactly those of the same filters with ``--since``/``--until`` set to its first and last day.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date, timedelta
from typing import Any

from projections import stats
from projections.base import N_, said
from projections.errors import LogFormatError
from projections.names import name_key

PERIODS = ("week", "month")
Side = tuple[str, str, str, str, str, str, str | None]  # match id, event key, day, player key, deck, archetype, outcome


# -- the field ---------------------------------------------------------------------------------


def sides_sql(con: Any, filters: stats.Filters) -> list[Side]:
    """Each player of each decided match the filters keep, from the read model."""
    where, args = stats._where(filters)
    rows = con.execute(
        f"select m.id, m.event_key, {stats.DAY}, r.player_key, r.deck_key, r.archetype_key, r.outcome "
        f"from matches m join results r on r.match_id = m.id "
        f"where {where} and m.finished = 1 and m.error is null", args).fetchall()
    return [_side(*r) for r in rows]


def sides(matches: Iterable[Mapping[str, Any]], filters: stats.Filters) -> list[Side]:
    """The same from match rows (``ReadModel.matches()`` or the tests' own)."""
    out = []
    for m in stats.select(matches, filters):
        if not m.get("finished") or m.get("error"):
            continue
        for r in m["results"]:
            out.append(_side(m["id"], name_key(m.get("event")), str(m.get("date") or "")[:10],
                             r.get("player_key") or name_key(r.get("name") or r.get("player")),
                             r.get("deck_key"), r.get("archetype_key"), r.get("outcome")))
    return out


def _side(mid: Any, event: Any, day: Any, player: Any, deck: Any, archetype: Any, outcome: Any) -> Side:
    return (str(mid), str(event or ""), str(day or ""), str(player or ""),
            deck or stats.NO_NAME["deck"], archetype or stats.NO_NAME["archetype"], outcome)


def share(rows: Sequence[Side], by: str = "archetype") -> tuple[int, dict[str, dict[str, int]]]:
    """(entries in the field, {name: {"players": entries, "matches": sides}})."""
    col = 4 if by == "deck" else 5
    seen: set[tuple[str, str, str]] = set()
    counts: dict[str, dict[str, int]] = {}
    for row in rows:
        mid, event, _day, player = row[0], row[1], row[2], row[3]
        name = str(row[col])
        c = counts.setdefault(name, {"players": 0, "matches": 0})
        c["matches"] += 1
        key = (event or f"match:{mid}", player, name)
        if key not in seen:
            seen.add(key)
            c["players"] += 1
    return len(seen), counts


def _r(x: float) -> float:
    return round(x, 4)


def _groups(rows: Sequence[Side], report: Mapping[str, Any], by: str) -> tuple[int, list[dict[str, Any]]]:
    field, counts = share(rows, by)
    rates = {d["name"]: d for d in report["decks"]}
    archetype_of: dict[str, dict[str, int]] = {}
    if by == "deck":
        for row in rows:
            a = archetype_of.setdefault(row[4], {})
            a[row[5]] = a.get(row[5], 0) + 1
    out = []
    for name, c in counts.items():
        d = rates.get(name) or {}
        record = {k: d.get(k) for k in ("games", "wins", "losses", "draws", "win_rate", "low", "high")}
        if not d:
            record.update(games=0, wins=0, losses=0, draws=0)
        item: dict[str, Any] = {"name": name, "players": c["players"],
                                "share": _r(c["players"] / field) if field else None, "matches": c["matches"], **record}
        if by == "deck":
            item["archetype"] = max(archetype_of[name].items(), key=lambda kv: (kv[1], kv[0]))[0]
        out.append(item)
    out.sort(key=lambda g: (-g["players"], -g["matches"], g["name"]))
    return field, out


def metagame(con: Any, filters: stats.Filters) -> dict[str, Any]:
    """The metagame of the matches the filters keep (one game: ``filters.game``): share and
    win rate per archetype and per deck, the matrix by ``filters.by``. Computed by the read model's
    database (``con``)."""
    rows = sides_sql(con, filters)
    by_archetype = stats.report_sql(con, replace(filters, by="archetype", min_games=0))
    by_deck = stats.report_sql(con, replace(filters, by="deck", min_games=0))
    return assemble(filters, rows, by_archetype, by_deck)


def metagame_of(matches: Sequence[Mapping[str, Any]], filters: stats.Filters) -> dict[str, Any]:
    """The same from match rows, in Python."""
    rows = sides(matches, filters)
    return assemble(filters, rows, stats.report(matches, replace(filters, by="archetype", min_games=0)),
                    stats.report(matches, replace(filters, by="deck", min_games=0)))


def assemble(filters: stats.Filters, rows: Sequence[Side], by_archetype: Mapping[str, Any],
             by_deck: Mapping[str, Any]) -> dict[str, Any]:
    field, archetypes = _groups(rows, by_archetype, "archetype")
    _, decks = _groups(rows, by_deck, "deck")
    return {
        "game": filters.game,
        "filters": filters.to_json(),
        "draws": "half a win",
        "matches": by_archetype["matches"],
        "unfinished": by_archetype["unfinished"],
        "field": field,
        "archetypes": archetypes,
        "decks": decks,
        "by": filters.by,  # what the matrix groups by
        "matrix": _matrix(by_deck if filters.by == "deck" else by_archetype, filters.min_games),
    }


def _matrix(report: Mapping[str, Any], min_games: int) -> list[dict[str, Any]]:
    """The report's matrix among the names with at least ``min_games`` matches, as
    ``kifu stats --min-games`` shows it."""
    shown = {d["name"] for d in report["decks"] if d["matches"] >= min_games}
    return [c for c in report["matrix"] if c["deck"] in shown and c["opponent"] in shown]


# -- conversion into a top cut ------------------------------------------------------------------


def conversion(rows: Sequence[Side], cut: Iterable[str], by: str = "archetype") -> dict[str, Any]:
    """How many of each archetype's (deck's) entries made the cut: ``rows`` are the sides of
    one event's Swiss rounds (``sides_sql`` with ``--event``), ``cut`` the players of its top
    cut (names; matched by their NFKC, case-folded key). A player counts under the name they
    played most in ``rows`` (the first in name order on a tie)."""
    col = 4 if by == "deck" else 5
    played: dict[str, dict[str, int]] = {}
    for row in rows:
        p = played.setdefault(row[3], {})
        p[str(row[col])] = p.get(str(row[col]), 0) + 1
    deck_of = {player: min(names.items(), key=lambda kv: (-kv[1], kv[0]))[0] for player, names in played.items()}
    cut_keys = {name_key(c) for c in cut}
    unknown = sorted(c for c in cut if name_key(c) not in deck_of)
    if unknown:
        raise LogFormatError([said(N_("top cut: {value}: not a player of these matches"), value=', '.join(unknown))])
    field: dict[str, int] = {}
    made: dict[str, int] = {}
    for player, name in deck_of.items():
        field[name] = field.get(name, 0) + 1
        if player in cut_keys:
            made[name] = made.get(name, 0) + 1
    size = len(cut_keys)
    out: list[dict[str, Any]] = []
    for name in field:
        n, k = field[name], made.get(name, 0)
        low, high = stats.wilson(k, n) or (None, None)
        out.append({"name": name, "players": n, "cut": k, "rate": _r(k / n),
                    "low": None if low is None else _r(low), "high": None if high is None else _r(high),
                    "cut_share": _r(k / size) if size else None})
    out.sort(key=lambda c: (-c["cut"], -c["players"], c["name"]))
    return {"by": by, "players": len(deck_of), "cut": size, "groups": out}


def event_conversion(con: Any, filters: stats.Filters, rounds: int, cut: Iterable[str]) -> dict[str, Any]:
    """``conversion`` of one event (``filters.event``) from the read model: the sides of its
    Swiss rounds (rounds 1 to ``rounds``; the playoff matches left out), ``cut`` its top cut's
    players (the fold's ``cut``), grouped by ``filters.by``."""
    where, args = stats._where(filters)
    playoff = {r[0] for r in con.execute(f"select m.id from matches m where {where} and m.round > ?", [*args, rounds])}
    rows = [r for r in sides_sql(con, filters) if r[0] not in playoff]
    return conversion(rows, cut, "deck" if filters.by == "deck" else "archetype")


# -- trend ---------------------------------------------------------------------------------------


def period_of(day: date, period: str) -> tuple[str, date, date]:
    """(label, first day, last day) of the week or month holding ``day``."""
    if period == "week":
        start = day - timedelta(days=day.weekday())
        year, week, _ = day.isocalendar()
        return f"{year}-W{week:02d}", start, start + timedelta(days=6)
    start = day.replace(day=1)
    nxt = (start.replace(year=start.year + 1, month=1) if start.month == 12
           else start.replace(month=start.month + 1))
    return f"{start:%Y-%m}", start, nxt - timedelta(days=1)


def periods(first: date, last: date, period: str) -> list[tuple[str, date, date]]:
    """Every period from the one holding ``first`` to the one holding ``last``."""
    if period not in PERIODS:
        raise LogFormatError([said(N_("--trend: must be week or month, not {period!r}"), period=period)])
    out = []
    label, start, end = period_of(first, period)
    while start <= last:
        out.append((label, start, end))
        label, start, end = period_of(end + timedelta(days=1), period)
    return out


def season_bounds(con: Any, filters: stats.Filters) -> tuple[date, date] | None:
    """The first and last match day of the decided matches the filters keep (within the
    filters' own bounds), or None when none has a date."""
    where, args = stats._where(filters)
    first, last = con.execute(
        f"select min({stats.DAY}), max({stats.DAY}) from matches m "
        f"where {where} and {stats.DAY} != '' and m.finished = 1 and m.error is null", args).fetchone()
    if not first:
        return None
    try:
        lo, hi = date.fromisoformat(first), date.fromisoformat(last)
    except ValueError:
        return None
    if filters.since:
        lo = min(lo, date.fromisoformat(filters.since))
    if filters.until:
        hi = max(hi, date.fromisoformat(filters.until))
    return lo, hi


def trend(con: Any, filters: stats.Filters, period: str) -> dict[str, Any]:
    """Share and win rate per archetype for each period of the season (one game). Each
    period's figures are ``metagame`` of the same filters bounded to the period."""
    bounds = season_bounds(con, filters)
    if period not in PERIODS:
        raise LogFormatError([said(N_("--trend: must be week or month, not {period!r}"), period=period)])
    where, args = stats._where(filters)
    undated = con.execute(
        f"select count(*) from matches m where {where} and {stats.DAY} = '' and m.finished = 1 "
        f"and m.error is null", args).fetchone()[0]
    out_periods = []
    totals: dict[str, int] = {}
    for label, start, end in (periods(*bounds, period) if bounds else []):
        since = max(start.isoformat(), filters.since or "")
        until = min(end.isoformat(), filters.until or "9999-12-31")
        meta = metagame(con, replace(filters, since=since, until=until))
        for a in meta["archetypes"]:
            totals[a["name"]] = totals.get(a["name"], 0) + a["players"]
        out_periods.append({
            "period": label, "since": since, "until": until, "matches": meta["matches"], "field": meta["field"],
            "archetypes": [{k: a[k] for k in ("name", "players", "share", "matches", "games", "wins", "losses",
                                              "draws", "win_rate", "low", "high")} for a in meta["archetypes"]],
        })
    return {
        "game": filters.game,
        "filters": filters.to_json(),
        "period": period,
        "draws": "half a win",
        "undated": undated,
        "archetypes": sorted(totals, key=lambda n: (-totals[n], n)),
        "periods": out_periods,
    }
