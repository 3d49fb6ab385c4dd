"""The tournament's stream under two writers (issue 35 item 4), on SQLite and PostgreSQL.

Every write of recorder/tournament_service.py decides on the stream it loaded and appends at
that version: a writer that got there first makes the other's append fail, with one clear line
and nothing written. Two real ``kifu round pair E`` processes, twenty times: one pairing each
time (the two forked at once by tests/table/zygote.py, which paid the interpreter's start-up
and kifu's imports once). And ``round close`` against a table's POSTs through a real ``kifu serve``: the round's
table tokens are revoked before the close is appended, and a table's token is checked in the
transaction that stores its line, so a line is stored before the close (counted) or refused,
never stored after it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from projections.errors import ConflictError
from recorder import tokens, tournament_service
from recorder.ids import tournament_uuid
from recorder.store import Store
from tests.backends.conftest import _pg_database

PLAYERS = ["山田", "佐藤", "鈴木", "田中"]
TIMES = 20
ZYGOTE = Path(__file__).with_name("zygote.py")


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a PostgreSQL store's read model: ./kifu.readmodel.db
    monkeypatch.delenv("KIFU_READMODEL", raising=False)
    return str(tmp_path / "kifu.db") if request.param == "sqlite" else _pg_database()


def _env() -> dict[str, str]:
    env = dict(os.environ, KIFU_LANG="en")
    env.pop("KIFU_READMODEL", None)
    return env


def _opened(store: Store, name: str, players=PLAYERS) -> None:
    tournament_service.open_event(store, name, "mushijingi", 3, seed=5)
    for p in players:
        tournament_service.register(store, name, p)


def _lines(store: Store, name: str) -> list[dict]:
    return tournament_service.load(store, name)[1]


def _zygote(tmp_path) -> subprocess.Popen:
    """tests/table/zygote.py with the ``round`` commands imported, ready to fork racers."""
    return subprocess.Popen([sys.executable, "-P", str(ZYGOTE), "round", "pair"], env=_env(), cwd=str(tmp_path),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def _forked(zygote: subprocess.Popen, argv: list[str], outs: list[tuple[str, str]]) -> list[tuple[int, str, str]]:
    """``kifu ARGV`` in one process a pair of ``outs``, all started at once: (code, stdout, stderr) each."""
    assert zygote.stdin and zygote.stdout
    zygote.stdin.write(json.dumps({"argv": argv, "outs": outs}) + "\n")
    zygote.stdin.flush()
    answer = zygote.stdout.readline()
    assert answer, "the zygote died"
    return [(code, Path(out).read_text(encoding="utf-8"), Path(err).read_text(encoding="utf-8"))
            for code, (out, err) in zip(json.loads(answer), outs, strict=True)]


def _stop(zygote: subprocess.Popen) -> None:
    if zygote.stdin:
        zygote.stdin.close()
    zygote.wait(60)


def test_two_round_pair_processes_record_one_pairing_twenty_times(db, tmp_path):
    """Each time, two real processes (forked together by tests/table/zygote.py, which imported
    the CLI once) run ``kifu round pair`` on the same event, each with its own store connection."""
    store = Store(db)
    conflicts = 0
    zygote = _zygote(tmp_path)
    try:
        for i in range(TIMES):
            name = f"E{i:02d}"
            _opened(store, name)
            top = store.top_version(tournament_uuid(name))
            outs = [(str(tmp_path / f"{name}-{k}.out"), str(tmp_path / f"{name}-{k}.err")) for k in range(2)]
            done = _forked(zygote, ["--db", db, "round", "pair", name], outs)
            codes = sorted(code for code, _, _ in done)
            assert codes[0] == 0 and codes[1] != 0, done
            _, _, err = next(d for d in done if d[0] != 0)
            assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
            said = err.strip()
            assert ("another writer got there first; nothing was recorded, run the command again" in said
                    or ("round 1 of 'E" in said and "is still open" in said)), said
            conflicts += "another writer" in said
            pairs = [line for line in _lines(store, name) if line["type"] == "pair"]
            assert len(pairs) == 1 and store.top_version(tournament_uuid(name)) == top + 1
            for t in pairs[0]["tables"]:  # its matches, each once (the loser's were not written)
                assert store.last_seq(t["match"]) == 0
    finally:
        store.close()
        _stop(zygote)
    print(f"{conflicts} of {TIMES} runs met at the append (the others: the second saw the first's pairing)")


def _race(db: str, name: str, write, monkeypatch) -> None:
    """``write(store)`` decides on the stream it loads; meanwhile (right after that load) another
    writer appends a registration (or a drop): the write must refuse, writing nothing."""
    store, other = Store(db), Store(db)
    real_state = tournament_service.state
    fired = []

    def state_then_another_writer(s, n, *a, **k):
        st = real_state(s, n, *a, **k)
        if s is store and not fired:
            fired.append(1)
            if st.paired:  # registration is closed: another judge drops a player instead
                tournament_service.drop(other, n, "田中")
            else:
                tournament_service.register(other, n, "割込")
        return st

    monkeypatch.setattr(tournament_service, "state", state_then_another_writer)
    try:
        top = store.top_version(tournament_uuid(name))
        with pytest.raises(ConflictError, match="another writer got there first; nothing was recorded"):
            write(store)
        assert fired and store.top_version(tournament_uuid(name)) == top + 1  # the other's line only
        assert _lines(store, name)[-1]["type"] in ("register", "drop")
    finally:
        store.close()
        other.close()


@pytest.mark.parametrize("what", ["register", "drop", "reinstate", "pair", "change", "close"])
def test_every_write_appends_at_the_version_it_decided_on(db, what, monkeypatch):
    name = f"V-{what}"
    store = Store(db)
    try:
        _opened(store, name)
        if what in ("change", "close"):
            tournament_service.pair(store, name)
        if what == "reinstate":
            tournament_service.drop(store, name, "田中")
        paired = tournament_service.state(store, name)
    finally:
        store.close()
    writes = {
        "register": lambda s: tournament_service.register(s, name, "高橋"),
        "drop": lambda s: tournament_service.drop(s, name, "田中"),
        "reinstate": lambda s: tournament_service.reinstate(s, name, "田中", "a judge's error"),
        "pair": lambda s: tournament_service.pair(s, name),
        "change": lambda s: tournament_service.change(
            s, name, None, [{"table": "1", "players": ["山田", "佐藤"]}, {"table": "2", "players": ["鈴木", "田中"]}],
            [], "players asked"),
        "close": lambda s: tournament_service.close(s, name, unreported="draw"),
    }
    if what == "change" and {frozenset(t.players) for t in paired.current.tables} == {
            frozenset(["山田", "佐藤"]), frozenset(["鈴木", "田中"])}:
        writes["change"] = lambda s: tournament_service.change(
            s, name, None, [{"table": "1", "players": ["山田", "鈴木"]}, {"table": "2", "players": ["佐藤", "田中"]}],
            [], "players asked")
    _race(db, name, writes[what], monkeypatch)


# -- round close against a table's POSTs ---------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _events_after(db: str, match_ids: list[str], after: int) -> list[tuple[int, int]]:
    """(notification id, version) of the round's match events stored after notification ``after``."""
    from recorder.ids import match_uuid

    store = Store(db)
    try:
        wanted = {match_uuid(m) for m in match_ids}
        return [(nid, version) for nid, stream, version, _ in store.raw_notifications(after, limit=100_000)
                if stream in wanted]
    finally:
        store.close()


