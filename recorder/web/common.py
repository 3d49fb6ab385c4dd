"""What the server's route modules share (server, viewer, desk, recording, event): JSON
responses, query-number parsing, the match-list filters and a match page's links to its event.
A module of its own so that the route modules import it, not the server that imports them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.responses import Response

from exports import event_pages
from projections import registry
from projections.errors import UnknownGameError
from projections.names import name_key
from recorder import tournament_service

PER_PAGE = 25


def matches_filter(row: Mapping[str, Any], q: Mapping[str, str]) -> bool:
    def has(text: Any, needle: str) -> bool:  # as projections/listing.py compares in SQL: normalised names
        return name_key(needle) in name_key(text)

    if q.get("game"):
        try:
            if row["game"] != registry.canonical(q["game"]):
                return False
        except UnknownGameError:
            return False
    if q.get("event") and not has(row["event"], q["event"]):
        return False
    if q.get("round") and str(row["round"]) != q["round"].strip():
        return False
    if q.get("player") and not any(has(p["name"], q["player"]) or p["id"] == q["player"] for p in row["players"]):
        return False
    if q.get("deck") and not any(has(p["deck"], q["deck"]) or has(p["archetype"], q["deck"]) for p in row["players"]):
        return False
    if q.get("q") and not (has(row["id"], q["q"]) or has(row.get("title"), q["q"]) or has(row["event"], q["q"])
                           or any(has(p["name"], q["q"]) for p in row["players"])):
        return False
    want = (q.get("result") or "").strip()
    if want:
        res = row["result"]
        if want == "in-progress":
            return res is None
        if res is None:
            return False
        if want == "decided":
            return True
        if want == "draw":
            return res["winner"] is None
        return want in (res["reason"], res["winner"], res["winner_name"])
    return True


FILTERS = ("game", "event", "round", "player", "deck", "result", "q")


BEYOND = 2**62  # what a number too long for any count, step or round reads as (SQLite stops at 2**63)


def count_of(raw: str | None) -> int | None:
    """A count, step, round or seq from a URL or a header: ASCII decimal digits only (not ``²``
    or other characters ``str.isdigit`` lets through), else None. A number of any length is
    read (past every line or round, it reads as BEYOND), never put whole to ``int()``, which
    refuses more than 4,300 digits with a ValueError."""
    if raw is None:
        return None
    text = raw.strip()
    if not text or not text.isascii() or not text.isdigit():
        return None
    text = text.lstrip("0") or "0"
    return int(text) if len(text) <= 18 else BEYOND


def int_param(value: str | None, default: int, low: int, high: int) -> int:
    try:
        n = int(value) if value not in (None, "") else default
    except ValueError:
        raise HTTPException(400, f"not a number: {value!r}") from None
    return max(low, min(high, n))


def json_response(obj: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    body = json.dumps(obj, ensure_ascii=False).encode("utf-8")
    return Response(body, status, headers=dict(headers or {}), media_type="application/json")


def event_links(store: Any, header: Mapping[str, Any], lang: str) -> dict[str, Any] | None:
    """A match page's links to its event's pairings and standings (None outside a kifu event)."""
    m = header.get("match") or {}
    event = m.get("event")
    if not isinstance(event, str) or not event or not tournament_service.exists(store, event):
        return None
    u = event_pages.urls(event, lang)
    rnd = m.get("round")
    return {"event": event, "desk": u["desk"], "standings": u["standings"],
            "round": u["round"](rnd) if isinstance(rnd, int) else None, "t": event_pages.labels(lang)}
