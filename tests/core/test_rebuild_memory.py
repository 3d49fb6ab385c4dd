"""A rebuild's memory is bounded by a page of lines (or one match), not by the store: each part
walks its streams a page at a time and lets each match's lines go once it is folded
(projections.readmodel ``_part_rows``). Counted through the store's reading seam, not timed."""

from __future__ import annotations

import gc
import weakref

import pytest

from projections import readmodel, registry
from projections.readmodel import rebuild
from recorder import service
from recorder.store import Store
from recorder.tools.synth import generate

GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")


class Held(list):
    """A page's lines of one stream, as the store hands them out (weakly referenceable)."""

    __hash__ = object.__hash__  # by identity: kept in a WeakSet


def _fill(store: Store) -> int:
    """Matches of every game, two of them recorded line by line in turns; the longest match's
    number of lines."""
    longest = 0
    for game in GAMES:
        for i in range(4):
            header, entries = generate(registry.get(game), 5, i)
            store.create(header, entries)
            longest = max(longest, len(entries))
    pair = [generate(registry.get("mushijingi"), 6, i) for i in range(2)]
    for k, (header, _) in enumerate(pair):
        header["match"]["id"] = f"turns-{k}"
        service.create_match(store, header)
    for step in range(30):
        for k, (_, entries) in enumerate(pair):
            if step < len(entries):
                store.append(f"turns-{k}", dict(entries[step]))
    return longest


def _tables(rm: readmodel.ReadModel) -> dict[str, list]:
    out = {t: rm.db.execute(f"select * from {t} order by 1, 2, 3, 4, 5, 6, 7, 8, 9").fetchall()
           for t in ("matches", "results", "sides", "pairs")}
    out["rowid order"] = rm.db.execute("select id from matches order by rowid").fetchall()
    return out


@pytest.mark.parametrize("page", [1, 40])
def test_a_rebuild_holds_one_page_of_lines_at_a_time(tmp_path, monkeypatch, page):
    store = Store(str(tmp_path / "kifu.db"))
    try:
        longest = _fill(store)
        with rebuild(store, str(tmp_path / "whole.db")) as rm:  # the default page
            expected = _tables(rm)
        live: weakref.WeakSet[Held] = weakref.WeakSet()
        held_at_each_read: list[int] = []
        pages: list[int] = []
        real = Store.stream_lines

        def counted(self, streams, upto):
            held_at_each_read.append(sum(len(lines) for lines in live))  # what earlier pages left alive
            out = {}
            for stream, (header, lines) in real(self, streams, upto).items():
                lines = Held(lines)
                live.add(lines)
                out[stream] = (header, lines)
            pages.append(sum(len(lines) for _, lines in out.values()))
            return out

        monkeypatch.setattr(Store, "stream_lines", counted)  # the rebuild's reader is another Store
        monkeypatch.setattr(readmodel, "PART_PAGE", page)
        with rebuild(store, str(tmp_path / f"page-{page}.db")) as rm:
            assert _tables(rm) == expected  # byte for byte what the default page writes
        assert len(pages) > 1 and sum(pages) == store.max_notification_id() - 18  # every line once, no header
        assert max(held_at_each_read) == 0  # each page let go before the next is read
        assert max(pages) <= max(page, longest)  # a page, or one whole match when it is longer
        if page == 1:
            assert len(pages) == 18  # one stream a page
    finally:
        store.close()


def test_a_rebuild_in_parts_merges_their_rows_in_the_order_the_matches_began(tmp_path, monkeypatch):
    store = Store(str(tmp_path / "kifu.db"))
    try:
        _fill(store)
        with rebuild(store, str(tmp_path / "one.db")) as rm:
            expected = _tables(rm)
        monkeypatch.setenv("KIFU_REBUILD_PARTS", "3")
        monkeypatch.setattr(readmodel, "PARALLEL_FROM", 1)
        monkeypatch.setattr(readmodel, "PART_PAGE", 5)
        monkeypatch.setattr(readmodel, "SEND_ROWS", 2)  # many batches from each process
        monkeypatch.setattr(readmodel, "WRITE_ROWS", 3)  # and many written
        seen: list[int] = []
        with rebuild(store, str(tmp_path / "parts.db"), on_page=seen.append) as rm:
            assert _tables(rm) == expected
        assert sum(seen) == store.max_notification_id() and len(seen) > 3 and min(seen) > 0
    finally:
        store.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_fold_makes_no_reference_cycles(game):
    """The rebuild runs without the cyclic collector (readmodel.no_gc): what a fold lets go
    must be freed by reference counting alone, or memory would grow with the store."""
    header, entries = generate(registry.get(game), 3, 0)
    gc.collect()
    with readmodel.no_gc():
        for k in range(3):
            readmodel.match_rows(f"m{k}", f"s{k}", header, entries)
        assert gc.collect() == 0
