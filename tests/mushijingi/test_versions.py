"""mushijingi/2 is the rules after the fidelity fixes (issue 17); a match pinned to
mushijingi/1 replays with the defaults it was recorded under (DESIGN: old matches replay as
recorded): an effect drawing from an empty deck drew nothing, effects came from cards in play."""

from __future__ import annotations

from projections import registry
from projections.base import Result
from projections.mushijingi import RULESETS
from projections.mushijingi.header import HOUSE_RULES, HOUSE_RULES_V1, HOUSE_RULES_V2
from projections.replay import Replay
from recorder import logformat
from tests.mushijingi.helpers import header, read_example

# turn 1: A sets up and passes; turn 2: B draws, then A's deck runs dry and a 羽化 is recorded
# as making A draw (the effect, as a scorekeeper logged it under mushijingi/1)
MOVES = [
    {"type": "setup", "by": "A"},
    {"type": "setup", "by": "B"},
    {"type": "end_turn", "by": "A"},
    {"type": "draw", "by": "B"},
    {"type": "effect", "by": "B", "card": "樹液の罠", "player": "A", "draw": 11},
    {"type": "end_turn", "by": "B"},
]


def pinned(version: int) -> dict:  # type: ignore[type-arg]
    return dict(header(), rules=f"mushijingi/{version}")


def numbered() -> list[dict]:  # type: ignore[type-arg]
    return [{"seq": i, **m} for i, m in enumerate(MOVES, 1)]


def test_versions_in_the_registry():
    assert registry.get("mushijingi") is RULESETS[3] and registry.get("mj/2") is RULESETS[2]
    assert registry.get("mushijingi/1") is RULESETS[1]
    assert RULESETS[1].house_rules == HOUSE_RULES_V1 and RULESETS[2].house_rules == HOUSE_RULES_V2
    assert RULESETS[3].house_rules == HOUSE_RULES
    changed = {k for k in HOUSE_RULES_V2 if HOUSE_RULES_V2[k] != HOUSE_RULES_V1[k]}
    assert changed == {"effect_draw_deck_out", "effect_source_in_play"}
    # a new match gets the newest rules
    fresh = {k: v for k, v in header().items() if k != "rules"}
    assert logformat.normalise_header(fresh)["rules"] == "mushijingi/3"


def test_a_version_1_match_replays_as_recorded():
    replay = Replay(pinned(1), numbered())
    assert replay.ruleset is RULESETS[1]
    a = replay.board_json(5)["players"]["A"]
    assert a["deck"] == 0 and a["hand_count"] == 4 + 10  # the 11th draw drew nothing
    assert replay.result() is None
    # the effect's source 樹液の罠 was never played: flagged under the old reading
    assert [v.rule for v in replay.frame(5).violations if v.seq == 5] == ["MJ-6.6"]


def test_the_same_moves_under_version_2_end_at_the_empty_deck():
    replay = Replay(pinned(2), numbered())
    assert replay.ruleset is RULESETS[2]
    a = replay.board_json(5)["players"]["A"]
    assert a["deck"] == 0 and a["hand_count"] == 4 + 10  # the 11th draw ends the match
    assert replay.result() == Result(None, "deck-out-tie")  # 6 territory each
    assert [v.rule for v in replay.frame(5).violations if v.seq == 5] == []
    # the turn end after it comes after the result
    assert [v.rule for v in replay.frame(6).violations if v.seq == 6] != []


def test_the_examples_are_pinned_to_version_2_and_check_clean():
    for name in ("mushijingi-example.jsonl", "mushijingi-deckout.jsonl", "mushijingi-disputed.jsonl"):
        head, entries = read_example(name)
        assert head["rules"] == "mushijingi/2"
        replay = Replay(head, entries)
        assert all(not replay.frame(s).violations for s in range(replay.steps + 1)), name
