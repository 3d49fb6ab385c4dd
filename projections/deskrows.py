"""What the judges' desk shows of each match, kept in the read model (issue 25: the desk costs
the event, not the store, and folds nothing it can read).

Two parts, because they cost differently:

* ``facts``: the result as the desk shows it (a provisional KIFU-3 result too), whose turn it
  is, the last line's time, the open disputes and the penalties. They come from the fold the
  read model makes anyway (no rule checks) and a walk over the lines, and are written with the
  match's row (column ``matches.desk``, JSON), so a rebuild and a catch-up write the same.
* the violations: they need the fold WITH rule checks, which costs about twice the read
  model's fold; making every rebuild pay that for the desk would slow every rebuild. They are
  kept in table ``checked`` as ``(match, steps, violations)``: the violations of the match's
  first ``steps`` lines, a fact that never changes (the store is append-only). Written where a
  checked fold is at hand (the record path hands its head fold to the catch-up) and by the desk
  when it had to fold a match (``exports.desk.model_rows``); a row whose steps are behind the
  match's is folded again. Not part of the projection proper: a rebuild empties it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from projections.disputes import dispute_states
from projections.names import name_key

CHECKED_DDL = "create table if not exists checked (match_id text primary key, steps integer, violations text)"
_MISSING = object()
# json.dumps(x, ensure_ascii=False, separators=(",", ":")) with one encoder made once (a rebuild
# writes the desk column of every match): the same text.
_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_DESK_TYPES = frozenset({"dispute", "ruling", "appeal", "penalty"})  # what dispute_states and the penalties read


def facts(
    header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], result: Any, board: Any, ruleset: Any,
) -> str:
    """The ``desk`` column of one match (JSON): its players' ids in header order (the row keeps
    their names, decks and archetypes), its result as ``exports.timeline.summary`` gives it,
    ``turn`` and ``active`` as the board's JSON says them, the time of the last line that has
    one, the open disputes and the penalties."""
    players = [p for p in header.get("players") or [] if isinstance(p, dict)]
    ids = [str(p.get("id")) for p in players]
    names = {str(p.get("id")): p.get("name") or p.get("id") for p in players}
    res = None
    if result is not None:
        res = {"winner": result.winner, "winner_name": names.get(result.winner) if result.winner else None,
               "reason": result.reason}
        if result.pending is not None:
            res["pending"] = result.pending.to_json()
    turn = getattr(board, "turn", _MISSING)
    active = getattr(board, "active", _MISSING)
    if turn is _MISSING or active is _MISSING:  # a board without them: what its JSON says
        body = ruleset.board_json(board) if board is not None else {}
        turn, active = body.get("turn"), body.get("active")
    # the last line's time and the few lines the desk reads, in one walk (a rebuild writes this
    # for every match: one walk, not three)
    at = None
    judged = []
    for e in entries:
        if e.get("at"):
            at = e["at"]
        if e.get("type") in _DESK_TYPES:
            judged.append(e)
    last_at = None if at is None else str(at)
    disputes = [d.to_json() for d in dispute_states(judged).values() if d.is_open] if judged else []
    penalties = [
        {"seq": e["seq"], "player": e["player"], "name": names.get(e["player"], e["player"]),
         "penalty": e["penalty"], "infraction": e.get("infraction")}
        for e in judged if e.get("type") == "penalty"
    ]
    return _compact({"ids": ids, "result": res, "turn": turn, "active": active, "last_at": last_at,
                     "disputes": disputes, "penalties": penalties})


def event_rows(conn: sqlite3.Connection, event: str) -> list[dict[str, Any]]:
    """The desk rows of ``event`` (``exports.desk.match_row``'s shape, without its links),
    through the event index, in creation order. ``violations`` is None where ``checked`` has
    none for the match's current steps (the caller folds it), ``error`` is the row's."""
    cur = conn.execute(
        "select m.id, m.game, m.round, m.\"table\", m.players, m.decks, m.archetypes, m.steps, m.desk, m.error, "
        "c.steps, c.violations from matches m left join checked c on c.match_id = m.id "
        "where m.event_key = ? order by m.created, m.id", [name_key(event)])
    out = []
    for mid, game, rnd, table, names, decks, archetypes, steps, desk, error, c_steps, c_viol in cur.fetchall():
        d = json.loads(desk) if desk else {}
        ids = d.get("ids") or []
        names, decks, archetypes = json.loads(names or "[]"), json.loads(decks or "[]"), json.loads(archetypes or "[]")
        players = [{"id": pid, "name": names[i], "deck": decks[i] or "", "archetype": archetypes[i] or ""}
                   for i, pid in enumerate(ids)]
        res = d.get("result")
        if res and res.get("pending"):
            status = "pending_ruling"  # decided by a line that broke a rule (KIFU-3): a judge's to settle
        else:
            status = "finished" if res else ("in_progress" if steps else "not_started")
        active = d.get("active")
        out.append({
            "id": mid, "game": game, "round": rnd, "table": table, "players": players, "status": status,
            "result": res, "turn": d.get("turn"), "active": active,
            "active_name": next((p["name"] for p in players if p["id"] == active), active),
            "steps": steps, "last_at": d.get("last_at"),
            "violations": json.loads(c_viol) if c_steps == steps and c_viol is not None else None,
            "disputes": d.get("disputes") or [], "penalties": d.get("penalties") or [], "error": error,
        })
    return out


def save_checked(conn: sqlite3.Connection, found: Iterable[tuple[str, int, list[dict[str, Any]]]]) -> None:
    """Keep ``(match, steps, violations)`` found by a checked fold (no transaction of its own)."""
    conn.executemany("insert or replace into checked (match_id, steps, violations) values (?, ?, ?)",
                     [(mid, steps, json.dumps(v, ensure_ascii=False, separators=(",", ":"))) for mid, steps, v in found])


__all__ = ["CHECKED_DDL", "event_rows", "facts", "save_checked"]
