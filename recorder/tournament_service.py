"""The tournament's decisions ("event" in the CLI, the players' word): what recorder/service.py
is for a match, this is for a tournament.

Its stream (the ``Tournament`` aggregate of recorder/domain.py) sits beside the match streams
in the same store. Deciding happens here, before a line is appended; folding
(projections/tournament.py) never validates. Each command loads the stream, decides against
its fold, and appends at the version it folded (``Store.append_events``): a racing writer gets
ConflictError and nothing is written, as for a match. After every write the after-write
listeners run (recorder/hooks.py: the read model catches up), whichever face wrote.
Its read-model queries are in projections/tournament_rows.py, its CSV in and out in
exports/tournament.py.

A round paired here also creates its matches, in the same transaction as the ``pair`` line: a
pairing is never stored without its matches, nor its matches without it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

from exports import tournament as tournament_csv
from projections import registry
from projections import tournament as T
from projections.base import at, said
from projections.base import N_
from projections.errors import ConflictError, DuplicateMatchError, KifuError, LogFormatError, NotFoundError
from projections.replay import _parse_time
from projections.standings import player_key
from recorder import hooks, logformat, tournament_day
from recorder.ids import TOURNAMENT_OPENED_TOPICS, tournament_uuid
from recorder.store import Store, now_iso

FORMAT = 1
MAX_ROUNDS = 30
NAME_LIMIT = 100
OPENED_TOPICS = TOURNAMENT_OPENED_TOPICS  # as stored (this build's topic, then the one before issue 32)


def event_uuid(name: str) -> UUID:
    """The stream id of a tournament (recorder/ids.py)."""
    return tournament_uuid(name)


# -- reading ----------------------------------------------------------------------------------


def exists(store: Store, name: str) -> bool:
    return store.stream_exists(event_uuid(name))


def load(store: Store, name: str, as_of: datetime | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The event log's header and lines (those stored up to ``as_of``, when given)."""
    events = store.load_stream(event_uuid(name))
    if not events:
        raise NotFoundError(said(N_("no event {name!r} in {db} (kifu event new {event} --game G --rounds N)"), name=name, db=store.safe_db, event=name))
    header = events[0].state.get("opened")
    if not isinstance(header, dict):
        raise NotFoundError(said(N_("{name!r} is not an event stream in {db}"), name=name, db=store.safe_db))
    lines = []
    for ev in events[1:]:
        line = ev.state["line"]
        if as_of is not None:  # as for a match: the line's own time, else the time it was stored
            when = _parse_time(line["at"]) if line.get("at") else ev.stored_at
            if when is not None and when > as_of:
                break
        lines.append(line)
    return header, lines


def state(store: Store, name: str, as_of: datetime | None = None) -> T.Tournament:
    header, lines = load(store, name, as_of)
    return T.fold(header, lines)


def names(store: Store) -> list[str]:
    """Every event with a stream of its own, in the order they opened."""
    out: list[str] = []
    after = 0
    while True:
        page = store.topic_states(OPENED_TOPICS, after)
        if not page:
            return out
        out += [str(state["opened"]["event"]["name"]) for _, state in page]
        after = page[-1][0]


def copy(source: Store, target: Store, name: str) -> bool:
    """Copy one event's stream to another store (``kifu migrate``): True if copied, False if the
    target holds it already, the same; ConflictError if the target's differs."""
    lines = export_lines(source, name)
    if exists(target, name):
        if export_lines(target, name) != lines:
            raise ConflictError(said(N_("event {name!r} differs between source and target; left untouched in the target"), name=name))
        return False
    header, entries = load(source, name)
    _create(target, header, entries, hook=False)
    return True


def export_lines(store: Store, name: str) -> list[str]:
    header, lines = load(store, name)
    return [logformat.dumps(header), *(logformat.dumps(line) for line in lines)]


# -- writing ----------------------------------------------------------------------------------


