"""The quick benchmark's sections at scale (the read model's rebuild, its memory at three sizes,
a folder import, the statistics), run in this file's own worker (tests/core/benchgroups.py)."""

from __future__ import annotations

import pytest

from tests.core.benchgroups import check_shape, quick_run


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    return quick_run(tmp_path_factory, "scale")


def test_every_section_writes_figures_of_one_shape(quick):
    check_shape(*quick, "scale")


def test_the_rebuild_its_memory_the_folder_and_the_stats_are_measured(quick):
    _, results = quick
    ids = set(results["figures"])
    assert "rebuild.sqlite" in ids
    assert sum(i.startswith("stats.sqlite.") for i in ids) == 2
    sizes = [i for i in ids if i.startswith("rebuild_rss.sqlite.") and not i.endswith(".wall")]
    assert len(sizes) == 3 and all(f"{i}.wall" in ids for i in sizes)  # memory and wall at three sizes
    for i in sizes:
        f = results["figures"][i]
        assert f["unit"] == "MB" and f["goal"]["on"] == "median" and f["baseline"]["n"] >= 3
    folder = results["figures"]["folder_import.sqlite.folder"]
    assert folder["unit"] == "ev/s" and folder["higher_is_better"] and folder["goal"]["op"] == ">="
