"""The tournament (an "event" in the CLI) as a state folded from its own stream of lines.

A tournament's stream sits beside the match streams in the same store (recorder/tournament_service.py)
and has the same rules: append-only, corrections are new lines. Its log has a header and one
line per thing that happened (docs/log-format.md, "The event log"):

* ``register``: a player registered, with the deck list as registered;
* ``drop``: a player dropped after round N; ``reinstate``: a drop undone by a judge;
* ``pair``: a round was paired (tables with their players and match ids, byes, the seed);
* ``change``: a judge changed a round's pairing (the whole new pairing, with the reason);
* ``close``: a round was closed (its results stand; its table tokens are revoked);
* ``publish-lists``: the organiser published the deck lists of an event opened with
  ``lists: closed`` (until then no anonymous reader sees a card of them: recorder/lists.py).
* ``checkin``: a player checked in (an event opened with ``--checkin``: round 1 pairs only
  the players checked in; the ``pair`` line of round 1 names the others as ``no_shows``).

A ``register`` line may carry the player's ``reading`` (kana: by-name lists are in reading
order, projections/reading.py) and, for a player who entered after round 1, ``late`` with the
rounds ``missed`` (each a match loss, 0–2, against nobody); a ``reinstate`` of a no-show
carries the rounds it ``missed`` too.
* ``report``: a player reported their table's result (projections/reports.py says when two
  reports agree); ``extend``: a judge gave a table extra minutes, with the reason.
* ``close``: a round was closed (its results stand; its table tokens are revoked; how its
  unreported tables count, ``unreported``, when it had any);
* ``cut``: the top cut (its seeds from the final Swiss standings, and the first playoff
  round's tables and byes); later playoff rounds are ``pair`` lines of method ``playoff``
  (projections/bracket.py).

Folding never validates (deciding is the recorder's job, ``errors`` below): an old stream
keeps folding when the rules of deciding grow. Names are compared by ``player_key`` (NFKC,
spaces folded), so ``山田`` typed on a phone and on a laptop is one player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from projections import standings
from projections.standings import player_key

FORMATS = {"bo1": 1, "bo3": 3, "bo5": 5}
TIEBREAKS = ("omw", "gw", "ogw")  # the default order
TIEBREAK_NAMES = standings.TIEBREAK_NAMES  # every name an event may order (oomw too)
UNFINISHED = standings.UNFINISHED  # draw, exclude, double-loss
UNREPORTED = ("draw", "double-loss")  # how a round's close counts the tables that never reported
DEFAULT_CUT_FORMAT = "bo3"
LINE_TYPES = ("register", "drop", "reinstate", "pair", "change", "close", "publish-lists", "checkin", "report", "extend",
              "cut")
LISTS = ("closed", "open")  # an event's deck lists; an event opened before they existed: open
DEFAULT_ROUND_MINUTES = 50


@dataclass(frozen=True)
class Registration:
    name: str
    deck: Mapping[str, Any] | None
    seq: int
    dropped_after: int | None = None
    reading: str | None = None  # the name in kana, as given at registration
    checked_in: bool = False
    no_show: bool = False  # not checked in when round 1 was paired (dropped after round 0)
    missed: tuple[int, ...] = ()  # rounds played before a late entry: a match loss each, against nobody


@dataclass(frozen=True)
class Seat:
    """One table of a round: its players (names, seat A first) and the match id of its first game."""

    table: str
    players: tuple[str, ...]
    match: str
    seeds: tuple[int, ...] = ()  # a playoff table: each player's seed (the higher seed sits first, as A)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.table, "players": list(self.players), "match": self.match}
        if self.seeds:  # the higher seed chooses who plays first
            out |= {"seeds": list(self.seeds), "chooses_first": self.players[0]}
        return out


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Seat, ...]
    byes: tuple[str, ...]
    seed: int | None
    method: str  # "random" (round 1), "swiss", "import"
    closed: bool = False
    changes: tuple[Mapping[str, Any], ...] = ()
    paired_at: str | None = None
    closed_at: str | None = None
    reports: tuple[Mapping[str, Any], ...] = ()  # the players' report lines, in order (projections/reports.py)
    extensions: tuple[Mapping[str, Any], ...] = ()  # the judges' extend lines, in order
    unreported: str | None = None  # how the close counted the tables that never reported

    @property
    def playoff(self) -> bool:
        return self.method in ("cut", "playoff")

    def table_of(self, name: str) -> Seat | None:
        key = player_key(name)
        return next((t for t in self.tables if key in {player_key(p) for p in t.players}), None)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.number, "tables": [t.to_json() for t in self.tables], "byes": list(self.byes),
                "seed": self.seed, "method": self.method, "closed": self.closed,
                "changes": [dict(c) for c in self.changes],
                **({"unreported": self.unreported} if self.unreported else {})}


@dataclass(frozen=True)
class Tournament:
    name: str
    game: str
    rules: str | None
    rounds: int
    format: str
    round_minutes: int
    tiebreaks: tuple[str, ...]
    house_rules: Mapping[str, Any]
    seed: int
    date: str | None
    checkin: bool = False  # check-in required: round 1 pairs only the players checked in
    players: Mapping[str, Registration] = field(default_factory=dict)  # by player_key, in registration order
    paired: tuple[Round, ...] = ()
    steps: int = 0
    lists: str = "open"  # as opened: "closed" or "open" (absent from an older header: open, as it was)
    lists_published: Mapping[str, Any] | None = None  # the publish-lists line, once written

    @property
    def lists_closed(self) -> bool:
        """Whether the deck lists are still secret: opened closed and not yet published."""
        return self.lists == "closed" and self.lists_published is None
    cut_format: str = DEFAULT_CUT_FORMAT
    cut: tuple[str, ...] = ()  # the top cut's players, seed 1 first (empty: no cut yet)
    cut_top: int = 0  # the cut's size (a power of two; more than ``cut`` when seeds were missing)

    @property
    def best_of(self) -> int:
        return FORMATS.get(self.format, 1)

    def best_of_in(self, round_no: int) -> int:
        """The match format of a round: the event's for a Swiss round, the cut's for a playoff round."""
        return FORMATS.get(self.cut_format, 3) if round_no > self.rounds else self.best_of

    @property
    def swiss_rounds(self) -> tuple[Round, ...]:
        return tuple(r for r in self.paired if not r.playoff)

    @property
    def playoff_rounds(self) -> tuple[Round, ...]:
        return tuple(r for r in self.paired if r.playoff)

    @property
    def unfinished(self) -> str:
        return str(self.house_rules.get("unfinished_game", "draw"))

    def player(self, name: str) -> Registration | None:
        return self.players.get(player_key(name))

    def round(self, number: int) -> Round | None:
        return next((r for r in self.paired if r.number == number), None)

    @property
    def current(self) -> Round | None:
        """The last round paired (open or closed)."""
        return self.paired[-1] if self.paired else None

    @property
    def open_round(self) -> Round | None:
        r = self.current
        return r if r is not None and not r.closed else None

    def active(self, before_round: int) -> list[str]:
        """Players who may be paired in ``before_round``: registered, not dropped before it."""
        return [p.name for p in self.players.values()
                if (p.dropped_after is None or p.dropped_after >= before_round) and before_round not in p.missed]

    def dropped(self) -> dict[str, int]:
        return {p.name: p.dropped_after for p in self.players.values() if p.dropped_after is not None}

    def missed(self) -> dict[str, tuple[int, ...]]:
        """The rounds each late entrant missed (a match loss each, against nobody)."""
        return {p.name: p.missed for p in self.players.values() if p.missed}

    def no_shows(self) -> list[str]:
        return [p.name for p in self.players.values() if p.no_show]

    def reading_of(self, name: str) -> str | None:
        reg = self.player(name)
        return reg.reading if reg is not None else None

    def by_reading(self) -> list[Registration]:
        """The roster in reading order (五十音順; projections/reading.py)."""
        from projections.reading import sort_key

        return sorted(self.players.values(), key=lambda p: sort_key(p.name, p.reading))

    def byes(self, upto: int | None = None) -> dict[int, list[str]]:
        return {r.number: list(r.byes) for r in self.paired if r.byes and (upto is None or r.number <= upto)}

    def header_json(self) -> dict[str, Any]:
        return {"name": self.name, "game": self.game, "rules": self.rules, "rounds": self.rounds,
                "format": self.format, "round_minutes": self.round_minutes, "tiebreaks": list(self.tiebreaks),
                "house_rules": dict(self.house_rules), "seed": self.seed, "date": self.date,
                "lists": self.lists, "lists_closed": self.lists_closed, "cut_format": self.cut_format,
                **({"checkin": True} if self.checkin else {})}

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.header_json(),
            "players": [{"name": p.name, "deck": p.deck, "dropped_after": p.dropped_after, **_player_extras(p)}
                        for p in self.players.values()],
            "rounds": [r.to_json() for r in self.paired],
            "steps": self.steps,
        }


def opened(header: Mapping[str, Any]) -> Tournament:
    """The state right after the event opened, from its header's ``event`` object."""
    e = header["event"]
    return Tournament(
        name=str(e["name"]), game=str(e["game"]), rules=e.get("rules"), rounds=int(e["rounds"]),
        format=str(e.get("format", "bo1")), round_minutes=int(e.get("round_minutes", DEFAULT_ROUND_MINUTES)),
        tiebreaks=tuple(e.get("tiebreaks") or TIEBREAKS), house_rules=dict(e.get("house_rules") or {}),
        seed=int(e.get("seed", 0)), date=e.get("date"), lists=str(e.get("lists") or "open"),
        checkin=bool(e.get("checkin")), cut_format=str(e.get("cut_format", DEFAULT_CUT_FORMAT)),
    )


