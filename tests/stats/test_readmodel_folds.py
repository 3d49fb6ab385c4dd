"""What a catch-up costs, and that the cheap way gives the same rows: a new line is one
``apply`` on the fold this process keeps, a new process loads a match once, a writer's head
fold is taken as it is, and every batch leaves rows that agree with its position."""

from __future__ import annotations

import pytest

from projections import readmodel, registry
from projections.readmodel import ReadModel, ReadModelError, catch_up_store, rebuild
from projections.replay import Replay
from recorder import service
from recorder.store import Store

TOY = registry.get("toy")


def toy_header(mid):
    return {"kifu": 1, "game": "toy", "first": "A", "match": {"id": mid, "event": "秋の大会"},
            "players": [{"id": p, "name": f"名{p}", "deck": {"name": f"デッキ{p}"}} for p in "AB"]}


def play(store, mid, n):
    """Another writer (no hook, no head of ours) appends ``n`` one-point lines."""
    for _ in range(n):
        top = store.last_seq(mid)
        store.append(mid, {"type": "score", "by": "AB"[top % 2], "points": 1})


@pytest.fixture
def loads(store, monkeypatch):
    """The ids of the matches loaded whole from the store."""
    seen: list[str] = []
    real = store.load
    monkeypatch.setattr(store, "load", lambda mid: seen.append(mid) or real(mid))
    return seen


@pytest.fixture
def applies(monkeypatch):
    """The moves folded by the toy ruleset."""
    seen: list[dict] = []
    real = type(TOY).apply
    monkeypatch.setattr(type(TOY), "apply", lambda self, board, move: seen.append(move) or real(self, board, move))
    return seen


def new_process(monkeypatch):
    """What a new process starts with: no folds in memory."""
    monkeypatch.setattr(readmodel, "_FOLDS", {})


def steps(rm):
    return {m["id"]: m["steps"] for m in rm.matches()}


def test_a_new_line_costs_one_apply_and_no_load(store, tmp_path, loads, applies):
    store.create(toy_header("m1"))
    play(store, "m1", 3)
    rm = ReadModel(str(tmp_path / "rm.db"))
    rm.catch_up(store)
    for n in range(4, 7):
        play(store, "m1", 1)
        loads.clear(), applies.clear()
        assert rm.catch_up(store) == 1
        assert (loads, len(applies), steps(rm)) == ([], 1, {"m1": n})
    rm.close()


def test_a_new_process_loads_a_match_once_then_folds_on(store, tmp_path, monkeypatch, loads, applies):
    store.create(toy_header("m1"))
    play(store, "m1", 2)
    ReadModel(str(tmp_path / "rm.db")).catch_up(store)
    new_process(monkeypatch)
    rm = ReadModel(str(tmp_path / "rm.db"))
    play(store, "m1", 3)
    loads.clear()
    rm.catch_up(store)
    assert (loads, steps(rm)) == (["m1"], {"m1": 5})
    play(store, "m1", 1)
    applies.clear()
    rm.catch_up(store)
    assert (loads, len(applies), steps(rm)) == (["m1"], 1, {"m1": 6})
    rm.close()


def test_each_batch_leaves_rows_that_agree_with_its_position(store, tmp_path, monkeypatch, loads):
    """A new process catching up in several batches folds the lines it has read, not the
    match as the store holds it by then: at each batch's commit the row and the position agree."""
    store.create(toy_header("m1"))
    ReadModel(str(tmp_path / "rm.db")).catch_up(store)
    base = store.max_notification_id()
    new_process(monkeypatch)
    monkeypatch.setattr(readmodel, "BATCH", 3)
    rm = ReadModel(str(tmp_path / "rm.db"))
    play(store, "m1", 7)
    seen = []
    rm.catch_up(store, page=3, on_page=lambda read: seen.append((read, rm.last_id() - base, steps(rm)["m1"])))
    assert seen == [(3, 3, 3), (3, 6, 6), (1, 7, 7)]
    assert loads == ["m1"]
    rm.close()


def test_two_processes_keep_one_read_model_current_between_them(store, tmp_path, monkeypatch):
    """A server and a `kifu record` both catch the same file up: a fold left behind by the
    other one's catch-ups is never continued as if nothing came between."""
    store.create(toy_header("m1"))
    play(store, "m1", 1)
    server = ReadModel(str(tmp_path / "rm.db"))
    server.catch_up(store)
    new_process(monkeypatch)
    other = ReadModel(str(tmp_path / "rm.db"))
    for process in (other, server, other, server):
        play(store, "m1", 2)
        process.catch_up(store)
        assert steps(process)["m1"] == store.last_seq("m1")
    with rebuild(store, str(tmp_path / "fresh.db")) as fresh:
        assert fresh.matches() == server.matches()
    server.close()
    other.close()


