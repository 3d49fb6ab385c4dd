"""KIFU-3: a line that breaks a rule decides nothing by itself (docs/rules/core.md).

On each of the four games, the worked example's deciding line is changed so that it breaks a
rule: the match is then decided only provisionally (``pending``), the lines after it are not
"after the result" (KIFU-2), standings and the read model leave it out, and a judge's ruling
(upheld: the result stands; overturned: the line is voided) or a correction settles it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from exports.desk import event_rows, status_text
from exports.timeline import summary
from projections import registry, standings
from projections.base import Pending, Result
from projections.readmodel import match_rows
from projections.replay import AFTER_RESULT, FLAGGED_DECISION, Replay

ROOT = Path(__file__).resolve().parents[2]

# game -> (example, seq of the line that decides it, change that makes that line break a rule,
#          the rule it then breaks, winner and reason)
CASES: dict[str, tuple[str, int, dict[str, Any], str, str, str]] = {
    "mushijingi": ("mushijingi-example.jsonl", 66, {"technique": "どくばり"}, "MJ-5.3", "A", "direct-attack"),
    "gandice": ("gandice-example.jsonl", 25, {"by": "B"}, "GD-4.4", "B", "all_graveyard"),
    "gurren-lagann": ("gurren-lagann-example.jsonl", 88, {"path": ["c5", "c6"]}, "GL-6.3", "A", "damage"),
    "variants-war": ("variants-war-example.jsonl", 143, {"by": "A"}, "VW-3.2", "B", "life"),
}
GAMES = list(CASES)


def example(game: str, flagged: bool = True, newest: bool = True) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The example up to its deciding line (flagged or as printed), under the newest rules."""
    name, seq, change, *_ = CASES[game]
    lines = (ROOT / "examples" / name).read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    entries = [json.loads(x) for x in lines[1 : seq + 1]]
    if newest:
        header.pop("rules", None)
    if flagged:
        entries[-1].update(change)
    return header, entries


def then(entries: list[dict[str, Any]], *lines: dict[str, Any]) -> list[dict[str, Any]]:
    out = list(entries)
    for line in lines:
        out.append(dict(line, seq=len(out) + 1))
    return out


def again(entries: list[dict[str, Any]], seq: int) -> dict[str, Any]:
    """A game move after the deciding one: the deciding line recorded a second time."""
    line = {k: v for k, v in entries[seq - 1].items() if k != "seq"}
    return line


def dispute(seq: int) -> dict[str, Any]:
    return {"type": "dispute", "on": seq, "by": "B", "claim": "この手は違反"}


def ruling(dispute_seq: int, decision: str, **more: Any) -> dict[str, Any]:
    return {"type": "ruling", "dispute": dispute_seq, "by": "judge", "decision": decision, "text": "裁定", **more}


@pytest.mark.parametrize("game", GAMES)
def test_a_clean_deciding_line_decides(game: str) -> None:
    header, entries = example(game, flagged=False)
    _, seq, _, _, winner, reason = CASES[game]
    rep = Replay(header, entries)
    assert [v for v in rep.violations() if v.seq == seq] == []
    assert rep.result() == Result(winner, reason) and rep.result().pending is None
    assert rep.board_json()["result"] == {"winner": winner, "reason": reason}
    # a move after it is after the result
    more = then(entries, again(entries, seq))
    assert [v.rule for v in Replay(header, more).violations() if v.seq == seq + 1] == [AFTER_RESULT]


@pytest.mark.parametrize("game", GAMES)
def test_a_flagged_deciding_line_leaves_the_match_pending(game: str) -> None:
    header, entries = example(game)
    _, seq, _, rule, winner, reason = CASES[game]
    rep = Replay(header, entries)
    assert rep.result() == Result(winner, reason, Pending(seq, rule))
    assert rep.board_json()["result"] == {"winner": winner, "reason": reason, "pending": {"seq": seq, "rule": rule}}
    assert rep.board_json(seq - 1)["result"] is None
    # the fold of the read model (no checks) finds the same, and does not count it
    assert Replay(header, entries, checks=False).result() == rep.result()
    row, results = match_rows(str(header["match"]["id"]), "s", header, entries)
    assert not row["finished"] and {r["outcome"] for r in results} == {None}
    # nor do the standings
    summ = summary(header, rep)
    assert summ["result"]["pending"] == {"seq": seq, "rule": rule}
    assert standings.Game.from_summary(summ).finished is False
    table = standings.from_summaries(summ["event"], [summ])
    assert table.rows == [] and len(table.pending) == 1


