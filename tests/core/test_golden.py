"""Every shipped example replays exactly as its golden playthrough says (make golden)."""

from __future__ import annotations

import difflib

import pytest

from tests.golden_tool import examples, golden_path, playthrough


@pytest.mark.parametrize("example", examples(), ids=lambda p: p.stem)
def test_example_matches_golden_playthrough(example):
    game, text = playthrough(example)
    target = golden_path(example, game)
    assert target.exists(), f"no golden file for {example.name}: run `make golden` and review it"
    expected = target.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "now", n=2))
        pytest.fail(f"{example.name} replays differently from {target.name}:\n{diff[:4000]}")