def _append(store: Store, name: str, st: T.Tournament, line: dict[str, Any], extra: Sequence[Any] = ()) -> dict[str, Any]:
    """Append ``line`` after the ``st.steps`` lines ``st`` was folded from (and ``extra``
    domain events, e.g. a round's matches, in the same transaction)."""
    from recorder.domain import tournament_line_event  # the domain model: on the paths that write only

    line = {"seq": st.steps + 1, **{k: v for k, v in line.items() if k != "seq"}, "at": now_iso()}
    errors = logformat.storable_errors(line)
    if errors:
        raise LogFormatError([at(name, e) for e in errors])
    store.append_events(event_uuid(name), st.steps + 1, [tournament_line_event(event_uuid(name), st.steps + 2, line)],
                        also=extra, what=said(N_("event {name!r}"), name=name))
    hooks.after_write(store)
    return line


def open_event(
    store: Store, name: str, game: str, rounds: int, *, format: str = "bo1", round_minutes: int = T.DEFAULT_ROUND_MINUTES,
    tiebreaks: Sequence[str] = T.TIEBREAKS, unfinished: str = "draw", seed: int | None = None, date: str | None = None,
    lists: str = "closed",
    checkin: bool = False,
    cut_format: str = T.DEFAULT_CUT_FORMAT,
) -> T.Tournament:
    errors = []
    name = " ".join(str(name).split())
    if not name or len(name) > NAME_LIMIT or not logformat.MATCH_ID.fullmatch(name.replace(" ", "_")):
        errors.append(at("event", said(N_("a name of 1-{limit} letters, digits, spaces, '.', ':', '_' or '-', got {value!r}"), limit=NAME_LIMIT, value=name)))
    try:
        ruleset = registry.get(game)
    except KifuError as exc:
        errors.append(f"--game: {exc}")
        ruleset = None
    if not 1 <= rounds <= MAX_ROUNDS:
        errors.append(at("--rounds", said(N_("1 to {limit}, got {value}"), limit=MAX_ROUNDS, value=rounds)))
    if format not in T.FORMATS:
        errors.append(at("--format", said(N_("one of {choices}, got {value!r}"), choices=", ".join(T.FORMATS), value=format)))
    if cut_format not in T.FORMATS:
        errors.append(at("--cut-format", said(N_("one of {choices}, got {value!r}"), choices=", ".join(T.FORMATS),
                                              value=cut_format)))
    if not 1 <= round_minutes <= 600:
        errors.append(at("--round-minutes", said(N_("1 to {limit}, got {value}"), limit=600, value=round_minutes)))
    order = [t.strip().lower() for t in tiebreaks if t.strip()]
    if sorted(order) != sorted(set(order)) or not set(order) <= set(T.TIEBREAK_NAMES) or not order:
        errors.append(at("--tiebreaks", said(N_("an order of {known} without repeats, got {value!r}"),
                                             known=", ".join(T.TIEBREAK_NAMES), value=",".join(tiebreaks))))
    if unfinished not in T.UNFINISHED:
        errors.append(at("--unfinished", said(N_("one of {choices}, got {value!r}"), choices=", ".join(T.UNFINISHED), value=unfinished)))
    if lists not in T.LISTS:
        errors.append(at("--lists", said(N_("one of {choices}, got {value!r}"), choices=", ".join(T.LISTS), value=lists)))
    if errors:
        raise LogFormatError(errors)
    assert ruleset is not None
    header: dict[str, Any] = {"kifu": FORMAT, "kind": "event", "event": {
        "name": name, "game": ruleset.name, "rules": f"{ruleset.name}/{ruleset.version}", "rounds": rounds,
        "format": format, "round_minutes": round_minutes, "tiebreaks": order,
        "house_rules": {"unfinished_game": unfinished},
        "seed": seed if seed is not None else random.SystemRandom().randrange(2**31), "date": date,
        "lists": lists,
        "cut_format": cut_format,
    }}
    if checkin:  # only when asked: an event without check-in keeps the header it always had
        header["event"]["checkin"] = True
    _create(store, header, [])
    return T.fold(header, [])


