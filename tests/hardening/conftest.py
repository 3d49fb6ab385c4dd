"""Fixtures of the hardening tests: a store on either backend, a dump of everything stored
(compared before and after a refusal), and a real server on 127.0.0.1."""

from __future__ import annotations

import os

import pytest

from tests.backends.conftest import _pg_database
from tests.hardening.corpus import HEADER, SUMMON
from tests.web.conftest import browser  # noqa: F401  (the test process's chromium, a module at a time)

TOKEN = "hardening-t0ken"


def dump(db: str) -> list[tuple]:
    """Every stored event and snapshot, byte for byte, in notification order."""
    from recorder.store import Store

    store = Store(db)
    try:
        events = [(n.id, str(n.originator_id), n.originator_version, n.topic, bytes(n.state))
                  for n in store.app.recorder.select_notifications(1, limit=10**7)]
        snaps = []
        if store.app.snapshots is not None:
            snaps = sorted((str(s.originator_id), s.originator_version) for s in _snapshots(store))
        return events + snaps
    finally:
        store.close()


def _snapshots(store) -> list:
    ids = {n.originator_id for n in store.app.recorder.select_notifications(1, limit=10**7)}
    return [s for i in sorted(ids, key=str) for s in store.app.snapshots.recorder.select_events(i)]


def seed(db: str, match_id: str = "hostile-base") -> str:
    """A store holding one match (header and one summon), so a dump is never trivially empty."""
    from recorder import service
    from recorder.store import Store

    header = dict(HEADER, match=dict(HEADER["match"], id=match_id))
    store = Store(db)
    try:
        service.create_match(store, header)
        service.record(store, match_id, dict(SUMMON))
    finally:
        store.close()
    return match_id


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "kifu.db")
    return _pg_database()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    from tests.web.conftest import LiveServer

    db = str(tmp_path_factory.mktemp("hardening-web") / "kifu.db")
    seed(db)
    os.environ.pop("KIFU_TOKEN", None)
    server = LiveServer(db, TOKEN).start()
    server.db = db
    yield server
    server.stop()

