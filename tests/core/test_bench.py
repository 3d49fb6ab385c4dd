"""The benchmark runs every section and writes its figures in one shape (quick sizes; no speed
is asserted anywhere: benchmarks report, tests test)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from projections.package import evolve as EVOLVE
from recorder.tools.bench import SECTIONS, run
from recorder.tools.bench import readme as bench_readme

KIFU = [str(Path(sys.executable).parent / "kifu")]
FIGURE_KEYS = {"section", "what", "backend", "unit", "higher_is_better", "median", "min", "max", "n",
               "baseline", "ratio", "goal", "notes"}


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "results.json"
    results = run(out, quick=True)
    return out, results


def test_every_section_writes_figures_of_one_shape(quick):
    out, results = quick
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved == json.loads(json.dumps(results))
    assert saved["quick"] is True and saved["sections"] == list(SECTIONS)
    assert set(saved["section_seconds"]) == set(SECTIONS)
    figures = saved["figures"]
    assert {f["section"] for f in figures.values()} >= {"startup", "folds", "import", "record", "seek", "rebuild",
                                                         "rebuild_rss", "folder_import", "stats", "pages"}
    for fid, f in figures.items():
        assert set(f) >= FIGURE_KEYS, fid
        assert f["n"] >= 3, fid
        assert f["min"] <= f["median"] <= f["max"], fid
        if f["baseline"] is not None:
            base = f["baseline"]
            assert base["n"] >= 3 and base["min"] <= base["median"] <= base["max"], fid
            if base["median"]:
                assert f["ratio"] == pytest.approx(f["median"] / base["median"], rel=1e-2), fid
            else:  # a baseline of nothing (lines lost by polling; idle CPU too small to see): no ratio
                assert f["ratio"] is None, fid
        if f["goal"] is not None:
            assert f["goal"]["op"] in ("<=", ">=") and f["goal"]["met"] in (True, False, None), fid


def test_the_bench_leaves_the_folds_as_it_found_them(quick):
    """The folds section compares with folds that copy every change, by swapping ``evolve`` for
    a while: every later section (record, rebuild) must fold as users' processes do."""
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
                     "record.sqlite.at10", "record.sqlite.at1000", "rebuild.sqlite", "startup.help", "startup.board",
                     "pages.sqlite.short.c1", "pages.sqlite.long.c8", "fold.gandice.apply"):
        assert expected in ids
    assert any(i.startswith("seek.") and i.endswith(".with_file") for i in ids)
    assert any(i.startswith("seek.") and i.endswith(".without_file") for i in ids)
    assert sum(i.startswith("stats.sqlite.") for i in ids) == 2
    rss = results["figures"]["import.sqlite.big.rss"]
    assert rss["unit"] == "MB" and rss["parsed_tracemalloc_mb"] > 0 and rss["kifu_import_floor_mb"] > 0
    page = results["figures"]["pages.sqlite.long.c1"]
    assert page["p50_ms"] <= page["p95_ms"] and page["page_bytes"] > 0
    assert results["durability"]["sqlite"].startswith("SQLite: journal_mode=wal")
    sizes = [i for i in ids if i.startswith("rebuild_rss.sqlite.") and not i.endswith(".wall")]
    assert len(sizes) == 3 and all(f"{i}.wall" in ids for i in sizes)  # memory and wall at three sizes
    for i in sizes:
        f = results["figures"][i]
        assert f["unit"] == "MB" and f["goal"]["on"] == "median" and f["baseline"]["n"] >= 3
    folder = results["figures"]["folder_import.sqlite.folder"]
    assert folder["unit"] == "ev/s" and folder["higher_is_better"] and folder["goal"]["op"] == ">="


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
    import json

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


def test_the_recording_section_counts_taps_scrolls_and_the_ack(quick):
    """The scorekeeper's figures in their quick size (the quick run's own recording section,
    not a second run of it): the first six lines of each example entered by taps in chromium
    through kifu serve, judged by what was counted (taps, scrolls, the board in view), the time
    of each record tap to its acknowledged line beside them."""
    _, results = quick
    figures = {k: f for k, f in results["figures"].items() if f["section"] == "recording"}
    games = ("gandice", "mushijingi", "gurren-lagann", "variants-war")
    keys = ("taps", "taps_max", "no_scroll", "board", "predicted", "ack", "ack_p95")
    assert set(figures) == {f"recording.sqlite.{g}.{k}" for g in games for k in keys}
    for fid, f in figures.items():
        assert f["n"] == 3 and f["min"] <= f["median"] <= f["max"], fid
        assert "6 lines" in f["notes"], fid
    for g in games:
        assert 1 <= figures[f"recording.sqlite.{g}.taps"]["median"] <= figures[f"recording.sqlite.{g}.taps_max"]["median"]
        for share in ("no_scroll", "board", "predicted"):
            assert 0 <= figures[f"recording.sqlite.{g}.{share}"]["median"] <= 100
        assert 0 < figures[f"recording.sqlite.{g}.ack"]["median"] <= figures[f"recording.sqlite.{g}.ack_p95"]["median"]
        assert figures[f"recording.sqlite.{g}.taps"]["goal"]["met"] in (True, False)


def test_a_second_publish_after_one_new_match_writes_only_what_shows_it(quick):
    """``publish``: the second ``kifu event publish`` of the bench's event after one new match
    rewrites the new match's replays (ja and en), the pages that show its result (its round,
    its two players, the standings, the index whose winner it decides, the statistics) and
    nothing else: counted, never timed."""
    from exports.site import MANIFEST, slug
    from projections.standings import player_key
    from recorder.tools.bench import publish

    _, results = quick
    first, again = results["figures"]["publish.sqlite.first"], results["figures"]["publish.sqlite.again"]
    rounds, tables = publish.sizes(True)
    last = publish.match_id(rounds, tables)
    a, b = publish.pairs(rounds, tables)[-1]
    pages = ["index.html", "standings.html", f"round-{rounds}.html", "metagame.html", "cards.html",
             slug("match", last), slug("player", player_key(a)), slug("player", player_key(b))]
    expected = {MANIFEST, "standings.json", *pages, *(f"en/{p}" for p in pages)}
    written = set(again["again_written"])
    assert expected <= written and again["again_files"] == len(written)
    # besides: only other players' pages (their place in the standings moved), never a replay
    assert {w.removeprefix("en/").split("-")[0] for w in written - expected} <= {"player"}
    assert again["again_replays_written"] == 2  # the new match's page in each language, no other replay
    # each page twice (ja, en: index, standings, metagame, cards, each round, each player, each
    # match's replay; the last match not yet recorded), standings.json and the manifest
    assert first["files"] == 2 * (4 + rounds + 2 * tables + rounds * tables - 1) + 2
    assert again["files"] == first["files"] + 2
    mb = results["figures"]["publish.sqlite.mb"]
    assert mb["unit"] == "MB" and mb["median"] > 0 and first["baseline"]["n"] >= 3
