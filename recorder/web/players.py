"""Players in the loop (issue 33): a player's own page (``/events/{event}/me``, with the
player's token in the address's fragment; its view ``/api/events/{event}/me`` and the HTML
fragment ``/events/{event}/me?fragment=1`` answer that token only), their reports
(``POST /api/events/{event}/report``), a judge's time extension from the desk (``POST
/api/events/{event}/extend``, a judge's token) and the round clock for the hall
(``/events/{event}/clock``, its data ``/api/events/{event}/clock``).

The pages follow the event's stream (recorder/web/stream.py: the event's own lines come with
its matches'), and read everything from the event's stream and the read model. The decisions
are recorder/reports.py's; what the pages show, exports/player_pages.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from exports import pages, player_pages
from exports import tournament as view
from exports.desk import POLL_MS, _q
from projections import reports as R
from projections import tournament as T
from projections import tournament_rows
from projections.base import N_, at, said
from projections.errors import LogFormatError, NotFoundError
from recorder import logformat, reports, tokens, tournament_service
from recorder.web.common import json_response as _json
from recorder.web.viewer import lang_of, lang_urls, page

MAX_BODY = 4096


def clock_now() -> datetime:
    """The server's time the pages count from (the page corrects its own clock by the difference)."""
    return datetime.now(UTC)


