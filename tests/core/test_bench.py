"""The benchmark runs every section and writes its figures in one shape (quick sizes; no speed
is asserted anywhere: benchmarks report, tests test)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from recorder.tools.bench import SECTIONS, run
from recorder.tools.bench import readme as bench_readme
from tests.core.benchgroups import ALONE, GROUPS

KIFU = [str(Path(sys.executable).parent / "kifu")]


def test_every_section_is_run_by_the_tests():
    """The quick benchmark runs in groups, one test file each (tests/core/benchgroups.py), and
    ``live`` alone below: a section added to the bench and to no group would go untested."""
    grouped = [name for names in GROUPS.values() for name in names] + list(ALONE)
    assert sorted(grouped) == sorted(SECTIONS) and len(grouped) == len(set(grouped))
    here = Path(__file__).parent
    for group in GROUPS:
        assert (here / f"test_bench_{group}.py").is_file(), group


def test_readme_without_markers_is_one_clear_error(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# no table here\n", encoding="utf-8")
    with pytest.raises(bench_readme.ReadmeError, match="no benchmark markers"):
        bench_readme.write({"machine": {}, "figures": {}}, readme)


def test_unknown_section_is_refused_in_one_line(tmp_path):
    done = subprocess.run([*KIFU, "bench", "--only", "nope", "-o", str(tmp_path / "r.json")],
                          capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"kifu: --only: unknown section 'nope' (known: {', '.join(SECTIONS)})"]
    assert not (tmp_path / "r.json").exists()


def test_readme_only_from_a_missing_file_is_one_line(tmp_path):
    done = subprocess.run([*KIFU, "bench", "--readme-only", "-o", str(tmp_path / "missing.json")],
                          capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "missing.json:0: file:" in done.stderr


def test_a_childs_peak_rss_is_its_own_not_the_benchmarks():
    """ru_maxrss counts the memory of the process a child was forked from: children are
    started by the small spawner, so a benchmark holding big matches does not inflate them."""
    from recorder.tools.bench import measure

    spawner = measure.Spawner()
    held = bytearray(200 * 1024 * 1024)
    held[::4096] = b"\x01" * len(held[::4096])  # touched: resident in this process
    try:
        measure.Spawner.current = spawner
        small = measure.run_child([sys.executable, "-c", "pass"])
        grown = measure.run_child([sys.executable, "-c", "x = bytearray(64 * 2**20); x[::4096] = b'1' * len(x[::4096])"])
    finally:
        measure.Spawner.current = None
        spawner.close()
    assert small.max_rss < 100 * 1024 * 1024 < 200 * 1024 * 1024 <= len(held)
    assert grown.max_rss - small.max_rss >= 60 * 1024 * 1024
    assert small.code == 0 and small.cpu >= 0


def test_the_peak_memory_of_a_command_counts_every_process_it_forked():
    """A rebuild forks one process per core: its peak is the sum of their resident sets at once
    (sampled from /proc by treerss), which ru_maxrss (the largest single process) is not."""

    sampler = Path(__file__).parents[2] / "recorder" / "tools" / "bench" / "treerss.py"
    two = ("import os, time\n"
           "def fill(mb):\n"
           "    x = bytearray(mb * 2**20); x[::4096] = b'1' * len(x[::4096]); time.sleep(1.0); return x\n"
           "if os.fork() == 0:\n"
           "    fill(120); os._exit(0)\n"
           "fill(80); os.wait()\n")
    out = subprocess.run([sys.executable, "-S", str(sampler), "--every", "0.02", "--", sys.executable, "-c", two],
                         capture_output=True, text=True, check=True, timeout=120)
    got = json.loads(out.stdout)
    assert got["code"] == 0 and got["wall"] >= 1.0
    mb = 2**20
    assert got["max_rss"] >= 120 * mb  # the larger process
    assert got["peak_tree_rss"] >= 200 * mb > got["max_rss"]  # both at once


def test_the_live_section_alone_measures_stream_and_polling_at_each_point(tmp_path):
    """The event-day load in its quick size: a real server, clients in processes of their
    own, a figure per point beside polling, and the ladder's verdict (no speed asserted)."""
    results = run(tmp_path / "live.json", quick=True, only=["live"])
    figures = {k: f for k, f in results["figures"].items() if f["section"] == "live"}
    keys = {k.rsplit(".", 1)[1] for k in figures}
    assert keys >= {"post_p50_ms", "post_p99_ms", "delivery_p50_ms", "delivery_p99_ms", "server_cores_load",
                    "missed", "lost", "server_cores_idle_per_1000_followers"}
    for fid, f in figures.items():
        assert f["n"] == 3 and f["baseline"]["n"] == 3, fid
    runs = figures["live.sqlite.2x4.post_p99_ms"]["runs"]
    for pair in runs:
        for r in pair.values():
            assert r["posts"] > 0 and r["deliveries"] > 0 and r["lost"] == 0
            assert r["client_cores_load"] >= 0 and r["server_cores_load"] > 0
    assert figures["live.sqlite.2x4.lost"]["median"] == 0
    assert set(results["live_ladder"]["sqlite"]) == {"stream", "poll"}
    import multiprocessing

    assert multiprocessing.active_children() == []  # the clients stopped by themselves
