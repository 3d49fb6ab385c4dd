"""The match list filtered and paged in SQL (issue 25: every view costs what it shows).

``page(db, q, limit, offset)`` answers the list page, ``/api/matches`` and ``kifu matches`` from
the read model's tables (projections/readmodel.py): the filters are WHERE clauses on indexed
keys where they can be (game, event, round) and an EXISTS on one match's results otherwise;
only the rows of the page are read, and only their results. The filters mean what the list's
filters always meant (``recorder/web/common.py: matches_filter``): event, player and deck are
case-insensitive substrings of the normalised names; ``result`` is ``in-progress``, ``decided``,
``draw``, a reason code, or a player id.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from typing import Any

from projections import registry
from projections.errors import UnknownGameError
from projections.names import name_key

FILTERS = ("game", "event", "round", "player", "deck", "result", "q")
ROUND = re.compile(r"-?\d+")  # what int() reads of a round number (full-width digits too)


def _keys_containing(table: str, column: str) -> str:
    """The distinct values of an indexed ``column`` that contain ``?``: one index seek per
    distinct value (a season has a few hundred events), never a walk over every row."""
    return (f"with recursive k(v) as (select min({column}) from {table} union all "
            f"select (select min({column}) from {table} where {column} > v) from k where v is not null) "
            f"select v from k where v is not null and instr(v, ?) > 0")


def where(q: Mapping[str, str]) -> tuple[str, list[Any]] | None:
    """The WHERE clause of the filters (None: no row can match, e.g. an unknown game)."""
    clauses: list[str] = []
    params: list[Any] = []
    if q.get("game"):
        try:
            clauses.append("m.game = ?")
            params.append(registry.canonical(q["game"]))
        except UnknownGameError:
            return None
    if q.get("event"):  # the events whose names contain it, then their matches by the event index
        clauses.append(f"m.event_key in ({_keys_containing('matches', 'event_key')})")
        params.append(name_key(q["event"]))
    if (q.get("round") or "").strip():
        text = q["round"].strip()
        if not ROUND.fullmatch(text):  # "--1" or "²" passed isdigit() and then broke int()
            return None
        clauses.append("m.round = ?")
        params.append(int(text))
    if q.get("player"):  # the players whose names contain it (or with that id), by the player indexes
        clauses.append(f"m.id in (select r.match_id from results r where r.player_key in "
                       f"({_keys_containing('results', 'player_key')}) union "
                       f"select r.match_id from results r where r.player = ?)")
        params += [name_key(q["player"]), q["player"]]
    if q.get("deck"):
        key = name_key(q["deck"])
        clauses.append("exists (select 1 from results r where r.match_id = m.id "
                       "and (instr(lower(r.deck_key), ?) > 0 or instr(lower(r.archetype_key), ?) > 0))")
        params += [key, key]
    if q.get("q"):  # a search on names: the match id, its title, its event or a player's name
        key = name_key(q["q"])
        clauses.append("(instr(lower(m.id), ?) > 0 or instr(lower(coalesce(m.title, '')), ?) > 0 "
                       "or instr(m.event_key, ?) > 0 or exists (select 1 from results r "
                       "where r.match_id = m.id and instr(r.player_key, ?) > 0))")
        params += [key, key, key, key]
    want = (q.get("result") or "").strip()
    if want == "in-progress":
        clauses.append("m.finished = 0")
    elif want == "decided":
        clauses.append("m.finished = 1")
    elif want == "draw":
        clauses.append("m.finished = 1 and m.winner is null")
    elif want:
        clauses.append("m.finished = 1 and (m.reason = ? or m.winner = ? or exists (select 1 from results r "
                       "where r.match_id = m.id and r.player = m.winner and r.name = ?))")
        params += [want, want, want]
    return (" where " + " and ".join(clauses) if clauses else ""), params


ORDERS = {"id": "m.id", "created": "m.created, m.id"}  # created: the notification id of its header


def page(conn: sqlite3.Connection, q: Mapping[str, str], limit: int | None, offset: int = 0,
         order: str = "id", count: bool = True) -> tuple[list[dict[str, Any]], int]:
    """One page of list rows (the shape of ``exports.timeline.summary``) and the number of
    rows the filters keep (``count=False``: not counted, -1)."""
    found = where(q)
    if found is None:
        return [], 0
    clause, params = found
    total = int(conn.execute(f"select count(*) from matches m{clause}", params).fetchone()[0]) if count else -1
    sql = (f"select m.id, m.game, m.rules, m.title, m.event, m.round, m.\"table\", m.date, m.first, m.steps, "
           f"m.finished, m.winner, m.reason, m.error from matches m{clause} order by {ORDERS[order]}")
    args = list(params)
    if limit is not None or offset:
        sql += " limit ? offset ?"
        args += [-1 if limit is None else limit, offset]
    cur = conn.execute(sql, args)
    cols = [c[0] for c in cur.description]
    rows = [dict(zip(cols, r)) for r in cur.fetchall()]
    seats: dict[str, list[dict[str, Any]]] = {}
    ids = [r["id"] for r in rows]
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        cur = conn.execute(
            f"select match_id, player, name, deck, archetype from results where match_id in "
            f"({', '.join('?' * len(chunk))}) order by match_id, seat", chunk)
        for match_id, player, name, deck, archetype in cur.fetchall():
            seats.setdefault(match_id, []).append({"id": player, "name": name or player, "deck": deck or "",
                                                   "archetype": archetype or ""})
    out = []
    for r in rows:
        players = seats.get(r["id"], [])
        names = {p["id"]: p["name"] for p in players}
        result = None
        if r["finished"]:
            result = {"winner": r["winner"], "winner_name": names.get(r["winner"]) if r["winner"] else None,
                      "reason": r["reason"]}
        out.append({"id": r["id"], "game": r["game"], "rules": r["rules"], "title": r["title"],
                    "event": r["event"], "round": r["round"], "table": r["table"], "date": r["date"],
                    "players": players, "first": r["first"], "steps": r["steps"], "result": result,
                    "error": r["error"]})
    return out, total


def event_matches(conn: sqlite3.Connection, event: str) -> list[tuple[str, int]]:
    """``(match id, steps)`` of every match of ``event`` (its name compared as ``name_key``
    does), in creation order: through the event index, whatever else the store holds."""
    rows = conn.execute("select id, steps from matches where event_key = ? order by created, id",
                        [name_key(event)]).fetchall()
    return [(str(mid), int(steps or 0)) for mid, steps in rows]


# Every event with its first match, one index probe per event (index matches_by_event on
# (event, created)): the next name after the last, then that name's first creation. A GROUP BY
# would read every match of the store to list a few hundred events.
EVENT_NAMES_SQL = """
with recursive ev(name) as (
  select min(event) from matches where event > ''
  union all
  select (select min(event) from matches where event > ev.name) from ev where ev.name is not null
)
select name, (select min(created) from matches where event = ev.name) as c from ev
where name is not null order by c, name
"""


def event_names(conn: sqlite3.Connection) -> list[str]:
    """Every event's name, in the order of its first match (its cost follows the events, not the
    matches: the list of a season's store)."""
    return [str(r[0]) for r in conn.execute(EVENT_NAMES_SQL).fetchall()]


__all__ = ["FILTERS", "ORDERS", "event_matches", "event_names", "page", "where"]
