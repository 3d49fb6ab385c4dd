"""The quick benchmark, cut into groups of sections that `make test` runs in test files of their
own (tests/core/test_bench_*.py), so that its minutes are spread over the workers instead of
one file holding them all. Every section is in exactly one group, or is run alone by its own
test (``live``): tests/core/test_bench.py checks that nothing is left out."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

GROUPS: dict[str, tuple[str, ...]] = {
    "paths": ("startup", "folds", "import", "import_big", "record", "record_cli", "seek", "pages", "record_page",
              "writers"),
    "scale": ("rebuild", "rebuild_rss", "folder_import", "stats"),
    "views": ("views",),
    "recording": ("recording",),
    "publish": ("publish",),
}
ALONE = ("live",)  # tests/core/test_bench.py runs it by itself
FIGURE_KEYS = {"section", "what", "backend", "unit", "higher_is_better", "median", "min", "max", "n",
               "baseline", "ratio", "goal", "notes"}


def quick_run(tmp_path_factory: pytest.TempPathFactory, group: str) -> tuple[Path, dict[str, Any]]:
    from recorder.tools.bench import run

    out = tmp_path_factory.mktemp(f"bench-{group}") / "results.json"
    return out, run(out, quick=True, only=list(GROUPS[group]))


def check_shape(out: Path, results: dict[str, Any], group: str) -> None:
    """What every run writes, whatever its sections: the file equals what was returned, one
    figure shape, at least 3 runs each, a ratio that is the medians' quotient."""
    from recorder.tools.bench import SECTIONS

    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved == json.loads(json.dumps(results))
    assert saved["quick"] is True and saved["sections"] == [n for n in SECTIONS if n in GROUPS[group]]
    assert set(saved["section_seconds"]) == set(GROUPS[group])
    assert saved["figures"], "no figures"
    assert saved["durability"]["sqlite"].lower().startswith("sqlite: journal_mode=wal")
    for fid, f in saved["figures"].items():
        assert set(f) >= FIGURE_KEYS, fid
        assert f["n"] >= 3, fid
        assert f["min"] <= f["median"] <= f["max"], fid
        if f["baseline"] is not None:
            base = f["baseline"]
            assert base["n"] >= 3 and base["min"] <= base["median"] <= base["max"], fid
            if base["median"] and math.isfinite(base["median"]) and math.isfinite(f["median"]):
                assert f["ratio"] == pytest.approx(f["median"] / base["median"], rel=1e-2), fid
            else:  # a baseline of nothing (lines lost by polling; idle CPU too small to see), or a rate
                # over a time too short to see on one side (infinite): no ratio
                assert f["ratio"] is None, fid
        if f["goal"] is not None:
            assert f["goal"]["op"] in ("<=", ">=") and f["goal"]["met"] in (True, False, None), fid


def group_module(group: str) -> tuple[Any, Any]:
    """What every group's test file begins with: its module fixture ``quick`` (the group's quick
    run, once) and the test of the figures' shape: ``quick, test_every_section_writes_figures_of_one_shape
    = group_module("paths")``."""

    @pytest.fixture(scope="module")
    def quick(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
        return quick_run(tmp_path_factory, group)

    def test_every_section_writes_figures_of_one_shape(quick: tuple[Path, dict[str, Any]]) -> None:
        check_shape(*quick, group)

    return quick, test_every_section_writes_figures_of_one_shape
