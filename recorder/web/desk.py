"""The event desk's routes: ``/events``, ``/events/{event}`` and its JSON API. What the desk
shows is built in exports/desk.py (the same rows feed the page, the API and ``kifu event``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from exports import pages
from exports.desk import (
    POLL_MS, _q, ago, event_desk, events_of, labels, match_row, model_rows, note_parts, standings_csv, status_text,
    with_penalty_words,
)
from projections import listing, readmodel
from projections.names import name_key
from projections.replay import Replay
from recorder.web import event as ev_pages
from recorder.web.common import json_response as _json
from recorder.web.viewer import lang_of, page  # the same choice as every page: ?lang=, the cookie, the browser


def _read_model(store: Any) -> Any:
    try:
        return readmodel.catch_up_store(store)
    except (readmodel.ReadModelError, sqlite3.Error):  # locked, another store's, damaged
        return None


def closed_as_counted(desk: dict[str, Any], closes: Mapping[int, tuple[int, str]], lang: str = "ja") -> None:
    """The cards of the closed rounds as their close counted them (exports.tournament.closed_card):
    a table of a closed round is never "in progress" on the desk, its page or its JSON."""
    from exports import tournament as tour_view

    closed = tour_view.labels(lang)["closed"]
    for rnd in desk["rounds"]:
        if rnd["round"] not in closes:
            continue
        best_of, how = closes[rnd["round"]]
        for card in rnd["tables"]:
            card["status"] = tour_view.closed_card(card, best_of, how)
            for r in card["games"]:
                if r["status"] in ("in_progress", "not_started"):  # time was called: no longer played
                    r["status"] = "closed"
                    r["status_text"] = closed


def routes(cache: Any, locked: Callable[[Any], Any]) -> list[Any]:
    """``/events``, ``/events/{event}`` (page; ``?fragment=1`` for the live part) and
    ``/api/events/{event}`` (JSON; ``/standings`` with ``?format=csv``)."""
    def read_model() -> Any:
        return _read_model(cache.store)

    def folded_without_read_model(event: str) -> list[tuple[Replay, Mapping[str, Any]]]:
        """The server's own summaries of every match, when the read model cannot be used."""
        key = name_key(event)
        return [(cache.replay(s["id"], "ruled", fresh=False), s) for s in cache.list()
                if name_key(s.get("event")) == key]

    def rows_of(event: str) -> list[dict[str, Any]]:
        """The desk rows of the event's matches, read from the read model through its event
        index (exports.desk.model_rows): a match is folded only when the violations of its
        current lines are not kept yet, so neither the store's size nor a fresh server makes
        the desk fold the event again."""
        rm = read_model()
        if rm is None:
            return [match_row(rep, s) for rep, s in folded_without_read_model(event)]
        try:
            return model_rows(rm.db.conn, event, lambda mid: cache.replay(mid, "ruled"))
        finally:
            rm.close()

    def context(request: Any) -> dict[str, Any]:
        event = request.path_params["event"]
        lang = lang_of(request)
        desk = with_penalty_words(event_desk(event, rows_of(event)), lang)
        tour, own = ev_pages.desk_extras(cache.store, event, lang)  # the round, and standings with byes and drops
        desk.update(own)
        t = labels(lang)
        for row in desk["standings"]:  # a no-show, a drop, byes, a late entry: in words beside the name
            row["notes"] = note_parts(row, t=t)
        now = datetime.now(UTC)
        for rnd in desk["rounds"]:
            for card in rnd["tables"]:
                for r in card["games"]:
                    r["ago"] = ago(r["last_at"], now, lang)
                    r["status_text"] = status_text(r, lang)
        if tour is not None:  # a closed round's tables read as the close counted them, never "in progress"
            from exports import tournament as tour_view
            t = {**t, **{k: v for k, v in tour_view.labels(lang).items() if k.startswith("counted_")}}
            closed_as_counted(desk, tour["closes"], lang)
        return {"desk": desk, "t": t, "lang": lang, "tour": tour,
                "config": {"poll_url": f"/events/{_q(event)}?fragment=1&lang={lang}", "poll_ms": POLL_MS,
                           "stream_url": f"/api/events/{_q(event)}/stream",
                           "labels": {**{k: labels(lang)[k] for k in ("ago_s", "ago_m", "ago_h")},
                                      "token": ev_pages.token_prompt(lang)}}}

    def events_page(request: Any) -> Response:
        lang = lang_of(request)
        rm = read_model()
        if rm is None:
            names = events_of(cache.list())
        else:
            try:
                names = listing.event_names(rm.db.conn)
            finally:
                rm.close()
        return HTMLResponse(pages.render("desk_index.html", {"events": [(n, f"/events/{_q(n)}") for n in names],
                                                               "t": labels(lang), "lang": lang}))

    def event_page(request: Any) -> Response:
        ctx = context(request)
        if request.query_params.get("fragment"):
            return HTMLResponse(pages.render("_desk.html", ctx))
        # a ?lang= choice is remembered (a cookie), as on every other page: the desk's links keep it
        return page(request, pages.render("desk.html", ctx))

    def api_event(request: Any) -> Response:

        event = request.path_params["event"]
        desk = event_desk(event, rows_of(event))
        tour, own = ev_pages.desk_extras(cache.store, event, "en")
        if tour is not None:
            closed_as_counted(desk, tour["closes"], "en")
        return _json({**desk, **own})

    def api_standings(request: Any) -> Response:

        event = request.path_params["event"]
        # the event's own stream when it has one (byes, drops, ?round=N), else its matches' headers
        _, table, upto = ev_pages.standings_for(cache.store, event, request.query_params.get("round"))
        if request.query_params.get("format") == "csv":
            return PlainTextResponse(standings_csv(table), media_type="text/csv; charset=utf-8")
        return _json({"event": event, "round": upto, "standings": [s.to_json() for s in table.rows],
                      "pending": [{"round": p.round, "table": p.table, "players": list(p.players)} for p in table.pending]})

    return [
        Route("/events", locked(events_page)),
        Route("/events/{event}", locked(event_page)),
        Route("/api/events/{event}", locked(api_event)),
        Route("/api/events/{event}/standings", locked(api_standings)),
    ]


__all__ = ["routes"]
