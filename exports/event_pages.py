"""What a person reads of a tournament on the server's pages and on paper: the round sheet (one
block per table with its pairing and a QR code for its recording page), the standings page, a
round's pairings (by table and by name) and a player's page. Pure rendering over the fold
(projections/tournament.py), the standings (projections/standings.py) and the desk's round
view (exports/tournament.py): the faces (recorder/cli/event.py, recorder/web/event.py) read the
store and hand the rows in. Japanese by default, English with ``lang="en"``: every word from
the gettext catalog (exports/locale).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any
from urllib.parse import quote

from exports import i18n, pages, player_words
from exports import tournament as view
from projections import standings
from projections import tournament as T
from projections.standings import player_key

def labels(lang: str | None) -> dict[str, str]:
    """The pages' words in ``lang`` (Japanese unless "en"): the round view's
    (exports/tournament.py) and these, all from the catalog (context "event")."""
    return {**view.labels(lang), **dict(_labels(i18n.pick(lang or "ja")))}


@cache
def _labels(lang: str) -> tuple[tuple[str, str], ...]:
    t = i18n.translations(lang)
    return tuple({
        "sheet": t.pgettext("event", "Table sheet"),
        "scan": t.pgettext("event", "Scan with a phone's camera: this table's recording page opens, ready to record."),
        "valid": t.pgettext("event", "Valid for this table and this round only (revoked when the round closes)."),
        "token_name": t.pgettext("event", "Token name"), "address": t.pgettext("event", "Address"),
        "games_ids": t.pgettext("event", "Match ids"), "standings": t.pgettext("event", "Standings"),
        "pairings": t.pgettext("event", "Pairings"), "desk": t.pgettext("event", "Event desk"),
        "as_of": t.pgettext("standings as of", "after round {n}"), "all_rounds": t.pgettext("event", "latest"),
        "rank": t.pgettext("event", "Rank"), "points": t.pgettext("event", "Points"),
        "record_wld": t.pgettext("event", "W-L-D"),
        # the tiebreaks keep the abbreviations organisers print (MW%, OMW%, …); their names in full
        # are the *_name words, shown as the column's tooltip
        "mwp": t.pgettext("event", "MW%"), "omw": t.pgettext("event", "OMW%"), "gwp": t.pgettext("event", "GW%"),
        "ogw": t.pgettext("event", "OGW%"), "mwp_name": t.pgettext("event", "match-win percentage"),
        "omw_name": t.pgettext("event", "opponents' match-win percentage"),
        "gwp_name": t.pgettext("event", "game-win percentage"),
        "ogw_name": t.pgettext("event", "opponents' game-win percentage"),
        "pending": t.pgettext("event", "Matches still playing (not in the standings yet)"),
        "rounds_nav": t.pgettext("event", "Rounds"), "win": t.pgettext("event", "win"),
        "loss": t.pgettext("event", "loss"), "draw": t.pgettext("event", "draw"),
        "unfinished": t.pgettext("event", "not finished"), "matches": t.pgettext("event", "Matches"),
        "penalties": t.pgettext("event", "Penalties"), "no_penalties": t.pgettext("event", "No penalties"),
        "no_deck": t.pgettext("event", "No deck registered"), "cards": t.pgettext("event", "Cards"),
        "archetype": t.pgettext("event", "Archetype"),
        "lists_closed": t.pgettext("event", "Deck lists are closed until the organiser publishes them: "
                                            "the deck's name and archetype only."),
        "status_line": t.pgettext("event", "{done} of {total} tables finished"),
        "round_status": t.pgettext("event", "Round status"), "byes": t.pgettext("event", "Byes"),
        "players_page": t.pgettext("event", "Player"), "active": t.pgettext("event", "active"),
        "this_round": t.pgettext("event", "Round {n}"), "event_links": t.pgettext("event", "This event"),
        "print": t.pgettext("event", "printable"), "infraction": t.pgettext("event", "Infraction"),
        "judge": t.pgettext("event", "Judge"), "no_standings": t.pgettext("event", "No results yet"),
        "registered": t.pgettext("event", "Deck as registered"), "time_used": t.pgettext("event", "Time used"),
        "counts": t.pgettext("event", "Tables"), "bye_win": t.pgettext("event", "bye"),
        "score": t.pgettext("event", "Games"), "changes": t.pgettext("event", "Pairing changes"),
        "round_col": t.pgettext("event", "Round"), "bracket": t.pgettext("event", "Top cut"),
        "place": t.pgettext("event", "Place"),
        "missed": t.pgettext("event", "loss (before a late entry)"),
    }.items())


def _q(text: Any) -> str:
    return quote(str(text), safe="")


def urls(event: str, lang: str = "ja") -> dict[str, Any]:
    """The event's pages, keeping an English reader in English (``?lang=en``)."""
    base = f"/events/{_q(event)}"
    tail = "?lang=en" if lang == "en" else ""
    return {
        "desk": base + tail, "standings": f"{base}/standings{tail}", "bracket": f"{base}/bracket{tail}",
        "round": lambda n: f"{base}/rounds/{n}{tail}",
        "standings_after": lambda n: f"{base}/standings?round={n}" + ("&lang=en" if lang == "en" else ""),
        "player": lambda name: f"{base}/players/{_q(name)}{tail}",
        "match": lambda mid: f"/matches/{_q(mid)}{tail}",
        "match_step": lambda mid, seq: f"/matches/{_q(mid)}?step={seq}" + ("&lang=en" if lang == "en" else ""),
    }


