"""The recording page's routes: ``/matches/{id}/record`` and its state. What the page shows is
built in exports/recording.py; writes go through the server's POST (recorder/web/server.py)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from exports import boards, pages
from exports.recording import LAST_LINES, board_picks, first_view, initial_move, mark_board, page_context, state
from projections.secrecy import PublicReplay, scrub, secret_names
from recorder import lists, tokens
from recorder.web.common import json_response as _json
from recorder.web.viewer import lang_of, stream_url  # the same choice as every page: ?lang=, the cookie, the browser


# The state of a match's head, per language, kept with the match's Replay (the server's cache
# keeps one per match): a reload, a second device or the page itself after the fetch asks for
# the same head and is answered without working it out again. A new line is a new head.
_HEADS: weakref.WeakKeyDictionary[Any, tuple[int, dict[str, dict[str, Any]]]] = weakref.WeakKeyDictionary()
_HEADS_LOCK = threading.Lock()
# The labels of a match's last lines (exports.recording.state ``labels``), kept from head to
# head: a label is the line in its notation on the board before it, and that board stands until
# a ruling or a correction (in the ruled view, the only lines that change the past: Replay.extend).
_LABELS: weakref.WeakKeyDictionary[Any, tuple[int, dict[tuple[int, str], str]]] = weakref.WeakKeyDictionary()
CHANGE_THE_PAST = ("ruling", "correct")


def _labels_of(rep: Any, lines: int) -> dict[tuple[int, str], str]:
    """The kept labels of ``rep``'s lines, those that still stand at ``lines`` lines (called
    with _HEADS_LOCK held)."""
    seen, labels = _LABELS.get(rep, (0, {}))
    if seen > lines or any(e["type"] in CHANGE_THE_PAST for e in rep.entries[seen:lines]):
        labels = {}
    labels = {k: v for k, v in labels.items() if k[0] > lines - 2 * LAST_LINES}  # older lines are not shown
    _LABELS[rep] = (lines, labels)
    return labels


def head_state(rep: Any, lang: str) -> dict[str, Any]:
    """``exports.recording.state`` of the match's last line, with its board's HTML; computed
    once per head and language."""
    lines = len(rep.entries)
    with _HEADS_LOCK:
        seen, by_lang = _HEADS.get(rep, (-1, {}))
        if seen == lines and lang in by_lang:
            return by_lang[lang]
        labels = dict(_labels_of(rep, lines))
    names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
    st = state(rep, lang, lambda b: boards.render(b, names, lang), labels=labels)  # (adds this head's)
    with _HEADS_LOCK:
        if _LABELS.get(rep, (-1, {}))[0] == lines:
            _LABELS[rep] = (lines, labels)
        seen, by_lang = _HEADS.get(rep, (-1, {}))
        _HEADS[rep] = (lines, dict(by_lang, **{lang: st}) if seen == lines else {lang: st})
    return st


def routes(cache: Any, store: Any, admin_token: str | None, locked: Callable[[Any], Any]) -> list[Any]:
    """``/matches/{id}/record`` (the page) and ``/matches/{id}/record/state`` (its JSON)."""
    def writable() -> bool:
        if admin_token:
            return True
        try:
            return tokens.has_tokens(store)
        except Exception:
            return False

    def replay_for(request: Any) -> Any:
        """The match's replay for this reader: a public twin when its event's lists are closed
        to the reader (recorder/lists.py), unless the request's token writes to this match
        (the table's scorekeeper records what each player is about to play)."""
        rep = cache.replay(request.path_params["id"], "ruled")
        if isinstance(rep, PublicReplay) and lists.may_write(store, admin_token, request.headers.get("authorization"),
                                                             rep.full_header):
            return cache.replays.get((request.path_params["id"], "ruled")) or rep
        return rep

    def state_for(rep: Any, lang: str) -> dict[str, Any]:
        st = head_state(rep, lang)
        if isinstance(rep, PublicReplay):  # the form offers nothing of a closed list not yet played
            event = (rep.header.get("match") or {}).get("event")
            st = scrub(st, secret_names(rep, lists.list_names(store, event)))
        return st

    def record_page(request: Any) -> Response:
        rep = replay_for(request)
        lang = lang_of(request)
        st = state_for(rep, lang)
        ctx = page_context(rep, lang, writable())
        # The page arrives drawn (board, form, lines: exports/templates/_record_parts.html) and
        # its state comes with it for the script: nothing moves after the first paint.
        ctx["config"]["initial"] = dict(st, board_html="")  # (the board is in the page already)
        ctx["config"]["stream_url"] = stream_url(rep.header["match"]["id"], rep.steps)  # live follow
        view = first_view(st, initial_move(st))
        board = Markup(mark_board(str(st["board_html"]), board_picks(view)))  # the board is the input
        return HTMLResponse(pages.render("record.html", dict(ctx, board=board, steps=rep.steps, s=st, first_view=view)))

    def record_state(request: Any) -> Response:

        rep = replay_for(request)
        if request.query_params.get("after") == str(rep.steps):  # the page's poll: nothing new
            return _json({"steps": rep.steps, "unchanged": True})
        return _json(state_for(rep, lang_of(request)))

    return [
        Route("/matches/{id}/record", locked(record_page)),
        Route("/matches/{id}/record/state", locked(record_state)),
    ]


__all__ = ["routes"]
