"""The replay's two views where a weakened check would go unnoticed: a ruling that arrives
while a match is followed live, a move the ruleset cannot apply, several disputes with
different outcomes, seeking back and forth, the exact --as-of moment, and each result the
judges or the table can decide. Every test compares with what a fresh replay of the whole
record says, or with the board a person would expect."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from projections import replay as replay_module
from projections.replay import Replay, as_of, effective_moves

HEADER = {"kifu": 1, "game": "toy", "rules": "toy/1", "match": {"id": "v"},
          "players": [{"id": "A", "name": "山田"}, {"id": "B", "name": "佐藤"}], "first": "A"}
THREE = dict(HEADER, players=[{"id": "A"}, {"id": "B"}, {"id": "C"}])


def line(seq, type_, **fields):
    return {"seq": seq, "type": type_, **fields}


def score(seq, by, points):
    return line(seq, "score", by=by, points=points)


def alternating(n):
    """n legal moves: A and B take turns scoring 1 (nobody reaches 10 before 19 moves)."""
    return [score(i, "AB"[(i - 1) % 2], 1) for i in range(1, n + 1)]


def scores(rep, step=None):
    players = rep.board_json(step)["players"]
    return {p: v["score"] for p, v in players.items()}


def rules(rep, step=None):
    return [(v.seq, v.rule) for v in rep.violations(step)]


# -- live follow: Replay.extend ------------------------------------------------------------------


def test_a_ruling_that_arrives_live_recomputes_the_ruled_view():
    base = [score(1, "A", 3), score(2, "B", 2), score(3, "A", 3), line(4, "dispute", by="B", on=3, claim="多い")]
    live = Replay(HEADER, base, "ruled")
    assert scores(live) == {"A": 6, "B": 2}
    ruling = line(5, "ruling", by="フロア", dispute=4, decision="overturned", text="1点",
                  replace=[{"type": "score", "by": "A", "points": 1}])
    live.extend([ruling])
    fresh = Replay(HEADER, [*base, ruling], "ruled")
    assert scores(live) == scores(fresh) == {"A": 4, "B": 2}
    assert scores(live, 3) == {"A": 4, "B": 2}  # at the step of the move it rules on
    assert [live.board_json(s) for s in range(6)] == [fresh.board_json(s) for s in range(6)]


def test_a_correction_that_arrives_live_recomputes_the_ruled_view_and_its_violations():
    base = [score(1, "A", 3), score(2, "A", 2), score(3, "B", 1)]
    live = Replay(HEADER, base, "ruled")
    assert rules(live) == [(2, "TOY-1"), (3, "TOY-1")]
    fix = line(4, "correct", by="記録", on=2, text="Bの手だった", replace=[{"type": "score", "by": "B", "points": 2}])
    live.extend([fix])
    fresh = Replay(HEADER, [*base, fix], "ruled")
    assert rules(live) == rules(fresh) == [(3, "TOY-1")]
    assert scores(live) == scores(fresh) == {"A": 3, "B": 3}


def test_a_viewer_on_the_ruled_step_sees_the_new_board():
    """The page shows step 2 when the correction of step 2 arrives: step 2 is folded again."""
    base = [score(1, "A", 3), score(2, "B", 3)]
    live = Replay(HEADER, base)
    assert scores(live, 2) == {"A": 3, "B": 3}
    live.extend([line(3, "correct", by="記録", on=2, text="1点", replace=[{"type": "score", "by": "B", "points": 1}])])
    assert scores(live, 2) == {"A": 3, "B": 1}


def test_the_recorded_view_ignores_a_ruling_that_arrives_live():
    base = [score(1, "A", 3), line(2, "dispute", by="B", on=1, claim="x")]
    live = Replay(HEADER, base, "recorded")
    live.extend([line(3, "ruling", by="j", dispute=2, decision="overturned", text="t", replace=[])])
    assert scores(live) == {"A": 3, "B": 0} and live.steps == 3


def test_plain_lines_extend_without_changing_the_past():
    moves = alternating(12)
    live = Replay(HEADER, moves[:5])
    before = [live.board_json(s) for s in range(6)]
    live.extend(moves[5:])
    live.extend([])
    assert [live.board_json(s) for s in range(6)] == before
    assert [live.board_json(s) for s in range(13)] == [Replay(HEADER, moves).board_json(s) for s in range(13)]


def test_a_result_that_arrives_live_decides_the_match_from_its_step():
    live = Replay(HEADER, [score(1, "A", 1)])
    live.extend([line(2, "result", by="審判", winner=None, reason="time")])
    assert live.result() is not None and live.result().to_json() == {"winner": None, "reason": "time"}
    assert live.result(1) is None


def test_a_ruling_far_back_in_a_long_match_refolds_from_a_checkpoint_and_agrees():
    moves = alternating(130)
    for m in moves:
        m["points"] = 0 if m["seq"] != 7 else 3  # 0 points breaks TOY-2 on every move but seq 7
    base = [*moves, line(131, "dispute", by="B", on=7, claim="x")]
    live = Replay(HEADER, base)
    assert len(live.violations()) == 129
    ruling = line(132, "ruling", by="j", dispute=131, decision="overturned", text="t",
                  replace=[{"type": "score", "by": "A", "points": 0}])
    live.extend([ruling])
    fresh = Replay(HEADER, [*base, ruling])
    assert rules(live) == rules(fresh) and len(rules(live)) == 130
    assert live.board_json(60) == fresh.board_json(60) and live.board_json() == fresh.board_json()


def test_a_fork_is_independent_of_its_original():
    original = Replay(HEADER, [score(1, "A", 2)])
    original.board(1)
    what_if = original.fork()
    what_if.extend([score(2, "B", 3)])
    assert original.steps == 1 and scores(original) == {"A": 2, "B": 0}
    assert what_if.steps == 2 and scores(what_if) == {"A": 2, "B": 3}


# -- a move the ruleset cannot apply -------------------------------------------------------------


def test_a_move_that_cannot_be_applied_is_flagged_kifu_1_and_the_board_stays():
    # Z is no player of the match: Toy.apply fails looking Z up (validation would refuse the
    # line at import; a replay must survive it anyway, e.g. a log from an older kifu).
    moves = [score(1, "A", 2), score(2, "Z", 1), score(3, "B", 1)]
    rep = Replay(HEADER, moves)
    kifu1 = [v for v in rep.violations() if v.rule == "KIFU-1"]
    assert [(v.seq, v.rule) for v in kifu1] == [(2, "KIFU-1")]
    assert kifu1[0].message.startswith("move could not be applied: ")
    assert rep.board(2) == rep.board(1)
    assert scores(rep) == {"A": 2, "B": 1}
    again = [v.rule for v in rep.violations()]
    rep.board(0), rep.board(3)
    assert [v.rule for v in rep.violations()] == again  # seeking does not add it twice


def test_a_move_after_the_result_is_flagged_kifu_2_instead_of_checked():
    moves = [score(1, "A", 3), line(2, "concede", by="B"), score(3, "B", 2)]
    rep = Replay(HEADER, moves)
    assert rep.result().to_json() == {"winner": "A", "reason": "concession"}
    assert rules(rep) == []  # a concession is an override: the rules' result is still open
    won = [score(i, "AB"[(i - 1) % 2], 3) for i in range(1, 8)] + [score(8, "B", 2)]
    rep = Replay(HEADER, won)
    assert rep.result(7).to_json() == {"winner": "A", "reason": "target"}
    assert rules(rep) == [(8, "KIFU-2")]  # not also TOY-1 (B's turn is right) nor TOY-2


# -- several disputes --------------------------------------------------------------------------------


def test_an_upheld_dispute_does_not_hide_a_later_overturned_one():
    lines = [score(1, "A", 3), score(2, "B", 3), score(3, "A", 3),
             line(4, "dispute", by="B", on=1, claim="x"), line(5, "dispute", by="A", on=2, claim="y"),
             line(6, "ruling", by="j", dispute=4, decision="upheld", text="そのまま"),
             line(7, "ruling", by="j", dispute=5, decision="overturned", text="1点",
                  replace=[{"type": "score", "by": "B", "points": 1}]),
             line(8, "dispute", by="B", on=3, claim="z"),
             line(9, "ruling", by="j", dispute=8, decision="overturned", text="無効")]
    ruled = Replay(HEADER, lines, "ruled")
    assert scores(ruled) == {"A": 3, "B": 1}
    assert effective_moves(lines, "ruled")[:3] == [[lines[0]], [{"type": "score", "by": "B", "points": 1, "seq": 2}], []]
    assert scores(Replay(HEADER, lines, "recorded")) == {"A": 6, "B": 3}


def test_a_ruling_on_a_line_that_is_not_a_dispute_changes_nothing():
    lines = [score(1, "A", 3), line(2, "annotate", by="c", on=1, text="x"),
             line(3, "ruling", by="j", dispute=2, decision="overturned", text="t", replace=[]),
             line(4, "ruling", by="j", dispute=99, decision="overturned", text="t", replace=[])]
    assert scores(Replay(HEADER, lines, "ruled")) == {"A": 3, "B": 0}


def test_rewind_voids_the_moves_between_the_ruled_move_and_the_ruling_only():
    lines = [score(1, "A", 1), score(2, "B", 1), score(3, "A", 1), line(4, "dispute", by="B", on=1, claim="x"),
             line(5, "ruling", by="j", dispute=4, decision="overturned", rewind=True, text="t",
                  replace=[{"type": "score", "by": "A", "points": 2}]),
             score(6, "B", 3)]
    moves = effective_moves(lines, "ruled")
    assert moves[0] == [{"type": "score", "by": "A", "points": 2, "seq": 1}]
    assert moves[1] == [] and moves[2] == []  # voided
    assert moves[5] == [lines[5]]  # recorded after the ruling: kept
    assert scores(Replay(HEADER, lines, "ruled")) == {"A": 2, "B": 3}


def test_a_replacement_for_a_step_out_of_range_is_ignored():
    lines = [score(1, "A", 1), line(2, "correct", by="記録", on=5, text="t", replace=[]),
             line(3, "correct", by="記録", on=0, text="t", replace=[])]
    assert effective_moves(lines, "ruled") == [[lines[0]], [], []]


def test_the_last_step_can_be_replaced():
    lines = [score(1, "A", 1), line(2, "correct", by="記録", on=1, text="t",
                                   replace=[{"type": "score", "by": "A", "points": 3}])]
    assert scores(Replay(HEADER, lines, "ruled")) == {"A": 3, "B": 0}


# -- seeking -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [[130, 0, 130], [130, 10, 130], [60, 130, 5, 130], [49, 50, 51, 100, 0, 130]])
def test_violations_are_found_once_however_the_match_is_sought(path):
    moves = [line(i, "pass", by="A") for i in range(1, 131)]  # A every time: TOY-1 on every second move
    want = [(v.seq, v.rule) for v in Replay(HEADER, moves).violations()]
    assert len(want) == 65
    rep = Replay(HEADER, moves)
    for step in path:
        rep.board(step)
        assert rules(rep, step) == [w for w in want if w[0] <= step]
    assert rules(rep) == want


def test_checkpoints_make_any_step_equal_the_sequential_fold():
    moves = alternating(19)
    rep = Replay(HEADER, moves)
    sequential = [rep.board_json(s) for s in range(20)]
    jumping = Replay(HEADER, moves)
    for s in [19, 0, 18, 3, 19, 10, 1]:
        assert jumping.board_json(s) == sequential[s]
    long = alternating(19) + [line(i, "annotate", by="c", on=1, text="x") for i in range(20, 161)]
    a, b = Replay(HEADER, long), Replay(HEADER, long)
    assert [a.board(s) for s in (160, 49, 50, 51, 99, 100, 101, 150, 0)] == \
        [b.board(s) for s in (160, 49, 50, 51, 99, 100, 101, 150, 0)]
    assert sorted(a._checkpoints) == [0, 50, 100, 150]  # one checkpoint every 50 steps


def test_steps_out_of_range_and_checks_off():
    rep = Replay(HEADER, [score(1, "A", 1)])
    with pytest.raises(IndexError, match=r"step 2 is out of range 0\.\.1"):
        rep.board(2)
    with pytest.raises(IndexError, match=r"step -1 is out of range 0\.\.1"):
        rep.board(-1)
    quiet = Replay(HEADER, [score(1, "B", 9)], checks=False)
    assert quiet.ruleset.board_json(quiet.board(1))["players"]["B"] == {"score": 9}
    assert quiet.result() is None
    with pytest.raises(ValueError, match="without rule checks"):
        quiet.violations()
    with pytest.raises(ValueError, match="view must be one of ruled, recorded"):
        Replay(HEADER, [], "sideways")


def test_board_json_names_the_step_the_view_and_the_result():
    rep = Replay(HEADER, [score(1, "A", 2), score(2, "A", 5)], "recorded")
    out = rep.board_json(2)
    assert out["game"] == "toy" and out["step"] == 2 and out["view"] == "recorded" and out["result"] is None
    assert out["violations"] == [{"seq": 2, "rule": "TOY-1", "message": "not A's turn",
                                  "suggest": [{"type": "pass", "by": "B"}]},
                                 {"seq": 2, "rule": "TOY-2", "message": "points must be 1-3", "expected": {"max": 3}}]
    assert rep.board_json(1)["violations"] == [] and rep.board_json(0)["step"] == 0


# -- --as-of ---------------------------------------------------------------------------------------


def test_as_of_includes_a_line_recorded_at_exactly_that_moment():
    t = datetime(2026, 11, 29, 10, 0, 0, tzinfo=UTC)
    lines = [score(1, "A", 1),  # imported, no time: counts as already recorded
             dict(score(2, "B", 1), at="2026-11-29T10:00:00Z"),
             dict(score(3, "A", 1), at="2026-11-29T10:00:00.000001Z"),
             score(4, "B", 1)]
    assert [e["seq"] for e in as_of(lines, t)] == [1, 2]
    assert [e["seq"] for e in as_of(lines, t - timedelta(microseconds=1))] == [1]
    assert [e["seq"] for e in as_of(lines, t + timedelta(microseconds=1))] == [1, 2, 3, 4]


def test_as_of_reads_times_in_any_zone_and_naive_times_as_utc():
    t = datetime(2026, 11, 29, 10, 0, 0, tzinfo=UTC)
    jst = timezone(timedelta(hours=9))
    lines = [dict(score(1, "A", 1), at="2026-11-29T19:00:00+09:00"), dict(score(2, "B", 1), at="2026-11-29T10:00:01")]
    assert [e["seq"] for e in as_of(lines, t)] == [1]
    assert [e["seq"] for e in as_of(lines, datetime(2026, 11, 29, 19, 0, 1, tzinfo=jst))] == [1, 2]
    assert replay_module._parse_time("2026-11-29T10:00:00").tzinfo is UTC


# -- results decided by the table or the judges --------------------------------------------------------


@pytest.mark.parametrize("lines, header, want", [
    ([line(1, "concede", by="A")], HEADER, {"winner": "B", "reason": "concession"}),
    ([line(1, "concede", by="A")], THREE, {"winner": None, "reason": "concession"}),
    ([line(1, "penalty", by="j", player="B", infraction="x", penalty="game-loss")], HEADER,
     {"winner": "A", "reason": "penalty-game-loss"}),
    ([line(1, "penalty", by="j", player="A", infraction="x", penalty="match-loss")], HEADER,
     {"winner": "B", "reason": "penalty-match-loss"}),
    ([line(1, "penalty", by="j", player="A", infraction="x", penalty="disqualification")], HEADER,
     {"winner": "B", "reason": "penalty-disqualification"}),
    ([line(1, "penalty", by="j", player="A", infraction="x", penalty="warning")], HEADER, None),
    ([line(1, "result", by="j", winner="B", reason="time")], HEADER, {"winner": "B", "reason": "time"}),
    ([line(1, "result", by="j", winner=None)], HEADER, {"winner": None, "reason": "declared"}),
    ([line(1, "result", by="j", winner="A", reason="time"), line(2, "result", by="j", winner="B", reason="appeal")],
     HEADER, {"winner": "B", "reason": "appeal"}),
])
def test_results_the_rules_do_not_decide(lines, header, want):
    got = Replay(header, lines).result()
    assert (got.to_json() if got else None) == want
    assert Replay(header, lines).result(0) is None


# -- what a live page and the board JSON show ----------------------------------------------------


def test_an_upheld_ruling_that_arrives_live_changes_no_board():
    base = [score(1, "A", 3), line(2, "dispute", by="B", on=1, claim="x")]
    live = Replay(HEADER, base)
    before = [live.board_json(s) for s in range(3)]
    live.extend([line(3, "ruling", by="j", dispute=2, decision="upheld", text="そのまま")])
    assert [live.board_json(s) for s in range(3)] == before and live.steps == 3


def test_a_concession_or_penalty_that_arrives_live_decides_the_match():
    live = Replay(HEADER, [score(1, "A", 1)])
    live.extend([line(2, "concede", by="B")])
    assert live.board_json()["result"] == {"winner": "A", "reason": "concession"}
    live = Replay(HEADER, [score(1, "A", 1)])
    live.extend([line(2, "penalty", by="j", player="A", infraction="x", penalty="game-loss")])
    assert live.board_json()["result"] == {"winner": "B", "reason": "penalty-game-loss"}


def test_a_correction_of_a_checkpoint_step_refolds_that_step():
    moves = alternating(19) + [line(i, "pass", by="AB"[(i - 1) % 2]) for i in range(20, 61)]
    live = Replay(HEADER, moves)
    live.board(60)  # a checkpoint at 50 now holds the board after step 50
    fix = line(61, "correct", by="記録", on=50, text="t", replace=[{"type": "score", "by": "B", "points": 3}])
    live.extend([fix])
    fresh = Replay(HEADER, [*moves, fix])
    assert live.board_json(50) == fresh.board_json(50) and live.board_json(60) == fresh.board_json(60)
    assert scores(live, 50)["B"] == scores(live, 49)["B"] + 3


def test_the_board_json_and_frames_carry_the_result_of_their_step():
    lines = [score(1, "A", 1), line(2, "concede", by="A"), line(3, "annotate", by="c", on=2, text="投了")]
    rep = Replay(HEADER, lines)
    assert [rep.board_json(s)["result"] for s in range(4)] == [
        None, None, {"winner": "B", "reason": "concession"}, {"winner": "B", "reason": "concession"}]
    frames = list(rep.frames())
    assert [f.step for f in frames] == [0, 1, 2, 3]
    assert [f.result.to_json() if f.result else None for f in frames][1:3] == [None, {"winner": "B",
                                                                                     "reason": "concession"}]
    assert frames[1].board == rep.board(1) and frames[3].violations == rep.violations(3)
    won = Replay(HEADER, [score(i, "AB"[(i - 1) % 2], 3) for i in range(1, 8)])
    assert won.board_json(6)["result"] is None
    assert won.board_json(7)["result"] == {"winner": "A", "reason": "target"}


def test_a_move_after_the_result_says_so():
    won = [score(i, "AB"[(i - 1) % 2], 3) for i in range(1, 8)] + [score(8, "B", 1)]
    (v,) = Replay(HEADER, won).violations()
    assert v.to_json() == {"seq": 8, "rule": "KIFU-2", "message": "move recorded after the match was decided"}


def test_checks_off_says_why_violations_are_missing():
    quiet = Replay(HEADER, [score(1, "A", 1)], checks=False)
    with pytest.raises(ValueError, match=r"^this replay folds without rule checks \(checks=False\)$"):
        quiet.violations()


def test_a_fork_seeks_anywhere_and_keeps_the_results_it_was_given():
    original = Replay(HEADER, [*alternating(19), line(20, "concede", by="B")] + [
        line(i, "annotate", by="c", on=1, text="x") for i in range(21, 80)])
    original.board(79)
    what_if = original.fork()
    assert what_if.board(3) == original.board(3) and what_if.board(60) == original.board(60)
    assert what_if.result().to_json() == {"winner": "A", "reason": "concession"}
    what_if.extend([line(80, "result", by="j", winner="B", reason="appeal")])
    assert what_if.result().winner == "B" and original.result().winner == "A"


def test_rulings_and_corrections_apply_in_the_order_they_were_recorded():
    # a correction of move 3, then a ruling (recorded later) that rewinds from move 1: move 3 stays voided
    lines = [score(1, "A", 1), score(2, "B", 1), score(3, "A", 1),
             line(4, "correct", by="記録", on=3, text="t", replace=[{"type": "score", "by": "A", "points": 3}]),
             line(5, "dispute", by="B", on=1, claim="x"),
             line(6, "ruling", by="j", dispute=5, decision="overturned", rewind=True, text="t",
                  replace=[{"type": "score", "by": "A", "points": 2}])]
    assert effective_moves(lines, "ruled")[:3] == [[{"type": "score", "by": "A", "points": 2, "seq": 1}], [], []]
    # a correction and then a ruling on the same move: the ruling, recorded last, wins
    lines = [score(1, "A", 1), line(2, "correct", by="記録", on=1, text="t", replace=[{"type": "score", "by": "A",
                                                                                       "points": 3}]),
             line(3, "dispute", by="B", on=1, claim="x"),
             line(4, "ruling", by="j", dispute=3, decision="overturned", text="t", replace=[])]
    assert effective_moves(lines, "ruled")[0] == []


def test_a_bad_reference_does_not_stop_the_later_corrections():
    lines = [score(1, "A", 1), score(2, "B", 1), line(3, "correct", by="記録", on=7, text="t", replace=[]),
             line(4, "correct", by="記録", on=2, text="t", replace=[])]
    assert effective_moves(lines, "ruled") == [[lines[0]], [], [], []]


def test_a_replay_keeps_its_header():
    assert Replay(HEADER, []).header["match"]["id"] == "v"


@pytest.mark.parametrize("cursor", ["missing", None, "past the end"])
def test_restoring_a_saved_state_without_a_usable_cursor_gives_the_same_boards(cursor):
    """A board-snapshot file from an older kifu (no cursor) or from a longer record."""
    moves = alternating(19)
    saved = Replay(HEADER, moves)
    saved.board(19)
    state = saved.snapshot_state()
    if cursor == "missing":
        del state["cursor"]
    elif cursor is None:
        state["cursor"] = None
    else:
        state["cursor"] = (25, saved.board(19))
    other = Replay(HEADER, moves)
    other.restore_state(state)
    fresh = Replay(HEADER, moves)
    assert [other.board_json(s) for s in range(19, -1, -1)] == [fresh.board_json(s) for s in range(19, -1, -1)]