@pytest.mark.parametrize("game", GAMES)
def test_lines_after_a_pending_result_are_not_after_the_result(game: str) -> None:
    header, entries = example(game)
    seq = CASES[game][1]
    more = then(entries, again(entries, seq))
    rep = Replay(header, more)
    after = [v.rule for v in rep.violations() if v.seq == seq + 1]
    assert AFTER_RESULT not in after
    # nor by the game's own rule for it
    own = getattr(rep.ruleset, "after_result_rule", None)
    assert own is not None and own not in after
    # stand: the same line is after the result, in the core's words (the game's are never reached)
    header["match"].setdefault("house_rules", {})["flagged_results"] = "stand"
    assert [v.rule for v in Replay(header, more).violations() if v.seq == seq + 1] == [AFTER_RESULT]


@pytest.mark.parametrize("game", GAMES)
def test_an_upheld_ruling_lets_the_result_stand(game: str) -> None:
    header, entries = example(game)
    _, seq, _, _, winner, reason = CASES[game]
    more = then(entries, again(entries, seq), dispute(seq))
    settled = then(more, ruling(seq + 2, "upheld"))
    rep = Replay(header, settled)
    assert rep.result() == Result(winner, reason)
    # now the match ended at the deciding line: the move after it is after the result
    assert [v.rule for v in rep.violations() if v.seq == seq + 1] == [AFTER_RESULT]
    assert standings.Game.from_summary(summary(header, rep)).finished is True
    # the recorded view ignores rulings: there it is still pending
    assert Replay(header, settled, view="recorded").result().pending == Pending(seq, CASES[game][3])
    # a live replay that receives the ruling settles it the same way, without refolding all
    live = Replay(header, more)
    assert live.result().pending is not None and live.violations()
    live.extend(settled[len(more):])
    assert live.result() == rep.result() and live.violations() == rep.violations()


@pytest.mark.parametrize("game", GAMES)
def test_an_overturned_ruling_voids_the_deciding_line(game: str) -> None:
    header, entries = example(game)
    seq = CASES[game][1]
    rep = Replay(header, then(entries, dispute(seq), ruling(seq + 1, "overturned", replace=[])))
    assert rep.result() is None


@pytest.mark.parametrize("game", GAMES)
def test_a_correction_settles_it(game: str) -> None:
    header, entries = example(game)
    _, clean = example(game, flagged=False)
    _, seq, _, _, winner, reason = CASES[game]
    fixed = {k: v for k, v in clean[seq - 1].items() if k != "seq"}
    rep = Replay(header, then(entries, {"type": "correct", "on": seq, "by": "scorer", "replace": [fixed], "text": "記録ミス"}))
    assert rep.result() == Result(winner, reason)


@pytest.mark.parametrize("game", GAMES)
def test_house_option_stand_lets_a_flagged_result_stand(game: str) -> None:
    header, entries = example(game)
    _, seq, _, rule, winner, reason = CASES[game]
    header = copy.deepcopy(header)
    header["match"].setdefault("house_rules", {})["flagged_results"] = "stand"
    more = then(entries, again(entries, seq))
    rep = Replay(header, more)
    assert rep.result() == Result(winner, reason)
    assert rule in [v.rule for v in rep.violations() if v.seq == seq]
    assert [v.rule for v in rep.violations() if v.seq == seq + 1] == [AFTER_RESULT]


@pytest.mark.parametrize("game", GAMES)
def test_matches_pinned_to_an_older_version_replay_as_recorded(game: str) -> None:
    header, entries = example(game)
    _, seq, _, _, winner, reason = CASES[game]
    newest = registry.get(game)
    assert newest.flagged_results == "pending"
    older = registry.get(game, newest.version - 1)
    assert older.flagged_results == "stand"
    pinned = dict(header, rules=f"{game}/{older.version}")
    rep = Replay(pinned, then(entries, again(entries, seq)))
    assert rep.ruleset is older and rep.result() == Result(winner, reason)
    assert [v.rule for v in rep.violations() if v.seq == seq + 1] == [AFTER_RESULT]


def test_the_rule_id_and_option_are_documented() -> None:
    text = (ROOT / "docs" / "rules" / "core.md").read_text(encoding="utf-8")
    assert FLAGGED_DECISION == "KIFU-3" and "| KIFU-3 |" in text and "`flagged_results`" in text


def test_a_judge_declared_result_is_never_pending() -> None:
    header, entries = example("mushijingi")
    rep = Replay(header, then(entries, {"type": "result", "by": "judge", "winner": "A", "reason": "time"}))
    assert rep.result() == Result("A", "time")


def test_a_board_cache_state_from_before_the_rule_is_not_used() -> None:
    header, entries = example("gandice")
    saved = Replay(header, entries)
    saved.board(saved.steps)
    state = saved.snapshot_state()
    assert state["decisions"]
    old = {k: v for k, v in state.items() if k != "decisions"}
    other = Replay(header, entries)
    other.restore_state(old)  # ignored: folds anew
    assert other.result() == saved.result() and other.result().pending is not None
    fresh = Replay(header, entries)
    fresh.restore_state(state)
    assert fresh.result() == saved.result()