def _player_extras(p: Registration) -> dict[str, Any]:
    """What a registration holds beyond name, deck and drop, only where it holds it (an old
    event's JSON stays as it was)."""
    out: dict[str, Any] = {}
    if p.reading:
        out["reading"] = p.reading
    if p.checked_in:
        out["checked_in"] = True
    if p.no_show:
        out["no_show"] = True
    if p.missed:
        out["missed"] = list(p.missed)
    return out


def _day(state: Tournament, line: Mapping[str, Any], kind: Any) -> Tournament:
    """Check-in, no-shows, late entry and readings (issue 32 item 3, 7) folded in: ``state``
    after the generic fold of ``line``."""
    if kind == "register" and (line.get("reading") or line.get("late") or line.get("missed")):
        key = player_key(line["player"])
        reg = state.players.get(key)
        if reg is not None:
            reg = replace(reg, reading=line.get("reading") or None, checked_in=bool(line.get("late")),
                          missed=tuple(int(n) for n in line.get("missed") or ()))
            return replace(state, players={**state.players, key: reg})
    if kind == "checkin":
        key = player_key(line["player"])
        if key in state.players:
            return replace(state, players={**state.players, key: replace(state.players[key], checked_in=True)})
    if kind == "pair" and line.get("no_shows"):
        players = dict(state.players)
        for name in line["no_shows"]:
            key = player_key(name)
            if key in players:
                players[key] = replace(players[key], dropped_after=0, no_show=True)
        return replace(state, players=players)
    if kind == "reinstate" and line.get("missed"):
        key = player_key(line["player"])
        if key in state.players:
            reg = state.players[key]
            missed = tuple(sorted({*reg.missed, *(int(n) for n in line["missed"])}))
            return replace(state, players={**state.players, key: replace(reg, no_show=False, checked_in=True,
                                                                         missed=missed)})
    return state


