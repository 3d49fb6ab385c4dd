"""`kifu matches` reads results and lengths from the read model (no replay per match) and
says exactly what a replay says, in creation order."""

from __future__ import annotations

import json
from pathlib import Path

from recorder import service
from recorder.store import Store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_matches_agree_with_replays_without_loading_each_match(kifu, db, monkeypatch):
    code, _, err = kifu("import", str(EXAMPLES))
    assert code == 0, err
    store = Store(db)
    try:
        expected = []
        for header in store.headers():
            rep = service.replay(store, header["match"]["id"])
            result = rep.result()
            expected.append((header["match"]["id"], rep.steps, result.to_json() if result else None))
    finally:
        store.close()
    loads = []
    real = Store.load
    monkeypatch.setattr(Store, "load", lambda self, mid: loads.append(mid) or real(self, mid))
    code, out, err = kifu("matches", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["id"], r["steps"], r["result"]) for r in rows] == expected
    assert loads == []  # the read model answered
