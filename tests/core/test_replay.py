"""Replay: both views, rulings and corrections, result overrides, as-of, seeking."""

from __future__ import annotations

import random
from datetime import datetime, UTC

import pytest

from projections import registry
from projections.replay import Replay, as_of
from recorder.tools.synth import generate

HEADER = {"kifu": 1, "game": "toy", "rules": "toy/1", "match": {"id": "m"},
          "players": [{"id": "A", "name": "甲"}, {"id": "B", "name": "乙"}], "first": "A"}


def mv(seq, by, pts=None, **kw):
    line = {"seq": seq, "type": "score" if pts is not None else "pass", "by": by, **kw}
    if pts is not None:
        line["points"] = pts
    return line


def scores(rep, step):
    return rep.board_json(step)["players"]


def test_recorded_and_ruled_views_of_an_overturned_move():
    entries = [mv(1, "A", 5), mv(2, "B", 1),
               {"seq": 3, "type": "dispute", "by": "B", "on": 1, "claim": "too many points", "rule": "TOY-2"},
               {"seq": 4, "type": "ruling", "by": "J", "dispute": 3, "decision": "overturned", "text": "3 max",
                "replace": [{"type": "score", "by": "A", "points": 3}]}]
    recorded, ruled = Replay(HEADER, entries, "recorded"), Replay(HEADER, entries, "ruled")
    assert scores(recorded, 4)["A"] == {"score": 5}
    assert scores(ruled, 4)["A"] == {"score": 3}
    assert scores(ruled, 1)["A"] == {"score": 3}  # step 1 as ruled is the replacement
    assert [v.rule for v in recorded.violations()] == ["TOY-2"]
    assert ruled.violations() == ()


def test_upheld_ruling_changes_nothing():
    entries = [mv(1, "A", 2), {"seq": 2, "type": "dispute", "by": "B", "on": 1, "claim": "?"},
               {"seq": 3, "type": "ruling", "by": "J", "dispute": 2, "decision": "upheld", "text": "fine"}]
    assert scores(Replay(HEADER, entries), 3) == scores(Replay(HEADER, entries, "recorded"), 3)


def test_overturn_without_replacement_voids_and_rewind_voids_later_moves():
    entries = [mv(1, "A", 3), mv(2, "B", 3), mv(3, "A", 3), mv(4, "B", 3),
               {"seq": 5, "type": "dispute", "by": "B", "on": 2, "claim": "x"},
               {"seq": 6, "type": "ruling", "by": "J", "dispute": 5, "decision": "overturned", "text": "void", "rewind": True}]
    ruled = Replay(HEADER, entries)
    assert scores(ruled, 6) == {"A": {"score": 3}, "B": {"score": 0}}
    no_rewind = [*entries[:5], dict(entries[5], rewind=False)]
    assert scores(Replay(HEADER, no_rewind), 6) == {"A": {"score": 6}, "B": {"score": 3}}


def test_head_ruling_after_appeal_wins_over_floor_ruling():
    entries = [mv(1, "A", 3), {"seq": 2, "type": "dispute", "by": "B", "on": 1, "claim": "x"},
               {"seq": 3, "type": "ruling", "by": "F", "dispute": 2, "decision": "overturned", "text": "t", "level": "floor"},
               {"seq": 4, "type": "appeal", "by": "A", "ruling": 3, "grounds": "g"},
               {"seq": 5, "type": "ruling", "by": "H", "dispute": 2, "decision": "upheld", "text": "t", "level": "head"}]
    rep = Replay(HEADER, entries)
    assert scores(rep, 3)["A"] == {"score": 3}  # the final word is the head judge's
    assert scores(Replay(HEADER, entries[:3]), 3)["A"] == {"score": 0}


def test_correction_replaces_and_later_correction_wins():
    entries = [mv(1, "A", 1), {"seq": 2, "type": "correct", "by": "記録係", "on": 1, "text": "typo",
                                "replace": [{"type": "score", "by": "A", "points": 2}]},
               {"seq": 3, "type": "correct", "by": "記録係", "on": 1, "text": "again",
                "replace": [{"type": "score", "by": "A", "points": 3}]}]
    assert scores(Replay(HEADER, entries), 3)["A"] == {"score": 3}
    assert scores(Replay(HEADER, entries, "recorded"), 3)["A"] == {"score": 1}


def test_result_overrides_concede_penalty_and_declared():
    base = [mv(1, "A", 3)]
    assert Replay(HEADER, base + [{"seq": 2, "type": "concede", "by": "A"}]).result().to_json() == {"winner": "B", "reason": "concession"}
    pen = {"seq": 2, "type": "penalty", "by": "HJ", "player": "B", "infraction": "遅延", "penalty": "game-loss"}
    assert Replay(HEADER, base + [pen]).result().to_json() == {"winner": "A", "reason": "penalty-game-loss"}
    warn = dict(pen, penalty="warning")
    assert Replay(HEADER, base + [warn]).result() is None
    draw = {"seq": 2, "type": "result", "by": "HJ", "winner": None, "reason": "time"}
    rep = Replay(HEADER, base + [draw])
    assert rep.result().to_json() == {"winner": None, "reason": "time"}
    assert rep.result(1) is None


def test_move_after_the_result_is_flagged():
    entries = [mv(1, "A", 3), {"seq": 2, "type": "concede", "by": "B"}, mv(3, "B", 1)]
    rep = Replay(HEADER, entries)
    # concede is a table result, not the rules': the rules result is still open, so only an
    # actual rules win makes later moves illegal
    moves = [mv(i + 1, "AB"[i % 2], 3) for i in range(8)]
    rep = Replay(HEADER, moves)
    assert rep.result().winner == "A"
    assert [v.rule for v in rep.violations()] == ["KIFU-2"]


def test_as_of_keeps_what_was_recorded_then():
    entries = [dict(mv(1, "A", 1), at="2026-11-29T10:00:00Z"), dict(mv(2, "B", 1), at="2026-11-29T10:05:00Z")]
    cut = as_of(entries, datetime(2026, 11, 29, 10, 1, tzinfo=UTC))
    assert [e["seq"] for e in cut] == [1]


def test_random_access_equals_sequential_fold():
    header, moves = generate(registry.get("toy"), 3, 0, min_events=400)
    rep = Replay(header, moves)
    sequential = [rep.board_json(s) for s in range(rep.steps + 1)]
    rng = random.Random(5)
    fresh = Replay(header, moves)
    for step in rng.sample(range(rep.steps + 1), 60) + [0, rep.steps, 17, 16, 15]:
        assert fresh.board_json(step) == sequential[step]
    # backward steps use checkpoints, so they never fold more than one checkpoint interval
    assert len(fresh._checkpoints) > 5


def test_out_of_range_step():
    with pytest.raises(IndexError):
        Replay(HEADER, [mv(1, "A", 1)]).board(2)
