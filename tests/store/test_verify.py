"""``kifu verify`` (issue 35 item 3): a whole store exits 0; each injected fault (raw SQL, here
in the test only) is found, named and exits 1, on SQLite and PostgreSQL. It never repairs."""

from __future__ import annotations

import hashlib
import json
import sqlite3


import pytest

from recorder.store import Store, match_uuid
from tests.store.conftest import EVENT, fill

MATCH = "gandice-reiwa-example"


@pytest.fixture
def filled(run, backend_url, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a PostgreSQL store's read model: ./kifu.readmodel.db
    fill(run, backend_url, tmp_path)
    model = str(tmp_path / "kifu.readmodel.db") if backend_url.startswith("postgresql") else \
        backend_url.replace(".db", ".readmodel.db")
    return backend_url, model


class Raw:
    """Raw SQL on the event store's table, on either backend: the test's own hammer."""

    def __init__(self, db: str):
        self.store = Store(db)
        recorder = self.store.app.recorder
        self.table = recorder.events_table_name
        self.pg = self.store.is_postgres

    def sql(self, statement: str, params: tuple = ()) -> list[tuple]:
        if self.pg:
            import psycopg

            with psycopg.connect(self.store.db) as con:
                cur = con.execute(statement.replace("?", "%s"), params)
                return cur.fetchall() if cur.description else []
        con = sqlite3.connect(self.store.db)
        with con:
            rows = con.execute(statement, params).fetchall()
        con.close()
        return rows

    def stream(self, match_id: str) -> str:
        s = match_uuid(match_id)
        return str(s) if self.pg else s.hex

    def close(self) -> None:
        self.store.close()


def _state(run, db) -> tuple[int, str, str, str]:
    store = Store(db)
    try:
        digest = hashlib.sha256(json.dumps([(n, str(s), v, bytes(b).hex()) for n, s, v, b in
                                            store.raw_notifications(0, limit=100_000)]).encode()).hexdigest()
    finally:
        store.close()
    code, out, err = run(db, "verify")
    return code, out, err, digest


def test_a_whole_store_verifies(run, filled):
    db, model = filled
    code, out, err, _ = _state(run, db)
    assert code == 0, err
    assert out.strip().splitlines()[-1] == "whole"
    assert "5 match(es), 1 tournament(s); read model rows compared: 5" in out  # 3 + round 1's 2
    code, out, err = run(db, "verify", "--json", "--sample", "2")
    data = json.loads(out)
    assert code == 0 and data["whole"] and data["compared"] == 2 and data["problems"] == []


def test_a_deleted_event_row_is_found(run, filled):
    db, _ = filled
    raw = Raw(db)
    try:
        raw.sql(f"DELETE FROM {raw.table} WHERE originator_id = ? AND originator_version = 1", (raw.stream(MATCH),))
    finally:
        raw.close()
    code, out, err, before = _state(run, db)
    assert code == 1
    assert f"kifu: match {MATCH!r} (stream {match_uuid(MATCH).hex}): begins at version 2: its first 1 event(s) are missing" in err
    assert out.strip().splitlines()[-1].endswith("problem(s)")
    assert _state(run, db)[3] == before  # it reads only: nothing repaired, nothing written


def test_a_changed_byte_in_an_events_state_is_found(run, filled):
    db, _ = filled
    raw = Raw(db)
    try:
        (state,), = [r[:1] for r in raw.sql(f"SELECT state FROM {raw.table} WHERE originator_id = ? AND "
                                             "originator_version = 8", (raw.stream(MATCH),))]
        damaged = bytearray(state)
        damaged[len(damaged) // 2] = 0xFF  # no UTF-8 byte
        raw.sql(f"UPDATE {raw.table} SET state = ? WHERE originator_id = ? AND originator_version = 8",
                (bytes(damaged), raw.stream(MATCH)))
    finally:
        raw.close()
    code, out, err, _ = _state(run, db)
    assert code == 1
    lines = err.strip().splitlines()
    assert any(line.startswith(f"kifu: match {MATCH!r} (stream {match_uuid(MATCH).hex}) seq 7: the stored event "
                               "does not decode") for line in lines), err


def test_an_edited_read_model_row_is_found(run, filled):
    db, model = filled
    con = sqlite3.connect(model)
    with con:
        (winner,), = con.execute("SELECT winner FROM matches WHERE id = ?", (MATCH,)).fetchall()
        con.execute("UPDATE matches SET winner = 'Z', steps = steps - 1 WHERE id = ?", (MATCH,))
    con.close()
    code, out, err = run(db, "verify")
    assert code == 1
    assert f"kifu: match {MATCH!r} (stream {match_uuid(MATCH).hex}): the read model's steps is 25; the store folds to 26" in err
    assert f"kifu: match {MATCH!r} (stream {match_uuid(MATCH).hex}): the read model's winner is 'Z'; the store folds to {winner!r}" in err
    assert len(err.strip().splitlines()) == 2
    code, out, err = run(db, "verify", "--json")
    problems = json.loads(out)["problems"]
    assert code == 1 and {p["match"] for p in problems} == {MATCH} and {p["stream"] for p in problems} == {
        match_uuid(MATCH).hex}


def test_a_stream_with_a_gap_is_found(run, filled):
    db, _ = filled
    raw = Raw(db)
    try:
        raw.sql(f"UPDATE {raw.table} SET originator_version = originator_version + 3 WHERE originator_id = ? "
                "AND originator_version = 27", (raw.stream(MATCH),))  # its last line, moved on
    finally:
        raw.close()
    code, out, err, _ = _state(run, db)
    assert code == 1
    assert f"kifu: match {MATCH!r} (stream {match_uuid(MATCH).hex}) seq 26: missing: the stream jumps from seq 25 to seq 29" in err
    assert "seq 29: the line says seq 26, it is stored as seq 29" in err


def test_a_tournament_stream_with_a_gap_is_found(run, filled):
    db, _ = filled
    from recorder.ids import tournament_uuid

    raw = Raw(db)
    stream = tournament_uuid(EVENT)
    try:
        raw.sql(f"DELETE FROM {raw.table} WHERE originator_id = ? AND originator_version = 3",
                (str(stream) if raw.pg else stream.hex,))
    finally:
        raw.close()
    code, out, err = run(db, "verify")
    assert code == 1
    assert f"kifu: event {EVENT!r} (stream {stream.hex}) seq 2: missing: the stream jumps from seq 1 to seq 3" in err


def test_another_stores_read_model_is_named(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    fill(run, a, tmp_path)
    assert run(b, "import", str(tmp_path / "half.jsonl"))[0] == 0
    code, out, err = run(b, "verify", "--readmodel", str(tmp_path / "a.readmodel.db"))
    assert code == 1 and "built from store" in err and "not this store" in err


def test_sample_must_be_positive(run, tmp_path):
    code, _, err = run(str(tmp_path / "k.db"), "verify", "--sample", "0")
    assert code == 2 and "--sample" in err and len(err.strip().splitlines()) == 1




def test_a_store_that_is_not_there_is_said_so_and_not_made(run, tmp_path):
    missing = tmp_path / "nowhere.db"
    for args in (("verify",), ("backup", str(tmp_path / "b.db"))):
        code, _, err = run(str(missing), *args)
        assert code == 2 and "no store at" in err and len(err.strip().splitlines()) == 1
    assert not missing.exists() and not (tmp_path / "b.db").exists()


def _model(model: str, statement: str, params: tuple = ()) -> list[tuple]:
    con = sqlite3.connect(model)
    with con:
        rows = con.execute(statement, params).fetchall()
    con.close()
    return rows


def test_every_table_the_fold_writes_is_compared_an_edited_cards_row_is_named(run, filled):
    db, model = filled
    (rowid, card, played), = _model(model, "SELECT rowid, card, played FROM cards WHERE match_id = ? AND listed = 1 "
                                           "ORDER BY rowid LIMIT 1", (MATCH,))
    _model(model, "UPDATE cards SET played = played + 2 WHERE rowid = ?", (rowid,))
    code, out, err = run(db, "verify")
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # the one table edited, nothing else
    assert lines[0].startswith(f"kifu: match {MATCH!r} (stream {match_uuid(MATCH).hex}): the read model's cards rows "
                               "differ from a fresh fold of the store (")
    assert "held, not folded" in lines[0] and repr(card) in lines[0] and str(played + 2) in lines[0]
    code, out, err = run(db, "verify", "--json")
    (problem,) = json.loads(out)["problems"]
    assert code == 1 and problem["match"] == MATCH and "cards" in problem["what"]


@pytest.mark.parametrize("table", ["sides", "pairs"])
def test_a_deleted_statistics_row_is_named_with_its_table(run, filled, table):
    db, model = filled
    _model(model, f"DELETE FROM {table} WHERE rowid = (SELECT min(rowid) FROM {table} WHERE match_id = ?)", (MATCH,))
    code, out, err = run(db, "verify")
    assert code == 1
    (line,) = err.strip().splitlines()
    assert f"the read model's {table} rows differ from a fresh fold of the store" in line and "folded, not held" in line
    assert line.startswith(f"kifu: match {MATCH!r}")


def test_rows_of_a_match_the_read_model_does_not_hold_are_named(run, filled):
    db, model = filled
    _model(model, "INSERT INTO cards SELECT 'ghost', game, player, outcome, deck, archetype, card, kind, listed, played "
                  "FROM cards WHERE match_id = ? LIMIT 1", (MATCH,))
    code, out, err = run(db, "verify")
    assert code == 1
    assert err.strip().splitlines() == [
        "kifu: match 'ghost': the read model's cards table has rows of it; its matches table has none"]


def test_the_desks_kept_violations_are_compared_with_a_checked_fold(run, filled):
    from projections import deskrows
    from projections.replay import Replay

    db, model = filled
    store = Store(db)
    try:
        header, entries = store.load(MATCH)
    finally:
        store.close()
    steps = 12
    found = [v.to_json() for v in Replay(header, entries[:steps]).violations(steps)]
    con = sqlite3.connect(model)
    with con:
        deskrows.save_checked(con, [(MATCH, steps, found)])  # what the desk keeps when it folds the match
    con.close()
    code, out, err = run(db, "verify")
    assert code == 0, err
    _model(model, "UPDATE checked SET violations = ? WHERE match_id = ?",
           (json.dumps([{"seq": 3, "rule": "GD-1", "message": "作り話"}], ensure_ascii=False), MATCH))
    code, out, err = run(db, "verify")
    assert code == 1
    assert err.strip().splitlines() == [
        f"kifu: match {MATCH!r} (stream {match_uuid(MATCH).hex}): the read model's checked row (the violations of "
        f"its first {steps} lines) differs from a checked fold of the store"]
    _model(model, "UPDATE checked SET steps = 999 WHERE match_id = ?", (MATCH,))
    code, out, err = run(db, "verify")
    assert code == 1 and "the read model keeps violations of its first 999 lines; the store holds 26" in err
