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
from projections.variants_war.header import HOUSE_RULES, HOUSE_RULES_V1, HOUSE_RULES_V2
from tests.variants_war.helpers import load_example

OLD = Path(__file__).parent / "data" / "variants-war-1-example.jsonl"


def old_match() -> tuple[dict, list[dict]]:  # type: ignore[type-arg]
    lines = OLD.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]


def test_versions_in_the_registry() -> None:
    assert registry.get("variants-war") is RULESETS[3] and registry.get("vw/3") is RULESETS[3]
    assert registry.get("variants-war/2") is RULESETS[2] and registry.get("variants-war/1") is RULESETS[1]
    assert RULESETS[1].house_rules == HOUSE_RULES_V1 and RULESETS[2].house_rules == HOUSE_RULES_V2
    assert RULESETS[3].house_rules == HOUSE_RULES
    assert {k for k in HOUSE_RULES if HOUSE_RULES[k] != HOUSE_RULES_V2[k]} == {"card_texts"}
    assert {k for k in HOUSE_RULES_V2 if HOUSE_RULES_V2[k] != HOUSE_RULES_V1[k]} == {"main_actions", "arctos_count_from"}
    assert HOUSE_RULES["card_texts"] == "checked" and HOUSE_RULES_V1["card_texts"] == HOUSE_RULES_V2["card_texts"] == "recorded"


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


# --- variants-war/3: the card texts (issue 27) ------------------------------------------------------
GRAND_DUKE_SPECIAL, SHINONOME_EFFECT = 41, 62


def texts_match(rules: str) -> tuple[dict, list[dict]]:  # type: ignore[type-arg]
    """The shipped example (recorded under variants-war/2) with two lines as a scorekeeper may have
    written them before the card texts were checked: グランデューク's gain without its amount and
    duration (the text fixes both), and a coin toss on 東雲's draw (its text tosses none)."""
    head, events = load_example()
    head = {**head, "rules": rules}
    out = []
    for e in events:
        e = json.loads(json.dumps(e))
        if e["seq"] == GRAND_DUKE_SPECIAL:
            gain = e["actions"][1]
            del gain["amount"], gain["until"]
        if e["seq"] == SHINONOME_EFFECT:
            e["actions"].insert(0, {"do": "coin", "result": "heads"})
        out.append(e)
    return head, out


def grand_duke_atk(replay: Replay) -> int:
    return next(m["atk"] for m in replay.board_json(GRAND_DUKE_SPECIAL)["monsters"] if m["square"] == "d3")


def test_the_shipped_example_is_the_same_match_under_version_3() -> None:
    head, events = load_example()
    assert head["rules"] == "variants-war/2"
    old, new = Replay(head, events), Replay({**head, "rules": "variants-war/3"}, events)
    assert old.ruleset is RULESETS[2] and new.ruleset is RULESETS[3]
    for s in range(old.steps + 1):
        assert old.board_json(s) == new.board_json(s) and not old.frame(s).violations and not new.frame(s).violations


def test_a_version_2_match_replays_as_recorded() -> None:
    """No VW-11 finding, and グランデューク's gain folded as the line has it (nothing: +0 this turn)."""
    replay = Replay(*texts_match("variants-war/2"))
    assert replay.ruleset is RULESETS[2]
    assert all(not replay.frame(s).violations for s in range(replay.steps + 1))
    assert grand_duke_atk(replay) == 2500


def test_the_same_lines_under_version_3_follow_the_card_texts() -> None:
    replay = Replay(*texts_match("variants-war/3"))
    found = [(v.seq, v.rule) for s in range(replay.steps + 1) for v in replay.frame(s).violations]
    assert sorted(set(found)) == [(SHINONOME_EFFECT, "VW-11.1")]
    assert grand_duke_atk(replay) == 2500 + 1100 // 2  # half the destroyed monster's ATK, as the example has it


def test_a_version_1_match_shows_no_card_text_finding() -> None:
    head, events = texts_match("variants-war/1")
    replay = Replay(head, events)
    assert replay.ruleset is RULESETS[1]
    assert not any(v.rule.startswith("VW-11.") for s in range(replay.steps + 1) for v in replay.frame(s).violations)
    assert grand_duke_atk(replay) == 2500
