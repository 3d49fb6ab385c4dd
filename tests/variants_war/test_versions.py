"""variants-war/2 is the rules after the fidelity fixes (issue 17); a match pinned to
variants-war/1 replays with the defaults it was recorded under (DESIGN: old matches replay as
recorded). The fixture is the example match as shipped before the fixes."""

from __future__ import annotations

import json
from pathlib import Path

from projections import registry
from projections.base import META_TYPES
from projections.replay import Replay
from projections.variants_war import RULESETS
from projections.variants_war.header import HOUSE_RULES, HOUSE_RULES_V1

OLD = Path(__file__).parent / "data" / "variants-war-1-example.jsonl"


def old_match() -> tuple[dict, list[dict]]:  # type: ignore[type-arg]
    lines = OLD.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]


def test_versions_in_the_registry() -> None:
    assert registry.get("variants-war") is RULESETS[2] and registry.get("vw/2") is RULESETS[2]
    assert registry.get("variants-war/1") is RULESETS[1]
    assert RULESETS[1].house_rules == HOUSE_RULES_V1 and RULESETS[2].house_rules == HOUSE_RULES
    assert {k for k in HOUSE_RULES if HOUSE_RULES[k] != HOUSE_RULES_V1[k]} == {"main_actions", "arctos_count_from"}


def test_a_version_1_match_replays_as_recorded() -> None:
    head, events = old_match()
    assert head["rules"] == "variants-war/1"
    replay = Replay(head, events)
    assert replay.ruleset is RULESETS[1]
    damages = []
    for e in events:
        if e["type"] == "master":
            arctos = replay.board_json(e["seq"])["arctos"]
            damages.append(arctos["damage"] if arctos else None)
    assert damages == [0, 0, 1800, 3200, 3200, None]  # the lock-on rolls it was recorded with
    assert all(not replay.frame(s).violations for s in range(replay.steps + 1))


def test_the_same_moves_under_version_2_break_the_literal_rules() -> None:
    head, events = old_match()
    rs = RULESETS[2]
    board = rs.initial_board(head)
    found: dict[int, list[str]] = {}
    for e in events:
        if e["type"] in META_TYPES:
            continue
        rules = [v.rule for v in rs.check(board, e)]
        if rules:
            found[e["seq"]] = rules
        board = rs.apply(board, e)
    second_moves = [seq for seq, rules in found.items() if "VW-5.1" in rules]
    assert second_moves == [68, 77, 115, 119, 129]  # two monsters moved in one turn (issue 17.1)
    assert any("VW-7.1" in rules for rules in found.values())  # the lock-on rolls come a turn earlier