def nav(state: T.Tournament | None, event: str, lang: str, here: str, current_round: int | None = None) -> dict[str, Any]:
    """What ``_event_nav.html`` reads: the desk, the standings and each round's pairings."""
    u = urls(event, lang)
    return {"urls": u, "here": here, "current_round": current_round, "has_cut": bool(state is not None and state.cut),
            "round_links": [(r.number, u["round"](r.number)) for r in state.paired] if state is not None else []}


# -- the round sheet ---------------------------------------------------------------------------


def qr_data_uri(url: str) -> str:
    """A QR code of ``url`` as a PNG data URI (error correction M: a sheet may be creased)."""
    import segno

    return str(segno.make(url, error="m").png_data_uri(scale=8, border=4))


def game_ids(state: T.Tournament, seat: T.Seat, round_no: int | None = None) -> list[str]:
    """The match ids of every game of a table (best of three: ``…-g1``, ``-g2``, ``-g3``);
    ``round_no``: the table's round (a top cut's rounds have the cut's format)."""
    best_of = state.best_of_in(round_no) if round_no is not None else state.best_of
    if best_of == 1:
        return [seat.match]
    at = seat.match.rfind("-g1")  # the last one: an event may be named "…-g1" too
    if at < 0:
        return [seat.match]
    return [f"{seat.match[:at]}-g{g}{seat.match[at + 3:]}" for g in range(1, best_of + 1)]


def record_url(base_url: str, match_id: str, secret: str) -> str:
    """A table's recording page with its token in the fragment (``#token=``): the page keeps the
    token for the tab and takes it out of the address bar; a fragment never reaches a server log."""
    return f"{base_url.rstrip('/')}/matches/{_q(match_id)}/record#token={_q(secret)}"


def render_sheet(state: T.Tournament, rnd: T.Round, tables: Sequence[Mapping[str, Any]], lang: str = "ja",
                 per_seat: bool = False) -> str:
    """The round sheet (``event_sheet.html``). ``tables``: per table of the round, ``table``,
    ``players``, ``games`` (match ids), ``url`` (with the token) and ``token`` (its name)."""
    blocks = [{**t, "qr": qr_data_uri(str(t["url"]))} for t in tables]
    return pages.render("event_sheet.html", {
        "ev": state.header_json(), "rnd": rnd.to_json(), "tables": blocks, "t": labels(lang), "lang": lang,
        "per_seat": per_seat, "p": player_words.labels(lang),
    }, lang)


# -- standings, pairings, a player ---------------------------------------------------------------


def standings_rows(table: standings.Table) -> list[dict[str, Any]]:
    return [s.to_json() for s in table.rows]


def standings_context(state: T.Tournament | None, event: str, table: standings.Table, upto: int | None,
                      lang: str) -> dict[str, Any]:
    """``event_standings.html``: the rows (match-win % among them), the rounds to look back at."""
    u = urls(event, lang)
    paired = [r.number for r in state.paired] if state is not None else []
    return {
        **nav(state, event, lang, "standings"), "event": event, "t": labels(lang), "lang": lang, "upto": upto,
        "rows": standings_rows(table), "has_stream": state is not None,
        "pending": [{"round": p.round, "table": p.table, "players": list(p.players)} for p in table.pending],
        "rounds": [(n, u["standings_after"](n)) for n in paired],
        "tiebreaks": list(state.tiebreaks) if state is not None else list(T.TIEBREAKS),
        "readings": _readings(state),
        "by_place": table.by_place,
    }


def _readings(state: T.Tournament | None) -> dict[str, str]:
    """Each registered name's reading, by the name as the rows print it (for the ruby)."""
    if state is None:
        return {}
    return {key: p.reading for p in state.players.values() if p.reading for key in {p.name, player_key(p.name)}}


def round_json(state: T.Tournament, rnd: T.Round, desk: Mapping[str, Any]) -> dict[str, Any]:
    """``/api/events/E/rounds/N``: the pairing, by name, and the desk's status of each table."""
    return {"event": state.name, **rnd.to_json(), "by_name": view.by_name(rnd, state), "status": dict(desk)}


