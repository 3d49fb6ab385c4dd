"""Response headers of the replay server: a strict Content-Security-Policy and its friends.

The pages have no external assets, so the policy is ``default-src 'self'``. The templates are
shared with the self-contained report file (one HTML file, no network), so their scripts and
styles stay inline; in the server each inline ``<script>`` and ``<style>`` carries the
request's nonce (``nonce="{{ csp_nonce() }}"`` in the templates; empty in the report file,
which is served by no one). Style *attributes* (heat-map colours computed per cell, chart
series colours) are allowed with ``style-src-attr 'unsafe-inline'``: they cannot run script,
and scripts and style elements still need the nonce.

Framing: no page may be framed, except the broadcast overlay, and that only by the origins
the operator names in ``KIFU_FRAME_ANCESTORS`` (for example ``https://studio.example.com``).

``SecurityHeaders`` is a pure ASGI middleware (no BaseHTTPMiddleware: live follow and
streaming bodies pass through untouched); ``install(env)`` gives a Jinja environment the
``csp_nonce()`` function.
"""

from __future__ import annotations

import contextvars
import os
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_NONCE: contextvars.ContextVar[str] = contextvars.ContextVar("kifu_csp_nonce", default="")

OVERLAY = re.compile(r"/matches/[^/]+/overlay")  # always with fullmatch
_ORIGIN = re.compile(r"'self'|https?://[A-Za-z0-9.\-]+(?::\d{1,5})?|https?://\*\.[A-Za-z0-9.\-]+")


def csp_nonce() -> str:
    """The nonce of the request being answered ("" outside a request: the report file)."""
    return _NONCE.get()


def install(env: Any) -> Any:
    env.globals["csp_nonce"] = csp_nonce
    return env


def frame_sources(text: str | None) -> str:
    """The operator's list of origins allowed to frame the overlay, checked one by one; an
    origin that is not a plain scheme://host[:port] (or 'self') is dropped, so the setting
    can never widen the policy with a directive of its own."""
    origins = [o for o in (text or "").split() if _ORIGIN.fullmatch(o)]
    return " ".join(origins) or "'none'"


def policy(nonce: str, frame_ancestors: str = "'none'") -> str:
    return "; ".join([
        "default-src 'self'",
        f"script-src 'self' 'nonce-{nonce}'",
        f"style-src 'self' 'nonce-{nonce}'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        f"frame-ancestors {frame_ancestors}",
    ])


class SecurityHeaders:
    """Adds the security headers to every HTTP response of the wrapped app."""

    def __init__(self, app: ASGIApp, frame_ancestors: str | None = None) -> None:
        self.app = app
        self.overlay_frames = frame_sources(frame_ancestors if frame_ancestors is not None
                                            else os.environ.get("KIFU_FRAME_ANCESTORS"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        nonce = secrets.token_urlsafe(18)
        token = _NONCE.set(nonce)
        framed = self.overlay_frames if OVERLAY.fullmatch(scope.get("path", "")) else "'none'"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in (b"content-security-policy", b"x-frame-options")]
                headers += [
                    (b"content-security-policy", policy(nonce, framed).encode("latin-1")),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"same-origin"),
                    (b"cross-origin-opener-policy", b"same-origin"),
                    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
                ]
                if framed == "'none'":
                    headers.append((b"x-frame-options", b"DENY"))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            _NONCE.reset(token)


__all__ = ["SecurityHeaders", "csp_nonce", "frame_sources", "install", "policy"]
