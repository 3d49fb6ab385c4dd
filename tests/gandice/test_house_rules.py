"""Each house-rule option (points the seed leaves open) changes behaviour as documented."""

from __future__ import annotations

from tests.gandice.helpers import R, header, rules, run, state, summons

MIXED = {"ギダン": "special", "爪牙": "normal", "美雅羅": "side"}


def test_summon_table_options():
    got = {}
    for table in ("special-full", "normal-full", "faces-full"):
        board, v = run(summons(MIXED), header(house={"summon_table": table}))
        assert v == []
        got[table] = (
            state(board, "A", "ギダン"),
            state(board, "A", "爪牙"),
            state(board, "A", "美雅羅"),
        )
    assert got["special-full"] == ("summoned", "half", "unsummoned")
    assert got["normal-full"] == ("half", "summoned", "unsummoned")
    assert got["faces-full"] == ("summoned", "summoned", "unsummoned")


def test_stand_summons_all_options():
    rolls = {"ギダン": "handstand", "爪牙": "normal", "美雅羅": "side"}
    board, _ = run(summons(rolls), header(house={"stand_summons_all": "stand-or-handstand"}))
    assert state(board, "A", "美雅羅") == "summoned"
    board, _ = run(summons({**rolls, "ギダン": "stand"}), header(house={"stand_summons_all": "off"}))
    assert state(board, "A", "美雅羅") == "unsummoned" and state(board, "A", "ギダン") == "summoned"


def test_zenkai_on_resummon_option():
    upright = {
        "type": "resummon",
        "by": "A",
        "rolls": {"ギダン": "stand", "爪牙": "stand", "美雅羅": "handstand"},
    }
    board, _ = run(summons() + [upright])
    assert board.winner == "A" and board.reason == "zenkai_summon"
    board, _ = run(summons() + [upright], header(house={"zenkai_on_resummon": False}))
    assert board.winner is None and board.active == "B"


def test_attack_permission_options():
    moves = summons({"ギダン": "side", "爪牙": "special", "美雅羅": "normal"})
    half = {"type": "attack", "by": "A", "die": "美雅羅", "target": "イスルギ", "face": "special"}
    _, v = run(moves + [half], header(house={"half_summoned_may_attack": False}))
    assert rules(v) == ["GD-3.4"]
    unsummoned = {**half, "die": "ギダン"}
    _, v = run(moves + [unsummoned], header(house={"unsummoned_may_attack": True}))
    assert v == []


def test_unknown_or_bad_house_rule_is_a_header_error():
    errors = R.validate_header(header(house={"no_such_rule": True, "summon_table": "whatever"}))
    assert {e.field for e in errors} == {
        "match.house_rules.no_such_rule",
        "match.house_rules.summon_table",
    }
    assert R.validate_header(header(house={"zenkai_on_resummon": False})) == []
