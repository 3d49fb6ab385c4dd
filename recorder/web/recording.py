"""The recording page's routes: ``/matches/{id}/record`` and its state. What the page shows is
built in exports/recording.py; writes go through the server's POST (recorder/web/server.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from exports import boards, pages
from exports.recording import page_context, state
from recorder import tokens
from recorder.web.common import json_response as _json
from recorder.web.viewer import lang_of, stream_url  # the same choice as every page: ?lang=, the cookie, the browser


def routes(cache: Any, store: Any, admin_token: str | None, locked: Callable[[Any], Any]) -> list[Any]:
    """``/matches/{id}/record`` (the page) and ``/matches/{id}/record/state`` (its JSON)."""
    def writable() -> bool:
        if admin_token:
            return True
        try:
            return tokens.has_tokens(store)
        except Exception:
            return False

    def record_page(request: Any) -> Response:
        rep = cache.replay(request.path_params["id"], "ruled")
        lang = lang_of(request)
        names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
        board = boards.render(rep.board_json(rep.steps), names, lang)
        ctx = page_context(rep, lang, writable())  # the first state comes with the page: nothing moves after it paints
        ctx["config"]["initial"] = state(rep, lang, lambda b: "")  # (the board is in the page already)
        ctx["config"]["stream_url"] = stream_url(rep.header["match"]["id"], rep.steps)  # live follow
        return HTMLResponse(pages.render("record.html", dict(ctx, board=board, steps=rep.steps)))

    def record_state(request: Any) -> Response:

        rep = cache.replay(request.path_params["id"], "ruled")
        if request.query_params.get("after") == str(rep.steps):  # the page's poll: nothing new
            return _json({"steps": rep.steps, "unchanged": True})
        lang = lang_of(request)
        names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
        return _json(state(rep, lang, lambda b: boards.render(b, names, lang)))

    return [
        Route("/matches/{id}/record", locked(record_page)),
        Route("/matches/{id}/record/state", locked(record_state)),
    ]


__all__ = ["routes"]