def test_the_desk_lists_a_pending_result_among_the_rulings_to_make() -> None:
    header, entries = example("mushijingi")
    seq, rule = CASES["mushijingi"][1], CASES["mushijingi"][3]
    rep = Replay(header, entries)
    summ = summary(header, rep)
    desk = event_rows(summ["event"], [(rep, summ)])
    row = desk["rounds"][0]["tables"][0]["games"][0]
    assert row["status"] == "pending_ruling" and desk["rounds"][0]["tables"][0]["status"] == "pending_ruling"
    assert "裁定待ち" in status_text(row) and "awaiting a ruling" in status_text(row, "en")
    assert desk["rulings"] == [{"match": summ["id"], "round": summ["round"], "table": summ["table"],
                                "kind": "pending_result", "seq": seq, "rule": rule,
                                "winner": "A", "reason": "direct-attack"}]
    assert desk["counts"]["pending_rulings"] == 1 and desk["standings"] == []
    # upheld: no ruling left to make, the match counts
    settled = then(entries, dispute(seq), ruling(seq + 1, "upheld"))
    rep = Replay(header, settled)
    summ = summary(header, rep)
    desk = event_rows(summ["event"], [(rep, summ)])
    assert desk["rulings"] == [] and desk["rounds"][0]["tables"][0]["games"][0]["status"] == "finished"
    assert len(desk["standings"]) == 2


def test_the_cli_shows_a_result_pending_a_ruling(kifu, tmp_path) -> None:
    from recorder.logformat import export_lines

    header, entries = example("mushijingi")
    seq, rule = CASES["mushijingi"][1], CASES["mushijingi"][3]
    path = tmp_path / "pending.jsonl"
    path.write_text("\n".join(export_lines(header, entries)) + "\n", encoding="utf-8")
    code, _, err = kifu("import", str(path))
    assert code == 0, err
    mid, event = header["match"]["id"], header["match"]["event"]
    code, out, _ = kifu("result", mid)
    assert code == 0 and f"(KIFU-3: #{seq} {rule})" in out
    code, out, _ = kifu("board", mid, "--json")
    assert json.loads(out)["result"]["pending"] == {"seq": seq, "rule": rule}
    code, out, _ = kifu("--lang", "ja", "event", event)
    assert code == 0 and "裁定待ち" in out and "裁定が必要" in out and f"#{seq} {rule}" in out
    code, out, _ = kifu("event", event)  # the suite's language, English
    assert code == 0 and "awaiting a ruling" in out and f"#{seq} {rule}" in out
    code, out, _ = kifu("standings", event, "--json")
    assert json.loads(out)["standings"] == [] and len(json.loads(out)["pending"]) == 1


def test_recording_after_a_pending_result_is_not_after_the_result(kifu, tmp_path) -> None:
    from recorder.logformat import export_lines

    header, entries = example("mushijingi")
    path = tmp_path / "pending.jsonl"
    path.write_text("\n".join(export_lines(header, entries)) + "\n", encoding="utf-8")
    assert kifu("import", str(path))[0] == 0
    mid = header["match"]["id"]
    code, out, err = kifu("record", mid, '{"type": "end_turn", "by": "A"}', "--strict")
    assert code == 0, err  # checked as a move of a match still going on: nothing to refuse
    # settled: a judge upholds the deciding line; the next move is after the result
    seq = CASES["mushijingi"][1]
    assert kifu("record", mid, json.dumps({"type": "dispute", "on": seq, "by": "B", "claim": "違反"}))[0] == 0
    code, out, err = kifu("record", mid, json.dumps(
        {"type": "ruling", "dispute": seq + 2, "by": "judge", "decision": "upheld", "text": "勝ちを認める"}))
    assert code == 0, err
    code, out, err = kifu("record", mid, '{"type": "end_turn", "by": "B"}', "--strict")
    assert code == 1 and "KIFU-2" in err


def test_a_closed_round_does_not_turn_a_result_pending_a_ruling_into_a_draw() -> None:
    header, entries = example("mushijingi")
    summ = summary(header, Replay(header, entries))
    game = standings.Game.from_summary(summ)
    assert game.ruling and not game.finished
    pairing = standings.Pairing(game.round, game.table, game.players, [game])
    assert pairing.settle(closed=True) is False and pairing.counted is None
    # a game merely unfinished at time is a draw when the round closes (MTR Appendix C)
    unfinished = standings.Game.from_summary(dict(summ, result=None))
    assert not unfinished.ruling
    pairing = standings.Pairing(game.round, game.table, game.players, [unfinished])
    assert pairing.settle(closed=True) is True and pairing.counted == [None]
