"""Fixtures of the web tests: a database of matches, a real uvicorn on 127.0.0.1 serving it
(in a thread of this process, so the toy game is known), and Debian's chromium.

`web_db` is filled once per module and never served: every server gets its own copy of it
(`live` one per test, since tests post moves through it), so tests pass in any order."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.web.matches import GAMES, generated, toy_match

TOKEN = "t0ken-s3cret"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"


def fill(store) -> None:
    header, entries = toy_match("toy-1")
    store.create(header, entries)
    for game in GAMES:
        header, entries = generated(game)
        store.create(header, entries)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """uvicorn.Server on a free loopback port, stopped at teardown."""

    def __init__(self, db: str, token: str | None):
        import uvicorn

        from recorder.web.server import create_app

        self.app = create_app(db, token)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Open streams (a page still following) hold a stopping server until its grace runs out:
        # kifu serve gives them SHUTDOWN_S; a test's server, whose pages are closed anyway, half a second.
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    timeout_graceful_shutdown=0.5))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        # until uvicorn has bound the port: a state, polled; the bound (a minute) is only there so
        # that a server that never starts fails the test instead of hanging it, on a machine as
        # busy as `make soak` makes it
        deadline = time.monotonic() + 60
        while not self.server.started and self.thread.is_alive() and time.monotonic() < deadline:
            threading.Event().wait(0.02)
        assert self.server.started, "uvicorn did not start"
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=10)


@pytest.fixture(scope="module")
def web_db(tmp_path_factory):
    from recorder.store import Store

    path = str(tmp_path_factory.mktemp("web") / "kifu.db")
    store = Store(path)
    fill(store)
    store.close()
    return path


def copy_db(web_db: str, folder: Path) -> str:
    """A private copy of the filled database (closed, so the file alone is the whole store)."""
    path = str(folder / "kifu.db")
    shutil.copyfile(web_db, path)
    return path


@pytest.fixture
def live(web_db, tmp_path, monkeypatch):
    """A server with a write token on a fresh copy of the matches: a test may post to it."""
    monkeypatch.delenv("KIFU_TOKEN", raising=False)
    server = LiveServer(copy_db(web_db, tmp_path), TOKEN).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def readonly(web_db, tmp_path_factory):
    os.environ.pop("KIFU_TOKEN", None)
    server = LiveServer(copy_db(web_db, tmp_path_factory.mktemp("readonly")), None).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser(chromium_of_the_worker):
    """Debian's chromium for one module: the test process's (tests/conftest.py), with no context
    open when the module starts and none left open when it ends, as a browser of its own was."""
    b = chromium_of_the_worker()
    for context in list(b.contexts):
        context.close()
    yield b
    if b.is_connected():
        for context in list(b.contexts):
            context.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    yield pg
    context.close()
