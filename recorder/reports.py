"""The players' own reports of their table's result and a judge's time extension (issue 33):
the decisions, as recorder/tournament_service.py makes the tournament's others.

A report is a ``report`` line of the event's stream (who, which table, what, when, with the
idempotency key it was sent with). When the table's two reports agree (projections/reports.py)
the result stands: the same transaction appends a ``result`` line with reason ``reported`` to
each game of the table (who reported and when, on the line), so the standings count it as any
recorded result. A disagreement writes nothing to the matches: the desk lists the table as a
dispute, and the round closes with it unreported until a judge records the result (a judge's
``result`` line comes later in the match, so it stands over the reported one).

A scorekeeper's or a judge's recorded result takes precedence: a table whose games have a
result not from reports refuses reports. A report after the round closed is refused. A report
sent again with the same key is the first report, answered again (``repeated``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from exports import event_pages
from projections import reports as R
from projections import tournament as T
from projections.base import N_, at, said
from projections.errors import ConflictError, LogFormatError, NotFoundError
from projections.standings import player_key
from recorder import tournament_service as ts
from recorder.store import Store, event_for, now_iso

ATTEMPTS = 3  # a report raced by another line of the event is decided again, this many times
MAX_EXTENSION = 120  # minutes


def _recorded(store: Store, ids: Sequence[str]) -> str | None:
    """The first game of the table with a result that did not come from reports (a
    scorekeeper's or a judge's, or the rules'), or None."""
    from projections.replay import Replay

    for mid in ids:
        if not store.exists(mid):
            continue
        rep = Replay(*store.load(mid))
        res = rep.result()
        if res is not None and res.reason != "reported":
            return mid
    return None


def _check_games(st: T.Tournament, result: str, games: str | None) -> str:
    if result not in R.RESULTS:
        raise LogFormatError([at("result", said(N_("one of win, loss, draw, got {value!r}"), value=result))])
    text = games if games not in (None, "") else (R.default_games(result) if st.best_of == 1 else None)
    if text is None:
        raise LogFormatError([at("games", said(N_("a best of {n} needs the games, e.g. 2-1"), n=st.best_of))])
    score = R.parse_games(text)
    need = st.best_of // 2 + 1
    if score is None:
        raise LogFormatError([at("games", said(N_("wins-losses or wins-losses-draws from your side, e.g. 2-1, got {value!r}"), 
            value=text))])
    w, lost, d = score
    if w > need or lost > need or d > st.best_of or w + lost + d == 0:
        raise LogFormatError([at("games", said(N_("{value} is not a score of a best of {n}"), value=text, n=st.best_of))])
    if (result == "win") != (w > lost) or (result == "loss") != (w < lost):
        raise LogFormatError([at("games", said(N_("{value} is not the score of a {result}"), value=text, result=result))])
    return f"{w}-{lost}" + (f"-{d}" if d else "")


def report(store: Store, name: str, player: str, result: str, games: str | None = None, *,
           by: str | None = None, key: str | None = None) -> dict[str, Any]:
    """Record one player's report; returns ``{"line", "status", "repeated", "recorded"}``
    (``recorded``: the games whose result the agreement wrote)."""
    if key is not None:
        from recorder import tokens

        tokens.check_key(key)
    for attempt in range(ATTEMPTS):
        st = ts.state(store, name)
        if key is not None:
            for rnd in st.paired:
                done = R.by_key(rnd, key)
                if done is not None and player_key(done.get("player")) == player_key(player):
                    seat = next((s for s in rnd.tables if s.table == str(done.get("table"))), None)
                    status = R.table_reports(rnd, seat).status if seat else "none"
                    return {"line": dict(done), "status": status, "repeated": True, "recorded": []}
        try:
            return _report_once(store, st, player, result, games, by, key)
        except ConflictError:
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _report_once(store: Store, st: T.Tournament, player: str, result: str, games: str | None,
                 by: str | None, key: str | None) -> dict[str, Any]:
    reg = st.player(player)
    if reg is None:
        raise NotFoundError(at("player", said(N_("{player!r} is not registered in {event!r}"), player=player, event=st.name)))
    rnd = st.current
    if rnd is None:
        raise LogFormatError([at("round", said(N_("{event!r} has no round paired yet"), event=st.name))])
    if rnd.closed:
        raise LogFormatError([at("round", said(N_("round {n} of {event!r} is closed: a report after the close is refused; "
                                             "a judge records the result"), n=rnd.number, event=st.name))])
    seat = rnd.table_of(reg.name)
    if seat is None:
        raise LogFormatError([at("player", said(N_("{player!r} has no table in round {n}"), player=reg.name, n=rnd.number))])
    score = _check_games(st, result, games)
    before = R.table_reports(rnd, seat)
    if before.status == "agreed":
        raise LogFormatError([at("player", said(N_("table {table}: both players' reports agree, the result stands; "
                                              "a judge changes it"), table=seat.table))])
    ids = event_pages.game_ids(st, seat)
    kept = _recorded(store, ids)
    if kept is not None:
        raise LogFormatError([at("player", said(N_("table {table}: its result is recorded in {match!r} (a scorekeeper's or "
                                              "a judge's record stands over reports)"), table=seat.table, match=kept))])
    line: dict[str, Any] = {"type": "report", "round": rnd.number, "table": seat.table, "player": reg.name,
                            "result": result, "games": score}
    if by:
        line["by"] = by
    if key:
        line["key"] = key
    probe = {**line, "seq": st.steps + 1, "at": None}
    after = R.table_reports(replace(rnd, reports=(*rnd.reports, probe)), seat)
    extra: list[Any] = []
    if after.status == "agreed":
        extra = _result_events(store, st, seat, ids, after, by)
    written = ts._append(store, st.name, st, line, extra)
    if extra:
        from recorder import service

        for mid in ids:
            service.forget_head(store, mid)
    return {"line": written, "status": after.status, "repeated": False,
            "recorded": [ids[i] for i in range(len(extra))]}


def _result_events(store: Store, st: T.Tournament, seat: T.Seat, ids: Sequence[str], agreed: R.TableReports,
                   by: str | None) -> list[Any]:
    """The ``result`` lines of the table's games the agreed score decides, as domain events at
    each match's next version: the winner's wins first, then the loser's, then the drawn games."""
    from recorder.service import prepare

    a = agreed.players[0]
    w, lost, d = R.parse_games(agreed.latest[a]["games"]) or (0, 0, 0)
    other = agreed.players[1]
    # the match's winner takes the last games (a 2-1 was won in game 3), drawn games before them
    order: list[str | None] = ([other] * lost + [None] * d + [a] * w) if w >= lost else ([a] * w + [None] * d + [other] * lost)
    stamp = now_iso()  # the report being made now has no time of its own yet: its line gets it with this write
    reported = [{"player": p, "at": agreed.latest[p].get("at") or stamp, "seq": agreed.latest[p].get("seq")}
                for p in agreed.players]
    events = []
    for mid, winner in zip(ids, order, strict=False):
        header, entries = store.load(mid)
        pid = next((p["id"] for p in header["players"] if player_key(p.get("name")) == player_key(winner)), None) \
            if winner is not None else None
        line = {"type": "result", "by": by or "players", "winner": pid, "reason": "reported", "reported": reported}
        entry = prepare(header, entries, line, mid)
        events.append(event_for(store.stream_of(mid), entry["seq"] + 1, entry))
    return events


def issue_player_token(store: Store, event: str, player: str, name: str | None = None) -> tuple[str, Any]:
    """A player's token (recorder/tokens.py) for a player registered in ``event``, named as registered."""
    from recorder import tokens

    reg = ts.state(store, event).player(player)
    if reg is None:
        raise NotFoundError(at("--player", said(N_("{player!r} is not registered in {event!r}"), player=player, event=event)))
    return tokens.issue(store, "player", event=event, name=name, player=reg.name)


def extend(store: Store, name: str, table: str, minutes: int, reason: str, by: str | None = None) -> dict[str, Any]:
    """A judge gives one table of the open round extra minutes, with the reason."""
    st = ts.state(store, name)
    rnd = st.current
    if rnd is None or rnd.closed:
        raise LogFormatError([at("--table", said(N_("{event!r} has no open round to extend"), event=name))])
    seat = next((s for s in rnd.tables if s.table == str(table).strip()), None)
    if seat is None:
        raise NotFoundError(at("--table", said(N_("round {n} of {event!r} has no table {table!r}"), 
            n=rnd.number, event=name, table=table)))
    if not 1 <= minutes <= MAX_EXTENSION:
        raise LogFormatError([at("--minutes", said(N_("1 to {limit}, got {value}"), limit=MAX_EXTENSION, value=minutes))])
    if not reason.strip():
        raise LogFormatError([at("--reason", N_("a judge's reason is needed"))])
    line: dict[str, Any] = {"type": "extend", "round": rnd.number, "table": seat.table, "minutes": minutes,
                            "reason": reason.strip()}
    if by:
        line["by"] = by
    return ts._append(store, name, st, line)


__all__ = ["extend", "issue_player_token", "report"]
