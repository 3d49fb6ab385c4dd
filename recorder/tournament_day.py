"""The tournament's day at the desk (issue 32 items 3 and 7): check-in and no-shows, late entry,
and the reading of a name. Decisions only, pure (no store): recorder/tournament_service.py
calls them while it decides a check-in, a registration, a pairing or a reinstatement, and
appends; the fold
is projections/tournament.py, the order by reading projections/reading.py.

- An event opened with ``--checkin`` pairs round 1 from the players checked in
  (``kifu event checkin``, or the desk's button); the ``pair`` line of round 1 names the others
  as ``no_shows``: dropped after round 0, still listed.
- A player registered after round 1 is paired (``--late``) enters with a match loss for each
  round paired so far (the ``register`` line carries them as ``missed``); a no-show a judge
  reinstates gets the same for the rounds paired without them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from projections import tournament as T
from projections.base import N_, at, said
from projections.errors import LogFormatError, NotFoundError
from projections.reading import is_kana
from projections.standings import player_key

READING_LIMIT = 100


def registration_extras(st: T.Tournament, player: str, reading: str | None, late: bool) -> dict[str, Any]:
    """The fields a ``register`` line gets beyond name and deck (``reading``; ``late`` and
    ``missed``), or LogFormatError naming the option. The refusal of a registration after round 1
    without ``--late`` names ``--late``."""
    extras: dict[str, Any] = {}
    if reading is not None:
        reading = " ".join(reading.split())
        if not reading or len(reading) > READING_LIMIT or not is_kana(reading):
            raise LogFormatError([at("--reading", said(N_("the name's reading in kana (hiragana or katakana, e.g. "
                                                          "やまだ), got {value!r}"), value=reading))])
        extras["reading"] = reading
    if st.paired and not late:
        raise LogFormatError([at("--player", said(N_(
            "{event!r} has paired round {n} already: a player who arrives now enters with --late (a match loss for "
            "each round paired so far)"), event=st.name, n=st.current.number if st.current else 1))])
    if late:
        if not st.paired:
            raise LogFormatError([at("--late", said(N_("{event!r} has not paired round 1 yet: register without --late"),
                                                    event=st.name))])
        if len(st.paired) >= st.rounds:
            raise LogFormatError([at("--late", said(N_("{event!r} has paired all its {n} rounds: no round is left to "
                                                       "play"), event=st.name, n=st.rounds))])
        extras["late"] = True
        extras["missed"] = [r.number for r in st.paired]
    return extras


def round_one(st: T.Tournament, number: int) -> tuple[T.Tournament, list[str]]:
    """The state round ``number`` is paired from and its no-shows: for round 1 of an event
    with check-in, the players not checked in are dropped after round 0 (as the ``pair`` line
    will record them); otherwise ``st`` and none."""
    if not st.checkin or number != 1:
        return st, []
    absent = [p.name for p in st.players.values() if not p.checked_in and p.dropped_after is None]
    here = [p for p in st.players.values() if p.checked_in and p.dropped_after is None]
    if len(here) < 2:
        raise LogFormatError([said(N_("{event!r}: {n} player(s) checked in; round 1 needs 2 "
                                      "(kifu event checkin {event} --player NAME)"), event=st.name, n=len(here))])
    players = {player_key(n): replace(st.players[player_key(n)], dropped_after=0, no_show=True) for n in absent}
    return replace(st, players={**st.players, **players}), absent


def reinstate_missed(st: T.Tournament, reg: T.Registration) -> list[int]:
    """The rounds a reinstated no-show missed (every round paired so far): a loss each."""
    if not reg.no_show:
        return []
    return [r.number for r in st.paired if r.table_of(reg.name) is None]


def checkin_line(st: T.Tournament, player: str, by: str | None = None) -> dict[str, Any]:
    """The ``checkin`` line of a player (an event opened with ``--checkin``, before round 1 is
    paired), or the refusal; ``tournament_service.checkin`` appends it."""
    name = st.name
    if not st.checkin:
        raise LogFormatError([at("--player", said(N_("{event!r} does not take check-in (kifu event new … --checkin)"),
                                                  event=name))])
    reg = st.player(player)
    if reg is None:
        raise NotFoundError(at("--player", said(N_("{player!r} is not registered in {event!r}"), player=player, event=name)))
    if reg.no_show:
        raise LogFormatError([at("--player", said(N_("{player!r} did not check in before round 1 (a no-show): a judge "
                                                     "reinstates them with a match loss for each round missed (kifu event "
                                                     "reinstate {event} --player NAME --reason …)"),
                                                  player=reg.name, event=name))])
    if reg.checked_in:
        raise LogFormatError([at("--player", said(N_("{player!r} has checked in already"), player=reg.name))])
    if st.paired:
        raise LogFormatError([at("--player", said(N_("{event!r} has paired round 1: check-in is over (kifu event "
                                                     "register … --late)"), event=name))])
    line: dict[str, Any] = {"type": "checkin", "player": reg.name}
    if by:
        line["by"] = by
    return line


__all__ = ["checkin_line", "registration_extras", "reinstate_missed", "round_one"]
