"""KIFU-3 inside the replay: which line decided a match, whether it broke a rule, and how the
fold keeps what it needs to say so (the checking fold's decisions, the board a fold without
checks keeps before its last moves, the checkpoints). Every test compares with a fresh replay
of the whole record, with the checking fold, or with the line a person can point at.

The toy game (tests/toy.py: 10 points win, 1-3 points a move, TOY-1 wrong turn, TOY-2 bad
points) with house option ``flagged_results`` set in the header."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from projections import registry
from projections import replay as replay_module
from projections.base import Pending, Result
from projections.readmodel import match_rows
from projections.replay import AFTER_RESULT, APPLY_FAILED, CHECKPOINT, Replay, flagged_results, upheld_moves
from recorder.tools.synth import generate
from tests.core.test_flagged_results import CASES, again, example, then

PENDING = {"kifu": 1, "game": "toy", "rules": "toy/1",
           "match": {"id": "d", "house_rules": {"flagged_results": "pending"}},
           "players": [{"id": "A", "name": "山田"}, {"id": "B", "name": "佐藤"}], "first": "A"}


def header(option: str | None = "pending") -> dict[str, Any]:
    h = copy.deepcopy(PENDING)
    if option is None:
        del h["match"]["house_rules"]
    else:
        h["match"]["house_rules"]["flagged_results"] = option
    return h


def line(seq: int, type_: str, **fields: Any) -> dict[str, Any]:
    return {"seq": seq, "type": type_, **fields}


def score(seq: int, by: str, points: int) -> dict[str, Any]:
    return line(seq, "score", by=by, points=points)


def note(seq: int, text: str = "メモ") -> dict[str, Any]:
    return line(seq, "annotate", on=max(seq - 1, 1), by="解説", text=text)


def race(bad: bool = True, passes: int = 0, notes: int = 0) -> list[dict[str, Any]]:
    """``notes`` notes, ``passes`` passes in turn (an even number: A's turn after them), then
    A and B score 3 in turn; A's fourth score decides the match (9 -> 10+): 4 points (TOY-2)
    when ``bad``, else 1."""
    assert passes % 2 == 0
    out: list[dict[str, Any]] = [note(i + 1) for i in range(notes)]
    for k in range(passes):
        out.append(line(len(out) + 1, "pass", by="AB"[k % 2]))
    for _ in range(3):
        out.append(score(len(out) + 1, "A", 3))
        out.append(score(len(out) + 1, "B", 3))
    out.append(score(len(out) + 1, "A", 4 if bad else 1))
    return out


def results(rep: Replay) -> list[Result | None]:
    return [rep.result(s) for s in range(rep.steps + 1)]


# -- which line decided, and whether the result waits for a judge ---------------------------------------


def test_a_deciding_line_that_breaks_a_rule_leaves_the_result_pending():
    entries = race()
    seq = len(entries)
    for checks in (True, False):
        rep = Replay(header(), entries, checks=checks)
        assert rep.result() == Result("A", "target", Pending(seq, "TOY-2"))
        assert rep.result(seq - 1) is None
    assert Replay(header(), race(bad=False)).result() == Result("A", "target")
    assert Replay(header(), race(bad=False), checks=False).result() == Result("A", "target")


def test_the_pending_result_names_the_first_rule_the_line_broke():
    entries = race()
    entries[-1]["by"] = "B"  # B's turn is over: TOY-1, and 4 points: TOY-2; B reaches 13
    for checks in (True, False):
        assert Replay(header(), entries, checks=checks).result() == Result("B", "target", Pending(len(entries), "TOY-1"))


@pytest.mark.parametrize("option", ["stand", None])
def test_stand_and_a_ruleset_without_the_option_let_the_flagged_result_stand(option):
    for checks in (True, False):
        rep = Replay(header(option), race(), checks=checks)
        assert rep.result() == Result("A", "target") and rep.result().pending is None


def test_the_option_is_read_from_the_header_then_the_rules_version():
    toy = registry.get("toy")
    assert flagged_results(header("pending"), toy) == "pending"
    assert flagged_results(header("stand"), toy) == "stand"
    assert flagged_results(header(None), toy) == "stand"  # the toy predates the rule
    assert flagged_results(header("maybe"), toy) == "stand"  # not an option: the default
    bare = header(None)
    del bare["match"]
    assert flagged_results(bare, toy) == "stand"
    newest = registry.get("mushijingi")
    assert flagged_results(header(None), newest) == "pending"
    assert flagged_results(header("stand"), newest) == "stand"
    listed = header(None)
    listed["match"]["house_rules"] = ["flagged_results"]  # not a table: the default
    assert flagged_results(listed, newest) == "pending"


def test_the_recorded_view_checks_the_line_as_recorded():
    entries = race()
    assert Replay(header(), entries, "recorded").result() == Result("A", "target", Pending(len(entries), "TOY-2"))
    assert Replay(header(), entries, "recorded", checks=False).result().pending == Pending(len(entries), "TOY-2")


def test_a_result_the_table_declares_is_never_pending():
    entries = then(race(), {"type": "concede", "by": "B"})
    for checks in (True, False):
        assert Replay(header(), entries, checks=checks).result() == Result("A", "concession")


# -- lines after the deciding line ----------------------------------------------------------------------


def test_lines_after_a_pending_result_are_checked_and_after_a_clean_one_are_kifu_2():
    for bad in (True, False):
        entries = then(race(bad), {"type": "score", "by": "A", "points": 1}, {"type": "score", "by": "A", "points": 9})
        n = len(entries)
        rules = [(v.seq, v.rule) for v in Replay(header(), entries).violations() if v.seq > n - 2]
        if bad:  # pending: the lines after it are checked as usual (A again: TOY-1; 9 points: TOY-2)
            assert rules == [(n - 1, "TOY-1"), (n, "TOY-2")]
        else:
            assert rules == [(n - 1, AFTER_RESULT), (n, AFTER_RESULT)]


@pytest.mark.parametrize("passes", [0, 30, 60])
def test_a_fold_without_checks_finds_the_deciding_line_behind_later_lines(passes):
    """Lines after the deciding one (notes, moves, a line that cannot be applied): the board
    kept before the last moves is already decided, so the deciding line is looked for from a
    checkpoint; at every step the result is the checking fold's."""
    entries = then(race(passes=passes), {"type": "annotate", "on": 1, "by": "解説", "text": "x"}, {"type": "score", "by": "B", "points": 2},
                   {"type": "score", "by": "Z", "points": 1}, {"type": "annotate", "on": 1, "by": "解説", "text": "y"})
    checked = Replay(header(), entries)
    want = results(checked)
    assert want[-1] == Result("A", "target", Pending(len(race(passes=passes)), "TOY-2"))
    assert results(Replay(header(), entries, checks=False)) == want
    rep = Replay(header(), entries, checks=False)
    assert rep.result() == want[-1]  # straight to the end first
    assert results(rep) == want
    order = list(range(len(entries) + 1))
    random.Random(passes).shuffle(order)
    rep = Replay(header(), entries, checks=False)
    assert [rep.result(s) for s in order] == [want[s] for s in order]


def test_a_match_decided_again_after_it_was_undone_names_the_last_deciding_line():
    """A's flagged line decides the match, A's next line takes the points back (undecided
    again), and A's line after that decides it again: that last line is the one checked, also
    when a line after it hides it from the board kept before the last moves."""
    entries = race()
    n = len(entries)
    for points, want in ((2, None), (4, Pending(n + 2, "TOY-2"))):
        more = then(entries, {"type": "score", "by": "A", "points": -5}, {"type": "score", "by": "A", "points": points})
        for tail in ([], [{"type": "score", "by": "B", "points": 1}]):
            lines = then(more, *tail)
            checked = Replay(header(), lines)
            assert checked.result() == Result("A", "target", want)
            assert checked.result(n) == Result("A", "target", Pending(n, "TOY-2")) and checked.result(n + 1) is None
            assert results(Replay(header(), lines, checks=False)) == results(checked)
            rep = Replay(header(), lines, checks=False)
            assert rep.result() == Result("A", "target", want)


def test_a_step_of_several_moves_names_the_one_that_decided():
    """A correction replaces one line with two moves: the first decides the match, and it is the
    one whose rules count (the second is after the result); then the other way round."""
    entries = race(bad=False)
    n = len(entries)
    for first, second, want in ((4, 1, Pending(n, "TOY-2")), (1, 4, None)):
        fixed = then(entries, {"type": "correct", "on": n, "replace": [
            {"type": "score", "by": "A", "points": first}, {"type": "score", "by": "A", "points": second}]})
        for checks in (True, False):
            assert Replay(header(), fixed, checks=checks).result() == Result("A", "target", want)
    # the first move cannot be applied (KIFU-1): the second is the one that decides
    fixed = then(entries, {"type": "correct", "on": n, "replace": [
        {"type": "score", "by": "Z", "points": 1}, {"type": "score", "by": "A", "points": 5}]})
    for checks in (True, False):
        assert Replay(header(), fixed, checks=checks).result() == Result("A", "target", Pending(n, "TOY-2"))
    assert [v.rule for v in Replay(header(), fixed).violations() if v.seq == n] == ["TOY-1", APPLY_FAILED, "TOY-2"]


def test_a_match_decided_at_a_checkpoint_and_long_after():
    """The deciding line is the checkpoint's own step, and the match goes on long after it."""
    entries = race(passes=CHECKPOINT - len(race()) - 1, notes=1)
    assert len(entries) == CHECKPOINT
    more = then(entries, *[{"type": "annotate", "on": 1, "by": "解説", "text": str(i)} for i in range(2 * CHECKPOINT)],
                {"type": "score", "by": "B", "points": 1})
    want = results(Replay(header(), more))
    assert want[CHECKPOINT] == Result("A", "target", Pending(CHECKPOINT, "TOY-2"))
    assert want[-1] == want[CHECKPOINT] and want[CHECKPOINT - 1] is None
    assert results(Replay(header(), more, checks=False)) == want
    rep = Replay(header(), more, checks=False)
    assert [rep.result(s) for s in (len(more), CHECKPOINT, CHECKPOINT + 1, 2, len(more) - 1)] == [
        want[len(more)], want[CHECKPOINT], want[CHECKPOINT + 1], want[2], want[len(more) - 1]]


# -- a judge settles it -------------------------------------------------------------------------------


def test_upheld_moves_are_those_whose_final_ruling_upholds():
    entries = [score(1, "A", 3), line(2, "dispute", on=1), line(3, "ruling", dispute=2, decision="upheld"),
               line(4, "dispute", on=1), line(5, "ruling", dispute=4, decision="upheld"),
               line(6, "ruling", dispute=4, decision="overturned"), line(7, "ruling", dispute=1, decision="upheld"),
               line(8, "ruling", dispute=99, decision="upheld")]
    assert upheld_moves(entries, "ruled") == frozenset({1})  # dispute 2 upheld; 4 overturned at last
    assert upheld_moves(entries[:5], "ruled") == frozenset({1})
    assert upheld_moves(entries[:3] + entries[5:6], "ruled") == frozenset({1})
    assert upheld_moves(entries[3:4] + entries[5:6], "ruled") == frozenset()
    assert upheld_moves(entries, "recorded") == frozenset()
    assert upheld_moves([score(1, "A", 3)], "ruled") == frozenset()


def test_an_upheld_ruling_that_arrives_live_settles_the_result_and_flags_what_followed():
    entries = then(race(), {"type": "score", "by": "A", "points": 1})
    n = len(entries)
    for checks in (True, False):
        rep = Replay(header(), entries, checks=checks)
        assert rep.result().pending == Pending(n - 1, "TOY-2")
        if checks:
            assert [v.rule for v in rep.violations() if v.seq == n] == ["TOY-1"]
        added = [line(n + 1, "dispute", on=n - 1, by="B"), line(n + 2, "ruling", dispute=n + 1, decision="upheld")]
        rep.extend(added)
        fresh = Replay(header(), entries + added, checks=checks)
        assert rep.result() == fresh.result() == Result("A", "target")
        assert results(rep) == results(fresh)
        if checks:
            assert [v.rule for v in rep.violations() if v.seq == n] == [AFTER_RESULT]
            assert rep.violations() == fresh.violations()


def test_an_upheld_ruling_on_an_earlier_line_refolds_from_that_line():
    """The ruling upholds a line far before the deciding one: the lines are checked again from
    there, and everything agrees with a fresh replay."""
    entries = then(race(passes=70), {"type": "score", "by": "A", "points": 1})
    n = len(entries)
    rep = Replay(header(), entries)
    rep.violations()
    added = [line(n + 1, "dispute", on=3, by="B"), line(n + 2, "ruling", dispute=n + 1, decision="upheld")]
    rep.extend(added)
    fresh = Replay(header(), entries + added)
    assert rep.violations() == fresh.violations() and results(rep) == results(fresh)
    assert rep.result().pending == Pending(n - 1, "TOY-2")


def test_an_overturned_ruling_that_arrives_live_takes_the_decision_away():
    entries = race()
    n = len(entries)
    for checks in (True, False):
        rep = Replay(header(), entries, checks=checks)
        assert rep.result().pending is not None
        added = [line(n + 1, "dispute", on=n, by="B"),
                 line(n + 2, "ruling", dispute=n + 1, decision="overturned", replace=[{"type": "score", "by": "A", "points": 1}])]
        rep.extend(added)
        assert rep.result() == Result("A", "target") == Replay(header(), entries + added, checks=checks).result()
        rep.extend([line(n + 3, "correct", on=n, replace=[{"type": "score", "by": "A", "points": 0}])])
        assert rep.result() is None


# -- what the fold keeps: forks, snapshots, live lines ------------------------------------------------


def test_a_fork_keeps_its_own_decisions():
    entries = race(bad=False)
    for checks in (True, False):
        rep = Replay(header(), entries[:-1], checks=checks)
        assert rep.result() is None
        fork = rep.fork()
        fork.extend([score(len(entries), "A", 5)])
        assert fork.result().pending == Pending(len(entries), "TOY-2")
        rep.extend([entries[-1]])
        assert rep.result() == Result("A", "target")
        assert fork.result().pending == Pending(len(entries), "TOY-2")


def test_a_fork_after_the_decision_sees_it_and_keeps_it_apart():
    for checks in (True, False):
        rep = Replay(header(), race(), checks=checks)
        want = rep.result()
        fork = rep.fork()
        assert fork.result() == want
        n = rep.steps
        fork.extend([line(n + 1, "dispute", on=n, by="B"), line(n + 2, "ruling", dispute=n + 1, decision="upheld")])
        assert fork.result() == Result("A", "target")
        assert rep.result() == want


def test_live_lines_one_at_a_time_agree_with_a_fresh_replay():
    """A match followed line by line (the read model's and the head's way): after each line the
    result is the fresh replay's, with checks and without."""
    entries = then(race(passes=56), {"type": "annotate", "on": 1, "by": "解説", "text": "x"}, {"type": "score", "by": "B", "points": 1},
                   {"type": "score", "by": "A", "points": 7})
    for checks in (True, False):
        rep = Replay(header(), entries[:1], checks=checks)
        for k in range(2, len(entries) + 1):
            rep.extend([entries[k - 1]])
            assert rep.result() == Replay(header(), entries[:k]).result(), (checks, k)
        if checks:
            assert rep.violations() == Replay(header(), entries).violations()


def test_a_snapshot_carries_the_decisions_and_one_from_before_the_rule_is_not_used():
    entries = then(race(passes=60), {"type": "score", "by": "B", "points": 1})
    rep = Replay(header(), entries)
    want = rep.result()
    state = rep.snapshot_state()
    assert state["decisions"] and state["checked_to"] == len(entries)
    other = Replay(header(), entries)
    other.restore_state(state)
    assert other._checked_to == len(entries) and other._checkpoints == state["checkpoints"]
    assert other._cursor[0] == len(entries)
    assert other.result() == want and other.violations() == rep.violations()
    # without its decisions the state says nothing of KIFU-3: not used, the replay folds anew
    bare = {k: v for k, v in state.items() if k != "decisions"}
    bare["viols"] = []
    fresh = Replay(header(), entries)
    fresh.restore_state(bare)
    assert fresh._checked_to == 0 and fresh.result() == want and fresh.violations() == rep.violations()


def test_a_snapshot_cursor_beyond_the_record_is_not_taken():
    entries = race()
    rep = Replay(header(), entries)
    rep.result()
    state = rep.snapshot_state()
    shorter = Replay(header(), entries[:-1])
    shorter.restore_state(dict(state, checked_to=0, viols=[], viol_steps=[], decisions={}))
    assert shorter._cursor[0] == 0 and shorter.result() is None


def test_a_kept_board_before_the_last_moves_is_dropped_when_those_moves_change(monkeypatch):
    """The board a fold without checks kept before its last moves is forgotten when a correction
    changes a move before it; the result is then the fresh replay's."""
    entries = race(passes=8)
    n = len(entries)
    rep = Replay(header(), entries, checks=False)
    assert rep.result().pending == Pending(n, "TOY-2")
    assert rep._before is not None and rep._before[0] == n - 1
    fix = line(n + 1, "correct", on=n - 1, replace=[{"type": "score", "by": "B", "points": 1}])
    rep.extend([fix])
    assert rep._before is None or rep._before[0] < n - 1
    assert rep.result() == Replay(header(), entries + [fix]).result()


def test_a_fold_without_checks_keeps_no_board_where_no_line_is_looked_for():
    for option in ("stand", None):
        rep = Replay(header(option), race(passes=8), checks=False)
        rep.result()
        assert rep._before is None
    rep = Replay(header(), race(passes=8))
    rep.result()
    assert rep._before is None  # the checking fold knows its decisions as it goes
    rep = Replay(header(), [note(1), note(2)], checks=False)
    assert rep.result() is None and rep._before is None


def test_the_deciding_line_of_a_fold_without_checks_is_checked_once(monkeypatch):
    """Asked again, the result does not check the deciding line again; the one move between the
    kept board and the result is checked, not folded again."""
    toy = registry.get("toy")
    calls = {"check": 0, "apply": 0}
    real_check, real_apply = toy.check, toy.apply

    def check(board, move):
        calls["check"] += 1
        return real_check(board, move)

    def apply(board, move):
        calls["apply"] += 1
        return real_apply(board, move)

    monkeypatch.setattr(toy, "check", check)
    monkeypatch.setattr(toy, "apply", apply)
    entries = race(passes=20)
    rep = Replay(header(), entries, checks=False)
    assert rep.result().pending == Pending(len(entries), "TOY-2")
    assert calls == {"check": 1, "apply": len(entries)}
    assert rep.result().pending == Pending(len(entries), "TOY-2")
    assert calls == {"check": 1, "apply": len(entries)}


# -- the read model's rows: the fold without checks against the checking fold ----------------------------


def _row_pairs(game: str, count: int):
    ruleset = registry.get(game)
    for i in range(count):
        h, entries = generate(ruleset, 7, i)
        yield h, entries


@pytest.mark.parametrize("game", ["gandice", "mushijingi", "gurren-lagann", "variants-war"])
def test_read_model_rows_from_the_fold_without_checks_equal_the_checking_folds(game):
    """The rows a rebuild writes (match_rows, a fold without checks that checks only the
    deciding line) equal the rows from the fold that checks every line, on generated matches
    of the game, on the worked example with its deciding line flagged and clean, with lines
    after it, and pinned to a rules version from before KIFU-3."""
    cases = list(_row_pairs(game, 6))
    for flagged in (True, False):
        h, entries = example(game, flagged=flagged)
        seq = CASES[game][1]
        cases += [(h, entries), (h, then(entries, again(entries, seq))),
                  (h, then(entries, {"type": "annotate", "on": 1, "by": "解説", "text": "メモ"}))]
    h, entries = example(game)
    old = copy.deepcopy(h)
    ruleset = registry.get(game)
    old["rules"] = f"{game}/{min(v for v in range(1, ruleset.version) if _known(game, v))}"
    cases.append((old, entries))
    pending = []
    for h, entries in cases:
        fast = match_rows("m", "s", h, entries)
        slow = match_rows("m", "s", h, entries, rep=Replay(h, entries))
        assert fast == slow
        pending.append('"pending"' in (fast[0]["desk"] or ""))
        assert fast[0]["finished"] == (Replay(h, entries).result() is not None and not pending[-1])
    # the flagged example, with a line after it, a note after it: pending; clean, or under the old version: not
    assert pending[-7:] == [True, True, True, False, False, False, False]


def _known(game: str, version: int) -> bool:
    try:
        registry.get(f"{game}/{version}")
    except Exception:
        return False
    return True


def test_the_ruled_view_without_rulings_is_the_recorded_moves():
    entries = race() + [note(len(race()) + 1)]
    assert replay_module.effective_moves(entries, "ruled") == replay_module.effective_moves(entries, "recorded")


def test_a_snapshot_of_an_earlier_point_restored_into_a_replay_that_folded_further():
    """What the checking fold carried from its last line (decided or not) is not taken for the
    line after the restored point: the lines after it are checked as a fresh replay checks them."""
    entries = then(race(bad=False), {"type": "score", "by": "A", "points": 1})
    n = len(entries)
    rep = Replay(header(), entries)
    rep.violations()  # folded to the end, decided
    earlier = Replay(header(), entries)
    earlier.violations(n - 3)
    rep.restore_state(earlier.snapshot_state())
    assert rep._checked_to == n - 3
    fresh = Replay(header(), entries)
    assert rep.violations() == fresh.violations()
    assert [(v.seq, v.rule) for v in rep.violations() if v.seq >= n - 2] == [(n, AFTER_RESULT)]


def test_a_fold_without_checks_freezes_its_kept_boards_only(monkeypatch):
    """The board before the last moves is the only one kept beside the checkpoints: one freeze
    for it, one per checkpoint, one for the cursor; and the deciding move is checked, not folded
    again (a note after it changes neither)."""
    toy = registry.get("toy")
    calls = {"freeze": 0, "apply": 0}
    real_freeze, real_apply = replay_module.freeze, toy.apply

    def freeze():
        calls["freeze"] += 1
        real_freeze()

    def apply(board, move):
        calls["apply"] += 1
        return real_apply(board, move)

    monkeypatch.setattr(replay_module, "freeze", freeze)
    monkeypatch.setattr(toy, "apply", apply)
    entries = then(race(passes=2 * CHECKPOINT), {"type": "annotate", "on": 1, "by": "解説", "text": "x"})
    rep = Replay(header(), entries, checks=False)
    calls.update(freeze=0)
    assert rep.result().pending == Pending(len(entries) - 1, "TOY-2")
    assert calls == {"freeze": 1 + 2 + 1, "apply": len(entries) - 1}
    assert rep._before is not None and rep._before[0] == len(entries) - 2


class _Working:
    """The toy game folded in place (``apply_working``), whose fold raises half way through a
    move that says ``boom``, after it changed the working board."""

    def __init__(self) -> None:
        self.toy = registry.get("toy")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.toy, name)

    def apply_working(self, board, move):
        from projections.package import evolve

        board = evolve(board, turn=board.turn + 1)
        if move.get("boom"):
            raise RuntimeError("boom")
        done = self.toy.apply(board, move)
        return evolve(board, scores=done.scores, active=done.active, turn=done.turn - 1)

    def apply(self, board, move):
        from projections.package import pure

        return pure(self.apply_working)(board, move)


