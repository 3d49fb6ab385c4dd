"""Scoped tokens over the real server on 127.0.0.1: a match token writes to its match only,
a table token to its table, a judge token rules across its event; revoked and unknown tokens
fail; only digests are stored; an idempotency key records a move once."""

from __future__ import annotations

import sqlite3

import httpx
import pytest

from recorder import tokens
from recorder.store import Store
from tests.table.event import EVENT, fill
from tests.table.conftest import LiveServer

ADMIN = "adm1n-s3cret"
NOTE = {"type": "annotate", "by": "記録係", "on": 1, "text": "ここで長考"}


@pytest.fixture
def served(db):
    store = Store(db)
    fill(store)
    server = LiveServer(db, ADMIN).start()
    yield server, store
    server.stop()
    store.close()


def post(server, mid, line, token=None, **kw):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    headers.update(kw.pop("headers", {}))
    return httpx.post(f"{server.url}/api/matches/{mid}/events", json=line, headers=headers, timeout=10, **kw)


def log_of(server, mid):
    import json

    return [json.loads(x) for x in httpx.get(f"{server.url}/api/matches/{mid}/log").text.splitlines()[1:]]


def test_match_token_writes_to_its_match_only(served):
    server, store = served
    secret, info = tokens.issue(store, match_id="wc-r1-t1-g1")
    r = post(server, "wc-r1-t1-g1", NOTE, secret)
    assert r.status_code == 201, r.text
    assert log_of(server, "wc-r1-t1-g1")[-1]["token"] == info.name == "match-wc-r1-t1-g1"
    r = post(server, "wc-r1-t2-g1", NOTE, secret)
    assert r.status_code == 403
    assert r.json()["error"] == "token 'match-wc-r1-t1-g1' writes to match 'wc-r1-t1-g1' only, not 'wc-r1-t2-g1'"
    assert len(log_of(server, "wc-r1-t2-g1")) == 2  # nothing written
    # a scorekeeper cannot rule
    r = post(server, "wc-r1-t1-g1", {"type": "penalty", "by": "x", "player": "A", "infraction": "i",
                                     "penalty": "warning"}, secret)
    assert r.status_code == 403 and "judge" in r.json()["error"]


def test_table_token_follows_the_table_across_rounds(served):
    server, store = served
    secret, info = tokens.issue(store, event=EVENT, table="3")
    assert info.name == f"{EVENT}-table-3"
    for mid in ("wc-r1-t3-g1", "wc-r2-t3-g2", "wc-r3-t3-g1"):
        assert post(server, mid, NOTE, secret).status_code == 201
    r = post(server, "wc-r1-t4-g1", NOTE, secret)
    assert r.status_code == 403 and "table 3" in r.json()["error"]


def test_judge_token_rules_across_its_event(served):
    server, store = served
    secret, info = tokens.issue(store, role="judge", event=EVENT, name="主審")
    pen = {"type": "penalty", "by": "主審", "player": "B", "infraction": "遅延行為", "penalty": "warning"}
    assert post(server, "wc-r2-t4-g1", pen, secret).status_code == 201
    assert log_of(server, "wc-r2-t4-g1")[-1]["token"] == "主審"
    r = post(server, "wc-r2-t4-g1", {"type": "score", "by": "A", "points": 1}, secret)
    assert r.status_code == 403 and "judge's token" in r.json()["error"]
    other = tokens.issue(store, match_id="wc-r1-t1-g1")  # noqa: F841 (a second token does not widen the first)
    header = {"match": {"id": "elsewhere", "event": "別の大会", "table": "1"}}
    assert "event" in tokens.permits(info, header, pen)


def test_admin_token_and_refusals(served):
    server, store = served
    assert post(server, "wc-r1-t1-g1", NOTE, ADMIN).status_code == 201
    assert log_of(server, "wc-r1-t1-g1")[-1]["token"] == "admin"
    assert post(server, "wc-r1-t1-g1", NOTE).status_code == 401
    r = post(server, "wc-r1-t1-g1", NOTE, "kifu_not-a-real-token")
    assert r.status_code == 401 and r.json()["error"] == "unknown token"


def test_revoked_token_fails(served, kifu):
    server, store = served
    secret, info = tokens.issue(store, match_id="wc-r1-t1-g1")
    assert post(server, "wc-r1-t1-g1", NOTE, secret).status_code == 201
    code, out, err = kifu("token", "revoke", info.name)
    assert code == 0, err
    r = post(server, "wc-r1-t1-g1", NOTE, secret)
    assert r.status_code == 403 and "revoked" in r.json()["error"]
    code, out, _ = kifu("token", "list")
    assert info.name not in out
    code, out, _ = kifu("token", "list", "--all")
    assert info.name in out and "revoked" in out


