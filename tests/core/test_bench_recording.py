"""The quick benchmark's recording section (the scorekeeper's taps in chromium through kifu
serve), run in this file's own worker (tests/core/benchgroups.py says why)."""

from __future__ import annotations


from recorder.tools.bench.recording import GAMES
from tests.core.benchgroups import group_module


quick, test_every_section_writes_figures_of_one_shape = group_module("recording")


def test_the_recording_section_counts_taps_scrolls_and_the_ack(quick):
    """The scorekeeper's figures in their quick size: the first lines of each example entered by
    taps in chromium through kifu serve, judged by what was counted (taps, scrolls, the board in
    view), the time of each record tap to its acknowledged line beside them."""
    from recorder.tools.bench.recording import QUICK_LINES

    _, results = quick
    figures = {k: f for k, f in results["figures"].items() if f["section"] == "recording"}
    keys = ("taps", "taps_max", "no_scroll", "board", "predicted", "ack", "ack_p95")
    over_all = ("taps", "taps_max", "no_scroll", "board", "predicted")  # the four games together
    assert set(figures) == ({f"recording.sqlite.{g}.{k}" for g in GAMES for k in keys}
                            | {f"recording.sqlite.all.{k}" for k in over_all})
    for fid, f in figures.items():
        assert f["n"] == 3 and f["min"] <= f["median"] <= f["max"], fid
        assert f"{QUICK_LINES} lines" in f["notes"], fid
    for g in GAMES:
        assert 1 <= figures[f"recording.sqlite.{g}.taps"]["median"] <= figures[f"recording.sqlite.{g}.taps_max"]["median"]
        for share in ("no_scroll", "board", "predicted"):
            assert 0 <= figures[f"recording.sqlite.{g}.{share}"]["median"] <= 100
        assert 0 < figures[f"recording.sqlite.{g}.ack"]["median"] <= figures[f"recording.sqlite.{g}.ack_p95"]["median"]
        assert figures[f"recording.sqlite.{g}.taps"]["goal"]["met"] in (True, False)
    assert 1 <= figures["recording.sqlite.all.taps"]["median"] <= figures["recording.sqlite.all.taps_max"]["median"]
