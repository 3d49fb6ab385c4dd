"""The recording page's suggestions of effects and magic (generate.suggestions): their actions
come from the card's text in the catalog, whole where the text leaves only the target."""

from __future__ import annotations

import json

from projections import registry
from projections.replay import Replay
from recorder.tools.tapdriver import fits
from tests.web.conftest import ROOT

LINES = [json.loads(x) for x in (ROOT / "examples" / "variants-war-example.jsonl").read_text("utf-8").splitlines() if x]


def offered(seq: int) -> tuple[list[dict], list[dict]]:
    rep = Replay(LINES[0], LINES[1:seq])
    return registry.get("variants-war").suggestions(rep.board(rep.steps))


def test_every_effect_and_magic_of_the_example_is_offered_whole_or_as_its_card_s_actions():
    lines = [x for x in LINES[1:] if x["type"] in ("effect", "magic")]
    assert len(lines) == 5
    for line in lines:
        first, last = offered(line["seq"])
        want = {k: v for k, v in line.items() if k != "seq"}
        assert any(fits(m, want) for m in first + last), (line["seq"], first + last)
    whole = []
    for x in lines:
        first, last = offered(x["seq"])
        if {k: v for k, v in x.items() if k != "seq"} in first + last:
            whole.append(x["seq"])
    assert whole == [39, 41, 47, 100]  # デューク's summon, グランデューク's, 南月's sortie, 破天荒な風: nothing left to tap


def test_the_ace_s_special_effect_leads_the_turn_it_came_and_its_gain_is_half_the_victim_s_attack():
    first, _ = offered(41)
    assert first and first[0]["card"] == "ヴァリアンツＧ－グランデューク" and first[0]["kind"] == "special"
    gains = {m["actions"][0]["square"]: m["actions"][1]["amount"] for m in first if m.get("kind") == "special"}
    assert gains["d0"] == 550


def test_once_the_main_action_is_used_the_battle_phase_leads():
    seq = next(x["seq"] for x in LINES[1:] if x["type"] == "master")
    first, _ = offered(seq)
    assert first[0]["type"] in ("battle", "breakthrough", "master", "end_turn")
    assert first[0] == {"type": "master", "by": LINES[seq]["by"]}