def test_tokens_are_not_stored_in_clear(db, kifu):
    code, _, err = kifu("new", "--game", "toy", "--id", "m1", "--player", "A=甲", "--player", "B=乙", "--first", "A")
    assert code == 0, err
    code, secret, err = kifu("token", "new", "--match", "m1")
    secret = secret.strip()
    assert code == 0 and secret.startswith("kifu_") and "match-m1" in err
    with open(db, "rb") as fh:
        raw = fh.read()
    assert secret.encode() not in raw
    con = sqlite3.connect(db)
    rows = con.execute("SELECT name, digest FROM kifu_tokens").fetchall()
    con.close()
    assert rows == [("match-m1", tokens.digest(secret))]
    code, out, _ = kifu("token", "list", "--json")
    assert secret not in out and '"match_id": "m1"' in out


def test_token_cli_refusals(kifu):
    code, _, err = kifu("token", "new", "--match", "nope")
    assert code != 0 and "no match 'nope'" in err and err.count("\n") == 1
    code, _, err = kifu("token", "new")
    assert code != 0 and "--match" in err
    code, _, err = kifu("token", "new", "--role", "judge", "--event", "E", "--table", "1")
    assert code != 0 and "judge" in err
    code, _, err = kifu("token", "revoke", "nobody")
    assert code != 0 and "no token named 'nobody'" in err


def test_idempotency_key_records_once(served):
    server, store = served
    headers = {"Idempotency-Key": "phone-1:0001"}
    first = post(server, "wc-r1-t1-g1", NOTE, ADMIN, headers=headers, params={"expect": 3})
    again = post(server, "wc-r1-t1-g1", NOTE, ADMIN, headers=headers, params={"expect": 3})
    assert first.status_code == 201 and again.status_code == 200
    assert again.json() == {"seq": 3, "violations": [], "repeated": True}
    assert [e["seq"] for e in log_of(server, "wc-r1-t1-g1")] == [1, 2, 3]
    r = post(server, "wc-r1-t1-g1", NOTE, ADMIN, headers={"Idempotency-Key": "phone-1:0002"}, params={"expect": 3})
    assert r.status_code == 409
    assert [e["seq"] for e in r.json()["recorded"]] == [3] and r.json()["recorded"][0]["text"] == NOTE["text"]
    # a failed write does not keep its key: the same key succeeds once the move is right
    bad = post(server, "wc-r1-t1-g1", dict(NOTE, on=99), ADMIN, headers={"Idempotency-Key": "phone-1:0003"})
    assert bad.status_code == 400
    ok = post(server, "wc-r1-t1-g1", NOTE, ADMIN, headers={"Idempotency-Key": "phone-1:0003"})
    assert ok.status_code == 201 and ok.json()["seq"] == 4


def test_tokens_and_keys_on_both_backends(backend_url):
    store = Store(backend_url)
    try:
        fill(store)
        secret, info = tokens.issue(store, event=EVENT, table="2")
        header, _ = store.load("wc-r1-t2-g1")
        assert tokens.authorize(store, None, f"Bearer {secret}", header, NOTE).name == info.name
        with pytest.raises(tokens.AuthError) as refused:
            tokens.authorize(store, None, f"Bearer {secret}", store.load("wc-r1-t1-g1")[0], NOTE)
        assert refused.value.status == 403
        tokens.revoke(store, info.name)
        with pytest.raises(tokens.AuthError, match="revoked"):
            tokens.authorize(store, None, f"Bearer {secret}", header, NOTE)
        from recorder import service

        seq1, _ = service.record(store, "wc-r1-t2-g1", NOTE, token="t", key="key-00001")
        seq2, _ = service.record(store, "wc-r1-t2-g1", NOTE, token="t", key="key-00001")
        assert seq1 == seq2 == 3 and store.last_seq("wc-r1-t2-g1") == 3
        assert store.load("wc-r1-t2-g1")[1][-1]["token"] == "t"
    finally:
        store.close()


def test_an_unsettled_claim_of_the_old_scheme_is_taken_over(store):
    """A key row without a seq (the claim the first build wrote before its move, left by a
    crash) holds nothing: the next write with the key takes it over, in its own transaction."""
    fill(store)
    tokens.has_tokens(store)  # the two tables exist
    with tokens.connect(store) as db:
        db.execute("INSERT INTO kifu_writes (match_id, idem_key, seq, token, created) VALUES (?, ?, NULL, ?, ?)",
                   ("wc-r1-t1-g1", "key-abandoned", "t", "2026-01-01T00:00:00Z"))
    assert tokens.stored_seq(store, "wc-r1-t1-g1", "key-abandoned") is None
    from recorder import service

    assert service.record(store, "wc-r1-t1-g1", NOTE, token="t", key="key-abandoned")[0] == 3
    assert tokens.stored_seq(store, "wc-r1-t1-g1", "key-abandoned") == 3
    assert service.record(store, "wc-r1-t1-g1", NOTE, token="t", key="key-abandoned")[0] == 3
    assert store.last_seq("wc-r1-t1-g1") == 3
