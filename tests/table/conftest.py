"""Fixtures of the table tests: the web fixtures (a real uvicorn, Debian's chromium) and the
SQLite/PostgreSQL backend switch, reused from tests/web and tests/backends."""

from __future__ import annotations

from tests.backends.conftest import backend_url  # noqa: F401
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer, browser  # noqa: F401
