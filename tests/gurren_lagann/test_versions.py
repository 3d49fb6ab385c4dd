"""gurren-lagann/1 keeps the defaults its matches were recorded under (docs/rules/gurren-lagann.md,
Versions): the shipped example as recorded before the rules-fidelity fixes replays as it did."""

from __future__ import annotations

import json
from pathlib import Path

from projections import registry
from projections.base import META_TYPES
from projections.gurren_lagann import RULESET, RULESET_V1, RULESET_V2
from projections.gurren_lagann.header import HOUSE_RULES, HOUSE_RULES_V1

from .helpers import rules_of

OLD = Path(__file__).resolve().parent / "data" / "gurren-lagann-1-example.jsonl"


def _replay(ruleset, path=OLD):
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    header, events = rows[0], rows[1:]
    board, found, damage = ruleset.initial_board(header), [], []
    for e in events:
        if e["type"] in META_TYPES:
            continue
        found += ruleset.check(board, e)
        board = ruleset.apply(board, e)
        damage.append(board.sides[1].damage)
    return header, board, found, damage


def test_the_registry_finds_each_version():
    assert registry.get("gurren-lagann/1") is RULESET_V1
    assert registry.get("gurren-lagann/3") is RULESET and registry.get("gurren-lagann") is RULESET
    # gurren-lagann/2 differs from /3 only in KIFU-3's default (docs/rules/core.md)
    assert registry.get("gurren-lagann/2") is RULESET_V2 and RULESET_V2.house_rules == HOUSE_RULES
    assert (RULESET_V2.flagged_results, RULESET.flagged_results) == ("stand", "pending")
    assert RULESET_V1.house_rules == HOUSE_RULES_V1 and RULESET.house_rules == HOUSE_RULES
    assert {k for k in HOUSE_RULES if HOUSE_RULES[k] != HOUSE_RULES_V1[k]} == {
        "traps_survive_turn_end",
        "invasion_on_entry",
    }


def test_a_version_1_match_replays_as_recorded():
    header, board, found, damage = _replay(RULESET_V1)
    assert header["rules"] == "gurren-lagann/1" and registry.for_header(header) is RULESET_V1
    assert found == []
    assert RULESET_V1.result(board).to_json() == {"winner": "A", "reason": "damage"}
    assert board.sides[1].damage == 6  # c6→b6 inside B's zone dealt 1 under version 1
    assert damage.count(4) and 5 not in damage  # 3 → 4 (c6→b6) → 6 (b6→c6)


def test_the_same_log_under_version_2_is_flagged_where_the_rules_changed():
    _, board, found, damage = _replay(RULESET)
    # B's 待ち伏せ was set in B's turn and sprung in A's: the turn end discarded it (GL-3.6)
    assert rules_of(found) == ["GL-8.5"]
    assert board.sides[1].damage == 5 and 4 not in damage  # c6→b6 entered nothing
    assert RULESET.result(board).to_json() == {"winner": "A", "reason": "damage"}


def test_a_house_rule_in_the_header_beats_the_version_default():
    rows = [json.loads(line) for line in OLD.read_text(encoding="utf-8").splitlines() if line.strip()]
    header = {**rows[0], "match": {**rows[0]["match"], "house_rules": {"invasion_on_entry": True}}}
    assert RULESET_V1.validate_header(header) == []
    board = RULESET_V1.initial_board(header)
    assert board.opt("invasion_on_entry") is True and board.opt("traps_survive_turn_end") is True