def test_a_working_fold_that_fails_after_the_decision_keeps_the_decision():
    """A line that cannot be applied comes after a pending result; the stretch is folded again
    purely, and the decision found before it still stands."""
    entries = then(race(), {"type": "score", "by": "B", "points": 1, "boom": True},
                   {"type": "score", "by": "B", "points": 2})
    n = len(race())
    at_once = Replay(header(), entries, ruleset=_Working())
    rep = Replay(header(), entries, ruleset=_Working())
    rep.violations(n)  # checked up to the deciding line, then on past the line that fails
    assert rep.result() == at_once.result() == Result("A", "target", Pending(n, "TOY-2"))
    assert rep.violations() == at_once.violations()
    assert [v.rule for v in rep.violations() if v.seq > n] == [APPLY_FAILED]
    assert rep.board(n + 2) == Replay(header(), entries[:n] + entries[n + 1:]).board(n + 1)


def test_a_checking_fold_asks_whether_the_match_is_decided_once_per_move(monkeypatch):
    """The checking fold carries "decided or not" from one step to the next (across lines
    without moves too): the rules are asked once after each move and once at the first step,
    not again before each step."""
    toy = registry.get("toy")
    calls = {"result": 0}
    real = toy.result

    def result(board):
        calls["result"] += 1
        return real(board)

    monkeypatch.setattr(toy, "result", result)
    entries = race(passes=4)
    entries = then(entries[:5], {"type": "annotate", "on": 1, "by": "解説", "text": "x"}, *[
        {k: v for k, v in e.items() if k != "seq"} for e in entries[5:]], {"type": "score", "by": "B", "points": 1})
    rep = Replay(header(), entries)
    fresh = Replay(header(), entries, checks=False)
    assert rep.persisted == 0  # nothing of it is in the board-snapshot file yet (recorder/service.py)
    calls["result"] = 0
    found = rep.violations()
    moves = len(entries) - 1
    assert calls["result"] == moves + 1
    assert found == Replay(header(), entries).violations()
    assert [(v.seq, v.rule) for v in found if v.seq >= len(entries) - 1] == [(len(entries) - 1, "TOY-2")]
    assert rep.result() == fresh.result() == Result("A", "target", Pending(len(entries) - 1, "TOY-2"))
