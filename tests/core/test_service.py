"""The record path (recorder/service.py) as a scorekeeper, a judge and a table's client meet it:
what is refused and with which words, what is recorded with its violations, what the listeners
(the read model) are handed, and the match as it stood at a moment."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from projections import registry
from projections.base import Violation
from projections.errors import ConflictError, IllegalMoveError, LogFormatError
from projections.replay import AFTER_RESULT
from recorder import hooks, service
from recorder.logformat import export_lines
from recorder.tools.synth import generate

TOY = registry.get("toy")


def toy_header(mid="m1"):
    return {"kifu": 1, "game": "toy", "match": {"id": mid}, "players": [{"id": "A"}, {"id": "B"}]}


def score(by, points):
    return {"type": "score", "by": by, "points": points}


@pytest.fixture
def told(monkeypatch):
    """What the after-write listeners are told: (store, known) per write."""
    seen: list[tuple[object, dict]] = []
    monkeypatch.setattr(hooks, "AFTER_WRITE", [lambda store, known: seen.append((store, dict(known)))])
    return seen


# -- creating and importing ------------------------------------------------------------------------


def test_a_header_with_problems_is_refused_naming_each(store):
    with pytest.raises(LogFormatError) as exc:
        service.create_match(store, {"kifu": 1, "game": "toy", "match": {"id": "m1"}})
    assert exc.value.problems == ["header: players: must be a non-empty list"]
    assert not store.exists("m1")


def test_a_new_match_is_filled_in_and_the_listeners_are_told(store, told):
    assert service.create_match(store, toy_header()) == "m1"
    header, entries = store.load("m1")
    assert (header["first"], header["rules"], entries) == ("A", "toy/1", [])
    assert told == [(store, {})]


def test_an_import_hands_its_fold_to_the_listeners(store, told, tmp_path, monkeypatch):
    """The read model takes the import's own fold (boards and results; an import is not
    checked against the rules, so neither is its fold)."""
    header, moves = generate(TOY, 4, 0)
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(export_lines(header, moves)) + "\n", encoding="utf-8")
    checked = []
    real = type(TOY).check
    monkeypatch.setattr(type(TOY), "check", lambda self, board, move: checked.append(move) or real(self, board, move))
    mid = service.import_file(store, str(path))
    assert mid == header["match"]["id"] and store.load(mid) == (header, moves)
    [(who, known)] = told
    fold = known[mid]
    assert who is store and fold.steps == len(moves) and fold.header == header
    assert fold.ruleset.board_json(fold.board(fold.steps))["turn"] == len(moves) + 1
    result = fold.result()
    assert checked == []
    assert result == service.replay(store, mid).result() is not None


# -- deciding a line ---------------------------------------------------------------------------------


def test_an_illegal_move_is_recorded_with_its_violation_unless_strict(store):
    service.create_match(store, toy_header())
    seq, found = service.record(store, "m1", score("B", 2))
    assert (seq, [(v.seq, v.rule, v.message) for v in found]) == (1, [(1, "TOY-1", "not B's turn")])
    with pytest.raises(IllegalMoveError) as exc:
        service.record(store, "m1", score("A", 5), strict=True)
    assert str(exc.value) == "TOY-1: not A's turn; TOY-2: points must be 1-3 (not recorded: --strict)"
    assert store.last_seq("m1") == 1


def test_a_move_after_the_result_is_recorded_as_such(store):
    service.create_match(store, toy_header())
    service.record(store, "m1", {"type": "result", "by": "judge", "winner": "A", "reason": "time"})
    seq, found = service.record(store, "m1", score("A", 1))
    assert found == [Violation(2, AFTER_RESULT, "move recorded after the match was decided")]
    header, entries = store.load("m1")
    assert service.violations_of(header, entries[:1], entries[1]) == found  # without a head at hand


def test_a_judges_line_out_of_the_workflow_is_refused(store):
    service.create_match(store, toy_header())
    service.record(store, "m1", score("A", 2))
    service.record(store, "m1", {"type": "annotate", "by": "A", "on": 1, "text": "いい手"})
    with pytest.raises(LogFormatError) as exc:
        service.record(store, "m1", {"type": "correct", "on": 2, "by": "judge", "replace": [], "text": "x"})
    assert exc.value.problems == ["m1: on: seq 2 is a annotate, not a move"]
    assert store.last_seq("m1") == 2


def test_a_name_the_match_does_not_have_is_refused_with_a_suggestion(store):
    header, moves = generate(registry.get("gandice"), 1, 0)
    mid = service.create_match(store, header)
    for move in moves[:2]:
        service.record(store, mid, {k: v for k, v in move.items() if k != "seq"})
    attack = {k: v for k, v in moves[2].items() if k != "seq"}
    assert attack["die"] == "爪牙"
    with pytest.raises(LogFormatError) as exc:
        service.record(store, mid, dict(attack, die="爪芽"))
    assert exc.value.problems == [f"{mid}: die: '爪芽' is not a die of this match; did you mean '爪牙'?"]
    # a judge's line naming a die is not the game's business
    service.record(store, mid, {"type": "annotate", "by": "A", "on": 2, "text": "爪芽?"})
    assert store.last_seq(mid) == 3


def test_a_time_sent_with_the_line_is_kept_as_the_tables_claim(store):
    service.create_match(store, toy_header())
    before = datetime.now(UTC)
    service.record(store, "m1", dict(score("A", 1), at="2026-11-28T10:00:00+09:00"))
    [entry] = store.load("m1")[1]
    assert entry["claimed_at"] == "2026-11-28T10:00:00+09:00"
    assert datetime.fromisoformat(entry["at"].replace("Z", "+00:00")) >= before - timedelta(seconds=1)


def test_the_token_that_wrote_a_line_is_kept_on_it(store):
    service.create_match(store, toy_header())
    service.record(store, "m1", score("A", 1), token="table-3")
    service.record(store, "m1", score("B", 1))
    assert [e.get("token") for e in store.load("m1")[1]] == ["table-3", None]


def test_the_same_idempotency_key_records_once(store, told):
    service.create_match(store, toy_header())
    told.clear()
    first = service.record(store, "m1", score("B", 1), token="table-3", key="k-000001")
    again = service.record(store, "m1", score("B", 1), token="table-3", key="k-000001")
    assert first == (1, [Violation(1, "TOY-1", "not B's turn", suggest=({"type": "pass", "by": "A"},))])
    assert again == (1, [])
    [entry] = store.load("m1")[1]
    assert (entry["by"], entry["token"], len(told)) == ("B", "table-3", 1)
    assert service.record(store, "m1", score("A", 1), key="k-000002")[0] == 2


def test_a_key_is_per_match_and_its_claim_names_the_token(store, db):
    for mid in ("m1", "m2"):
        service.create_match(store, toy_header(mid))
        assert service.record(store, mid, score("A", 1), token="table-3", key="k-000001")[0] == 1
    assert [store.last_seq(mid) for mid in ("m1", "m2")] == [1, 1]
    con = sqlite3.connect(db)
    try:
        rows = con.execute("select match_id, idem_key, seq, token from kifu_writes order by match_id").fetchall()
    finally:
        con.close()
    assert rows == [("m1", "k-000001", 1, "table-3"), ("m2", "k-000001", 1, "table-3")]


def test_a_keyed_write_keeps_strict_and_expect(store):
    service.create_match(store, toy_header())
    with pytest.raises(IllegalMoveError):
        service.record(store, "m1", score("B", 1), strict=True, key="k-000001")
    with pytest.raises(ConflictError, match=r"match 'm1' is at seq 0, not 4: reload and try again"):
        service.record(store, "m1", score("A", 1), expect=5, key="k-000002")
    assert store.last_seq("m1") == 0
    assert service.record(store, "m1", score("A", 1), expect=1, key="k-000003")[0] == 1


# -- the head of each match ---------------------------------------------------------------------------


def test_the_head_is_kept_and_brought_up_to_date_with_other_writers_lines(store, monkeypatch):
    service.create_match(store, toy_header())
    service.record(store, "m1", score("A", 1))
    loads = []
    real = store.load
    monkeypatch.setattr(store, "load", lambda mid: loads.append(mid) or real(mid))
    store.append("m1", score("B", 2))  # another process
    rep = service.head(store, "m1")
    assert (rep.steps, rep.board(rep.steps).scores, loads) == (2, (1, 2), [])
    assert service.record(store, "m1", score("A", 3))[0] == 3 and loads == []


def test_a_line_is_decided_on_the_real_head_when_another_writer_came_between(store):
    """This process kept the head at seq 1 (A scored); another process recorded B's line: A's
    next line is seq 3 and A's turn, even with --strict and the seq the table expects."""
    service.create_match(store, toy_header())
    service.record(store, "m1", score("A", 1))
    store.append("m1", score("B", 1))
    assert service.record(store, "m1", score("A", 1), strict=True, expect=3) == (3, [])
    store.append("m1", score("B", 1))
    assert service.record(store, "m1", score("A", 2)) == (5, [])
    assert [(e["seq"], e["by"]) for e in store.load("m1")[1]] == [(1, "A"), (2, "B"), (3, "A"), (4, "B"), (5, "A")]


