"""The judges' workflow (recorder.workflow): every allowed and every refused transition,
checked the way both `kifu record` and `kifu import` check them."""

from __future__ import annotations

import pytest

from recorder.workflow import dispute_states, workflow_errors

MOVES = [{"seq": 1, "type": "score", "by": "A", "points": 5},
         {"seq": 2, "type": "score", "by": "B", "points": 1},
         {"seq": 3, "type": "annotate", "by": "解説", "on": 1, "text": "多すぎ?"}]
DISPUTE = {"seq": 4, "type": "dispute", "by": "B", "on": 1, "claim": "5点は多すぎる", "rule": "TOY-2"}
FLOOR = {"seq": 5, "type": "ruling", "by": "フロア", "dispute": 4, "decision": "overturned", "text": "3点まで",
         "level": "floor", "replace": [{"type": "score", "by": "A", "points": 3}]}
APPEAL = {"seq": 6, "type": "appeal", "by": "A", "ruling": 5, "grounds": "特殊能力で5点"}
HEAD = {"seq": 7, "type": "ruling", "by": "ヘッド", "dispute": 4, "decision": "upheld", "text": "能力で5点", "level": "head"}


def problems(entries, line):
    return [str(e) for e in workflow_errors(entries, dict(line, seq=len(entries) + 1))]


def test_the_whole_happy_path_is_allowed():
    log = []
    for line in [*MOVES, DISPUTE, FLOOR, APPEAL, HEAD]:
        assert problems(log, line) == [], line
        log.append(line)
    state = dispute_states(log)[4]
    assert state.status == "final" and state.decision["seq"] == 7 and [a["seq"] for a in state.appeals] == [6]


def test_dispute_states_open_ruled_appealed_final():
    assert dispute_states([*MOVES, DISPUTE])[4].status == "open"
    assert dispute_states([*MOVES, DISPUTE, FLOOR])[4].status == "ruled"
    assert dispute_states([*MOVES, DISPUTE, FLOOR, APPEAL])[4].is_open
    assert dispute_states([*MOVES, DISPUTE, FLOOR, APPEAL, HEAD])[4].to_json()["decision"] == "upheld"


def test_a_head_judge_may_rule_first():
    assert problems([*MOVES, DISPUTE], dict(HEAD, seq=5)) == []


@pytest.mark.parametrize("log, line, expected", [
    # a dispute and a correction name a move, not a meta line
    (MOVES, dict(DISPUTE, on=3), "on: seq 3 is a annotate, not a move"),
    (MOVES, {"type": "correct", "by": "記録係", "on": 3, "replace": [], "text": "x"}, "not a move"),
    # a ruling needs an open dispute
    (MOVES, dict(FLOOR, dispute=2), "dispute: seq 2 is a score, not a dispute"),
    ([*MOVES, DISPUTE, FLOOR], dict(FLOOR, seq=6), "already ruled (seq 5); appeal"),
    ([*MOVES, DISPUTE, FLOOR], dict(HEAD, seq=6), "already ruled (seq 5); appeal"),
    ([*MOVES, DISPUTE, FLOOR, APPEAL], dict(FLOOR, seq=7), "level: dispute 4 is under appeal"),
    ([*MOVES, DISPUTE, FLOOR, APPEAL, HEAD], dict(HEAD, seq=8), "final"),
    ([*MOVES, DISPUTE, FLOOR, APPEAL, HEAD], dict(FLOOR, seq=8), "final"),
    # replace and rewind only with overturned
    ([*MOVES, DISPUTE], dict(FLOOR, decision="upheld"), "replace: only an overturned ruling"),
    ([*MOVES, DISPUTE], dict(HEAD, seq=5, rewind=True), "rewind: only an overturned ruling"),
    # an appeal targets a floor ruling of a dispute not yet decided by the head judge, once
    ([*MOVES, DISPUTE], dict(APPEAL, ruling=4), "ruling: seq 4 is a dispute, not a ruling"),
    ([*MOVES, DISPUTE, dict(HEAD, seq=5)], dict(APPEAL, ruling=5), "head judge's, which is final"),
    ([*MOVES, DISPUTE, FLOOR, APPEAL], dict(APPEAL, seq=7), "already appealed"),
    ([*MOVES, DISPUTE, FLOOR, APPEAL, HEAD], dict(APPEAL, seq=8), "already decided by the head judge"),
    # a retraction names an annotation, once
    (MOVES, {"type": "retract", "by": "解説", "on": 1}, "seq 1 is a score, not an annotation"),
    ([*MOVES, {"seq": 4, "type": "retract", "by": "解説", "on": 3}], {"type": "retract", "by": "解説", "on": 3},
     "annotation 3 is already retracted"),
])
def test_refused_transitions(log, line, expected):
    found = problems(log, line)
    assert any(expected in p for p in found), found


def test_annotations_may_be_on_any_event_including_meta_lines():
    log = [*MOVES, DISPUTE, FLOOR]
    for on in (1, 3, 4, 5):
        assert problems(log, {"type": "annotate", "by": "解説", "on": on, "text": "メモ"}) == []
