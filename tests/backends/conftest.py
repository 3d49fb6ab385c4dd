"""Backends: every test here runs against SQLite and against a real PostgreSQL server.

`make test` (and so CI) runs the suite inside .ci/with-postgres, which starts a throwaway
cluster and sets KIFU_TEST_PG. Without it (a bare `pytest`) the PostgreSQL half is skipped
locally, and fails under CI so a missing server can never pass as green.
"""

from __future__ import annotations

import os
import uuid

import pytest


def _pg_database() -> str:
    base = os.environ.get("KIFU_TEST_PG")
    if not base:
        if os.environ.get("CI"):
            pytest.fail("KIFU_TEST_PG is not set: run the tests through `make test` (.ci/with-postgres)")
        pytest.skip("no PostgreSQL (run through `make test` to start a throwaway cluster)")
    import psycopg

    name = f"kifu_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as con:
        con.execute(f"create database {name}")
    return base.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(params=["sqlite", "postgres"])
def backend_url(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "kifu.db")
    return _pg_database()


@pytest.fixture
def pg_url():
    return _pg_database()
