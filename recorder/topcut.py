"""The top cut's decisions and the round close's check (beside recorder/tournament_service.py,
whose ``pair``, ``close`` and line checks call in here): ``kifu round cut E --top N`` seeds
the first playoff round from the final Swiss standings, ``kifu round pair E`` pairs the next
playoff round from the winners, ``kifu round game E --table T`` adds a game at a table (a
playoff match has no draw: the table plays on until a player wins; a Swiss best of three at
1-1-1 before time too). The next playoff round is paired by ``tournament_service.pair``, and
what ``kifu round close`` refuses on is ``projections.bracket.unreported_tables``.

The bracket itself (seeding order, winners, places) is projections/bracket.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from projections import bracket, standings
from projections import tournament as T
from projections.base import N_, at, said
from projections.errors import LogFormatError, NotFoundError
from projections.standings import player_key
from recorder.store import Store

__all__ = ["add_game", "cut"]


def _service() -> Any:
    from recorder import tournament_service  # one way only: the service never imports this module
    return tournament_service


def cut(store: Store, name: str, top: int, games: Sequence[standings.Game]) -> dict[str, Any]:
    """Seed the top ``top`` of the final Swiss standings and pair the first playoff round."""
    svc = _service()
    st = svc.state(store, name)
    if st.cut:
        raise LogFormatError([said(N_("{event!r} has its top {n} cut already"), event=name, n=st.cut_top)])
    last = st.round(st.rounds)
    if last is None or not last.closed or st.open_round is not None:
        raise LogFormatError([said(N_("{event!r}: the top cut comes after the last Swiss round ({n}) is closed"),
                                   event=name, n=st.rounds)])
    active = [p for p in st.active(st.rounds + 1)]
    if not bracket.is_power_of_two(top) or top > len(st.players):
        raise LogFormatError([at("--top", said(N_("2, 4, 8 or another power of two up to the {n} players, got {value}"),
                                               n=len(st.players), value=top))])
    if len(active) <= top // 2:
        raise LogFormatError([at("--top", said(N_("a top {n} needs more than {half} active players, {event!r} has "
                                                  "{active}"), n=top, half=top // 2, event=name, active=len(active)))])
    table = T.event_standings(st, games)
    seeds = bracket.cut_seeds(st, table, top)
    tables, byes = bracket.first_round(seeds, top)
    number = st.rounds + 1
    line: dict[str, Any] = {"type": "cut", "round": number, "top": top, "seeds": seeds, "tables": tables,
                            "byes": byes, "method": "cut"}
    return _store(store, st, number, line)


def _store(store: Store, st: T.Tournament, number: int, line: dict[str, Any]) -> dict[str, Any]:
    svc = _service()
    best_of = st.best_of_in(number)
    for t in line["tables"]:
        t["match"] = T.match_id(st.name, number, t["table"], 1, best_of)
    return svc._append(store, st.name, st, line, svc._matches_for(store, st, number, T.seats(line["tables"])))


def add_game(store: Store, name: str, table: str, round_no: int | None = None) -> dict[str, Any]:
    """Another game at a table of the open round (``…-g4`` after ``-g3``): a playoff match
    goes on until a player wins, and a best of N whose games were drawn has a decider to play.
    Returns the new match's header. Refused once the table is decided or the round closed."""
    from recorder import logformat
    from recorder.domain import Match
    from projections import tournament_rows

    svc = _service()
    st = svc.state(store, name)
    rnd = st.round(round_no) if round_no is not None else st.current
    if rnd is None:
        raise NotFoundError(at("--round", said(N_("{event!r} has no round {n}"), event=name, n=round_no)))
    if rnd.closed:
        raise LogFormatError([at("--round", said(N_("round {n} of {event!r} is closed"), n=rnd.number, event=name))])
    seat = next((s for s in rnd.tables if s.table == str(table)), None)
    if seat is None:
        raise NotFoundError(at("--table", said(N_("round {n} of {event!r} has no table {table!r}"), n=rnd.number,
                                               event=name, table=table)))
    games = [g for g in tournament_rows.event_games(store, name) if g.round == rnd.number and str(g.table) == seat.table]
    p = standings.Pairing(rnd.number, seat.table, tuple(player_key(n) for n in seat.players), games)
    if p.settle(best_of=st.best_of_in(rnd.number), closed=False):
        raise LogFormatError([at("--table", said(N_("table {table} of round {n} is decided already"), table=seat.table,
                                                 n=rnd.number))])
    if any(not g.finished for g in games):
        open_ = next(g.match_id for g in games if not g.finished)
        raise LogFormatError([at("--table", said(N_("table {table}: game {match!r} is not finished yet"),
                                                 table=seat.table, match=open_))])
    number = len(games) + 1
    header = logformat.normalise_header(svc.match_header(st, rnd.number, seat.table, seat.players, number))
    base = T.match_id(st.name, rnd.number, seat.table, 1, st.best_of_in(rnd.number))
    header["match"]["id"] = (base[:-3] if base.endswith("-g1") else base) + f"-g{number}"
    header["match"]["title"] = f"{st.name} R{rnd.number} T{seat.table} G{number}"
    _, errors = logformat.validate_header(header)
    if errors:
        raise LogFormatError([str(e) for e in errors])
    store.create_stream([Match(header=header).collect_events()[0]], what=header["match"]["id"])
    from recorder import hooks
    hooks.after_write(store)
    return header