def _create(store: Store, header: dict[str, Any], lines: Sequence[dict[str, Any]], extra: Sequence[Any] = (),
            hook: bool = True) -> None:
    """Store a new tournament stream; ``hook``: run the after-write listeners (not for a copy
    between stores, ``kifu migrate``, which copies matches without them too)."""
    from recorder.domain import Tournament, tournament_line_event

    name = header["event"]["name"]
    if exists(store, name):
        raise DuplicateMatchError(said(N_("event {name!r} is already recorded"), name=name))
    events = [Tournament(opened=header).collect_events()[0]]
    events += [tournament_line_event(event_uuid(name), i + 2, line) for i, line in enumerate(lines)]
    try:
        store.create_stream(events, also=extra, what=said(N_("event {name!r}"), name=name))
    except DuplicateMatchError:
        raise DuplicateMatchError(said(N_("event {name!r} is already recorded"), name=name)) from None
    if hook:
        hooks.after_write(store)


def deck_errors(game: str, deck: Mapping[str, Any] | None) -> list[str]:
    """The game's deck rules applied to one registered deck: the deck in a trial header of
    two players who both bring it (only the first player's problems are reported)."""
    if deck is None:
        deck = {"name": "", "cards": []}
    ruleset = registry.get(game)
    trial = {"kifu": 1, "game": ruleset.name, "match": {"id": "registration"},
             "players": [{"id": "A", "name": "A", "deck": dict(deck)}, {"id": "B", "name": "B", "deck": dict(deck)}]}
    return [str(e).replace("players[0].deck", "deck") for e in ruleset.validate_header(trial)
            if str(e.field).startswith("players[0]")]


def register(store: Store, name: str, player: str, deck: Mapping[str, Any] | None = None, *,
             reading: str | None = None, late: bool = False) -> dict[str, Any]:
    """Register a player (``reading``: the name in kana; ``late``: after round 1 is paired,
    with a match loss for each round paired so far: recorder/tournament_day.py)."""
    st = state(store, name)
    player = " ".join(str(player).split())
    if not player or len(player) > NAME_LIMIT:
        raise LogFormatError([at("--player", said(N_("a name of 1-{limit} characters, got {value!r}"), limit=NAME_LIMIT, value=player))])
    if st.player(player) is not None:
        raise LogFormatError([at("--player", said(N_("{player!r} is already registered in {event!r}"), player=player, event=name))])
    extras = tournament_day.registration_extras(st, player, reading, late)
    problems = deck_errors(st.game, deck)
    if problems:
        raise LogFormatError([at(f"--deck: {player}", p) for p in problems])
    line: dict[str, Any] = {"type": "register", "player": player}
    if deck is not None:
        line["deck"] = dict(deck)
    line.update(extras)
    return _append(store, name, st, line)


def drop(store: Store, name: str, player: str, after: int | None = None, by: str | None = None) -> dict[str, Any]:
    st = state(store, name)
    reg = st.player(player)
    if reg is None:
        raise NotFoundError(at("--player", said(N_("{player!r} is not registered in {event!r}"), player=player, event=name)))
    if reg.dropped_after is not None:
        raise LogFormatError([at("--player", said(N_("{player!r} already dropped after round {n}"), player=reg.name, n=reg.dropped_after))])
    current = st.current.number if st.current else 0
    after = current if after is None else after
    if not 0 <= after <= current:
        raise LogFormatError([at("--after", said(N_("a round from 0 to {last} (the last paired), got {value}"), last=current, value=after))])
    nxt = st.round(after + 1)
    if nxt is not None and nxt.table_of(reg.name) is not None:
        raise LogFormatError([at("--after", said(N_("{player!r} is paired in round {n}: a judge changes that pairing first "
                                               "(kifu round change), or the player drops after round {n}"), player=reg.name, n=after + 1))])
    line = {"type": "drop", "player": reg.name, "after_round": after}
    if by:
        line["by"] = by
    return _append(store, name, st, line)


def reinstate(store: Store, name: str, player: str, reason: str, by: str | None = None) -> dict[str, Any]:
    st = state(store, name)
    reg = st.player(player)
    if reg is None:
        raise NotFoundError(at("--player", said(N_("{player!r} is not registered in {event!r}"), player=player, event=name)))
    if reg.dropped_after is None:
        raise LogFormatError([at("--player", said(N_("{player!r} has not dropped"), player=reg.name))])
    if not reason.strip():
        raise LogFormatError([at("--reason", N_("a judge's reason is needed"))])
    line: dict[str, Any] = {"type": "reinstate", "player": reg.name, "reason": reason}
    missed = tournament_day.reinstate_missed(st, reg)
    if missed:
        line["missed"] = missed
    if by:
        line["by"] = by
    return _append(store, name, st, line)