def test_two_stores_with_a_match_of_the_same_id_keep_their_own_rows(tmp_path):
    """A practice store and the event's store, open in one process (a server), each with a
    match "m1" whose decks and lines differ: each read model folds its own store's match."""
    stores, models = [], []
    for name, deck, points in (("practice", "闇", 1), ("event", "光", 3)):
        s = Store(str(tmp_path / f"{name}.db"))
        header = toy_header("m1")
        header["players"][0]["deck"]["name"] = deck
        s.create(header, [{"seq": i + 1, "type": "score", "by": "AB"[i % 2], "points": points} for i in range(6)])
        rm = ReadModel(str(tmp_path / f"{name}.readmodel.db"))
        rm.catch_up(s)
        stores.append(s)
        models.append(rm)
    try:
        for s, rm in zip(stores, models):
            s.append("m1", {"type": "score", "by": "A", "points": 3})
            rm.catch_up(s)
        rows = [rm.matches()[0] for rm in models]
        assert [(m["decks"][0], m["winner"]) for m in rows] == [("闇", None), ("光", "A")]
    finally:
        for s, rm in zip(stores, models):
            rm.close()
            s.close()


def test_a_process_keeps_folds_for_the_most_recent_matches(store, tmp_path, monkeypatch, loads):
    monkeypatch.setattr(readmodel, "FOLDS_KEPT", 2)
    for mid in ("a", "b", "c"):
        store.create(toy_header(mid))
    rm = ReadModel(str(tmp_path / "rm.db"))
    rm.catch_up(store)
    for mid in ("c", "b", "a"):
        play(store, mid, 1)
        rm.catch_up(store)
    assert loads == ["a"]  # only the least recently touched one was let go
    assert steps(rm) == {"a": 1, "b": 1, "c": 1}
    rm.close()


def test_catch_up_reports_each_batch_and_returns_what_it_read(store, tmp_path, monkeypatch):
    monkeypatch.setattr(readmodel, "BATCH", 4)
    store.create(toy_header("m1"))
    play(store, "m1", 6)
    seen: list[int] = []
    with ReadModel(str(tmp_path / "rm.db")) as rm:
        assert rm.catch_up(store, page=2, on_page=seen.append) == 7
    assert seen == [4, 3]
    seen.clear()
    with rebuild(store, str(tmp_path / "rm.db"), on_page=seen.append) as rm:
        assert seen == [7] and steps(rm) == {"m1": 6}  # one page of the default size
    seen.clear()
    play(store, "m1", 1)
    with catch_up_store(store, str(tmp_path / "rm.db"), on_page=seen.append) as rm:
        assert seen == [1] and steps(rm) == {"m1": 7}


def test_the_stores_fingerprint_is_read_once_per_store_object(store, tmp_path, monkeypatch):
    """Whether the store was replaced is asked once per open store, not at every write."""
    store.create(toy_header("m1"))
    rm = ReadModel(str(tmp_path / "rm.db"))
    rm.catch_up(store)
    play(store, "m1", 1)
    rm.catch_up(store)  # the first catch-up with a position compares the fingerprint
    asked = []
    real = store.notifications
    monkeypatch.setattr(store, "notifications", lambda *a, **k: asked.append(a) or real(*a, **k))
    for n in (2, 3):
        play(store, "m1", 1)
        rm.catch_up(store)
        assert steps(rm) == {"m1": n}
    assert asked == []
    rm.close()


def test_a_match_created_alone_is_not_mistaken_for_a_replaced_store(store, tmp_path):
    """The store's fingerprint is taken from its first event even when that is all it holds."""
    store.create(toy_header("m1"))
    with ReadModel(str(tmp_path / "rm.db")) as rm:
        assert rm.catch_up(store) == 1
        play(store, "m1", 1)
        assert rm.catch_up(store) == 1 and steps(rm) == {"m1": 1}


def made_anew(tmp_path, mids) -> tuple[Store, str]:
    """A store holding ``mids`` projected into a read model, then deleted and opened anew
    (empty) at the same path: (the new store, the read model's path)."""
    db, path = str(tmp_path / "k.db"), str(tmp_path / "rm.db")
    s = Store(db)
    for mid in mids:
        s.create(toy_header(mid))
    catch_up_store(s, path).close()
    s.close()
    for name in list(tmp_path.iterdir()):
        if name.name.startswith("k.db"):
            name.unlink()
    return Store(db), path