def seats(tables: Iterable[Mapping[str, Any]]) -> tuple[Seat, ...]:
    return tuple(Seat(str(t["table"]), tuple(str(p) for p in t["players"]), str(t["match"]),
                      tuple(int(x) for x in t.get("seeds") or ())) for t in tables)


def apply(state: Tournament, line: Mapping[str, Any]) -> Tournament:
    """One line folded in. Never fails on a stored line: what it cannot place, it passes over."""
    return _day(_apply(state, line), line, line.get("type"))


def _apply(state: Tournament, line: Mapping[str, Any]) -> Tournament:
    kind = line.get("type")
    state = replace(state, steps=state.steps + 1)
    if kind == "register":
        players = dict(state.players)
        players[player_key(line["player"])] = Registration(str(line["player"]), line.get("deck"), int(line["seq"]))
        return replace(state, players=players)
    if kind in ("drop", "reinstate"):
        key = player_key(line["player"])
        if key not in state.players:
            return state
        after = int(line["after_round"]) if kind == "drop" else None
        return replace(state, players={**state.players, key: replace(state.players[key], dropped_after=after)})
    if kind == "pair":
        paired = Round(int(line["round"]), seats(line.get("tables", ())), tuple(line.get("byes", ())),
                       line.get("seed"), str(line.get("method", "swiss")), paired_at=line.get("at"))
        return replace(state, paired=(*[r for r in state.paired if r.number != paired.number], paired))
    if kind == "change":
        old = state.round(int(line["round"]))
        if old is None:
            return state
        new = replace(old, tables=seats(line.get("tables", ())), byes=tuple(line.get("byes", ())),
                      changes=(*old.changes, dict(line)))
        return replace(state, paired=tuple(new if r.number == old.number else r for r in state.paired))
    if kind == "publish-lists":
        return published(state, line)
    if kind == "close":
        number = int(line["round"])
        return replace(state, paired=tuple(replace(r, closed=True, closed_at=line.get("at"),
                                                   unreported=line.get("unreported")) if r.number == number else r
                                           for r in state.paired))
    if kind in ("report", "extend"):
        return _round_note(state, line)
    if kind == "cut":
        return _apply_cut(state, line)
    return state