def checkin(store: Store, name: str, player: str, by: str | None = None) -> dict[str, Any]:
    """Check a player in (an event opened with ``--checkin``; recorder/tournament_day.py decides)."""
    st = state(store, name)
    return _append(store, name, st, tournament_day.checkin_line(st, player, by))


LINE_FIELDS: dict[str, dict[str, type]] = {
    "register": {"player": str},
    "drop": {"player": str, "after_round": int},
    "reinstate": {"player": str, "reason": str},
    "pair": {"round": int, "tables": list, "byes": list},
    "change": {"round": int, "tables": list, "byes": list, "reason": str},
    "close": {"round": int},
    "publish-lists": {},
    "checkin": {"player": str},
    "report": {"round": int, "table": str, "player": str, "result": str, "games": str},
    "extend": {"round": int, "table": str, "minutes": int, "reason": str},
    "cut": {"round": int, "top": int, "seeds": list, "tables": list, "byes": list},
}


def import_log(store: Store, path: str) -> str:
    """Import an event log written by ``export_lines``, all or nothing; every problem is one
    line naming the file, the line and the field."""
    name = logformat.quote_name(path)
    try:
        raw = Path(path).read_bytes().decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LogFormatError([said(N_("{name}:0: file: {strerror}"), name=name, strerror=getattr(exc, 'strerror', None) or exc)]) from None
    if not raw:
        raise LogFormatError([at(f"{name}:1: header", N_("the file is empty"))])
    header = logformat.loads_object(raw[0], f"{name}:1", N_("the event header"))
    ev = header.get("event")
    problems = []
    if header.get("kifu") != FORMAT or header.get("kind") != "event" or not isinstance(ev, dict):
        problems.append(at(f"{name}:1: kind", N_("not an event log (its first line is the header kifu event export "
                                                  "writes: kifu 1, kind event)")))
    else:
        for key, typ in (("name", str), ("game", str), ("rounds", int)):
            if not isinstance(ev.get(key), typ):
                problems.append(at(f"{name}:1: event.{key}", N_("missing or not a string") if typ is str
                                   else N_("missing or not an integer")))
        if isinstance(ev.get("game"), str):
            try:
                registry.get(ev.get("rules") or ev["game"])
            except KifuError as exc:
                problems.append(f"{name}:1: event.game: {exc}")
        for key, default in (("format", "bo1"), ("cut_format", T.DEFAULT_CUT_FORMAT)):
            if ev.get(key, default) not in T.FORMATS:
                problems.append(at(f"{name}:1: event.{key}", said(N_("one of {choices}, got {value!r}"),
                                                                  choices=", ".join(T.FORMATS), value=ev.get(key))))
    lines: list[dict[str, Any]] = []
    for i, text in enumerate(raw[1:], start=2):
        if not text.strip():
            continue
        line = logformat.loads_object(text, f"{name}:{i}", N_("an event line"))
        kind = line.get("type")
        if line.get("seq") != len(lines) + 1:
            problems.append(at(f"{name}:{i}: seq", said(N_("expected {want}, got {value!r}"), want=len(lines) + 1, value=line.get("seq"))))
        if kind not in LINE_FIELDS:
            problems.append(at(f"{name}:{i}: type", said(N_("one of {choices}, got {value!r}"), choices=", ".join(LINE_FIELDS), value=kind)))
        else:
            for key, kind_of in LINE_FIELDS[kind].items():
                if not isinstance(line.get(key), kind_of) or isinstance(line.get(key), bool):
                    problems.append(f"{name}:{i}: {key}: " + {int: N_("missing or not an integer"), str: N_("missing or not a string"),
                                                              list: N_("missing or not a list")}[kind_of])
        lines.append(line)
    if problems:
        raise LogFormatError(problems)
    _create(store, header, lines)
    return str(ev["name"])  # type: ignore[index]


# -- rounds -----------------------------------------------------------------------------------


