"""What the players' reports and the judges' time extensions of a round say (issue 33), read
from the round's ``report`` and ``extend`` lines as projections/tournament.py keeps them.

A player reports their table's result from their own side: ``win``, ``loss`` or ``draw`` and
the games ``W-L`` (or ``W-L-D``, drawn games last). Two reports of one table *agree* when
each is the other seen from across the table (a win and a loss, 2-1 and 1-2; a draw and a
draw). Each player's latest report counts: a player who tapped the wrong button reports again
until the result stands. A table whose two reports disagree is a *dispute* for a judge.

A round's time runs from the moment it was paired (its ``pair`` line's ``at``) for the event's
``round_minutes``; a table's extensions add their minutes to that table's own end.
Nothing here validates (recorder/reports.py decides); a line it cannot read counts as nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from projections import tournament as T
from projections.standings import player_key

RESULTS = ("win", "loss", "draw")
MIRROR = {"win": "loss", "loss": "win", "draw": "draw"}
GAMES_RE = re.compile(r"^(\d)-(\d)(?:-(\d))?$")


def parse_games(text: Any) -> tuple[int, int, int] | None:
    """``"2-1"`` → (2, 1, 0); ``"1-1-1"`` → (1, 1, 1); None if it is not a score."""
    m = GAMES_RE.fullmatch(str(text or "").strip())
    if m is None:
        return None
    return int(m[1]), int(m[2]), int(m[3] or 0)


def default_games(result: str) -> str:
    """The score a report without one means (a best of one)."""
    return {"win": "1-0", "loss": "0-1"}.get(result, "0-0-1")


def mirrored(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Two reports of one table agree: each is the other seen from across the table."""
    ga, gb = parse_games(a.get("games")), parse_games(b.get("games"))
    if ga is None or gb is None or MIRROR.get(str(a.get("result"))) != b.get("result"):
        return False
    return (ga[0], ga[1], ga[2]) == (gb[1], gb[0], gb[2])


@dataclass(frozen=True)
class TableReports:
    """The reports of one table of a round: each player's latest, and what they add up to."""

    table: str
    players: tuple[str, ...]
    latest: Mapping[str, Mapping[str, Any]]  # player (as seated) -> their latest report line

    @property
    def status(self) -> str:
        """``none``, ``waiting`` (one side reported), ``agreed`` or ``dispute``."""
        if not self.latest:
            return "none"
        if len(self.latest) < len(self.players):
            return "waiting"
        a, b = (self.latest[p] for p in self.players[:2])
        return "agreed" if mirrored(a, b) else "dispute"

    def winner(self) -> str | None:
        """The agreed winner's name (None: a draw, or not agreed)."""
        if self.status != "agreed":
            return None
        return next((p for p, r in self.latest.items() if r.get("result") == "win"), None)

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "players": list(self.players), "status": self.status,
                "reports": [dict(self.latest[p]) for p in self.players if p in self.latest]}


def table_reports(rnd: T.Round, seat: T.Seat) -> TableReports:
    """The reports of one table, from the players seated there now (a report made before a
    judge changed the table's players is not theirs)."""
    seated = {player_key(p): p for p in seat.players}
    latest: dict[str, Mapping[str, Any]] = {}
    for line in rnd.reports:
        name = seated.get(player_key(line.get("player")))
        if name is not None and str(line.get("table")) == seat.table:
            latest[name] = line
    return TableReports(seat.table, seat.players, latest)


def round_reports(rnd: T.Round) -> list[TableReports]:
    return [table_reports(rnd, s) for s in rnd.tables]


def disputes(rnd: T.Round) -> list[TableReports]:
    return [t for t in round_reports(rnd) if t.status == "dispute"]


def by_key(rnd: T.Round, key: str) -> Mapping[str, Any] | None:
    """The report stored with this idempotency key, if any."""
    return next((r for r in rnd.reports if r.get("key") == key), None)


# -- the round's time ----------------------------------------------------------------------


def parse_time(text: Any) -> datetime | None:
    try:
        when = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def extra_minutes(rnd: T.Round) -> dict[str, int]:
    """The minutes each extended table was given, added up."""
    out: dict[str, int] = {}
    for line in rnd.extensions:
        if isinstance(line.get("minutes"), int):
            out[str(line.get("table"))] = out.get(str(line.get("table")), 0) + int(line["minutes"])
    return out


def round_end(st: T.Tournament, rnd: T.Round, table: str | None = None) -> datetime | None:
    """When the round's time is up (at ``table``: with its extensions); None if the round's
    ``pair`` line has no time (an imported old log)."""
    start = parse_time(rnd.paired_at) if rnd.paired_at else None
    if start is None:
        return None
    extra = extra_minutes(rnd).get(str(table), 0) if table is not None else 0
    return start + timedelta(minutes=st.round_minutes + extra)


def clock_json(st: T.Tournament, now: datetime) -> dict[str, Any]:
    """What the clock, the desk and a player's page count down from: the current round, when it
    started and ends, each extended table's own end, and the server's time (the page counts
    from its own clock corrected by the difference)."""
    rnd = st.current
    out: dict[str, Any] = {"event": st.name, "now": iso(now), "round_minutes": st.round_minutes, "round": None}
    if rnd is None:
        return out
    end = round_end(st, rnd)
    extended = extra_minutes(rnd)
    reasons: dict[str, list[str]] = {}
    for line in rnd.extensions:
        reasons.setdefault(str(line.get("table")), []).append(str(line.get("reason") or ""))
    out["round"] = {
        "number": rnd.number, "closed": rnd.closed, "paired_at": rnd.paired_at, "closed_at": rnd.closed_at,
        "ends_at": iso(end) if end else None,
        "remaining": max(0.0, (end - now).total_seconds()) if end and not rnd.closed else None,
        "extended": [{"table": t, "minutes": m, "ends_at": iso(round_end(st, rnd, t)) if end else None,
                      "reasons": reasons.get(t, [])} for t, m in extended.items()],
    }
    return out


def over_time(st: T.Tournament, rnd: T.Round, now: datetime, finished: Iterable[str]) -> list[dict[str, Any]]:
    """The tables of an open round past their own end and without a result yet."""
    if rnd.closed:
        return []
    done = {str(t) for t in finished}
    out = []
    for seat in rnd.tables:
        end = round_end(st, rnd, seat.table)
        if end is not None and now > end and seat.table not in done:
            out.append({"table": seat.table, "players": list(seat.players), "ends_at": iso(end),
                        "over_s": int((now - end).total_seconds())})
    return out


def iso(when: datetime | None) -> str | None:
    return when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z") if when else None


__all__ = ["MIRROR", "RESULTS", "TableReports", "by_key", "clock_json", "default_games", "disputes", "extra_minutes",
           "mirrored", "over_time", "parse_games", "parse_time", "round_end", "round_reports", "table_reports"]
