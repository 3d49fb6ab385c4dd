"""The viewer routes of the replay server: the match list, the match page, its frames, its
window of lines, live follow, the broadcast overlay, the statistics page and the settings
(language, spoilers) a person chooses.

Pages cost one step: what does not depend on the step (the timeline in words, the summary,
turns, chart, decks) is a ``MatchView`` kept per (match, view, number of lines, language);
a request renders the board of its step and a window of the move list. The list page reads
the statistics read model (projections/readmodel.py), never replaying a match.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from exports import i18n, pages
from exports.matchview import TURNS_INLINE, MatchView, prepare
from exports.notation import result_text
from projections import registry
from projections.replay import VIEWS, Replay
from recorder.web.common import FILTERS, PER_PAGE, count_of
from recorder.web.common import int_param as _int
from recorder.web.common import event_links
from recorder.web.common import matches_filter as _matches

POLL_MS = 1000
KEEP = 64  # match views kept in memory; KIFU_SERVER_VIEWS overrides
POLLED_KEPT = 256  # rendered answers to the live-follow fetch kept (one per match, view and language being followed)
LANG_COOKIE = "kifu-lang"
SPOILER_COOKIE = "kifu-spoilers"
YEAR = 365 * 24 * 3600


def _q(text: Any) -> str:
    return quote(str(text), safe="")


class ViewCache:
    """A MatchView per (match, view, language), least recently used dropped first. A view of
    a match that has grown since is extended with the new lines, not built anew (unless a
    ruling or correction came in: it can change earlier lines)."""

    def __init__(self, keep: int | None = None):
        given = os.environ.get("KIFU_SERVER_VIEWS", "")
        self.keep = keep if keep is not None else int(given) if given.isdigit() else KEEP
        self.lock = threading.RLock()
        self.views: OrderedDict[tuple[str, str, str, str], MatchView] = OrderedDict()
        self.evicted = 0

    def get(self, rep: Replay, lang: str) -> MatchView:
        key = (str(rep.header["match"]["id"]), rep.view, lang, type(rep).__name__)  # a public twin apart
        with self.lock:
            mv = self.views.get(key)
            if mv is not None:
                self.views.move_to_end(key)
                if mv.steps == rep.steps and mv.timeline.replay is rep:
                    return mv
                if mv.timeline.replay is rep and mv.steps < rep.steps and mv.extend():
                    return mv
            mv = prepare(rep, lang)
            self.views[key] = mv
            while len(self.views) > max(self.keep, 0):
                self.views.popitem(last=False)
                self.evicted += 1
            return mv


def stream_url(match_id: str, steps: int) -> str:
    """Where a page hears of a match's new lines (recorder/web/stream.py; the page falls back to
    polling ``poll_url`` when the stream cannot be held)."""
    return f"/api/matches/{_q(match_id)}/stream?after={steps}"


def lang_of(request: Request) -> str:
    return i18n.pick(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE),
                     i18n.from_accept_language(request.headers.get("accept-language")))


def spoilers_shown(request: Request) -> bool:
    return request.cookies.get(SPOILER_COOKIE) == "show"


def page(request: Request, html: str, status: int = 200) -> HTMLResponse:
    """An HTML answer; a ``?lang=`` choice is remembered in a cookie."""
    resp = HTMLResponse(html, status)
    asked = i18n.normalise(request.query_params.get("lang"))
    if asked:
        resp.set_cookie(LANG_COOKIE, asked, max_age=YEAR, samesite="lax")
    return resp


def lang_urls(request: Request) -> dict[str, str]:
    out = {}
    for lang in i18n.LANGS:
        params = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"] + [("lang", lang)]
        out[lang] = f"{request.url.path}?{urlencode(params)}"
    return out


def step_of(request: Request, steps: int, default: int, match_id: str) -> int:
    raw = request.query_params.get("step")
    if raw in (None, ""):
        return default
    try:
        step = int(raw)
    except ValueError:
        _ = i18n.gettext_for(lang_of(request))
        raise HTTPException(400, _("step: {raw!r} is not a line number (0 to {steps})").format(raw=raw, steps=steps)) from None
    if not 0 <= step <= steps:
        raise HTTPException(404, f"step {step} is out of range 0..{steps} in match {match_id!r}")
    return step


def view_of(request: Request) -> str:
    view = request.query_params.get("view") or "ruled"
    if view not in VIEWS:
        raise HTTPException(400, f"view must be ruled or recorded, not {view!r}")
    return view


def filtered(request: Request, store: Any, fallback: Callable[[], list[dict[str, Any]]]
             ) -> tuple[list[dict[str, Any]], int, int, int, dict[str, str]]:
    """The list rows the query's filters keep, one page of them: filtered and paged in SQL on
    the read model (projections/listing.py), so a page costs its rows, not the store. Without
    a usable read model, the server's own summaries are filtered here."""
    from projections import listing, readmodel

    q = {k: request.query_params.get(k, "") for k in FILTERS}
    per = _int(request.query_params.get("per_page"), PER_PAGE, 1, 500)
    page_no = _int(request.query_params.get("page"), 1, 1, 10**6)
    try:
        rm = readmodel.catch_up_store(store)
    except (readmodel.ReadModelError, sqlite3.Error):  # locked, another store's, damaged: still list
        kept = [r for r in fallback() if _matches(r, q)]
        return kept[(page_no - 1) * per : page_no * per], len(kept), page_no, per, q
    try:
        rows, total = listing.page(rm.db.conn, q, per, (page_no - 1) * per)
    finally:
        rm.close()
    return rows, total, page_no, per, q


