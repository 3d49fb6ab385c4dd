"""The benchmark runs and writes its figures (no speed is asserted: benchmarks report)."""

from __future__ import annotations

import json

from recorder.tools.benchmark import run


def test_bench_quick_writes_one_json(tmp_path):
    out = tmp_path / "bench.json"
    results = run(out, quick=True)
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved == json.loads(json.dumps(results))
    assert set(saved) >= {"bulk_import", "seek", "append", "machine"}
    assert saved["bulk_import"]["ratio"] > 0 and saved["seek"]["events"] >= 2000