def published(state: Tournament, line: Mapping[str, Any]) -> Tournament:
    """The deck lists published (the first such line counts; a second changes nothing)."""
    return state if state.lists_published is not None else replace(state, lists_published=dict(line))


def _round_note(state: Tournament, line: Mapping[str, Any]) -> Tournament:
    """A player's report or a judge's extension, kept on its round (read by projections/reports.py)."""
    old = state.round(int(line["round"]))
    if old is None:
        return state
    new = (replace(old, reports=(*old.reports, dict(line))) if line.get("type") == "report"
           else replace(old, extensions=(*old.extensions, dict(line))))
    return replace(state, paired=tuple(new if r.number == old.number else r for r in state.paired))


def _apply_cut(state: Tournament, line: Mapping[str, Any]) -> Tournament:
    """The top cut: its seeds and the first playoff round (a round like a ``pair`` line's)."""
    paired = Round(int(line["round"]), seats(line.get("tables", ())), tuple(line.get("byes", ())),
                   None, "cut", paired_at=line.get("at"))
    seeds = tuple(str(p) for p in line.get("seeds", ()))
    return replace(state, cut=seeds, cut_top=int(line.get("top", len(seeds))),
                   paired=(*[r for r in state.paired if r.number != paired.number], paired))


def fold(header: Mapping[str, Any], lines: Sequence[Mapping[str, Any]], upto: int | None = None) -> Tournament:
    """The tournament after its first ``upto`` lines (all of them by default)."""
    state = opened(header)
    for line in lines[:upto] if upto is not None else lines:
        state = apply(state, line)
    return state


def paired_games(state: Tournament, games: Iterable[standings.Game]) -> list[standings.Game]:
    """The games that belong to the pairing: a match counts at its round and table only if its
    players are the ones paired there (a match left behind by a judge's change does not)."""
    seated = {(r.number, s.table): {player_key(p) for p in s.players} for r in state.paired for s in r.tables}
    return [g for g in games
            if g.round is not None and seated.get((g.round, str(g.table))) == {player_key(p) for p in g.players}]


def event_standings(state: Tournament, games: Iterable[standings.Game], upto: int | None = None) -> standings.Table:
    """Standings by the Tournament Rules' Appendix C (projections/standings.py) with what only
    the event stream knows: the roster, byes, drops, the format, the tiebreak order, the
    closed rounds, and how an unfinished game counts."""
    # a top cut's rounds are no Swiss rounds: its games and byes rank nobody here (projections/bracket.py)
    swiss = [g for g in paired_games(state, games) if g.round is not None and g.round <= state.rounds]
    byes = {n: names for n, names in state.byes(upto).items() if n <= state.rounds}
    return standings.standings(
        state.name, swiss,
        roster=[p.name for p in state.players.values()],
        byes=byes, dropped=state.dropped(), upto_round=upto, best_of=state.best_of,
        tiebreaks=state.tiebreaks, unfinished=state.unfinished,
        closed_rounds={r.number for r in state.paired if r.closed},
        missed=state.missed(), no_shows=state.no_shows(),
        unfinished_in={r.number: r.unreported for r in state.paired if r.unreported},
    )


def standings_before(state: Tournament, round_no: int, games: Iterable[standings.Game]) -> standings.Table:
    """The standings a round is paired by: as of the round before it."""
    return event_standings(state, games, upto=round_no - 1)


def match_id(event: str, round_no: int, table: str, game_no: int = 1, best_of: int = 1) -> str:
    """The id of a paired match: ``冬季大会-r2-t5`` (best of three: ``…-t5-g1``, ``-g2``, ``-g3``)."""
    base = f"{event}-r{round_no}-t{table}"
    return f"{base}-g{game_no}" if best_of > 1 else base


__all__ = ["DEFAULT_CUT_FORMAT", "FORMATS", "LINE_TYPES", "TIEBREAKS", "TIEBREAK_NAMES", "UNFINISHED", "UNREPORTED", "Registration", "Round", "Seat", "Tournament",
           "apply", "event_standings", "fold", "match_id", "opened", "paired_games", "seats",
           "standings_before"]
__all__ += ["LISTS", "published"]  # closed deck lists (issue 32)
