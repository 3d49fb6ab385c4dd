"""The store, the CLI and migration behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from projections import registry
from projections.errors import ConflictError, DuplicateMatchError
from projections.replay import Replay
from recorder.logformat import export_lines
from recorder.migrate import migrate
from recorder.store import Store, StoreError
from recorder.tools.synth import generate

ROOT = Path(__file__).resolve().parents[2]
KIFU = str(Path(sys.executable).parent / "kifu")
EXAMPLE = ROOT / "examples" / "gandice-example.jsonl"


def kifu(url, *args):
    env = dict(os.environ, KIFU_DB=url)
    return subprocess.run([KIFU, *args], capture_output=True, text=True, env=env, timeout=120)


def test_store_contract(backend_url):
    store = Store(backend_url)
    header, moves = generate(registry.get("gandice"), 5, 0)
    mid = store.create(header, moves)
    assert store.load(mid) == (header, moves)
    with pytest.raises(DuplicateMatchError):
        store.create(header, moves)
    seq = store.append(mid, {"type": "annotate", "by": "解説", "on": 1, "text": "日本語のメモ"})
    assert seq == len(moves) + 1
    with pytest.raises(ConflictError):
        store.append(mid, {"type": "annotate", "by": "解説", "on": 1, "text": "x"}, expect_seq=seq)
    assert [h["match"]["id"] for h in store.headers()] == [mid]
    assert store.max_notification_id() >= len(moves) + 2
    store.close()


def test_cli_contract(backend_url, tmp_path):
    res = kifu(backend_url, "import", str(EXAMPLE))
    assert res.returncode == 0, res.stderr
    mid = res.stdout.strip()
    exported = kifu(backend_url, "export", mid, "--format", "jsonl").stdout
    again = tmp_path / "again.jsonl"
    again.write_text(exported, encoding="utf-8")
    other = str(tmp_path / "other.db")
    assert kifu(other, "import", str(again)).returncode == 0
    assert kifu(other, "export", mid).stdout == exported
    board = json.loads(kifu(backend_url, "board", mid, "--at", "10", "--json").stdout)
    assert board == json.loads(kifu(other, "board", mid, "--at", "10", "--json").stdout)
    result = json.loads(kifu(backend_url, "result", mid, "--json").stdout)
    assert result["winner"] == "B"
    dup = kifu(backend_url, "import", str(EXAMPLE))
    assert dup.returncode == 1 and "already recorded" in dup.stderr


def test_unreachable_or_bad_url_is_one_line(monkeypatch):
    # The library reads KIFU_POSTGRES_CONNECT_TIMEOUT (the app's name + its key) before the
    # store's own 5 s, so a refused port fails after 1 s here and in the kifu subprocess.
    monkeypatch.setenv("KIFU_POSTGRES_CONNECT_TIMEOUT", "1")
    with pytest.raises(StoreError, match="cannot open database"):
        Store("postgresql://kifu@127.0.0.1:1/kifu")
    res = kifu("postgresql://kifu@127.0.0.1:1/kifu", "matches")
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr
    res = kifu("postgresql://kifu@127.0.0.1:notaport/kifu", "matches")
    assert res.returncode == 2 and "port is not a number" in res.stderr


WRITER = r"""
import json, os, sys, time
sys.path.insert(0, {root!r})
from projections.errors import ConflictError
from recorder import service
from recorder.store import Store
store = Store({url!r})
mid, me, go, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
expect = store.last_seq(mid) + 1  # every writer decides its first line on the same head
open(go + "-ready-" + me, "w").close()
while not os.path.exists(go):
    time.sleep(0.001)
done, conflicts = 0, 0
while done < n:
    try:
        service.record(store, mid, {{"type": "annotate", "by": me, "on": 1, "text": f"{{me}}-{{done}}"}},
                       expect=expect)
        done += 1
    except ConflictError:
        conflicts += 1
    expect = None
