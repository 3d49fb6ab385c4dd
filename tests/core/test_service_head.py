"""The record path saves the head to the board-snapshot file beside the store (``X.boards.db``)
once a match is long enough, at each SAVE_EVERY boundary, and not before."""

from __future__ import annotations


import sqlite3

import pytest

from projections import boardcache, registry
from projections.replay import Replay
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


def long_toy(store, lines):
    header, moves = generate(registry.get("toy"), 8, 0, min_events=lines + 5)
    return store.create(header, moves[:lines])


def test_a_match_of_min_lines_is_saved_when_first_replayed(db, monkeypatch):
    monkeypatch.delenv("KIFU_BOARD_CACHE", raising=False)
    monkeypatch.setattr(boardcache, "MIN_LINES", 60)
    store = Store(db)
    try:
        mid = long_toy(store, 60)
        assert service.replay(store, mid).steps == 60
    finally:
        store.close()
    assert saved_lines(db, mid) == 60


def test_each_view_is_replayed_in_that_view_from_the_file_or_without_it(db, monkeypatch, tmp_path):
    monkeypatch.setattr(boardcache, "MIN_LINES", 60)
    folded: list[dict] = []
    real = type(registry.get("toy")).apply
    monkeypatch.setattr(type(registry.get("toy")), "apply",
                        lambda self, board, move: folded.append(move) or real(self, board, move))
    store = Store(db)
    try:
        mid = long_toy(store, 70)
        for cache in (str(tmp_path / "boards.db"), str(tmp_path / "no" / "such" / "dir" / "boards.db")):
            monkeypatch.setenv("KIFU_BOARD_CACHE", cache)
            first = service.replay(store, mid, view="recorded")
            expected = first.board_json()
            folded.clear()
            again = service.replay(store, mid, view="recorded")  # from the saved prefix, if any
            assert (first.view, again.view, again.board_json()) == ("recorded", "recorded", expected)
            assert len(folded) == (0 if "no" not in cache else 70)  # the saved head, or every line
    finally:
        store.close()


def test_a_new_process_does_not_save_again_within_an_interval(db, monkeypatch, tmp_path):
    """The file is written when the head passes a SAVE_EVERY boundary, not at every start."""
    monkeypatch.setenv("KIFU_BOARD_CACHE", str(tmp_path / "boards.db"))
    monkeypatch.setattr(boardcache, "MIN_LINES", 60)
    store = Store(db)
    try:
        mid = long_toy(store, 70)
        service.replay(store, mid)
        assert saved_lines(db, mid) == 70
        for _ in range(5):
            store.append(mid, {"type": "pass", "by": "AB"[store.last_seq(mid) % 2]})
    finally:
        store.close()
    fresh = Store(db)  # a new process
    try:
        assert service.head(fresh, mid).steps == 75
    finally:
        fresh.close()
    assert saved_lines(db, mid) == 70


def test_a_boards_file_of_another_shape_is_ignored(db, monkeypatch, tmp_path):
    """The board-snapshot file is an optimisation only: one kifu cannot read or write (another
    program's table of that name) changes nothing a reader sees."""
    monkeypatch.setattr(boardcache, "MIN_LINES", 60)
    boards = tmp_path / "boards.db"
    con = sqlite3.connect(boards)
    con.execute("create table snapshots (match_id text, note text)")
    con.commit()
    con.close()
    monkeypatch.setenv("KIFU_BOARD_CACHE", str(boards))
    store = Store(db)
    try:
        mid = long_toy(store, 70)
        for view in ("ruled", "recorded"):
            rep = service.replay(store, mid, view=view)
            assert (rep.view, rep.steps, rep.board_json()) == (view, 70, Replay(*store.load(mid), view).board_json())
    finally:
        store.close()


def test_a_new_process_records_on_a_long_match_never_replayed(db, monkeypatch, tmp_path):
    monkeypatch.setenv("KIFU_BOARD_CACHE", str(tmp_path / "boards.db"))
    monkeypatch.setattr(boardcache, "MIN_LINES", 60)
    store = Store(db)
    try:
        mid = long_toy(store, 70)
        for seq in (71, 72):
            assert service.record(store, mid, {"type": "pass", "by": "AB"[(seq - 1) % 2]})[0] == seq
    finally:
        store.close()
    assert saved_lines(db, mid) == 70  # saved when the head was first folded; 72 is no boundary