def routes(cache: Any, admin_token: str | None, locked: Callable[[Any], Any], poke: Callable[[], None],
           answer: Callable[[Request, BaseException], str]) -> list[Any]:
    """``answer``: what an error says to a request, in the language it asks for (recorder/web/server.py)."""
    store = cache.store
    # A new pairing sends every player's phone here at once: the event's fold is kept per event
    # while its stream has not moved (one indexed read says so), and its standings and table
    # results while nothing at all was written to the store (one read of the newest id).
    folds: dict[str, tuple[int, T.Tournament]] = {}
    tallies: dict[str, tuple[tuple[int, int], Any, dict[str, bool]]] = {}

    def state_of(event: str) -> T.Tournament:
        top = store.top_version(tournament_service.event_uuid(event))
        if top == 0:
            raise NotFoundError(said(N_("no event {event!r} with a roster and rounds (kifu event new {event2} …)"),
                                     event=event, event2=event))
        hit = folds.get(event)
        if hit is not None and hit[0] == top:
            return hit[1]
        st = tournament_service.state(store, event)
        folds[event] = (st.steps + 1, st)  # the version it was folded at (a line written meanwhile: folded again next time)
        return st

    def tally(st: T.Tournament) -> tuple[Any, dict[str, bool]]:
        """The standings and which tables of the current round have a recorded result."""
        mark = (st.steps, store.max_notification_id())
        hit = tallies.get(st.name)
        if hit is not None and hit[0] == mark:
            return hit[1], hit[2]
        table = T.event_standings(st, tournament_rows.event_games(store, st.name))
        rnd = st.current
        rows = tournament_rows.round_games(store, st, rnd) if rnd is not None else {}
        recorded = {t: view.table_status(g, st.best_of) == "finished" for t, g in rows.items()}
        tallies[st.name] = (mark, table, recorded)
        return table, recorded

    def me_data(request: Request) -> dict[str, Any]:
        event = request.path_params["event"]
        grant_player = player_of_token(request, event)
        st = state_of(event)
        table, recorded = tally(st)
        return player_pages.me_json(st, grant_player, table, recorded, clock_now())

    def player_of_token(request: Request, event: str) -> str:
        """The player a player's token is for (401/403 otherwise)."""
        secret = tokens.bearer(request.headers.get("authorization"))
        info = tokens.find(store, secret) if secret else None
        if info is None:
            raise tokens.AuthError(401, N_("a player's token is needed (the address with #token=)"))
        if info.revoked is not None:
            raise tokens.AuthError(403, said(N_("token {token!r} was revoked at {when}"), token=info.name, when=info.revoked))
        player = tokens.player_of(store, info.name)
        if info.role != "player" or player is None or info.event is None or \
                tournament_service.event_uuid(info.event) != tournament_service.event_uuid(event):
            raise tokens.AuthError(403, said(N_("token {token!r} is not a player's token of {event!r}"),
                                                 token=info.name, event=event))
        return player

    def auth_error(request: Request, exc: tokens.AuthError) -> Response:
        return _json({"error": answer(request, exc)}, exc.status, {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None)

    def me_page(request: Request) -> Response:
        event = request.path_params["event"]
        lang = lang_of(request)
        if request.query_params.get("fragment"):
            try:
                data = me_data(request)
            except tokens.AuthError as exc:
                return HTMLResponse(f"<p id=\"me-note\">{_escape(answer(request, exc))}</p>", exc.status)
            return HTMLResponse(pages.render("_me.html", player_pages.me_context(data, lang), lang))
        state_of(event)
        t = player_pages.labels(lang)
        config = {"event": event, "fragment_url": f"/events/{_q(event)}/me?fragment=1&lang={lang}",
                  "report_url": f"/api/events/{_q(event)}/report", "stream_url": f"/api/events/{_q(event)}/stream",
                  "poll_ms": POLL_MS, "labels": {"no_token": t["no_token"]}}
        ctx = {"event": event, "t": t, "config": config, "lang_urls": lang_urls(request)}
        return page(request, pages.render("event_me.html", ctx, lang))

    def api_me(request: Request) -> Response:
        try:
            return _json(me_data(request))
        except tokens.AuthError as exc:
            return auth_error(request, exc)

    def clock_data(event: str) -> dict[str, Any]:
        return R.clock_json(state_of(event), clock_now())

    def clock_page(request: Request) -> Response:
        event = request.path_params["event"]
        lang = lang_of(request)
        t = player_pages.labels(lang)
        data = clock_data(event)
        config = {"clock": data, "api_url": f"/api/events/{_q(event)}/clock", "stream_url": f"/api/events/{_q(event)}/stream",
                  "poll_ms": POLL_MS, "labels": {k: t[k] for k in ("round", "no_round_yet", "round_closed", "time_up",
                                                                 "table_plus")}}
        ctx = {"event": event, "clock": data, "t": t, "config": config}
        return page(request, pages.render("event_clock.html", ctx, lang))

    def api_clock(request: Request) -> Response:
        return _json(clock_data(request.path_params["event"]))

    async def body_of(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise LogFormatError([at("body", said(N_("over {n} bytes"), n=MAX_BODY))])
        try:  # the one parser of every line: depth, duplicates, NaN, surrogates (recorder/logformat.py)
            return logformat.loads_object(raw.decode("utf-8"), "body", "one JSON object")
        except UnicodeDecodeError:
            raise LogFormatError([at("body: encoding", N_("not UTF-8"))]) from None

    async def api_report(request: Request) -> Response:
        event = request.path_params["event"]
        body = await body_of(request)
        player = body.get("player")
        if not isinstance(player, str) or not player.strip():
            raise LogFormatError([at("player", N_("the reporting player's name"))])
        for field in ("result", "games"):
            if body.get(field) is not None and not isinstance(body.get(field), str):
                raise LogFormatError([at(field, N_("a string"))])
        key = request.headers.get("idempotency-key") or None
        try:
            grant = await to_thread.run_sync(lambda: tokens.authorize_event(
                store, admin_token, request.headers.get("authorization"), event, player=player))
        except tokens.AuthError as exc:
            return auth_error(request, exc)
        done = await to_thread.run_sync(lambda: reports.report(
            store, event, player, str(body.get("result") or ""), body.get("games"), by=grant.name, key=key))
        poke()
        return _json(done, 200 if done["repeated"] else 201)

    async def api_extend(request: Request) -> Response:
        event = request.path_params["event"]
        body = await body_of(request)
        minutes, table, reason = body.get("minutes"), body.get("table"), body.get("reason")
        if not isinstance(minutes, int) or isinstance(minutes, bool):
            raise LogFormatError([at("minutes", N_("a whole number of minutes"))])
        if not isinstance(table, (str, int)) or not isinstance(reason, str):
            raise LogFormatError([at("table, reason", N_("the table and the judge's reason"))])
        try:
            grant = await to_thread.run_sync(lambda: tokens.authorize_event(
                store, admin_token, request.headers.get("authorization"), event))
        except tokens.AuthError as exc:
            return auth_error(request, exc)
        line = await to_thread.run_sync(lambda: reports.extend(store, event, str(table), minutes, reason, grant.name))
        poke()
        return _json(line, 201)

    return [
        Route("/events/{event}/me", locked(me_page)),
        Route("/events/{event}/clock", locked(clock_page)),
        Route("/api/events/{event}/me", locked(api_me)),
        Route("/api/events/{event}/clock", locked(api_clock)),
        Route("/api/events/{event}/report", api_report, methods=["POST"]),
        Route("/api/events/{event}/extend", api_extend, methods=["POST"]),
    ]


def _escape(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


__all__ = ["clock_now", "routes"]
