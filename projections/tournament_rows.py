"""A tournament's read-model queries (the read side of recorder/tournament_service.py), beside
projections/listing.py: the games of an event as the standings read them, and the match rows of
each table of a round as the desk shows them. Everything comes from the statistics read model
(projections/readmodel.py) through its event index: no match is folded or read from the store.
"""

from __future__ import annotations

import json
from typing import Any

from projections import standings
from projections import tournament as T
from projections.names import name_key
from projections.readmodel import catch_up_store
from projections.standings import player_key

__all__ = ["event_games", "round_games"]


def event_games(store: Any, name: str) -> list[standings.Game]:
    """Every game (kifu match) of the event as the standings read it, from the read model
    through its event index: no match is folded or read from the store here."""
    rm = catch_up_store(store)
    try:
        rows = list(rm.db.query(
            'select id, round, "table", finished, winner, reason from matches where event_key = ? order by id',
            [name_key(name)]))
        seats: dict[str, list[dict[str, Any]]] = {}
        for r in rm.db.query(
            "select r.match_id, r.player, r.name from results r join matches m on m.id = r.match_id "
            "where m.event_key = ? order by r.match_id, r.rowid", [name_key(name)]):
            seats.setdefault(r["match_id"], []).append(r)
    finally:
        rm.close()
    games = []
    for row in rows:
        players = [{"id": s["player"], "name": s["name"]} for s in seats.get(row["id"], [])]
        result = {"winner": row["winner"], "reason": row["reason"]} if row["finished"] else None
        games.append(standings.Game.from_summary({"id": row["id"], "round": row["round"], "table": row["table"],
                                                  "players": players, "result": result}))
    return games


def round_games(store: Any, st: T.Tournament, rnd: T.Round) -> dict[str, list[dict[str, Any]]]:
    """The match rows of each table of a round, from the read model by event and round, with
    a match in progress's open disputes and provisional result from its desk facts
    (projections/deskrows.py): nothing is read from the store or folded."""
    rm = catch_up_store(store)
    try:
        rows = list(rm.db.query(
            'select id, "table", players, steps, finished, winner, reason, desk from matches '
            "where event_key = ? and round = ? order by id", [name_key(st.name), rnd.number]))
        names = {(r["match_id"], r["player"]): r["name"] for r in rm.db.query(
            "select r.match_id, r.player, r.name from results r join matches m on m.id = r.match_id "
            "where m.event_key = ? and m.round = ?", [name_key(st.name), rnd.number])}
    finally:
        rm.close()
    seated = {s.table: {player_key(p) for p in s.players} for s in rnd.tables}
    out: dict[str, list[dict[str, Any]]] = {s.table: [] for s in rnd.tables}
    for r in rows:
        table = str(r["table"])
        if seated.get(table) != {player_key(p) for p in json.loads(r["players"] or "[]")}:
            continue  # a match left behind by a judge's change
        row = {"match": r["id"], "steps": r["steps"], "finished": bool(r["finished"]),
               "winner_name": names.get((r["id"], r["winner"])) if r["winner"] else None, "reason": r["reason"],
               "open_disputes": 0}
        if r["steps"] and not r["finished"]:  # a match in progress: its open disputes, a result pending
            facts = json.loads(r["desk"] or "{}")
            row["open_disputes"] = len(facts.get("disputes") or ())
            pending = (facts.get("result") or {}).get("pending")
            if pending is not None:
                row["pending"] = pending
        out[table].append(row)
    return out
