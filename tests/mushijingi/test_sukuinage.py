"""MJ-5.9 / house rule ``target_direct_win``: 「すくいなげで直接攻撃をして勝つことはできません」.

mushijingi/3 reads the sentence literally: a direct attack with a technique that must choose an
insect (catalog ``target: true``) is flagged MJ-5.9 and never wins, even at territory 0, so the
match goes on and the next line is not "after the result". mushijingi/1 and /2 folded it as a
winning direct attack; matches pinned to them replay so.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from projections.base import Result
from projections.mushijingi import RULESETS
from projections.mushijingi.header import HOUSE_RULES, HOUSE_RULES_V1, HOUSE_RULES_V2
from projections.replay import AFTER_RESULT, Replay
from tests.mushijingi.helpers import R, header, main_board, one


def atk(attacker: str, technique: str, target: str, by: str = "A") -> dict[str, Any]:
    return {"type": "attack", "by": by, "attacker": attacker, "technique": technique, "target": target}


def at_zero(**house_rules: Any) -> Any:
    """A's main phase with タガメ (A1) and カブトムシ (A2) on the field; B has no insect and no
    territory left."""
    board = main_board(a=["タガメ", "カブトムシ"], **house_rules)
    return replace(board, sides=tuple(replace(s, territory=0) if s.id == "B" else s for s in board.sides))


def test_sukuinage_at_territory_zero_does_not_win():
    board, found = one(at_zero(), atk("A1", "すくいなげ", "player"))
    assert found == ["MJ-5.9"]
    assert R.result(board) is None and board.phase == "main"
    # the match goes on: the next line is an ordinary move, not one after the result
    after = R.check(board, {"seq": 2, **atk("A2", "つのでつく", "player")})
    assert after == []
    board = R.apply(board, {"seq": 2, **atk("A2", "つのでつく", "player")})
    assert R.result(board) == Result("A", "direct-attack")  # the legal direct attack wins


def test_a_legal_technique_at_territory_zero_wins():
    board, found = one(at_zero(), atk("A2", "つのでつく", "player"))
    assert found == [] and R.result(board) == Result("A", "direct-attack")


def test_house_rule_target_direct_win_lets_it_win_as_before():
    board, found = one(at_zero(target_direct_win=True), atk("A1", "すくいなげ", "player"))
    assert found == ["MJ-5.9"] and R.result(board) == Result("A", "direct-attack")


def test_with_territory_left_it_still_takes_a_card_as_before():
    board, found = one(main_board(a=["タガメ"]), atk("A1", "すくいなげ", "player"))
    assert found == ["MJ-5.9"] and board.side("B").territory == 5


def test_versions_keep_what_they_were_recorded_under():
    assert RULESETS[3] is R and R.house_rules == HOUSE_RULES and HOUSE_RULES["target_direct_win"] is False
    assert RULESETS[2].house_rules == HOUSE_RULES_V2 and HOUSE_RULES_V2["target_direct_win"] is True
    assert RULESETS[1].house_rules == HOUSE_RULES_V1 and HOUSE_RULES_V1["target_direct_win"] is True
    assert {k for k in HOUSE_RULES if HOUSE_RULES[k] != HOUSE_RULES_V2[k]} == {"target_direct_win"}
    for version, wins in ((1, True), (2, True), (3, False)):
        board = RULESETS[version].initial_board(dict(header(), rules=f"mushijingi/{version}"))
        assert board.rule("target_direct_win") is wins


def test_a_replay_under_version_3_is_not_decided_and_flags_no_line_after():
    """The whole path through the core: the すくいなげ line is flagged, the match is not
    decided by it, and the next line is checked as a move of a match still going on."""
    lines = _match()
    rep = Replay(dict(header(), rules="mushijingi/3"), lines)
    sukuinage = lines[-2]["seq"]
    assert [v.rule for v in rep.violations() if v.seq == sukuinage] == ["MJ-5.9"]
    assert rep.result(sukuinage) is None
    assert [v.rule for v in rep.violations() if v.seq == sukuinage + 1] == []
    # mushijingi/2 folds it as it was recorded: a win, and the next line after the result
    old = Replay(dict(header(), rules="mushijingi/2"), lines)
    assert old.result(sukuinage) == Result("A", "direct-attack")
    assert [v.rule for v in old.violations() if v.seq == sukuinage + 1] == [AFTER_RESULT]


def _match() -> list[dict[str, Any]]:
    """A plays タガメ and attacks B directly six times over six turns (B never plays an
    insect), taking every territory card; then すくいなげ at territory 0, then end of turn."""
    moves: list[dict[str, Any]] = [
        {"type": "setup", "by": "A", "hand": ["タガメ", None, None, None]},
        {"type": "setup", "by": "B"},
        {"type": "play", "by": "A", "card": "タガメ"},
    ]
    # the feed gives no cost yet: タガメ costs 2, so this is flagged (MJ-3.5) but played
    for turn in range(7):
        if turn:
            moves.append({"type": "draw", "by": "A"})
        if turn < 6:
            moves.append(atk("A1", "かみつく", "player"))
            moves.append({"type": "end_turn", "by": "A"})
            moves.append({"type": "draw", "by": "B"})
            moves.append({"type": "end_turn", "by": "B"})
    moves.append(atk("A1", "すくいなげ", "player"))
    moves.append({"type": "end_turn", "by": "A"})
    return [{"seq": i, **m} for i, m in enumerate(moves, 1)]
