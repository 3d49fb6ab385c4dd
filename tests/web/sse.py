"""A small server-sent-events client for the tests: reads a stream in a thread and hands each
event (``id``, ``event``, ``data`` decoded from JSON) to a queue. Bounded: every wait has a
timeout, and the stream is closed when the test is done (the reading thread notices at the
next line: the servers of the tests send keep-alive comments every half second, see
``quick_keepalive``)."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import httpx

WAIT = 20.0  # seconds a test waits for one event before it fails (a bound, not a speed check)


class Follower:
    def __init__(self, url: str, headers: dict[str, str] | None = None, params: dict[str, Any] | None = None):
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.status: int | None = None
        self.content_type = ""
        self.opened = threading.Event()
        self.client = httpx.Client(timeout=httpx.Timeout(10, read=60))
        self.closed = False
        self.thread = threading.Thread(target=self._read, args=(url, headers or {}, params or {}), daemon=True)
        self.thread.start()
        assert self.opened.wait(WAIT), "the stream did not open"

    def _read(self, url: str, headers: dict[str, str], params: dict[str, Any]) -> None:
        try:
            with self.client.stream("GET", url, headers=headers, params=params) as r:
                self.status = r.status_code
                self.content_type = r.headers.get("content-type", "")
                self.opened.set()
                if r.status_code != 200:
                    r.read()
                    self.events.put({"event": "http-error", "data": r.json()})
                    return
                fields: dict[str, Any] = {}
                for line in r.iter_lines():
                    if self.closed:
                        return
                    if line == "":
                        if "data" in fields:
                            fields["data"] = json.loads(fields["data"])
                            self.events.put(fields)
                        fields = {}
                    elif line.startswith(":"):
                        continue
                    else:
                        name, _, value = line.partition(":")
                        fields[name] = value[1:] if value.startswith(" ") else value
        except (httpx.HTTPError, RuntimeError):
            if not self.closed:
                raise
        finally:
            self.opened.set()

    def next(self) -> dict[str, Any]:
        try:
            return self.events.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError(f"no event within {WAIT} s") from None

    def pending(self) -> list[dict[str, Any]]:
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        self.closed = True
        self.client.close()
        self.thread.join(10)


def quick_keepalive(server, seconds: float = 0.5) -> None:
    """Keep-alive comments every ``seconds`` on ``server`` (a LiveServer): what lets a
    follower's reading thread stop soon after the test closes it."""
    server.app.state.hub.keepalive = seconds
