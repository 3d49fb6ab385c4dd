"""The event desk's routes: ``/events``, ``/events/{event}`` and its JSON API. What the desk
shows is built in exports/desk.py (the same rows feed the page, the API and ``kifu event``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from exports import pages
from exports.desk import (
    POLL_MS, _q, ago, event_rows, events_of, labels, standings_csv, standings_table, status_text,
)
from projections.replay import Replay
from recorder.web.common import json_response as _json
from recorder.web.viewer import lang_of  # the same choice as every page: ?lang=, the cookie, the browser


def routes(cache: Any, locked: Callable[[Any], Any]) -> list[Any]:
    """``/events``, ``/events/{event}`` (page; ``?fragment=1`` for the live part) and
    ``/api/events/{event}`` (JSON; ``/standings`` with ``?format=csv``)."""
    def matches_of(event: str) -> list[tuple[Replay, Mapping[str, Any]]]:
        return [(cache.replay(s["id"], "ruled", fresh=False), s) for s in cache.list() if s.get("event") == event]

    def context(request: Any) -> dict[str, Any]:
        event = request.path_params["event"]
        lang = lang_of(request)
        desk = event_rows(event, matches_of(event))
        now = datetime.now(UTC)
        for rnd in desk["rounds"]:
            for card in rnd["tables"]:
                for r in card["games"]:
                    r["ago"] = ago(r["last_at"], now, lang)
                    r["status_text"] = status_text(r, lang)
        return {"desk": desk, "t": labels(lang), "lang": lang,
                "config": {"poll_url": f"/events/{_q(event)}?fragment=1&lang={lang}", "poll_ms": POLL_MS,
                           "stream_url": f"/api/events/{_q(event)}/stream",
                           "labels": {k: labels(lang)[k] for k in ("ago_s", "ago_m", "ago_h")}}}

    def events_page(request: Any) -> Response:
        lang = lang_of(request)
        names = events_of(cache.list())
        return HTMLResponse(pages.render("desk_index.html", {"events": [(n, f"/events/{_q(n)}") for n in names],
                                                               "t": labels(lang), "lang": lang}))

    def event_page(request: Any) -> Response:
        ctx = context(request)
        if request.query_params.get("fragment"):
            return HTMLResponse(pages.render("_desk.html", ctx))
        return HTMLResponse(pages.render("desk.html", ctx))

    def api_event(request: Any) -> Response:

        event = request.path_params["event"]
        return _json(event_rows(event, matches_of(event)))

    def api_standings(request: Any) -> Response:

        event = request.path_params["event"]
        table = standings_table(event, matches_of(event))
        if request.query_params.get("format") == "csv":
            return PlainTextResponse(standings_csv(table), media_type="text/csv; charset=utf-8")
        return _json({"event": event, "standings": [s.to_json() for s in table.rows],
                      "pending": [{"round": p.round, "table": p.table, "players": list(p.players)} for p in table.pending]})

    return [
        Route("/events", locked(events_page)),
        Route("/events/{event}", locked(event_page)),
        Route("/api/events/{event}", locked(api_event)),
        Route("/api/events/{event}/standings", locked(api_standings)),
    ]


__all__ = ["routes"]