def match_header(st: T.Tournament, round_no: int, table: str, players: Sequence[str], game_no: int = 1) -> dict[str, Any]:
    regs = [st.player(p) for p in players]
    return {
        "kifu": 1, "game": st.game, "rules": st.rules,
        "match": {"id": T.match_id(st.name, round_no, table, game_no, st.best_of_in(round_no)), "event": st.name,
                  "round": round_no, "table": str(table),
                  "title": f"{st.name} R{round_no} T{table}" + (f" G{game_no}" if st.best_of_in(round_no) > 1 else ""),
                  **({"date": st.date} if st.date else {}), "house_rules": {}},
        "players": [{"id": pid, "name": reg.name if reg else p, "deck": dict(reg.deck) if reg and reg.deck else {"name": "", "cards": []}}
                    for pid, p, reg in zip("ABCD", players, regs)],
        "first": "A",
    }


def _matches_for(store: Store, st: T.Tournament, round_no: int, tables: Sequence[T.Seat], suffix: str = "") -> list[Any]:
    """The Started events of every game of the given tables (headers checked first);
    ``suffix`` marks the matches of a judge's change (``-c1``)."""
    from recorder.domain import Match

    stored = []
    for seat in tables:
        for g in range(1, st.best_of_in(round_no) + 1):
            header = logformat.normalise_header(match_header(st, round_no, seat.table, seat.players, g))
            header["match"]["id"] += suffix
            _, errors = logformat.validate_header(header)
            if errors:
                raise LogFormatError([said(N_("table {table}: {problem}"), table=seat.table, problem=e) for e in errors])
            if store.exists(header["match"]["id"]):
                if store.top_version(event_uuid(st.name)) != st.steps + 1:  # a racing judge paired it since
                    raise ConflictError(said(N_("{what}: another writer got there first; nothing was recorded, "
                                                "run the command again"),
                                             what=said(N_("event {name!r}"), name=st.name)))
                raise DuplicateMatchError(said(N_("table {table}: match {match!r} is already recorded"), table=seat.table, match=header["match"]["id"]))
            stored.append(Match(header=header).collect_events()[0])
    return stored


def _check_tables(st: T.Tournament, round_no: int, tables: Sequence[Mapping[str, Any]], byes: Sequence[str]) -> list[str]:
    """Every active player exactly once (at a table or with a bye), every name registered."""
    errors = []
    seen: dict[str, str | None] = {}  # player -> the table they are seated at (None: the bye)
    active = {player_key(p) for p in st.active(round_no)}
    labels: set[str] = set()

    for t in tables:
        label = str(t["table"])
        if label in labels:
            errors.append(said(N_("round {round}: table {table} appears twice"), round=round_no, table=label))
        labels.add(label)
        if len(t["players"]) != 2:
            errors.append(said(N_("round {round}: table {table}: 2 players, got {n}"), round=round_no, table=label, n=len(t["players"])))
        for p in t["players"]:
            key = player_key(p)
            if st.player(p) is None:
                errors.append(said(N_("round {round}: table {table}: {player!r} is not registered"), round=round_no, table=label, player=p))
            elif key not in active and st.player(p).no_show:  # type: ignore[union-attr]
                errors.append(said(N_("round {round}: table {table}: {player!r} is a no-show (not checked in)"), round=round_no, table=label, player=p))
            elif key not in active:
                errors.append(said(N_("round {round}: table {table}: {player!r} dropped after round {n}"), round=round_no, table=label, player=p, n=st.player(p).dropped_after))  # type: ignore[union-attr]
            elif key in seen:
                errors.append(said(N_("round {round}: table {table}: {player!r} is already seated at table {other}"), round=round_no, table=label, player=p, other=seen[key]))
            seen.setdefault(key, label)
    for p in byes:
        key = player_key(p)
        if st.player(p) is None:
            errors.append(said(N_("round {round}: bye: {player!r} is not registered"), round=round_no, player=p))
        elif key not in active:
            errors.append(said(N_("round {round}: bye: {player!r} is not in the round (dropped or a no-show)"), round=round_no, player=p))
        elif key in seen:
            other = seen[key]
            errors.append(said(N_("round {round}: bye: {player!r} already has the bye"), round=round_no, player=p)
                          if other is None else
                          said(N_("round {round}: bye: {player!r} is already seated at table {other}"), round=round_no, player=p, other=other))
        seen.setdefault(key, None)
    missing = [st.players[k].name for k in st.players if k in active and k not in seen]
    if missing:
        errors.append(said(N_("round {round}: not paired: {players} (every active player has a table or a bye)"), round=round_no, players=", ".join(missing)))
    return errors


