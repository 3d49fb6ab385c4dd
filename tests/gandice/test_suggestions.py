"""The recording page's suggestion of a printed ability (generate.suggestions): 裏切り, once a
special face allows it, offered whole for each die it may take, before the legal moves."""

from __future__ import annotations

import json

from projections import registry
from projections.replay import Replay
from tests.web.conftest import ROOT

LINES = [json.loads(x) for x in (ROOT / "examples" / "gandice-example.jsonl").read_text("utf-8").splitlines() if x]


def test_the_betrayal_of_the_example_is_offered_whole_and_first():
    line = next(x for x in LINES[1:] if x["type"] == "effect" and x.get("effect") == "裏切り")
    rep = Replay(LINES[0], LINES[1:line["seq"]])
    first, last = registry.get("gandice").suggestions(rep.board(rep.steps))
    assert {k: v for k, v in line.items() if k != "seq"} in first
    assert all(m["type"] == "effect" and m["effect"] == "裏切り" and m["take"]["player"] != m["by"] for m in first)
    assert last == []


def test_nothing_is_offered_before_any_special_face():
    rep = Replay(LINES[0], [])
    assert registry.get("gandice").suggestions(rep.board(0)) == ([], [])