print(json.dumps({{"done": done, "conflicts": conflicts}}))
"""


@pytest.mark.parametrize("same_match", [False, True], ids=["different-matches", "same-match"])
def test_four_processes_recording_at_once(backend_url, tmp_path, same_match):
    store = Store(backend_url)
    ids = []
    for i in range(4):
        header, moves = generate(registry.get("gandice"), 21, i)
        ids.append(store.create(header, moves))
    go = tmp_path / "go"
    per_writer = 15
    script = WRITER.format(root=str(ROOT), url=backend_url)
    procs = []
    for i, who in enumerate("ABCD"):
        mid = ids[0] if same_match else ids[i]
        procs.append(subprocess.Popen([sys.executable, "-c", script, mid, who, str(go), str(per_writer)],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    deadline = time.monotonic() + 120
    while not all((tmp_path / f"go-ready-{who}").exists() for who in "ABCD"):
        assert time.monotonic() < deadline, "the writers never started"
        time.sleep(0.01)
    go.write_text("go")
    outcomes = []
    for p in procs:
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0, err
        outcomes.append(json.loads(out))
    assert all(o["done"] == per_writer for o in outcomes)
    targets = ids[:1] if same_match else ids
    notes = []
    for mid in targets:
        entries = store.load(mid)[1]
        assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))  # contiguous
        notes += [e["text"] for e in entries if e["type"] == "annotate"]
    expected = {f"{w}-{i}" for w in "ABCD" for i in range(per_writer)}
    assert sorted(notes) == sorted(expected)  # nothing lost, nothing duplicated
    if same_match:
        # all four decided their first line on the same head: three were told, then retried
        assert sum(o["conflicts"] for o in outcomes) >= 3


def test_migrate_sqlite_to_postgres_twice(tmp_path, pg_url):
    source = Store(str(tmp_path / "kifu.db"))
    for path in sorted((ROOT / "examples").glob("*.jsonl")):
        from recorder.service import import_file

        import_file(source, str(path))
    mid = next(source.headers())["match"]["id"]
    source.append(mid, {"type": "annotate", "by": "解説", "on": 1, "text": "移行前のメモ", "at": "2026-11-29T10:00:00Z"})
    target = Store(pg_url)
    first = migrate(source, target, show_progress=False)
    assert len(first.copied) == len(list(source.headers())) and not first.already
    second = migrate(source, target, show_progress=False)
    assert not second.copied and len(second.already) == len(first.copied)
    for header in source.headers():
        m = header["match"]["id"]
        assert list(export_lines(*source.load(m))) == list(export_lines(*target.load(m)))
        assert [t for _, t in source.load_timed(m)[1]] == [t for _, t in target.load_timed(m)[1]]
        r1, r2 = Replay(*source.load(m)), Replay(*target.load(m))
        assert r1.board_json() == r2.board_json()
    res = subprocess.run([KIFU, "migrate", "--from", str(tmp_path / "kifu.db"), "--to", pg_url],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and "copied 0 match(es)" in res.stdout, res.stderr


def test_stats_read_model_is_a_local_file_fed_from_either_backend(backend_url, tmp_path):
    """Each host keeps its own read model file; catch-up and rebuild agree on both stores."""
    env = dict(os.environ, KIFU_DB=backend_url, KIFU_READMODEL=str(tmp_path / "host1.readmodel.db"))
    for path in sorted((ROOT / "examples").glob("*-example.jsonl")):
        assert subprocess.run([KIFU, "import", str(path)], env=env, capture_output=True, timeout=120).returncode == 0
    incremental = subprocess.run([KIFU, "stats", "--json"], env=env, capture_output=True, text=True, timeout=120)
    assert incremental.returncode == 0, incremental.stderr
    other_host = dict(env, KIFU_READMODEL=str(tmp_path / "host2.readmodel.db"))
    rebuilt = subprocess.run([KIFU, "stats", "--json", "--rebuild"], env=other_host, capture_output=True, text=True, timeout=120)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert json.loads(incremental.stdout) == json.loads(rebuilt.stdout)
    assert json.loads(incremental.stdout)  # not empty: the examples were counted


def test_a_store_says_which_notifications_its_last_write_took(backend_url):
    """Store.written, what the read model reads instead of reading the writer's lines back."""
    from recorder.store import Store

    store = Store(backend_url)
    try:
        header = {"kifu": 1, "game": "toy", "rules": "toy/1", "match": {"id": "w1"},
                  "players": [{"id": "A"}, {"id": "B"}]}
        store.create(header, [{"seq": 1, "type": "score", "by": "A", "points": 1}])
        stream = store.stream_of("w1")
        assert store.written == (1, 2, stream, 2) and store.max_notification_id() == 2
        store.append("w1", {"type": "score", "by": "B", "points": 2})
        assert store.written == (3, 3, stream, 3) and store.max_notification_id() == 3
    finally:
        store.close()