def _next_round(st: T.Tournament) -> int:
    if st.open_round is not None:
        raise LogFormatError([said(N_("round {n} of {event!r} is still open: kifu round close {name}"), n=st.open_round.number, event=st.name, name=st.name)])
    number = (st.current.number if st.current else 0) + 1
    if number > st.rounds:
        raise LogFormatError([said(N_("{event!r} has its {n} rounds; none is left to pair (a top cut: kifu round cut "
                                      "{name} --top N)"), event=st.name, n=st.rounds, name=st.name)])
    if len(st.active(number)) < 2 and not (st.checkin and number == 1):
        raise LogFormatError([said(N_("{event!r}: {n} active player(s); pairing needs 2"), event=st.name, n=len(st.active(number)))])
    return number


def pair(store: Store, name: str, games: Iterable[Any] = (), seed: int | None = None) -> dict[str, Any]:
    """Pair the next round (Swiss; round 1 at random, seeded) and create its matches."""
    from projections import swiss

    st = state(store, name)
    if st.cut:  # a top cut: the next playoff round from the winners (projections/bracket.py)
        if st.open_round is not None:
            _next_round(st)  # refused: the round is still open
        return _pair_playoff(store, st, list(games))
    number = _next_round(st)
    st, no_shows = tournament_day.round_one(st, number)
    seed = seed if seed is not None else (st.seed + number) % 2**31
    active = st.active(number)
    table = T.standings_before(st, number, games)
    points = {r.player: r.points for r in table.rows}
    ranking = [r.player for r in table.rows]
    ranking += [p for p in active if p not in ranking]
    met = {frozenset(s.players) for r in st.paired for s in r.tables}
    had_bye = {p for r in st.paired for p in r.byes}
    result = swiss.pair_round(number, active, points={p: points.get(p, 0) for p in active},
                              ranking=[p for p in ranking if p in set(active)], met=met, had_bye=had_bye, seed=seed)
    tables = [{"table": str(i + 1), "players": list(pair_)} for i, pair_ in enumerate(result.tables)]
    byes = [result.bye] if result.bye else []
    return _store_round(store, st, number, tables, byes, "random" if number == 1 else "swiss", seed, no_shows)


def _pair_playoff(store: Store, st: T.Tournament, games: Sequence[Any]) -> dict[str, Any]:
    """The next playoff round from the last one's winners (it is closed: every table decided)."""
    from projections import bracket

    last = st.playoff_rounds[-1]
    if len(last.tables) + len(last.byes) <= 1:
        raise LogFormatError([said(N_("{event!r} is over: {player} won the final"), event=st.name,
                                   player=bracket.bracket(st, games)["champion"])])
    tables, byes = bracket.next_round(st, games)
    number = last.number + 1
    for t in tables:
        t["match"] = T.match_id(st.name, number, t["table"], 1, st.best_of_in(number))
    line = {"type": "pair", "round": number, "method": "playoff", "tables": tables, "byes": byes}
    return _append(store, st.name, st, line, _matches_for(store, st, number, T.seats(tables)))


def _store_round(store: Store, st: T.Tournament, number: int, tables: list[dict[str, Any]], byes: list[str],
                 method: str, seed: int | None, no_shows: Sequence[str] = ()) -> dict[str, Any]:
    errors = _check_tables(st, number, tables, byes)
    if errors:
        raise LogFormatError(errors)
    for t in tables:
        t["match"] = T.match_id(st.name, number, t["table"], 1, st.best_of)
    seats = T.seats(tables)
    line: dict[str, Any] = {"type": "pair", "round": number, "method": method, "tables": tables, "byes": byes}
    if seed is not None:
        line["seed"] = seed
    if no_shows:
        line["no_shows"] = list(no_shows)
    return _append(store, st.name, st, line, _matches_for(store, st, number, seats))


