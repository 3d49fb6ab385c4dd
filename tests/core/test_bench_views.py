"""The quick benchmark's views at scale (the same event in a store of its own and in a bigger
one), run in this file's own worker (tests/core/benchgroups.py says why)."""

from __future__ import annotations

import pytest

from tests.core.benchgroups import check_shape, quick_run


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    return quick_run(tmp_path_factory, "views")


def test_every_section_writes_figures_of_one_shape(quick):
    check_shape(*quick, "views")


def test_each_view_is_measured_beside_the_event_alone(quick):
    _, results = quick
    views = {k: f for k, f in results["figures"].items() if f["section"] == "views"}
    assert "views.sqlite.pages_memory" in views
    beside = [f for k, f in views.items() if k != "views.sqlite.pages_memory"]
    assert len(beside) == 7  # the desk cold and kept, two lists, matches, standings, a player's stats
    for f in beside:
        assert f["baseline"]["n"] >= 3 and f["goal"]["op"] == "<=" and f["goal"]["value"] == 2.0
    assert results["setup"]["views"]
