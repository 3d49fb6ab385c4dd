"""The seed's worked example (対戦例: 闇ダイス組 vs イスルギ組), step by step."""

from __future__ import annotations

import json
from pathlib import Path

from projections.base import META_TYPES
from tests.gandice.helpers import R

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "gandice-example.jsonl"


def load() -> tuple[dict, list[dict]]:
    lines = [json.loads(line) for line in EXAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[0], lines[1:]


def boards() -> dict[int, dict]:
    hdr, events = load()
    board = R.initial_board(hdr)
    out = {}
    for m in events:
        if m["type"] in META_TYPES:
            continue
        assert R.validate_move(m) == []
        assert R.check(board, m) == [], m
        board = R.apply(board, m)
        out[m["seq"]] = R.board_json(board) | {"result": R.result(board)}
    return out


def test_file_is_valid_jsonl_with_contiguous_seq_and_unescaped_japanese():
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "\\u" not in text and "紅蓮のイスルギ" in text
    hdr, events = load()
    assert R.validate_header(hdr) == []
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_summon_states():
    b = boards()
    yami = b[1]["players"]["A"]
    assert (yami["summoned"], yami["half_summoned"], yami["unsummoned"]) == (
        ["ギダン"],
        ["美雅羅"],
        ["爪牙"],
    )
    isurugi = b[3]["players"]["B"]  # one 立ち: 全召喚
    assert isurugi["summoned"] == ["紅蓮のイスルギ", "青嵐のイスルギ", "イスルギ"]
    assert b[3]["phase"] == "battle" and b[3]["active"] == "A"


def test_first_battle_weapon_bonus_and_used_items():
    b = boards()
    last = b[8]["last_battle"]
    assert (last["winner"], last["attack_total"], last["defence_total"]) == ("defender", 4, 8)
    assert b[8]["players"]["A"]["used_items"] == ["武具・羅"]
    assert b[8]["players"]["B"]["used_items"] == ["武具・羅"]
    assert b[8]["players"]["A"]["alive"] == 3 and b[8]["players"]["B"]["alive"] == 3
    assert b[8]["active"] == "B"


def test_undefended_target_goes_to_graveyard():
    b = boards()
    assert b[10]["last_battle"]["reason"] == "undefended"
    assert b[10]["players"]["A"]["graveyard"] == ["爪牙", "武具・羅"]
    assert b[10]["players"]["A"]["alive"] == 2


def test_no_item_then_curse_and_betrayal():
    b = boards()
    assert b[14]["battle"]["step"] == "defender_item"
    last = b[16]["last_battle"]
    assert (last["winner"], last["attack_total"], last["defence_total"]) == ("defender", 3, 6)
    assert b[16]["players"]["B"]["used_items"] == ["武具・羅", "呪術・笑童児"]
    after = b[17]["players"]
    assert after["A"]["alive"] == 1 and after["A"]["items"] == ["武具・羅#2"]
    assert after["B"]["alive"] == 4 and after["B"]["half_summoned"] == ["美雅羅"]
    assert after["B"]["items"] == []
    miyabi = next(d for d in after["B"]["dice"] if d["name"] == "美雅羅")
    assert miyabi["origin"] == "A"


def test_failed_attack_then_weapon_special():
    b = boards()
    assert b[19]["last_battle"]["reason"] == "attack_side" and b[19]["active"] == "A"
    assert b[19]["players"]["A"]["alive"] == 1
    last = b[22]["last_battle"]
    assert (last["winner"], last["attack_total"], last["defence_total"]) == ("attacker", 8, 5)
    assert "紅蓮のイスルギ" in b[22]["players"]["B"]["graveyard"]


def test_final_result_isurugi_wins_all_yami_dice_in_graveyard():
    b = boards()
    final = b[25]
    assert final["last_battle"]["attack_total"] == 4 and final["last_battle"]["defence_total"] == 3
    assert final["players"]["A"]["alive"] == 0
    assert all(d["zone"] == "graveyard" for d in final["players"]["A"]["dice"] if d["kind"] == "character")
    assert final["result"].winner == "B" and final["result"].reason == "all_graveyard"
    assert final["players"]["B"]["alive"] == 3
    assert "イスルギ" in R.render_text(R.initial_board(load()[0]))