def import_pairing(store: Store, name: str, path: str) -> dict[str, Any]:
    st = state(store, name)
    number = _next_round(st)
    st, no_shows = tournament_day.round_one(st, number)
    round_no, tables, byes = tournament_csv.read_pairings(path, logformat.quote_name(path))
    if round_no is not None and round_no != number:
        raise LogFormatError([at(f"{logformat.quote_name(path)}:2: round", said(N_(
            "the next round of {event!r} is {n}, got {value}"), event=name, n=number, value=round_no))])
    regs = {player_key(p): p for p in st.active(number)}
    for t in tables:  # names as registered (the CSV may spell them with other widths or spaces)
        t["players"] = [regs.get(player_key(p), p) for p in t["players"]]
    byes = [regs.get(player_key(p), p) for p in byes]
    return _store_round(store, st, number, tables, byes, "import", None, no_shows)


def change(store: Store, name: str, round_no: int | None, tables: list[dict[str, Any]], byes: list[str], reason: str,
           by: str | None = None) -> dict[str, Any]:
    """A judge changes the pairing of an open round: the whole new pairing, with the reason.
    Tables whose players change get new matches (``…-c1``); a table whose match already has
    lines cannot change (its record stands: a judge rules on it instead)."""
    st = state(store, name)
    rnd = st.round(round_no) if round_no is not None else st.current
    if rnd is None:
        raise NotFoundError(at("--round", said(N_("{event!r} has no round {n}"), event=name, n=round_no)))
    if rnd.closed:
        raise LogFormatError([at("--round", said(N_("round {n} of {event!r} is closed"), n=rnd.number, event=name))])
    if not reason.strip():
        raise LogFormatError([at("--reason", N_("a judge's reason is needed"))])
    errors = _check_tables(st, rnd.number, tables, byes)
    if errors:
        raise LogFormatError(errors)
    old = {s.table: s for s in rnd.tables}
    suffix = f"-c{len(rnd.changes) + 1}"
    fresh: list[T.Seat] = []
    for t in tables:
        before = old.get(str(t["table"]))
        if before is not None and {player_key(p) for p in before.players} == {player_key(p) for p in t["players"]}:
            t["match"] = before.match
            continue
        if before is not None and store.exists(before.match) and store.last_seq(before.match) > 0:
            raise LogFormatError([said(N_("table {table}: match {match!r} has lines recorded; its pairing stands"), table=t["table"], match=before.match)])
        t["match"] = f"{T.match_id(st.name, rnd.number, str(t['table']), 1, st.best_of)}{suffix}"
        fresh.append(T.Seat(str(t["table"]), tuple(t["players"]), t["match"]))
    extra = _matches_for(store, st, rnd.number, fresh, suffix)
    line: dict[str, Any] = {"type": "change", "round": rnd.number, "tables": tables, "byes": byes, "reason": reason}
    if by:
        line["by"] = by
    return _append(store, name, st, line, extra)


def close(store: Store, name: str, unreported: str | None = None, games: Iterable[Any] | None = None) -> dict[str, Any]:
    """Close the open round. Refused, naming each table, while a table has no result, unless
    ``unreported`` (draw or double-loss) says how they count: the close line records it. A
    playoff table has no draw: refused until it has a winner."""
    from projections import bracket

    st = state(store, name)
    rnd = st.open_round
    if rnd is None:
        raise LogFormatError([said(N_("{event!r} has no open round to close"), event=name)])
    if unreported is not None and unreported not in T.UNREPORTED:
        raise LogFormatError([at("--unreported", said(N_("one of {choices}, got {value!r}"),
                                                      choices=", ".join(T.UNREPORTED), value=unreported))])
    if games is None:
        from projections import tournament_rows
        games = tournament_rows.event_games(store, name)
    missing = bracket.unreported_tables(st, rnd, list(games))
    errors = []
    for seat, why in missing:
        where = {"n": rnd.number, "event": name, "table": seat.table, "players": " vs ".join(seat.players)}
        if why == "awaiting_ruling":
            errors.append(said(N_("round {n} of {event!r}: table {table} ({players}): a game awaits a judge's ruling; "
                                  "rule on it first"), **where))
        elif rnd.playoff:
            errors.append(said(N_("round {n} of {event!r}: table {table} ({players}): no winner yet; a playoff match "
                                  "has no draw: the table plays on until a player wins (kifu round game {name} --table "
                                  "{table} adds a game)"), name=name, **where))
        elif unreported is None:
            errors.append(said(N_("round {n} of {event!r}: table {table} ({players}): no result; record it, or close "
                                  "with --unreported draw|double-loss (how the unreported tables count)"), **where))
    if errors:
        raise LogFormatError(errors)
    body: dict[str, Any] = {"type": "close", "round": rnd.number}
    if missing and unreported is not None:
        body |= {"unreported": unreported, "tables": [seat.table for seat, _ in missing]}
    from recorder import tokens

    # The round's table tokens are revoked first, then the close is appended at the version
    # decided on. A table's line is checked against its token in the same transaction that stores
    # it (recorder/tokens.py), so it is either stored before the revocation, and so before the
    # close (counted in the round), or refused: never stored after the close. A close refused
    # by a racing judge leaves the tokens revoked (the round is closing): run it again.
    tokens.revoke_round(store, name, rnd.number)
    return _append(store, name, st, body)