def test_a_store_made_anew_from_the_same_files_is_projected_anew(tmp_path):
    """Delete the store and import the event again (the same first match, then others): the
    rows of matches the new store does not have are gone."""
    s, path = made_anew(tmp_path, ("m1", "old"))
    try:
        for mid in ("m1", "n1", "n2"):
            s.create(toy_header(mid))
        with catch_up_store(s, path) as rm:
            assert sorted(steps(rm)) == ["m1", "n1", "n2"]
    finally:
        s.close()


def test_a_model_that_lost_a_match_row_says_to_rebuild(store, tmp_path):
    store.create(toy_header("m1"))
    rm = ReadModel(str(tmp_path / "rm.db"))
    rm.catch_up(store)
    with rm.db.conn:
        rm.db.execute("delete from results")
        rm.db.execute("delete from matches")
    play(store, "m1", 1)
    stream = Store.stream_of("m1")
    with pytest.raises(ReadModelError, match=f"an event of stream {stream} arrived before its match was seen: "
                                             "run kifu stats --rebuild"):
        rm.catch_up(store)
    rm.close()


def test_a_damaged_line_gives_the_same_row_incrementally_and_rebuilt(store, tmp_path):
    """A correction stored without the line it corrects (another tool wrote it): every later
    catch-up reports what a rebuild reports."""
    store.create(toy_header("m1"))
    play(store, "m1", 2)
    rm = ReadModel(str(tmp_path / "rm.db"))
    rm.catch_up(store)
    store.append("m1", {"type": "correct", "by": "judge", "replace": []})
    rm.catch_up(store)
    play(store, "m1", 1)
    rm.catch_up(store)
    with rebuild(store, str(tmp_path / "fresh.db")) as fresh:
        assert fresh.matches() == rm.matches()
        assert "KeyError" in fresh.matches()[0]["error"]
    rm.close()


# -- the writer's head fold (the record path hands it over) ----------------------------------------


def test_a_writer_fold_behind_the_store_is_not_taken(store, tmp_path, loads):
    """This process folded the head at seq 2; another writer recorded seq 3 before the
    catch-up ran: the row has all three lines, and the fold kept goes on from there."""
    store.create(toy_header("m1"))
    play(store, "m1", 2)
    rm = ReadModel(str(tmp_path / "rm.db"))
    rm.catch_up(store)
    mine = service.head(store, "m1")
    play(store, "m1", 1)
    loads.clear()
    rm.catch_up(store, known={"m1": mine})
    assert (loads, steps(rm)) == (["m1"], {"m1": 3})
    play(store, "m1", 1)
    rm.catch_up(store)
    assert (loads, steps(rm)) == (["m1"], {"m1": 4})
    rm.close()


def test_a_new_process_that_records_hands_its_head_over(store, tmp_path, monkeypatch, loads):
    """`kifu record` is a new process: it folds the head to check the line, and the read model
    takes that fold instead of loading the match again."""
    store.create(toy_header("m1"))
    play(store, "m1", 2)
    catch_up_store(store, str(tmp_path / "rm.db")).close()
    new_process(monkeypatch)
    play(store, "m1", 1)
    head = Replay(*store.load("m1"))
    loads.clear()
    with catch_up_store(store, str(tmp_path / "rm.db"), known={"m1": head}) as rm:
        assert (loads, steps(rm)) == ([], {"m1": 3})


def test_an_imported_match_is_neither_decoded_nor_folded_twice(store, tmp_path, monkeypatch, applies):
    header = toy_header("m1")
    moves = [{"seq": i + 1, "type": "pass", "by": "AB"[i % 2]} for i in range(60)]
    store.create(header, moves)
    decoded = []
    real = store.decode_state
    monkeypatch.setattr(store, "decode_state", lambda data: decoded.append(1) or real(data))
    applies.clear()
    with ReadModel(str(tmp_path / "rm.db")) as rm:
        rm.catch_up(store, known={"m1": Replay(header, moves, checks=False)})
        assert steps(rm) == {"m1": 60}
    assert len(decoded) <= 1  # at most the store's first event, its fingerprint
    assert len(applies) == 60  # the import's own fold, folded once


