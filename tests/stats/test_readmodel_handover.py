"""The writer hands its fold to the read model: the match is neither decoded nor folded again,
even when a catch-up batch ends in the middle of its stream (a long import)."""

from __future__ import annotations

from projections import readmodel, registry
from projections.replay import Replay
from recorder.tools.synth import generate


def test_a_handed_over_fold_is_used_across_batches(store, tmp_path, monkeypatch):
    header, moves = generate(registry.get("toy"), 5, 0, min_events=60)
    mid = store.create(header, moves)
    other_header, other_moves = generate(registry.get("toy"), 6, 0)
    other = store.create(other_header, other_moves)
    monkeypatch.setattr(readmodel, "BATCH", 10)  # batches end inside the long stream
    loads = []
    real_load = store.load
    monkeypatch.setattr(store, "load", lambda m: loads.append(m) or real_load(m))
    rm = readmodel.ReadModel(str(tmp_path / "rm.db"))
    rm.catch_up(store, page=4, known={mid: Replay(header, moves, checks=False)})
    assert loads == []  # the other match is folded from the notifications themselves
    with readmodel.rebuild(store, str(tmp_path / "fresh.db")) as fresh:
        assert fresh.matches() == rm.matches()
    assert {m["id"] for m in rm.matches()} == {mid, other}
    rm.close()
