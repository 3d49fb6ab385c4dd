"""Board snapshots beside the store: a new process seeks a long match from a checkpoint."""

from __future__ import annotations

import os

from projections import boardcache, registry
from recorder import service
from recorder.tools.synth import generate


def long_match(store, extra_violation=False):
    header, moves = generate(registry.get("toy"), 2, 0, min_events=700)
    if extra_violation:
        moves[10] = dict(moves[10], by="C" if moves[10]["by"] != "C" else "A")
    return store.create(header, moves)


def test_second_process_starts_from_the_cached_checkpoints(store):
    mid = long_match(store, extra_violation=True)
    first = service.replay(store, mid)
    assert os.path.exists(boardcache.default_path(store.db))
    expected = [first.board_json(s) for s in (0, 1, 349, 350, 351, first.steps)]
    again = service.replay(store, mid)  # as a new `kifu board` process would
    assert again._checked_to == again.steps  # nothing was folded from the start
    assert len(again._checkpoints) > 10
    assert [again.board_json(s) for s in (0, 1, 349, 350, 351, again.steps)] == expected
    assert again.violations() == first.violations() and again.violations()


def test_a_new_line_or_another_view_is_a_cache_miss(store):
    mid = long_match(store)
    service.replay(store, mid)
    store.append(mid, {"type": "annotate", "by": "解説", "on": 1, "text": "追記"})
    fresh = service.replay(store, mid)
    assert fresh.steps == store.last_seq(mid)
    recorded = service.replay(store, mid, view="recorded")
    assert recorded.board_json() == fresh.board_json() | {"view": "recorded"}


def test_the_key_covers_the_record_and_the_ruleset_code(store):
    mid = long_match(store)
    header, entries = store.load(mid)
    ruleset = registry.for_header(header)
    key = boardcache.record_key(header, entries, ruleset)
    assert key != boardcache.record_key(header, entries[:-1], ruleset)
    assert key != boardcache.record_key(dict(header, first="B"), entries, ruleset)
    assert boardcache.code_digest("tests") == boardcache.code_digest("tests")


def test_an_unwritable_cache_is_ignored(store, monkeypatch, tmp_path):
    monkeypatch.setenv("KIFU_BOARD_CACHE", str(tmp_path / "no" / "such" / "dir" / "c.db"))
    mid = long_match(store)
    assert service.replay(store, mid).result() is not None
