"""The after-write hook is run by the writes themselves (issue 32): a script that imports only
the recorder's services and the projections (no CLI module, no web) records a move and pairs a
tournament's round, and the read model has both, with no listener registered by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
from pathlib import Path
from recorder import hooks, service, tournament_service
from recorder.store import Store
from projections import readmodel

db, example, cut = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
lines = example.read_text(encoding="utf-8").splitlines()
cut.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
store = Store(db)
mid = service.import_file(store, str(cut))
last = json.loads(lines[-1]); last.pop("seq")
seq, _ = service.record(store, mid, last)
tournament_service.open_event(store, "春季大会", "mushijingi", 2, seed=3)
for p in ("山田", "佐藤"):
    tournament_service.register(store, "春季大会", p)
tournament_service.pair(store, "春季大会")
rm = readmodel.ReadModel(readmodel.default_path(db))  # opened, not caught up: what the hooks left
steps = {r["id"]: r["steps"] for r in rm.db.query("select id, steps from matches")}
print(json.dumps({"seq": seq, "steps": steps, "listeners": len(hooks.AFTER_WRITE),
                  "cli": sorted(m for m in sys.modules if m.startswith(("recorder.cli", "recorder.web")))}))
"""


def test_the_hook_runs_with_no_cli_module_imported(tmp_path):
    db = str(tmp_path / "k.db")
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, db, str(ROOT / "examples" / "mushijingi-example.jsonl"), str(tmp_path / "cut.jsonl")],
        capture_output=True, text=True, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "KIFU_LANG": "en"},
    )
    assert out.returncode == 0, out.stderr
    assert "warning" not in out.stderr, out.stderr
    got = json.loads(out.stdout)
    assert got["cli"] == [] and got["listeners"] == 1
    assert got["steps"]["mj-example-1"] == got["seq"] == 67  # the recorded move is in the read model
    assert got["steps"]["春季大会-r1-t1"] == 0  # the round's match, created by the pairing, too


def test_a_failing_listener_warns_and_the_write_stands(store, monkeypatch, capsys):
    from recorder import hooks, service

    def broken(s, known):
        raise RuntimeError("disk full")

    monkeypatch.delenv("KIFU_DEBUG", raising=False)
    monkeypatch.setattr(hooks, "AFTER_WRITE", [broken])
    monkeypatch.setattr(hooks, "LANGUAGE", "en")
    mid = service.import_file(store, str(ROOT / "examples" / "mushijingi-example.jsonl"))
    assert store.exists(mid)
    assert "kifu: warning: stats read model not updated (disk full); kifu stats will catch up" in capsys.readouterr().err