def test_a_refused_line_leaves_the_head_as_it_was(store):
    service.create_match(store, toy_header())
    service.record(store, "m1", score("A", 1))
    with pytest.raises(ConflictError):
        service.record(store, "m1", score("B", 1), expect=7)
    with pytest.raises(IllegalMoveError):
        service.record(store, "m1", score("A", 1), strict=True)
    assert service.record(store, "m1", score("B", 1)) == (2, [])
    assert service.head(store, "m1").steps == 2


def test_a_line_costs_one_fold_step_and_no_read_of_the_stream(store, told, monkeypatch):
    """The record path decides on the head it keeps: no reload, no query for the stream's top,
    and the rules fold only the new line."""
    service.create_match(store, toy_header())
    for i in range(20):
        service.record(store, "m1", {"type": "pass", "by": "AB"[i % 2]})
    folded, reads = [], []
    real_apply, real_top, real_since = type(TOY).apply, store.top_version, store.load_since
    monkeypatch.setattr(type(TOY), "apply", lambda self, board, move: folded.append(move) or real_apply(self, board, move))
    monkeypatch.setattr(store, "top_version", lambda stream: reads.append("top") or real_top(stream))
    monkeypatch.setattr(store, "load_since", lambda mid, seq: reads.append("since") or real_since(mid, seq))
    told.clear()
    assert service.record(store, "m1", score("A", 2)) == (21, [])
    assert service.record(store, "m1", score("B", 2)) == (22, [])
    assert len(folded) <= 2 and reads == []
    assert [(who, list(known)) for who, known in told] == [(store, ["m1"])] * 2
    assert told[-1][1]["m1"].steps == 22  # the listeners get the head just written


