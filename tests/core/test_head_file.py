"""The record path keeps the board-snapshot file at most SAVE_EVERY lines behind the head,
so the next process (the next `kifu record`) starts from a saved prefix, not the start."""

from __future__ import annotations

from projections import boardcache, registry
from recorder import service
from recorder.store import Store
from recorder.tools.synth import generate


def saved_lines(db: str, match_id: str) -> int:
    cache = boardcache.open_cache(db)
    assert cache is not None
    try:
        row = cache.con.execute("select record_key from snapshots where match_id = ? and view = 'ruled'",
                                (match_id,)).fetchone()
    finally:
        cache.close()
    return boardcache.prefix_length(row[0]) if row else 0


def test_the_head_is_saved_at_each_boundary_and_a_new_process_starts_there(db, monkeypatch, tmp_path):
    monkeypatch.setattr(boardcache, "MIN_LINES", 30)
    monkeypatch.setenv("KIFU_BOARD_CACHE", str(tmp_path / "boards.db"))
    header, moves = generate(registry.get("toy"), 8, 0, min_events=130)
    store = Store(db)
    mid = store.create(header, moves[:40])
    seen = {}
    for move in moves[40:121]:
        seq, _ = service.record(store, mid, {k: v for k, v in move.items() if k != "seq"})
        seen[seq] = saved_lines(str(tmp_path / "boards.db"), mid)
    assert seen[49] == 0 and seen[50] == 50 and seen[99] == 50 and seen[100] == 100 and seen[121] == 100
    store.close()
    fresh = Store(db)  # a new process: no head in memory
    folded = []
    real = registry.get("toy").apply
    monkeypatch.setattr(type(registry.get("toy")), "apply", lambda self, b, m: folded.append(m) or real(b, m))
    rep = service.head(fresh, mid)
    assert rep.steps == 121 and len(folded) <= 21 + boardcache.SAVE_EVERY  # from the saved prefix (121 without it)
    assert rep.board_json(121) == service.replay(fresh, mid).board_json(121)
    fresh.close()
