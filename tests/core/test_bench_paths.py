"""The quick benchmark's sections of the paths users hit (start-up, folds, import, record, seek,
pages, the writers), run in this file's own worker (tests/core/benchgroups.py says why)."""

from __future__ import annotations

import pytest

from projections.package import evolve as EVOLVE
from recorder.tools.bench import readme as bench_readme
from tests.core.benchgroups import check_shape, quick_run


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    return quick_run(tmp_path_factory, "paths")


def test_every_section_writes_figures_of_one_shape(quick):
    check_shape(*quick, "paths")


def test_the_bench_leaves_the_folds_as_it_found_them(quick):
    """The folds section compares with folds that copy every change, by swapping ``evolve`` for
    a while: every later section (record, seek, pages) must fold as users' processes do."""
    import sys

    from projections import package

    assert package.evolve is EVOLVE
    swapped = [name for name, m in sys.modules.items()
               if name.startswith("projections.") and callable(getattr(m, "evolve", None)) and m.evolve is not EVOLVE]
    assert swapped == []


def test_the_paths_users_hit_are_all_measured(quick):
    _, results = quick
    ids = set(results["figures"])
    for expected in ("import.sqlite.long", "import.sqlite.big.time", "import.sqlite.big.rss", "record.sqlite.grow",
                     "record.sqlite.at10", "record.sqlite.at1000", "startup.help", "startup.board",
                     "pages.sqlite.short.c1", "pages.sqlite.long.c8", "fold.gandice.apply"):
        assert expected in ids
    assert any(i.startswith("seek.") and i.endswith(".with_file") for i in ids)
    assert any(i.startswith("seek.") and i.endswith(".without_file") for i in ids)
    rss = results["figures"]["import.sqlite.big.rss"]
    assert rss["unit"] == "MB" and rss["parsed_tracemalloc_mb"] > 0 and rss["kifu_import_floor_mb"] > 0
    page = results["figures"]["pages.sqlite.long.c1"]
    assert page["p50_ms"] <= page["p95_ms"] and page["page_bytes"] > 0


def test_readme_table_is_generated_between_the_markers(quick, tmp_path):
    _, results = quick
    readme = tmp_path / "README.md"
    readme.write_text(f"# kifu\n\nbefore\n\n{bench_readme.BEGIN}\nold table\n{bench_readme.END}\n\nafter\n",
                      encoding="utf-8")
    bench_readme.write(results, readme)
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# kifu\n\nbefore\n") and text.endswith(f"{bench_readme.END}\n\nafter\n")
    assert "old table" not in text
    table = text[text.index(bench_readme.BEGIN):text.index(bench_readme.END)]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == len(results["figures"]) + 1  # one per figure and the header
    assert "kifu --help" in table
    bench_readme.write(results, readme)  # idempotent
    assert readme.read_text(encoding="utf-8") == text