def _close_id(db: str, name: str) -> int:
    store = Store(db)
    try:
        stream = tournament_uuid(name)
        found = [nid for nid, s, version, _ in store.raw_notifications(0, limit=100_000)
                 if s == stream and version == store.top_version(stream)]
        assert _lines(store, name)[-1]["type"] == "close"
        return found[0]
    finally:
        store.close()


CLOSES = 6


def _table(url: str, match: str, secret: str, acked: list[int], refused: list[str], stop: threading.Event) -> None:
    """A table's phone with its round token: a first move, then notes as fast as the server takes
    them, until one is refused (the round closed)."""
    with httpx.Client(base_url=url, timeout=30, headers={"Authorization": f"Bearer {secret}"}) as c:
        r = c.post(f"/api/matches/{match}/events", json={"type": "setup", "by": "A", "hand": ["カブトムシ"]})
        assert r.status_code in (200, 201), r.text
        acked.append(r.json()["seq"])
        while not stop.is_set():
            r = c.post(f"/api/matches/{match}/events",
                       json={"type": "annotate", "on": 1, "by": "A", "text": f"n{len(acked)}"})
            if r.status_code == 503:
                continue
            if r.status_code in (200, 201):
                acked.append(r.json()["seq"])
                continue
            refused.append(f"{r.status_code} {r.json().get('error')}")
            return


def test_round_close_against_a_tables_posts_never_counts_a_line_stored_after_it(db, tmp_path):
    store = Store(db)
    rounds = []
    try:
        for i in range(CLOSES):
            name = f"C{i}"
            _opened(store, name, PLAYERS[:2])
            rnd = tournament_service.pair(store, name)
            match = rnd["tables"][0]["match"]
            secret, _ = tokens.issue_for_round(store, name, 1, rnd["tables"][0]["table"])
            rounds.append((name, match, secret))
    finally:
        store.close()
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "recorder.cli", "--db", db, "serve", "--port", str(port),
                               "--workers", "1"], env=_env(), cwd=str(tmp_path), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    zygote = _zygote(tmp_path)  # each close a process of its own, forked from it
    try:
        for _ in range(2400):  # until it answers (a state; bounded so a broken server fails)
            try:
                if httpx.get(f"{url}/api/matches", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        for name, match, secret in rounds:
            acked: list[int] = []
            refused: list[str] = []
            stop = threading.Event()
            poster = threading.Thread(target=_table, args=(url, match, secret, acked, refused, stop), daemon=True)
            poster.start()
            for _ in range(2400):
                if len(acked) >= 3 or not poster.is_alive():
                    break
                time.sleep(0.01)
            assert len(acked) >= 3, refused
            [(code, _, err)] = _forked(zygote, ["--db", db, "round", "close", name, "--unreported", "draw"],
                                       [(str(tmp_path / f"{name}.out"), str(tmp_path / f"{name}.err"))])
            assert code == 0, err
            poster.join(60)
            stop.set()
            assert refused and refused[0].startswith("403") and "revoked" in refused[0], refused
            close_id = _close_id(db, name)
            after = _events_after(db, [match], close_id)
            assert after == [], f"{name}: lines stored after the close: {after}"
            store = Store(db)
            try:
                assert store.last_seq(match) == max(acked)  # every acknowledged line, each before the close
            finally:
                store.close()
    finally:
        _stop(zygote)
        server.terminate()
        server.wait(30)