def test_a_handed_over_match_is_not_decoded_when_its_notifications_are_read(store, tmp_path, monkeypatch):
    """Read back (another match's write came last, so the store cannot say what the new
    notifications are): the handed-over match's own events are skipped, not decoded."""
    header = toy_header("m1")
    moves = [{"seq": i + 1, "type": "pass", "by": "AB"[i % 2]} for i in range(30)]
    store.create(header, moves)
    store.create(toy_header("m2"), moves[:3])  # store.written now names m2's notifications
    decoded = []
    real = store.decode_state
    monkeypatch.setattr(store, "decode_state", lambda data: decoded.append(data) or real(data))
    with ReadModel(str(tmp_path / "rm.db")) as rm:
        assert rm.catch_up(store, known={"m1": Replay(header, moves, checks=False)}) == 31 + 4
        assert steps(rm) == {"m1": 30, "m2": 3}
    assert len(decoded) <= 4 + 1  # m2's four events (and the fingerprint), none of m1's 31


def test_a_catch_up_handed_the_writers_notifications_counts_them(store, tmp_path):
    header = toy_header("m1")
    moves = [{"seq": i + 1, "type": "pass", "by": "AB"[i % 2]} for i in range(12)]
    store.create(header, moves)
    seen = []
    with ReadModel(str(tmp_path / "rm.db")) as rm:
        assert rm.catch_up(store, known={"m1": Replay(header, moves, checks=False)}, on_page=seen.append) == 13
        assert seen == [13] and rm.last_id() == 13 and steps(rm) == {"m1": 12}


def test_a_handed_over_head_does_not_crowd_out_other_matches_folds(store, tmp_path, monkeypatch, loads):
    """The writer's fold replaces the read model's own fold of that match: the folds kept are
    still those of the most recent other matches."""
    monkeypatch.setattr(readmodel, "FOLDS_KEPT", 2)
    for mid in ("b", "a"):
        store.create(toy_header(mid))
    rm = ReadModel(str(tmp_path / "rm.db"))
    rm.catch_up(store)
    play(store, "a", 1)
    rm.catch_up(store, known={"a": service.head(store, "a")})
    store.create(toy_header("c"))
    rm.catch_up(store)
    play(store, "b", 1)
    loads.clear()
    rm.catch_up(store)
    assert (loads, steps(rm)) == ([], {"a": 1, "b": 1, "c": 0})
    rm.close()


def test_interleaved_tables_with_one_head_handed_over(store, tmp_path, monkeypatch, loads):
    """Two tables record in turns while the catch-up reads in small batches, several of which
    end inside the handed-over match: the other table's row is written all the same."""
    monkeypatch.setattr(readmodel, "BATCH", 4)
    store.create(toy_header("mine"))
    store.create(toy_header("theirs"))
    for _ in range(5):
        play(store, "mine", 1)
        play(store, "theirs", 1)
    play(store, "mine", 6)
    rm = ReadModel(str(tmp_path / "rm.db"))
    rm.catch_up(store, page=2, known={"mine": service.head(store, "mine")})
    assert steps(rm) == {"mine": 11, "theirs": 5}
    with rebuild(store, str(tmp_path / "fresh.db")) as fresh:
        assert fresh.matches() == rm.matches()
    rm.close()


def test_a_store_made_anew_with_one_match_is_projected_at_once(tmp_path):
    s, path = made_anew(tmp_path, ("a", "b"))
    try:
        s.create(toy_header("only"))  # the new store's one event
        with catch_up_store(s, path) as rm:
            assert steps(rm) == {"only": 0} and rm.source() == readmodel.source_of(s)
    finally:
        s.close()


def test_readers_see_the_old_model_until_a_rebuild_is_done(store, tmp_path, monkeypatch):
    """A rebuild reads the store in several batches in ONE transaction: another connection
    (kifu stats in another process) sees the old rows until it commits, then the new ones."""
    import sqlite3

    path = str(tmp_path / "rm.db")
    store.create(toy_header("m1"))
    catch_up_store(store, path).close()
    for mid in ("m2", "m3"):
        store.create(toy_header(mid))
        play(store, mid, 2)
    monkeypatch.setattr(readmodel, "PART_PAGE", 2)
    reader = sqlite3.connect(path)
    seen = []
    try:
        with ReadModel(path) as rm:  # what rebuild() does, in small pages
            rm.catch_up(store, from_scratch=True,
                        on_page=lambda read: seen.append(reader.execute("select count(*) from matches").fetchone()[0]))
        assert len(seen) > 1 and set(seen) == {1}
        assert reader.execute("select count(*) from matches").fetchone()[0] == 3
    finally:
        reader.close()


def test_a_rebuild_from_an_empty_store_empties_the_file(store, tmp_path):
    path = str(tmp_path / "rm.db")
    store.create(toy_header("m1"))
    catch_up_store(store, path).close()
    empty = Store(str(tmp_path / "empty.db"))
    try:
        rebuild(empty, path).close()
    finally:
        empty.close()
    with ReadModel(path) as rm:
        assert rm.count() == 0
