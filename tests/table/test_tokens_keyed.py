"""A keyed write is one transaction: the line, its token check and its idempotency key.

Failures are injected between its steps (``tokens.hook`` and the key lookup, monkeypatched):
whatever fails, either no line and a free key, or the line and its key stored; a retry with
the same key never duplicates and never gets a conflict for its own stored line, with or
without ``expect``. A database locked by another connection longer than the lock timeout is a
503 with Retry-After, never a 500 (the real server on 127.0.0.1)."""

from __future__ import annotations

import sqlite3

import httpx
import pytest

from projections.errors import ConflictError
from recorder import service, tokens
from recorder.store import Store
from tests.table.conftest import LiveServer
from tests.table.event import fill

MID = "wc-r1-t1-g1"  # two lines recorded: the next is seq 3
NOTE = {"type": "annotate", "by": "記録係", "on": 1, "text": "ここで長考"}
ADMIN = "adm1n-s3cret"


class Crash(Exception):
    """The process dying at that point (the write goes no further)."""


def crash_at(monkeypatch, where: str) -> list[str]:
    seen: list[str] = []

    def hook(point: str) -> None:
        seen.append(point)
        if point == where:
            raise Crash(point)

    monkeypatch.setattr(tokens, "hook", hook)
    return seen


def write(store, key, expect=3, token="t"):
    return tokens.once(store, MID, key, token,
                       lambda within: service.record(store, MID, dict(NOTE, token=token), expect=expect, within=within))


@pytest.fixture
def filled(store):
    fill(store)
    return store


@pytest.mark.parametrize("point", ["after-key", "before-commit"])
def test_a_crash_before_the_commit_leaves_no_line_and_a_free_key(filled, monkeypatch, point):
    seen = crash_at(monkeypatch, point)
    with pytest.raises(Crash):
        write(filled, "phone-1:0001")
    assert seen[-1] == point
    assert filled.last_seq(MID) == 2 and tokens.stored_seq(filled, MID, "phone-1:0001") is None
    monkeypatch.setattr(tokens, "hook", lambda point: None)
    service.forget_head(filled, MID)  # the crashed process's head fold is gone with it
    assert write(filled, "phone-1:0001") == (3, [], True)
    assert [e["seq"] for e in filled.load(MID)[1]] == [1, 2, 3]


@pytest.mark.parametrize("expect", [3, None])
def test_a_crash_after_the_commit_leaves_the_line_and_its_key(filled, monkeypatch, expect):
    crash_at(monkeypatch, "after-commit")
    with pytest.raises(Crash):
        write(filled, "phone-1:0002")
    assert filled.last_seq(MID) == 3 and tokens.stored_seq(filled, MID, "phone-1:0002") == 3
    monkeypatch.setattr(tokens, "hook", lambda point: None)
    # the phone never saw its answer and sends again: the same seq, not a 409, not a second line
    # (without ``expect`` the retry would otherwise be recorded again at seq 4)
    assert write(filled, "phone-1:0002", expect=expect) == (3, [], False)
    assert [e["seq"] for e in filled.load(MID)[1]] == [1, 2, 3]


@pytest.mark.parametrize("expect", [3, None])
def test_a_retry_racing_its_original_gets_the_original_seq(filled, monkeypatch, expect):
    """The retry looked the key up before its original committed (the lookup is made to miss):
    its insert meets the stored key or the taken seq, and it answers with the original's seq."""
    assert write(filled, "phone-1:0003") == (3, [], True)
    real = tokens.stored_seq
    looks: list[tuple] = []

    def first_look_misses(*args):
        looks.append(args)
        return None if len(looks) == 1 else real(*args)

    monkeypatch.setattr(tokens, "stored_seq", first_look_misses)
    assert write(filled, "phone-1:0003", expect=expect) == (3, [], False)
    assert len(looks) == 2  # the miss, then the look after the refused insert
    assert [e["seq"] for e in filled.load(MID)[1]] == [1, 2, 3]


def test_a_token_revoked_before_the_commit_writes_nothing(filled):
    secret, info = tokens.issue(filled, match_id=MID)
    header, _ = filled.load(MID)
    grant = tokens.authorize(filled, None, f"Bearer {secret}", header, NOTE)  # allowed when asked
    tokens.revoke(filled, info.name)  # ... and revoked before its line is written
    with pytest.raises(tokens.AuthError, match="revoked") as refused:
        write(filled, "phone-1:0004", token=grant.name)
    assert refused.value.status == 403
    assert filled.last_seq(MID) == 2 and tokens.stored_seq(filled, MID, "phone-1:0004") is None


def test_another_key_still_conflicts_on_a_stale_expect(filled):
    assert write(filled, "phone-1:0005")[0] == 3
    with pytest.raises(ConflictError):
        write(filled, "phone-1:0006", expect=3)
    assert tokens.stored_seq(filled, MID, "phone-1:0006") is None


def test_a_held_lock_is_a_503_with_retry_after(db, monkeypatch):
    from recorder import store as store_mod

    real_env = store_mod.store_env
    monkeypatch.setattr(store_mod, "store_env", lambda path: dict(real_env(path), SQLITE_LOCK_TIMEOUT="1"))
    monkeypatch.delenv("KIFU_TOKEN", raising=False)
    s = Store(db)
    fill(s)
    server = LiveServer(db, ADMIN).start()
    url = f"{server.url}/api/matches/{MID}/events"
    auth = {"Authorization": f"Bearer {ADMIN}"}
    try:
        first = httpx.post(url, json=NOTE, params={"expect": 3}, headers={**auth, "Idempotency-Key": "phone-2:0001"},
                           timeout=30)
        assert first.status_code == 201, first.text
        holder = sqlite3.connect(db, timeout=1, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process holding the write lock, longer than the timeout
        try:
            r = httpx.post(url, json=NOTE, params={"expect": 4}, headers={**auth, "Idempotency-Key": "phone-2:0002"},
                           timeout=30)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert r.status_code == 503, r.text
        assert r.headers["Retry-After"] == "1" and "busy" in r.json()["error"]
        again = httpx.post(url, json=NOTE, params={"expect": 4}, headers={**auth, "Idempotency-Key": "phone-2:0002"},
                           timeout=30)
        assert again.status_code == 201 and again.json()["seq"] == 4
        assert s.last_seq(MID) == 4
    finally:
        server.stop()
        s.close()