def round_context(state: T.Tournament, rnd: T.Round, desk: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """``event_round.html``: the pairing by table (with each table's status) and by name."""
    return {
        **nav(state, state.name, lang, "round", rnd.number), "event": state.name, "ev": state.header_json(),
        "t": labels(lang), "lang": lang, "rnd": rnd.to_json(), "desk": desk, "by_name": view.by_name(rnd, state),
        "readings": _readings(state), "no_shows": state.no_shows() if rnd.number == 1 else [],
    }


def _outcome(pairing: standings.Pairing | None, me: str) -> str:
    if pairing is None or not pairing.games:
        return "not_started"
    if pairing.double_loss():
        return "loss"  # 両者敗北: a loss in both records
    if not pairing.finished:
        return "unfinished"
    winner = pairing.winner()
    if winner is None:
        return "draw"
    return "win" if winner == me else "loss"


def _score(pairing: standings.Pairing, me: str) -> str:
    """Games won-lost(-drawn), the player's own first."""
    wins = pairing.game_wins()
    theirs = sum(w for p, w in wins.items() if p != me)
    draws = sum(1 for g in pairing.games if g.finished and g.winner is None)
    return f"{wins.get(me, 0)}-{theirs}" + (f"-{draws}" if draws else "")


def player_json(state: T.Tournament, name: str, table: standings.Table, games: Iterable[standings.Game],
                penalties: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """A player's record, deck as registered, every round (table, opponent, games, outcome) and
    penalties; None when ``name`` is not registered."""
    reg = state.player(name)
    if reg is None:
        return None
    me = player_key(reg.name)
    mine = [g for g in T.paired_games(state, games) if me in g.players]
    by_round = {p.round: p for p in standings.pairings(mine)}
    rounds = []
    for rnd in state.paired:
        seat = rnd.table_of(reg.name)
        if seat is not None:
            pairing = by_round.get(rnd.number)
            rounds.append({
                "round": rnd.number, "table": seat.table, "closed": rnd.closed,
                "opponent": next((p for p in seat.players if player_key(p) != me), None),
                "games": game_ids(state, seat, rnd.number), "outcome": _outcome(pairing, me),
                "score": _score(pairing, me) if pairing is not None and pairing.finished else None,
            })
        elif me in {player_key(b) for b in rnd.byes}:
            rounds.append({"round": rnd.number, "table": None, "closed": rnd.closed, "opponent": None, "games": [],
                           "outcome": "bye", "score": None})
        elif rnd.number in reg.missed:  # before a late entry: a match loss 0-2, against nobody
            rounds.append({"round": rnd.number, "table": None, "closed": rnd.closed, "opponent": None, "games": [],
                           "outcome": "missed", "score": "0-2"})
    row = next((r.to_json() for r in table.rows if player_key(r.player) == me), None)
    return {"event": state.name, "player": reg.name, "reading": reg.reading, "deck": dict(reg.deck) if reg.deck else None,
            "dropped_after": reg.dropped_after, "standing": row, "rounds": rounds, "lists_closed": state.lists_closed,
            "penalties": [dict(p) for p in penalties]}


def player_context(state: T.Tournament, player: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """``event_player.html``: the player's JSON with each penalty's name in the reader's language."""
    from exports.i18n import gettext_for
    from exports.notation import PENALTIES

    _ = gettext_for(lang)
    player = {**player, "penalties": [{**x, "penalty_text": _(PENALTIES[x["penalty"]]) if x.get("penalty") in PENALTIES
                                       else str(x.get("penalty"))} for x in player["penalties"]]}
    return {**nav(state, state.name, lang, "player"), "event": state.name, "t": labels(lang), "lang": lang,
            "p": player}


def desk_block(state: T.Tournament, desk: Mapping[str, Any] | None, lang: str) -> dict[str, Any]:
    """The desk's round status and links (``_event_round.html``): ``desk`` is the round view of
    the last round paired, or None before the first pairing."""
    u = urls(state.name, lang)
    return {"ev": state.header_json(), "view": desk, "urls": u, "t": labels(lang), "p": {**labels(lang), **player_words.labels(lang)},
            "clock_url": f"/events/{_q(state.name)}/clock" + ("?lang=en" if lang == "en" else ""),
            "rounds": [(r.number, u["round"](r.number), r.closed) for r in state.paired],
            "players": [{"name": p.name, "url": u["player"](p.name), "dropped": p.dropped_after, "reading": p.reading,
                         "no_show": p.no_show, "missed": list(p.missed), "checked_in": p.checked_in}
                        for p in state.by_reading()],
            "checkin": {"open": state.checkin and not state.paired, "url": f"/api/events/{_q(state.name)}/checkin",
                        "done": sum(1 for p in state.players.values() if p.checked_in), "total": len(state.players)}}


__all__ = ["desk_block", "game_ids", "labels", "player_context", "player_json", "qr_data_uri",
           "record_url", "render_sheet", "round_context", "round_json", "standings_context", "urls"]