def test_a_process_keeps_the_heads_of_its_most_recent_matches(store, monkeypatch):
    monkeypatch.setattr(service, "HEADS_KEPT", 2)
    for mid in ("a", "b", "c"):
        service.create_match(store, toy_header(mid))
        service.record(store, mid, score("A", 1))
    loads = []
    real = store.load
    monkeypatch.setattr(store, "load", lambda mid: loads.append(mid) or real(mid))
    for mid in ("c", "b", "a"):
        service.record(store, mid, score("B", 1))
    assert loads == ["a"]  # the least recently used head was let go
    service.record(store, "b", score("A", 1))
    assert loads == ["a"]  # b was used more recently than c
    service.forget_head(store, "b")
    service.record(store, "b", score("A", 1))
    assert loads == ["a", "b"]


# -- the match at a moment ------------------------------------------------------------------------


def test_the_match_as_it_stood_at_a_lines_own_time(store):
    service.create_match(store, toy_header())
    for by in "ABA":
        service.record(store, "m1", score(by, 1))
    entries = store.load("m1")[1]
    at = service.replay(store, "m1", moment=entries[1]["at"])
    assert (at.steps, at.view) == (2, "ruled")  # the line recorded at that moment is in
    recorded = service.replay(store, "m1", view="recorded", moment=entries[2]["at"])
    assert (recorded.steps, recorded.view) == (3, "recorded")
    assert service.replay(store, "m1").view == "ruled"


def test_lines_without_a_time_stand_at_the_time_they_were_stored(store):
    header, moves = generate(TOY, 3, 0)
    store.create(header, moves)  # imported lines carry no `at`
    mid = header["match"]["id"]
    assert service.replay(store, mid, moment="2000-01-01T00:00:00Z").steps == 0
    later = (datetime.now(UTC) + timedelta(minutes=1)).isoformat()
    assert service.replay(store, mid, moment=later).steps == len(moves)


def test_a_moment_that_is_not_a_time_is_refused(store):
    service.create_match(store, toy_header())
    with pytest.raises(LogFormatError) as exc:
        service.replay(store, "m1", moment="yesterday")
    assert exc.value.problems == ["--as-of: 'yesterday' is not an ISO 8601 timestamp"]

