"""The record path decides on the head fold its process kept, without reading the stream
again (``service.record``). When another writer has appended meanwhile, the head is stale:
the line must then be decided again on the stream's real head, never refused or numbered on
the stale one, and never written twice."""

from __future__ import annotations

import pytest

from projections.errors import ConflictError, IllegalMoveError
from projections.replay import Replay
from recorder import service
from recorder.store import Store

HEADER = {
    "kifu": 1, "game": "toy", "match": {"id": "stale-1", "event": "卓球杯", "round": 1},
    "players": [{"id": "A", "name": "甲"}, {"id": "B", "name": "乙"}], "first": "A",
}


def score(by: str, points: int = 1) -> dict:
    return {"type": "score", "by": by, "points": points}


@pytest.fixture
def two_writers(db):
    """Two stores on one file: two writers (a server and a `kifu record -i`, say), each with
    its own head folds."""
    one, two = Store(db), Store(db)
    service.create_match(one, dict(HEADER))
    yield one, two
    one.close()
    two.close()


def test_a_stale_head_gets_the_next_seq_of_the_real_stream(two_writers):
    one, two = two_writers
    assert service.record(one, "stale-1", score("A")) == (1, [])
    assert service.record(two, "stale-1", score("B")) == (2, [])  # one's head now lacks seq 2
    seq, found = service.record(one, "stale-1", score("A"))
    assert seq == 3 and found == []
    header, entries = one.load("stale-1")
    assert [e["seq"] for e in entries] == [1, 2, 3]
    assert [e["by"] for e in entries] == ["A", "B", "A"]  # nothing written twice
    # and the head each writer keeps is the real one
    assert service.head(one, "stale-1").board_json() == Replay(header, entries).board_json()


def test_violations_come_from_the_real_head_not_the_stale_one(two_writers):
    one, two = two_writers
    service.record(one, "stale-1", score("A"))
    service.record(two, "stale-1", score("B"))
    # On one's stale head it is B's turn, so A scoring would be TOY-1; on the real head it is A's.
    seq, found = service.record(one, "stale-1", score("A"), strict=True)
    assert seq == 3 and found == []
    # and the other way round: on two's stale head (seq 2) A is to move, on the real one B is
    with pytest.raises(IllegalMoveError, match="TOY-1"):
        service.record(two, "stale-1", score("A"), strict=True)
    seq, found = service.record(two, "stale-1", score("A"))
    assert seq == 4 and [v.rule for v in found] == ["TOY-1"]


def test_expect_is_held_to_the_real_head(two_writers):
    one, two = two_writers
    service.record(one, "stale-1", score("A"))
    service.record(two, "stale-1", score("B"))
    # The phone page saw seq 2 and expects its line to be seq 3: right, though one's head is stale.
    assert service.record(one, "stale-1", score("A"), expect=3)[0] == 3
    # A page that has not seen seq 3 expects 3 again: a conflict, and nothing is written.
    with pytest.raises(ConflictError, match="reload"):
        service.record(two, "stale-1", score("B"), expect=3)
    assert [e["seq"] for e in one.load("stale-1")[1]] == [1, 2, 3]


def test_a_line_the_real_head_refuses_is_refused_once_and_not_written(two_writers):
    one, two = two_writers
    service.record(one, "stale-1", score("A"))
    service.record(two, "stale-1", score("B"))
    with pytest.raises(IllegalMoveError, match="TOY-2"):
        service.record(one, "stale-1", score("A", 7), strict=True)
    assert len(one.load("stale-1")[1]) == 2