def publish_lists(store: Store, name: str, by: str | None = None) -> dict[str, Any]:
    """Publish the closed deck lists of an event: one ``publish-lists`` line (who, when). From
    it on, every reader sees the cards (recorder/lists.py)."""
    st = state(store, name)
    if st.lists != "closed":
        raise LogFormatError([said(N_("{event!r} was opened with open deck lists: there is nothing to publish"), event=name)])
    if st.lists_published is not None:
        raise LogFormatError([said(N_("the deck lists of {event!r} were published at {at}"),
                                   event=name, at=st.lists_published.get("at"))])
    line: dict[str, Any] = {"type": "publish-lists"}
    if by:
        line["by"] = by
    return _append(store, name, st, line)


# -- checking a match against the pairing -----------------------------------------------------


def pairing_errors(store: Store, header: Mapping[str, Any]) -> list[str]:
    """A match started for a pairing: its players are the paired ones, and none of them is
    seated at another table of that round. Matches of events without a stream pass (old
    stores)."""
    m = header.get("match") or {}
    event, round_no, table = m.get("event"), m.get("round"), m.get("table")
    if not isinstance(event, str) or not exists(store, event):
        return []
    st = state(store, event)
    if not isinstance(round_no, int):
        return [at("match.round", said(N_("{event!r} is paired by kifu: a match of it names its round"), event=event))]
    rnd = st.round(round_no)
    if rnd is None:
        return [at("match.round", said(N_("{event!r} has not paired round {n}"), event=event, n=round_no))]
    names = [str(p.get("name") or p.get("id")) for p in header.get("players") or [] if isinstance(p, Mapping)]
    seat = next((s for s in rnd.tables if s.table == str(table)), None)
    for n in names:
        other = rnd.table_of(n)
        if other is not None and (seat is None or other.table != seat.table):
            return [at("players", said(N_("{player!r} is already seated at table {table} of round {n} of {event!r}"), player=n, table=other.table, n=round_no, event=event))]
        if player_key(n) in {player_key(b) for b in rnd.byes}:
            return [at("players", said(N_("{player!r} has the bye in round {n} of {event!r}"), player=n, n=round_no, event=event))]
    if seat is None:
        return [at("match.table", said(N_("round {n} of {event!r} has no table {table!r}"), n=round_no, event=event, table=table))]
    if sorted(player_key(n) for n in names) != sorted(player_key(p) for p in seat.players):
        return [at("players", said(N_("table {table} of round {n} is {paired}, not {given}"), table=seat.table, n=round_no, paired=" vs ".join(seat.players), given=" vs ".join(names)))]
    if rnd.closed:
        return [at("match.round", said(N_("round {n} of {event!r} is closed"), n=round_no, event=event))]
    return []


__all__ = ["FORMAT", "LINE_FIELDS", "OPENED_TOPICS", "change", "checkin", "close", "copy", "deck_errors", "drop", "event_uuid",
           "exists", "export_lines", "import_log", "import_pairing", "load", "match_header", "names", "open_event",
           "pair", "pairing_errors", "publish_lists", "register", "reinstate", "state"]
