"""Every refusal of the judges' workflow (recorder/workflow.py), as ``FILE:LINE: field: problem``
when a log is imported, and the line right beside each refusal that is allowed."""

from __future__ import annotations

import json

import pytest

from projections.errors import LogFormatError, NotFoundError, WorkflowError
from recorder import logformat, workflow

HEADER = {"kifu": 1, "game": "toy", "match": {"id": "w1"}, "players": [{"id": "A"}, {"id": "B"}], "first": "A"}


def line(seq, type_, **fields):
    return {"seq": seq, "type": type_, **fields}


MOVE = line(1, "score", by="A", points=3)
NOTE = line(2, "annotate", by="解説", on=1, text="好手")
DISPUTE = line(2, "dispute", by="B", on=1, claim="3点は多い")
FLOOR = line(3, "ruling", by="フロア", dispute=2, decision="upheld", text="そのまま")
APPEAL = line(4, "appeal", by="B", ruling=3, grounds="見ていない")
HEAD = line(5, "ruling", by="ヘッド", dispute=2, decision="overturned", level="head", text="1点",
            replace=[{"type": "score", "by": "A", "points": 1}])


def read(tmp_path, lines):
    path = tmp_path / "w.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in [HEADER, *lines]) + "\n", encoding="utf-8")
    return logformat.read_file(str(path))


def refused(tmp_path, lines):
    with pytest.raises(LogFormatError) as exc:
        read(tmp_path, lines)
    return [p.replace(str(tmp_path / "w.jsonl"), "F") for p in exc.value.problems]


CASES = [
    ("dispute on a note", [MOVE, NOTE, line(3, "dispute", by="B", on=2, claim="x")],
     "F:4: on: seq 2 is a annotate, not a move"),
    ("correct a ruling", [MOVE, DISPUTE, FLOOR, line(4, "correct", by="記録", on=3, text="t", replace=[])],
     "F:5: on: seq 3 is a ruling, not a move"),
    ("retract a move", [MOVE, line(2, "retract", by="解説", on=1)], "F:3: on: seq 1 is a score, not an annotation"),
    ("retract twice", [MOVE, NOTE, line(3, "retract", by="解説", on=2), line(4, "retract", by="解説", on=2)],
     "F:5: on: annotation 2 is already retracted"),
    ("upheld replaces", [MOVE, DISPUTE, dict(FLOOR, replace=[{"type": "pass", "by": "A"}])],
     "F:4: replace: only an overturned ruling replaces or rewinds moves"),
    ("upheld rewinds", [MOVE, DISPUTE, dict(FLOOR, rewind=True)],
     "F:4: rewind: only an overturned ruling replaces or rewinds moves"),
    ("ruling on a move", [MOVE, DISPUTE, dict(FLOOR, dispute=1)], "F:4: dispute: seq 1 is a score, not a dispute"),
    ("ruled twice", [MOVE, DISPUTE, FLOOR, dict(FLOOR, seq=4)],
     "F:5: dispute: dispute 2 is already ruled (seq 3); appeal that ruling to the head judge first"),
    ("after the head judge", [MOVE, DISPUTE, FLOOR, APPEAL, HEAD, dict(HEAD, seq=6, level="head")],
     "F:7: dispute: dispute 2 has a head judge's ruling (seq 5), which is final"),
    ("floor after appeal", [MOVE, DISPUTE, FLOOR, APPEAL, dict(HEAD, level="floor")],
     "F:6: level: dispute 2 is under appeal: only the head judge (level head) rules now"),
    ("floor after appeal, level left out", [MOVE, DISPUTE, FLOOR, APPEAL,
                                            {k: v for k, v in HEAD.items() if k != "level"}],
     "F:6: level: dispute 2 is under appeal: only the head judge (level head) rules now"),
    ("appeal a move", [MOVE, DISPUTE, FLOOR, dict(APPEAL, ruling=1)], "F:5: ruling: seq 1 is a score, not a ruling"),
    ("appeal a dispute", [MOVE, DISPUTE, FLOOR, dict(APPEAL, ruling=2)], "F:5: ruling: seq 2 is a dispute, not a ruling"),
    ("appeal the head judge", [MOVE, DISPUTE, dict(HEAD, seq=3), dict(APPEAL, ruling=3)],
     "F:5: ruling: ruling 3 is the head judge's, which is final and cannot be appealed"),
    ("appeal after the head judge", [MOVE, DISPUTE, FLOOR, APPEAL, HEAD, dict(APPEAL, seq=6)],
     "F:7: ruling: dispute 2 is already decided by the head judge"),
    ("appeal twice", [MOVE, DISPUTE, FLOOR, APPEAL, dict(APPEAL, seq=5)], "F:6: ruling: ruling 3 is already appealed"),
]