def routes(store: Any, cache: Any,
           locked: Callable[[Callable[[Request], Response]], Callable[[Request], Response]]) -> list[Route]:
    """The viewer's routes. ``cache`` is the server's MatchCache (replays per match and view);
    ``locked`` wraps a handler so one request at a time touches the cached replays."""
    views = ViewCache()

    def match_view(request: Request, fresh: bool = True) -> tuple[Replay, MatchView, str]:
        lang = lang_of(request)
        rep = cache.replay(request.path_params["id"], view_of(request), fresh=fresh)
        return rep, views.get(rep, lang), lang

    def context(request: Request, rep: Replay, mv: MatchView, step: int, window: tuple[int, int]) -> dict[str, Any]:
        mid = rep.header["match"]["id"]
        base = f"/matches/{_q(mid)}"
        view = rep.view
        lang_param = "lang" in request.query_params
        suffix = f"&lang={mv.lang}" if lang_param else ""
        return pages.match_context(
            mv, mode="server", step=step, window=window, spoiler_free=not spoilers_shown(request),
            link=lambda n: f"{base}?step={n}&view={view}{suffix}",
            config={"views": list(VIEWS), "frame_url": f"{base}/frame", "poll_url": f"{base}/poll",
                    "moves_url": f"{base}/moves", "poll_ms": POLL_MS, "lang_param": lang_param,
                    "stream_url": stream_url(mid, rep.steps)},
            extra={"record_url": f"{base}/record", "log_url": f"/api/matches/{_q(mid)}/log",
                   "overlay_url": f"{base}/overlay", "lang_urls": lang_urls(request),
                   "event_links": event_links(store, rep.header, mv.lang)},
        )

    def match_list(request: Request) -> Response:
        lang = lang_of(request)
        rows, total, page_no, per, q = filtered(request, store, cache.list)
        keep = "&".join(f"{k}={_q(v)}" for k, v in q.items() if v) + f"&per_page={per}"
        shown = spoilers_shown(request)
        names_of = {}
        for r in rows:
            names_of = {p["id"]: p["name"] for p in r["players"]}
            res = r["result"]
            r["result_text"] = result_text(res["winner"], res["reason"], names_of, lang) if res else ""
        games = [(g, registry.get(g).title) for g in registry.available()]
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        ctx = {"rows": rows, "total": total, "page": page_no, "per_page": per, "q": q, "keep": keep,
               "games": games, "game_titles": dict(games), "pages": max(1, -(-total // per)),
               "show_results": shown, "lang_urls": lang_urls(request),
               "spoiler_url": "/settings?" + urlencode({"spoilers": "hide" if shown else "show", "next": here})}
        return page(request, pages.render("list.html", ctx, lang))

    def match_page(request: Request) -> Response:
        rep, mv, lang = match_view(request)
        finished = mv.m["result"] is not None
        default = 0 if finished and not spoilers_shown(request) else mv.steps
        step = step_of(request, mv.steps, default, rep.header["match"]["id"])
        ctx = context(request, rep, mv, step, mv.window(step))
        return page(request, pages.render("match.html", ctx, lang))

    def moves(request: Request) -> Response:
        rep, mv, lang = match_view(request, fresh=False)
        step = step_of(request, mv.steps, mv.steps, rep.header["match"]["id"])
        ctx = context(request, rep, mv, step, mv.window(step))
        return HTMLResponse(pages.render("_moves.html", ctx, lang))

    def frame(request: Request) -> Response:
        asked = count_of(request.query_params.get("step"))
        # a step past the kept replay's end asks for a fresh one (a number of any length: count_of)
        fresh = asked is not None and asked > cache.replay(request.path_params["id"], view_of(request), fresh=False).steps
        rep, mv, lang = match_view(request, fresh=fresh)
        turn = (request.query_params.get("turn") or "").strip()
        number = count_of(turn[1:] if turn.startswith("-") else turn)
        if number is not None:  # a turn of any length: past the end is the last step, before the first the first
            step = mv.turn_step(-1 if turn.startswith("-") and number else min(number, 10**10))
        else:
            step = step_of(request, mv.steps, mv.steps, rep.header["match"]["id"])
        html = pages.board_html(mv.timeline, step)
        result = pages.render("_result.html", {"m": mv.m, "spoiler_free": not spoilers_shown(request)
                                               and mv.m["result"] is not None}, lang)
        return JSONResponse({"step": step, "steps": mv.steps, "html": str(html),
                             "caption": mv.timeline.caption(step), "result_html": result})

    polled: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()  # rendered answers, newest last

    def poll(request: Request) -> Response:
        view = view_of(request)
        rep = cache.replay(request.path_params["id"], view)
        raw = request.query_params.get("after") or "0"
        after = count_of(raw) or 0
        if after == rep.steps:
            return JSONResponse({"steps": rep.steps})
        if request.query_params.get("head") == "0":
            return JSONResponse({"steps": rep.steps})
        lang = lang_of(request)
        # Every follower of a match asks for the same rows when a line arrives (the stream
        # tells them all at once): the rendered answer is kept per match, view, step and what
        # else the rows depend on, and rendered once.
        key = (rep.header["match"]["id"], view, rep.steps, lang, "lang" in request.query_params,
               spoilers_shown(request), id(rep))
        body = polled.get(key)
        if body is None:
            mv = views.get(rep, lang)
            ctx = context(request, rep, mv, rep.steps, mv.window(rep.steps))
            body = json.dumps({
                "steps": rep.steps,
                "moves": pages.render("_moves.html", ctx, mv.lang),
                "head": pages.render("_header.html", ctx, mv.lang),
                "note_steps": mv.note_steps,
                "turns": mv.turns if len(mv.turns) <= TURNS_INLINE else None,
            }, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            polled[key] = body
            while len(polled) > POLLED_KEPT:
                polled.popitem(last=False)
        return Response(body, media_type="application/json")

    def overlay(request: Request) -> Response:
        rep, mv, lang = match_view(request)
        step = step_of(request, mv.steps, mv.steps, rep.header["match"]["id"])
        base = f"/matches/{_q(rep.header['match']['id'])}"
        ctx = pages.overlay_context(mv, step, request.query_params.get("bg") or "transparent", config={
            "frame_url": f"{base}/frame", "poll_url": f"{base}/poll", "poll_ms": POLL_MS,
            "stream_url": stream_url(rep.header["match"]["id"], rep.steps)})
        return page(request, pages.render("overlay.html", ctx, lang))

    def api_lines(request: Request) -> Response:
        """Every line as recorded (``line``) with its notation beside it (``text``, ``?lang=``)."""
        rep, mv, lang = match_view(request)
        rows = [{"seq": r.seq, "line": rep.entries[r.seq - 1], "text": r.notation,
                 "caption": r.caption} for r in mv.timeline.rows]
        body = json.dumps({"match": rep.header["match"]["id"], "view": rep.view, "lang": lang, "lines": rows},
                          ensure_ascii=False)
        return Response(body, media_type="application/json")

    def settings(request: Request) -> Response:
        nxt = request.query_params.get("next") or "/matches"
        if not nxt.startswith("/") or nxt.startswith("//"):
            nxt = "/matches"
        resp = RedirectResponse(nxt, 303)
        spoilers = request.query_params.get("spoilers")
        if spoilers in ("show", "hide"):
            resp.set_cookie(SPOILER_COOKIE, spoilers, max_age=YEAR, samesite="lax")
        lang = i18n.normalise(request.query_params.get("lang"))
        if lang:
            resp.set_cookie(LANG_COOKIE, lang, max_age=YEAR, samesite="lax")
        return resp

    def stats_page(request: Request) -> Response:
        from markupsafe import Markup

        from exports.stats_render import fragment_for_query

        lang = lang_of(request)
        body = fragment_for_query(store, request.query_params, form_action="/stats", lang=lang)
        return page(request, pages.render("stats.html", {"body": Markup(body), "lang_urls": lang_urls(request)}, lang))

    return [
        Route("/matches", locked(match_list)),
        Route("/stats", locked(stats_page)),
        Route("/settings", settings),
        Route("/matches/{id}", locked(match_page)),
        Route("/matches/{id}/frame", locked(frame)),
        Route("/matches/{id}/moves", locked(moves)),
        Route("/matches/{id}/poll", locked(poll)),
        Route("/matches/{id}/overlay", locked(overlay)),
        Route("/api/matches/{id}/lines", locked(api_lines)),
    ]



__all__ = ["ViewCache", "filtered", "lang_of", "routes"]
