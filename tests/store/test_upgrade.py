"""Upgrades (issue 35 item 5): a store and read model written by the previous release (main at
09c831a, when issue 35 was filed; made by tests/upgrade/build_prev_store.py with that release's
code) open with this one. The read model of the older layout is projected anew once, and says
so; the store gets its id; everything lists, replays, ranks and records as it did."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from projections.readmodel import ReadModel
from tests.store.conftest import EXAMPLES

FIXTURE = Path(__file__).resolve().parents[1] / "upgrade" / "prev-09c831a"
EVENT = "旧版大会"
HALF = 12


def _copy(tmp_path: Path) -> str:
    place = tmp_path / "moved-on-upgrade"
    shutil.copytree(FIXTURE, place)
    return str(place / "kifu.db")


def test_the_fixture_is_the_previous_releases(tmp_path):
    """What the test opens is what the previous release wrote: no store id, read-model layout 6,
    a read model that names the path it was written at."""
    con = sqlite3.connect(f"file:{FIXTURE / 'kifu.db'}?mode=ro", uri=True)
    tables = {r[0] for r in con.execute("select name from sqlite_master where type = 'table'")}
    con.close()
    assert "kifu_store" not in tables and "stored_events" in tables
    con = sqlite3.connect(f"file:{FIXTURE / 'kifu.readmodel.db'}?mode=ro", uri=True)
    state = dict(con.execute("select key, value from state"))
    con.close()
    assert state["schema"] == "6" and "store_id" not in state
    assert (FIXTURE / "kifu.db").stat().st_size + (FIXTURE / "kifu.readmodel.db").stat().st_size < 400_000


def test_a_previous_release_store_opens_lists_replays_ranks_and_records(run, tmp_path):
    db = _copy(tmp_path)
    code, out, err = run(db, "matches", "--json")
    assert code == 0, err
    assert "projected anew in layout" in err and len(err.strip().splitlines()) == 1  # said once
    listed = {m["id"]: m for m in json.loads(out)}
    assert {"gandice-reiwa-example", "mj-example-1", "upgrade-gandice-half"} <= set(listed)
    assert len([m for m in listed.values() if m.get("event") == EVENT]) == 2  # round 1's tables
    code, out, err = run(db, "matches", "--json")
    assert code == 0 and err == ""  # once: not again
    code, out, err = run(db, "board", "gandice-reiwa-example", "--json")
    assert code == 0, err
    board = json.loads(out)
    assert board["result"] and board["result"]["winner"]
    code, out, err = run(db, "standings", EVENT, "--json")
    assert code == 0, err
    table = {r["player"]: r for r in json.loads(out)["standings"]}
    assert set(table) == {"山田", "佐藤", "鈴木", "田中"}
    assert sorted(r["record"] for r in table.values()) == ["0-0-0", "0-0-0", "0-1-0", "1-0-0"]  # table 1 conceded
    lines = (EXAMPLES / "gandice-example.jsonl").read_text(encoding="utf-8").splitlines()
    code, out, err = run(db, "record", "upgrade-gandice-half", lines[HALF + 1])
    assert code == 0, err
    code, out, err = run(db, "board", "upgrade-gandice-half", "--json")
    assert json.loads(out)["step"] == HALF + 1
    code, out, err = run(db, "stats", "--json")
    assert code == 0, err
    assert run(db, "verify")[0] == 0
    with ReadModel(db.replace(".db", ".readmodel.db")) as rm:
        assert rm._get("store_id") and rm._get("position")


def test_an_earlier_read_model_of_this_layout_is_taken_over_once_and_says_so(run, tmp_path, monkeypatch):
    """A read model of the current layout written before stores had an id names a path: moved
    with its store, it is taken over (its first event is the store's), not rebuilt."""
    place = tmp_path / "a"
    place.mkdir()
    db = str(place / "kifu.db")
    assert run(db, "import", str(EXAMPLES / "gandice-example.jsonl"))[0] == 0
    assert run(db, "stats")[0] == 0
    con = sqlite3.connect(place / "kifu.readmodel.db")
    with con:
        con.execute("delete from state where key in ('store_id', 'position')")
    con.close()
    moved = tmp_path / "b"
    shutil.move(str(place), str(moved))
    monkeypatch.setattr(ReadModel, "_reset", lambda self: (_ for _ in ()).throw(AssertionError("projected anew")))
    code, out, err = run(str(moved / "kifu.db"), "matches", "--json")
    assert code == 0 and "now names store" in err, err
    code, out, err = run(str(moved / "kifu.db"), "matches", "--json")
    assert code == 0 and err == ""
