"""The worked examples replay cleanly and show the expected boards and results."""

from __future__ import annotations

import json

from projections.base import META_TYPES
from projections.gurren_lagann import RULESET as R

from .helpers import EXAMPLES, board_at, load_example


def _clean(name: str) -> tuple[dict, list[dict]]:
    hdr, events = load_example(name)
    assert R.validate_header(hdr) == []
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    board = R.initial_board(hdr)
    for e in events:
        if e["type"] in META_TYPES:
            continue
        assert R.validate_move(e) == []
        assert R.check(board, e) == [], e
        board = R.apply(board, e)
    return hdr, events


def _find(events: list[dict], **fields: object) -> int:
    return next(e["seq"] for e in events if all(e.get(k) == v for k, v in fields.items()))


def test_example_is_clean_and_won_by_damage():
    hdr, events = _clean("gurren-lagann-example.jsonl")
    final = board_at(hdr, events, len(events))
    assert R.result(final).to_json() == {"winner": "A", "reason": "damage"}
    j = R.board_json(final)
    assert j["players"]["B"]["damage"] == 5 and j["players"]["A"]["damage"] == 3
    assert any(e["type"] == "annotate" for e in events)


def test_example_first_turn_and_hidden_hand():
    hdr, events = load_example("gurren-lagann-example.jsonl")
    b = board_at(hdr, events, _find(events, type="end_turn", by="A"))
    j = R.board_json(b)
    assert j["players"]["A"]["hand"] == [
        "カミナ",
        "ドリル一閃",
        "グレンブーメラン",
        "ダヤッカイザー",
    ]
    assert j["players"]["A"]["stock"] == [
        "ギガドリル",
        "グレンブーメラン",
        "グレンラガン",
        "ダヤッカイザー",
    ]
    assert j["players"]["B"]["hand"] == [None] * 6 and j["players"]["B"]["deck"] == 24
    squares = {s["square"]: s for s in j["field"]["squares"]}
    assert [f["figure"] for f in squares["b1"]["figures"]] == ["ラガン"]
    assert squares["d1"]["owner"] == "A" and squares["d1"]["figures"][0]["acted"] is True
    assert squares["c1"]["zone"] == "hq" and squares["c1"]["zone_owner"] == "A"
    assert j["active"] == "B" and j["turn"] == 2


def test_example_combine_and_battle():
    hdr, events = load_example("gurren-lagann-example.jsonl")
    combine = _find(events, type="effect", card="グレンラガン")
    b = board_at(hdr, events, combine)
    j = R.board_json(b)
    c2 = next(s for s in j["field"]["squares"] if s["square"] == "c2")
    assert [f["figure"] for f in c2["figures"]] == ["グレンラガン"]
    assert "ラガン" in j["players"]["A"]["stock"] and "グレン" in j["players"]["A"]["stock"]
    assert {"カミナ", "グレンブーメラン", "ラガン", "グレン"} <= set(j["players"]["A"]["discard"])
    battle = _find(events, type="battle", attack=10)
    before = board_at(hdr, events, battle - 1)
    assert before.battle is not None and before.battle.square == "d3"
    assert before.battle.attack_bonus == 1 and before.battle.defend_bonus == 2
    after = R.board_json(board_at(hdr, events, battle))
    d3 = next(s for s in after["field"]["squares"] if s["square"] == "d3")
    assert [f["figure"] for f in d3["figures"]] == ["グレンラガン"]
    assert "エンキ" in after["players"]["B"]["stock"]
    assert {"エンキ", "ヴィラル"} <= set(after["players"]["B"]["discard"])
    # the defender's 【戦闘】 skill stays in B's skill zone until B's next turn starts
    assert after["players"]["B"]["skill_zone"] == [{"card": "獣人の誇り", "set": False}]
    turn_over = next(e["seq"] for e in events if e["seq"] > battle and e["type"] == "end_turn")
    b_turn = R.board_json(board_at(hdr, events, turn_over))
    assert b_turn["active"] == "B" and b_turn["players"]["B"]["skill_zone"] == []
    assert "獣人の誇り" in b_turn["players"]["B"]["discard"]


def test_example_set_card_is_discarded_at_its_owners_turn_end():
    hdr, events = load_example("gurren-lagann-example.jsonl")
    setting = _find(events, type="skill", by="B", set=True)
    b = R.board_json(board_at(hdr, events, setting))
    assert b["players"]["B"]["skill_zone"] == [{"card": None, "set": True}]
    after = R.board_json(board_at(hdr, events, setting + 2))  # the annotation, then B's end_turn
    assert after["players"]["B"]["skill_zone"] == [] and after["players"]["B"]["discard"][-1] is None


def test_example_invasion_damage_steps():
    hdr, events = load_example("gurren-lagann-example.jsonl")

    def damage(step):
        return R.board_json(board_at(hdr, events, step))["players"]["B"]["damage"]

    hq = _find(events, type="move", path=["d6", "c6"])
    assert damage(hq - 1) == 1 and damage(hq) == 3  # into the 本陣: 2
    inside = _find(events, type="move", path=["c6", "b6"])
    assert damage(inside) == 3  # within the zone: entering nothing
    again = _find(events, type="move", path=["b6", "c6"])
    assert damage(again) == 5


def test_deckout_example():
    hdr, events = _clean("gurren-lagann-deckout.jsonl")
    final = board_at(hdr, events, len(events))
    assert R.result(final).to_json() == {"winner": "A", "reason": "deck-out"}
    j = R.board_json(final)
    assert j["players"]["B"]["deck"] == 0 and j["players"]["A"]["deck"] == 1
    assert j["players"]["B"]["damage"] == 1 and j["players"]["A"]["damage"] == 0
    assert j["players"]["B"]["hand_count"] == 7  # the game ended before B's turn end
    assert j["players"]["A"]["hand"][:5] == ["グレン", "シモン", "ドリル一閃", "カミナ", "ヨーコ"]
    assert R.result(board_at(hdr, events, len(events) - 2)) is None


def test_examples_are_unescaped_json_lines():
    for name in ("gurren-lagann-example.jsonl", "gurren-lagann-deckout.jsonl", "gurren-lagann-disputed.jsonl"):
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        assert "\\u" not in text
        for line in text.splitlines():
            json.loads(line)
