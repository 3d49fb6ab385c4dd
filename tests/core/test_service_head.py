"""The record path saves the head to the board-snapshot file beside the store (``X.boards.db``)
once a match is long enough, at each SAVE_EVERY boundary, and not before."""

from __future__ import annotations


import pytest

from projections import boardcache, registry
from recorder import service
from recorder.store import Store
from recorder.tools.synth import generate
from tests.core.test_head_file import saved_lines


@pytest.mark.parametrize("min_lines, saved_at_50, saved_at_52", [(50, 50, 50), (51, 0, 51)])
def test_the_head_is_saved_beside_the_store_once_the_match_is_long_enough(db, monkeypatch, min_lines, saved_at_50,
                                                                        saved_at_52):
    monkeypatch.delenv("KIFU_BOARD_CACHE", raising=False)
    monkeypatch.setattr(boardcache, "MIN_LINES", min_lines)
    header, moves = generate(registry.get("toy"), 8, 0, min_events=60)
    store = Store(db)
    try:
        mid = store.create(header, moves[:45])
        seen = {}
        for move in moves[45:52]:
            seq, _ = service.record(store, mid, {k: v for k, v in move.items() if k != "seq"})
            seen[seq] = saved_lines(db, mid)  # the file beside the store
    finally:
        store.close()
    assert (seen[49], seen[50], seen[52]) == (0, saved_at_50, saved_at_52)
