"""What a player reads on their own page and what the hall reads on the round clock (issue 33):
pure rendering over the fold (projections/tournament.py), the reports and the round's time
(projections/reports.py) and the standings. The web face (recorder/web/players.py) reads the
store and hands the rows in. Japanese by default, English with ``lang="en"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from exports import event_pages, player_words
from projections import reports as R
from projections import standings
from projections import tournament as T
from projections.standings import player_key

GAME_CHOICES = {1: ("1-0", "0-1", "0-0-1"), 3: ("2-0", "2-1", "1-2", "0-2", "1-1-1", "1-0", "0-1", "1-1", "0-0-1")}


def labels(lang: str | None) -> dict[str, str]:
    return {**event_pages.labels(lang), **player_words.labels(lang)}


def me_json(st: T.Tournament, player: str, table: standings.Table, recorded: Mapping[str, bool],
            now: datetime) -> dict[str, Any]:
    """A player's own view: the current round's table, opponent and time, what was reported,
    their record and place. ``recorded``: tables of the current round whose result is in the
    record by other means than reports (a scorekeeper's or a judge's)."""
    reg = st.player(player)
    assert reg is not None
    me = player_key(reg.name)
    row = next((s for s in table.rows if s.player == me), None)
    out: dict[str, Any] = {
        "event": st.name, "player": reg.name, "best_of": st.best_of, "now": R.iso(now),
        "standing": {"rank": row.rank, "points": row.points, "record": row.record} if row else None,
        "round": None,
    }
    rnd = st.current
    if rnd is None:
        return out
    seat = rnd.table_of(reg.name)
    r: dict[str, Any] = {"number": rnd.number, "closed": rnd.closed, "table": None, "opponent": None,
                         "bye": player_key(reg.name) in {player_key(b) for b in rnd.byes}}
    if seat is not None:
        end = R.round_end(st, rnd, seat.table)
        tr = R.table_reports(rnd, seat)
        mine = tr.latest.get(next(p for p in seat.players if player_key(p) == me))
        theirs = next((tr.latest.get(p) for p in seat.players if player_key(p) != me), None)
        status = "closed" if rnd.closed else "recorded" if recorded.get(seat.table) and tr.status != "agreed" else tr.status
        r.update({
            "table": seat.table, "matches": event_pages.game_ids(st, seat), "opponent": " / ".join(p for p in seat.players if player_key(p) != me),
            "ends_at": R.iso(end), "extended": R.extra_minutes(rnd).get(seat.table, 0),
            "status": status, "mine": dict(mine) if mine else None,
            # the opponent's report is shown once both sides have reported (no copying it first)
            "theirs": dict(theirs) if theirs and mine else None,
            "can_report": not rnd.closed and status in ("none", "waiting", "dispute"),
        })
    out["round"] = r
    return out


def me_context(data: Mapping[str, Any], lang: str) -> dict[str, Any]:
    return {"me": data, "t": labels(lang), "lang": lang, "choices": GAME_CHOICES.get(int(data["best_of"]), GAME_CHOICES[3]),
            "urls": event_pages.urls(str(data["event"]), lang)}


def clock_context(st: T.Tournament | None, event: str, data: Mapping[str, Any], lang: str) -> dict[str, Any]:
    return {"event": event, "clock": data, "t": labels(lang), "lang": lang}


__all__ = ["GAME_CHOICES", "clock_context", "labels", "me_context", "me_json"]