@pytest.mark.parametrize("lines, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_workflow_refusal(tmp_path, lines, expected):
    assert refused(tmp_path, lines) == [expected]


ALLOWED = [
    ("a note on a note, and its retraction", [MOVE, NOTE, line(3, "annotate", by="c", on=2, text="同意"),
                                              line(4, "retract", by="解説", on=2)]),
    ("a retraction of another note", [MOVE, NOTE, line(3, "annotate", by="c", on=1, text="x"),
                                      line(4, "retract", by="解説", on=2), line(5, "retract", by="c", on=3)]),
    ("floor, appeal, head", [MOVE, DISPUTE, FLOOR, APPEAL, HEAD]),
    ("the head judge first", [MOVE, DISPUTE, dict(HEAD, seq=3)]),
    ("overturned with replace and rewind", [MOVE, line(2, "score", by="B", points=1),
                                            line(3, "dispute", by="B", on=1, claim="x"),
                                            line(4, "ruling", by="j", dispute=3, decision="overturned", text="t",
                                                 rewind=True, replace=[{"type": "score", "by": "A", "points": 1}])]),
    ("upheld with replace empty and rewind false", [MOVE, DISPUTE, dict(FLOOR, replace=[], rewind=False)]),
    ("a second dispute on the same move", [MOVE, DISPUTE, FLOOR, line(4, "dispute", by="B", on=1, claim="別件"),
                                           line(5, "ruling", by="j", dispute=4, decision="upheld", text="t")]),
    ("a correction of a move", [MOVE, line(2, "correct", by="記録", on=1, text="t", replace=[])]),
    ("a penalty and a concession", [MOVE, line(2, "penalty", by="j", player="B", infraction="遅延",
                                               penalty="warning", on=1), line(3, "concede", by="B")]),
]


@pytest.mark.parametrize("lines", [c[1] for c in ALLOWED], ids=[c[0] for c in ALLOWED])
def test_the_lines_beside_each_refusal_are_allowed(tmp_path, lines):
    assert read(tmp_path, lines)[1] == lines


def test_where_each_dispute_stands():
    states = workflow.dispute_states([MOVE, DISPUTE])
    assert states[2].status == "open" and states[2].is_open and states[2].decision is None
    states = workflow.dispute_states([MOVE, DISPUTE, FLOOR])
    assert states[2].status == "ruled" and not states[2].is_open and states[2].decision == FLOOR
    states = workflow.dispute_states([MOVE, DISPUTE, FLOOR, APPEAL])
    assert states[2].status == "appealed" and states[2].is_open
    states = workflow.dispute_states([MOVE, DISPUTE, FLOOR, APPEAL, HEAD])
    assert states[2].status == "final" and not states[2].is_open and states[2].decision == HEAD
    assert states[2].to_json() == {"dispute": 2, "on": 1, "by": "B", "claim": "3点は多い", "rule": None,
                                   "status": "final", "decision": "overturned", "rulings": [3, 5], "appeals": [4]}
    # an appeal of another dispute's ruling, or of a line that is no ruling, belongs to no dispute
    other = [MOVE, DISPUTE, FLOOR, line(4, "dispute", by="A", on=1, claim="y"), line(5, "appeal", by="A", ruling=1,
                                                                                     grounds="g")]
    states = workflow.dispute_states(other)
    assert states[2].appeals == [] and states[4].status == "open"


def test_only_workflow_lines_are_judged():
    assert workflow.workflow_errors([MOVE], line(2, "score", by="B", points=1)) == []
    assert workflow.workflow_errors([MOVE], line(2, "result", by="j", winner=None, reason="time")) == []
    assert workflow.workflow_errors([MOVE, DISPUTE], line(3, "penalty", by="j", player="A", infraction="x",
                                                          penalty="warning")) == []


def test_opening_a_dispute_from_a_violation():
    header = dict(HEADER, rules="toy/1")
    lines = [line(1, "score", by="A", points=2), line(2, "score", by="A", points=4), line(3, "score", by="A", points=5)]
    with pytest.raises(NotFoundError, match=r"^no violation at seq 1 in the ruled view \(see kifu check\)$"):
        workflow.violation_at(header, lines, 1)
    with pytest.raises(WorkflowError, match=r"^seq 2 breaks several rules \(TOY-1, TOY-2\): name one, as SEQ:RULE$"):
        workflow.violation_at(header, lines, 2)
    assert workflow.violation_at(header, lines, 2, "TOY-2").rule == "TOY-2"
    assert workflow.violation_at(header, lines, 3).rule == "TOY-2"
    with pytest.raises(NotFoundError, match=r"^no violation of rule TOY-1 at seq 3 in the ruled view"):
        workflow.violation_at(header, lines, 3, "TOY-1")


def test_the_correction_the_rules_suggest():
    header = dict(HEADER, rules="toy/1")
    lines = [line(1, "score", by="A", points=2), line(2, "score", by="A", points=1),
             line(3, "dispute", by="B", on=2, claim="Bの番"), line(4, "dispute", by="B", on=2, claim="x", rule="TOY-2"),
             line(5, "dispute", by="B", on=1, claim="y")]
    violation, moves = workflow.suggested_replacement(header, lines, 3)
    assert violation.rule == "TOY-1" and moves == [{"type": "pass", "by": "B"}]
    with pytest.raises(WorkflowError, match=r"^the ruleset suggests no correction of rule TOY-2 for seq 2: "
                                            r"give --decision and --replace$"):
        workflow.suggested_replacement(header, lines, 4)
    with pytest.raises(WorkflowError, match=r"^the ruleset suggests no correction for seq 1: give --decision"):
        workflow.suggested_replacement(header, lines, 5)
    with pytest.raises(NotFoundError, match=r"^no dispute 2$"):
        workflow.suggested_replacement(header, lines, 2)
    # after the floor ruling and an appeal the head judge sees the same suggestion
    ruled = [*lines, line(6, "ruling", by="j", dispute=3, decision="overturned", text="t",
                          replace=[{"type": "pass", "by": "B"}]), line(7, "appeal", by="A", ruling=6, grounds="g")]
    assert workflow.suggested_replacement(header, ruled, 3)[1] == [{"type": "pass", "by": "B"}]


# -- penalties across an event -------------------------------------------------------------------------


def _event_match(mid, round_, table, date, players, lines, event="冬季大会"):
    header = {"kifu": 1, "game": "toy", "rules": "toy/1",
              "match": {"id": mid, "event": event, "round": round_, "table": table, "date": date},
              "players": players, "first": players[0]["id"]}
    return header, lines


def _penalty(seq, player, kind="warning", **extra):
    return line(seq, "penalty", by="ヘッド", player=player, infraction="遅延", penalty=kind, **extra)


def test_penalties_of_an_event_in_time_order_with_names(store):
    yamada, sato, suzuki = {"id": "A", "name": "山田"}, {"id": "B", "name": "佐藤"}, {"id": "B"}
    # round 2 played later but recorded live: its time puts it last
    store.create(*_event_match("r2", 2, "1", "2026-11-29", [yamada, sato],
                               [dict(MOVE), dict(_penalty(2, "A", on=1, text="二回目"), at="2026-11-29T15:00:00Z")]))
    # imported without times: ordered by date, then round, then table, then seq
    store.create(*_event_match("r1-t2", 1, "2", "2026-11-29", [yamada, suzuki],
                               [_penalty(1, "B"), _penalty(2, "A", "game-loss")]))
    store.create(*_event_match("r1-t1", 1, "1", "2026-11-29", [sato, yamada], [_penalty(1, "B")]))
    store.create(*_event_match("other", 1, "1", "2026-11-28", [yamada, sato], [_penalty(1, "A")], event="別の大会"))
    # the day before, recorded live in round 3 (a side event): its time puts it first
    store.create(*_event_match("fri", 3, "9", "2026-11-28", [yamada, sato],
                               [dict(_penalty(1, "B"), at="2026-11-28T09:00:00Z")]))
    rows = workflow.event_penalties(store, "冬季大会")
    assert [(r["match"], r["seq"]) for r in rows] == [("fri", 1), ("r1-t1", 1), ("r1-t2", 1), ("r1-t2", 2), ("r2", 2)]
    rows = rows[1:]
    assert rows[-1] == {"at": "2026-11-29T15:00:00Z", "match": "r2", "round": 2, "table": "1", "date": "2026-11-29",
                        "seq": 2, "player": "A", "name": "山田", "penalty": "warning", "infraction": "遅延",
                        "by": "ヘッド", "on": 1, "text": "二回目"}
    assert rows[0]["name"] == "佐藤" and rows[0]["on"] is None and rows[0]["text"] is None
    assert rows[1]["name"] == "B"  # a player without a name is shown by id
    assert [r["match"] for r in workflow.event_penalties(store, "冬季大会", "山田")] == ["r1-t2", "r2"]
    assert [(r["match"], r["name"]) for r in workflow.event_penalties(store, "冬季大会", "B")] == [
        ("fri", "佐藤"), ("r1-t1", "佐藤"), ("r1-t2", "B")]
    assert workflow.event_penalties(store, "ない大会") == []


def test_a_dispute_names_its_rule_and_a_stray_ruling_belongs_to_no_dispute():
    disputed = dict(DISPUTE, rule="TOY-2")
    assert workflow.dispute_states([MOVE, disputed])[2].to_json()["rule"] == "TOY-2"
    stray = line(2, "ruling", by="j", dispute=1, decision="upheld", text="t")  # an old log: a ruling on a move
    assert workflow.dispute_states([MOVE, stray]) == {}
