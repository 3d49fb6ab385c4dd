"""Closed deck lists at the server's face (issue 32): which events still keep their lists
secret, and whether the reader of one request may see them.

The CLI on the organiser's machine is the organiser: it holds the store, and every command
shows the lists (there is no reader to hide them from). The replay server's reader is
anonymous unless its request carries a bearer token: an admin token (the one ``kifu serve
--token`` was started with, or ``kifu token new --role admin``) or a judge's token of that
event sees a closed list; nobody else does, a table's scorekeeper included (at a self-scored
table that is a player). ``reader()`` is set for each request by the server (``Readers``, an
ASGI middleware); outside a request it is None, and nothing is hidden.

Whether an event's lists are closed is read from its own stream: its opening header
(``lists``) and a ``publish-lists`` line. One indexed read per event and request (the stream's
top version, ``Store.top_version``); the stream itself is read again only when it has moved
(a registration, a pairing), never a match folded. A match is of an event when its header's
``match.event`` names it; matches of an event without a stream of its own (an old store)
have no closed list.

What the hidden reader is shown instead is in projections/secrecy.py.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

from projections.names import name_key
from recorder.ids import tournament_uuid

_KNOWN: weakref.WeakKeyDictionary[Any, dict[Any, tuple[int, bool, frozenset[str]]]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def _known(store: Any, event: Any) -> tuple[int, bool, frozenset[str]]:
    """(top version, closed, every name its registered lists hold) of an event's stream."""
    if not isinstance(event, str) or not event.strip():
        return 0, False, frozenset()
    stream = tournament_uuid(event)
    top = store.top_version(stream)
    if top == 0:
        return 0, False, frozenset()
    with _LOCK:
        known = _KNOWN.setdefault(store, {}).get(stream)
    if known is not None and known[0] == top:
        return known
    from projections.secrecy import list_names

    events = store.load_stream(stream)
    opened = events[0].state.get("opened") if events else None
    lists = ((opened or {}).get("event") or {}).get("lists") if isinstance(opened, Mapping) else None
    lines = [ev.state.get("line") or {} for ev in events[1:]]
    published = any(line.get("type") == "publish-lists" for line in lines)
    decks = [{"deck": line["deck"]} for line in lines if line.get("type") == "register" and isinstance(line.get("deck"), Mapping)]
    answer = (len(events), lists == "closed" and not published, frozenset(list_names({"players": decks})))
    with _LOCK:
        _KNOWN.setdefault(store, {})[stream] = answer
    return answer


def closed(store: Any, event: Any) -> bool:
    """Whether ``event`` has a stream opened with closed lists and no ``publish-lists`` line."""
    return _known(store, event)[1]


def list_names(store: Any, event: Any) -> frozenset[str]:
    """Every name the registered lists of ``event`` hold (what the recording page of any of its
    matches must not offer a reader the lists are closed to)."""
    return _known(store, event)[2]


class Reader:
    """The reader of one server request: who may see which closed lists."""

    def __init__(self, store: Any, admin_token: str | None, authorization: str | None):
        self.store = store
        self.admin_token = admin_token
        self.authorization = authorization
        self._info: Any = False  # the token's row, looked up once (False: not yet)
        self.closed: dict[Any, bool] = {}  # event -> closed, asked once per request

    def _token(self) -> Any:
        if self._info is False:
            import hmac

            from recorder import tokens

            secret = tokens.bearer(self.authorization)
            if secret is None:
                self._info = None
            elif self.admin_token and hmac.compare_digest(secret.encode(), self.admin_token.encode()):
                self._info = "admin"
            else:
                try:
                    info = tokens.find(self.store, secret)
                except Exception:  # no token table yet: nobody holds a token
                    info = None
                self._info = info if info is not None and info.revoked is None else None
        return self._info

    def sees(self, event: Any) -> bool:
        """An admin sees every list; a judge those of the event the token is for."""
        info = self._token()
        if info is None:
            return False
        if info == "admin" or info.role == "admin":
            return True
        return bool(info.role == "judge" and name_key(info.event) == name_key(event))


_READER: ContextVar[Reader | None] = ContextVar("kifu_reader", default=None)


def reader() -> Reader | None:
    return _READER.get()


def hidden(store: Any, event: Any) -> bool:
    """Whether this request's reader may not see the lists of ``event`` (False outside a request)."""
    r = _READER.get()
    if r is None:
        return False
    shut = r.closed.get(event)
    if shut is None:
        shut = r.closed[event] = closed(store, event)
    return shut and not r.sees(event)


def header_hidden(store: Any, header: Mapping[str, Any]) -> bool:
    return hidden(store, (header.get("match") or {}).get("event"))


def for_reader(store: Any, st: Any) -> Any:
    """A tournament's state as this request's reader may see it (projections/secrecy.py)."""
    if hidden(store, st.name):
        from projections.secrecy import public_tournament

        return public_tournament(st)
    return st


def may_write(store: Any, admin_token: str | None, authorization: str | None, header: Mapping[str, Any]) -> bool:
    """Whether the request's token may write to the match of ``header`` (any line a table
    records): its scorekeeper, a judge of its event, an admin."""
    from recorder import tokens

    try:
        tokens.authorize(store, admin_token, authorization, header, {"type": "annotate"})
    except Exception:
        return False
    return True


class Readers:
    """ASGI middleware: each HTTP request's reader (its Authorization header) for ``hidden``."""

    def __init__(self, app: Any, store: Any, admin_token: str | None):
        self.app = app
        self.store = store
        self.admin_token = admin_token

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        auth = next((v.decode("latin-1") for k, v in scope.get("headers") or [] if k == b"authorization"), None)
        token = _READER.set(Reader(self.store, self.admin_token, auth))
        try:
            await self.app(scope, receive, send)
        finally:
            _READER.reset(token)


__all__ = ["Reader", "Readers", "closed", "for_reader", "header_hidden", "hidden", "list_names", "may_write", "reader"]
