"""The tournament's pages and JSON (issue 24): ``/events/{event}/standings`` (``?round=N``),
``/events/{event}/rounds/{n}`` (the pairing by table and by name, printable),
``/events/{event}/players/{name}`` (record, deck as registered, matches, penalties), and
``/api/events/{event}/rounds/{n}``, ``/api/events/{event}/players/{name}``. The standings API
(``/api/events/{event}/standings``) stays in recorder/web/desk.py and reads ``standings_for``.

Everything is read from the event's stream and the read model (recorder/tournament_service.py); only a
player's own matches are loaded (for penalties). What the pages show is built in
exports/event_pages.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from exports import event_pages, pages
from exports import tournament as view
from projections import standings
from projections import tournament as T
from projections import tournament_rows
from projections.base import N_, said
from projections.errors import NotFoundError
from projections.standings import player_key
from recorder import lists, tournament_service
from recorder.web.common import count_of
from recorder.web.common import json_response as _json
from recorder.web.viewer import lang_of, lang_urls, page


def round_param(st: T.Tournament | None, raw: str | None) -> int | None:
    """``?round=N``: a round the event has paired (0: before the first), else 400/404."""
    if raw in (None, ""):
        return None
    assert raw is not None
    n = count_of(raw)
    if n is None:
        raise HTTPException(400, f"round: a round number, got {raw!r}")
    last = st.current.number if st is not None and st.current else None
    if st is not None and n > (last or 0):
        raise HTTPException(404, f"round: {st.name!r} has paired {last or 0} round(s), not {n}")
    return n


def standings_for(store: Any, event: str, raw_round: str | None) -> tuple[T.Tournament | None, standings.Table, int | None]:
    """The standings of an event as of ``?round=`` (all rounds when absent): by the event's own
    stream when it has one (byes, drops, its tiebreak order), else from its matches' headers as
    before (old stores). Either way the results come from the read model (no match folded)."""
    games = tournament_rows.event_games(store, event)
    if tournament_service.exists(store, event):
        from projections import bracket
        st = lists.for_reader(store, tournament_service.state(store, event))
        upto = round_param(st, raw_round)
        return st, bracket.placed(st, T.event_standings(st, games, upto=upto), games, upto), upto
    upto = round_param(None, raw_round)
    if upto is None:
        return None, standings.standings(event, games), None
    return None, standings.standings(event, [g for g in games if g.round is not None and g.round <= upto], upto_round=upto), upto


def stream_standings(store: Any, event: str) -> dict[str, Any]:
    """The desk's standings by the event's own stream (byes, drops, its tiebreaks), or {} for an
    event without one (the desk keeps the standings of its matches' headers)."""
    if not tournament_service.exists(store, event):
        return {}
    return _standings_rows(store, tournament_service.state(store, event))


def desk_extras(store: Any, event: str, lang: str) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The desk's round status and links (``_event_round.html``; None for an event without a
    stream of its own: an old store's desk stays as it was) and its standings as
    ``stream_standings`` gives them, from one read of the event's stream (the desk polls every 2 s)."""
    if not tournament_service.exists(store, event):
        return None, {}
    st = lists.for_reader(store, tournament_service.state(store, event))
    rnd = st.current
    now = view.round_view(st, rnd, tournament_rows.round_games(store, st, rnd)) if rnd is not None else None
    block = event_pages.desk_block(st, now, lang)
    block["closes"] = {r.number: (st.best_of_in(r.number), r.unreported or st.unfinished) for r in st.paired if r.closed}
    if st.cut:  # the top cut's bracket (projections/bracket.py) on the desk
        from exports import bracket_view
        from projections import bracket
        block["bracket"] = bracket_view.bracket_block(
            bracket.bracket(st, tournament_rows.event_games(store, st.name)), lang)
    return block, _standings_rows(store, st)


def _standings_rows(store: Any, st: T.Tournament) -> dict[str, Any]:
    from projections import bracket
    games = tournament_rows.event_games(store, st.name)
    table = bracket.placed(st, T.event_standings(st, games), games)
    return {"standings": [s.to_json() for s in table.rows],
            "pending": [{"round": p.round, "table": p.table, "players": list(p.players)} for p in table.pending]}


def routes(cache: Any, locked: Callable[[Any], Any]) -> list[Any]:
    store = cache.store


    def state_of(request: Request) -> T.Tournament:
        event = request.path_params["event"]
        if not tournament_service.exists(store, event):
            raise NotFoundError(said(N_("no event {event!r} with a roster and rounds (kifu event new {event2} …)"), event=event, event2=event))
        return lists.for_reader(store, tournament_service.state(store, event))  # closed lists: deck names only

    def round_of(request: Request, st: T.Tournament) -> T.Round:
        raw = request.path_params["n"]
        n = count_of(raw)
        rnd = st.round(n) if n is not None else None
        if rnd is None:
            raise NotFoundError(said(N_("{event!r} has no round {n}"), event=st.name, n=raw))
        return rnd

    def round_desk(st: T.Tournament, rnd: T.Round) -> dict[str, Any]:
        return view.round_view(st, rnd, tournament_rows.round_games(store, st, rnd))

    def player_of(request: Request, st: T.Tournament, table: standings.Table) -> dict[str, Any]:
        name = request.path_params["name"]  # decoded already (a "/" in a name too: {name:path})
        reg = st.player(name)
        if reg is None:
            raise NotFoundError(said(N_("{name!r} is not registered in {st!r}"), name=name, st=st.name))
        games = tournament_rows.event_games(store, st.name)
        return event_pages.player_json(st, reg.name, table, games, penalties(st, reg.name, games))  # type: ignore[return-value]

    def penalties(st: T.Tournament, name: str, games: list[standings.Game]) -> list[dict[str, Any]]:
        """The player's penalties, from the player's own matches only."""
        me = player_key(name)
        out = []
        for g in games:
            if me not in g.players:
                continue
            rep = cache.replay(g.match_id, "ruled", fresh=True)
            m = rep.header["match"]
            ids = {p["id"] for p in rep.header["players"] if player_key(p.get("name") or p["id"]) == me}
            for e in rep.entries:
                if e.get("type") == "penalty" and e.get("player") in ids:
                    out.append({"match": m["id"], "round": m.get("round"), "table": m.get("table"), "seq": e["seq"],
                                "penalty": e.get("penalty"), "infraction": e.get("infraction"), "by": e.get("by"),
                                "text": e.get("text"), "at": e.get("at")})
        return sorted(out, key=lambda r: (r["round"] or 0, str(r["at"] or ""), r["seq"]))

    def standings_page(request: Request) -> Response:
        lang = lang_of(request)
        event = request.path_params["event"]
        st, table, upto = standings_for(store, event, request.query_params.get("round"))
        if st is None and not table.rows and not table.pending:
            raise NotFoundError(said(N_("no event {event!r} and no match of it"), event=event))
        ctx = {**event_pages.standings_context(st, event, table, upto, lang), "lang_urls": lang_urls(request)}
        return page(request, pages.render("event_standings.html", ctx, lang))

    def round_page(request: Request) -> Response:
        lang = lang_of(request)
        st = state_of(request)
        rnd = round_of(request, st)
        ctx = {**event_pages.round_context(st, rnd, round_desk(st, rnd), lang), "lang_urls": lang_urls(request)}
        return page(request, pages.render("event_round.html", ctx, lang))

    def player_page(request: Request) -> Response:
        lang = lang_of(request)
        st = state_of(request)
        table = T.event_standings(st, tournament_rows.event_games(store, st.name))
        ctx = {**event_pages.player_context(st, player_of(request, st, table), lang), "lang_urls": lang_urls(request)}
        return page(request, pages.render("event_player.html", ctx, lang))

    def bracket_of(st: T.Tournament) -> dict[str, Any]:
        from projections import bracket
        return bracket.bracket(st, tournament_rows.event_games(store, st.name))

    def bracket_page(request: Request) -> Response:
        from exports import bracket_view
        lang = lang_of(request)
        st = state_of(request)
        ctx = {**event_pages.nav(st, st.name, lang, "bracket"), "event": st.name, "t": event_pages.labels(lang),
               "lang": lang, "bracket": bracket_view.bracket_block(bracket_of(st), lang), "lang_urls": lang_urls(request)}
        return page(request, pages.render("event_bracket.html", ctx, lang))

    def api_bracket(request: Request) -> Response:
        return _json(bracket_of(state_of(request)))

    def api_round(request: Request) -> Response:
        st = state_of(request)
        rnd = round_of(request, st)
        return _json(event_pages.round_json(st, rnd, round_desk(st, rnd)))

    def api_player(request: Request) -> Response:
        st = state_of(request)
        table = T.event_standings(st, tournament_rows.event_games(store, st.name))
        return _json(player_of(request, st, table))

    return [
        Route("/events/{event}/standings", locked(standings_page)),
        Route("/events/{event}/bracket", locked(bracket_page)),
        Route("/api/events/{event}/bracket", locked(api_bracket)),
        Route("/events/{event}/rounds/{n}", locked(round_page)),
        Route("/events/{event}/players/{name:path}", locked(player_page)),
        Route("/api/events/{event}/rounds/{n}", locked(api_round)),
        Route("/api/events/{event}/players/{name:path}", locked(api_player)),
    ]


def token_prompt(lang: str) -> str:
    """What the desk asks for before its first check-in, in the reader's language."""
    from exports import i18n

    return i18n.translations(lang).pgettext("event", "A judge's or an admin's token (kifu token new --role judge --event EVENT)")


def checkin_routes(store: Any, admin_token: str | None) -> list[Any]:
    """``POST /api/events/{event}/checkin`` (JSON ``{"player": NAME}``): the desk's check-in
    button, with an admin's token or a judge's token for the event (recorder/tournament_day.py
    decides; every refusal one line, as the CLI's)."""
    from anyio import to_thread

    from exports import i18n
    from projections.base import N_
    from recorder import logformat, tokens

    async def api_checkin(request: Request) -> Response:
        event = request.path_params["event"]
        body = await request.body()
        if len(body) > 4096:
            raise HTTPException(413, "request body over 4096 bytes")
        try:
            data = logformat.loads_object(body.decode("utf-8"), "body", N_("one JSON object with the player's name"))
        except UnicodeDecodeError:
            raise HTTPException(400, "body: not UTF-8") from None
        player = data.get("player")
        if not isinstance(player, str) or not player.strip():
            raise HTTPException(400, "body: player: a registered player's name")

        def write() -> dict[str, Any]:
            grant = tokens.authorize_desk(store, admin_token, request.headers.get("authorization"), event)
            return tournament_service.checkin(store, event, player, by=grant.name)

        try:
            line = await to_thread.run_sync(write)
        except tokens.AuthError as exc:
            said = i18n.translate(lang_of(request), i18n.said_of(exc))  # the desk's reader's language
            return _json({"error": said}, exc.status, {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None)
        return _json(line, 201)

    return [Route("/api/events/{event}/checkin", api_checkin, methods=["POST"])]


__all__ = ["checkin_routes", "desk_extras", "round_param", "routes", "standings_for", "stream_standings", "token_prompt"]
