"""Step through the worked example match and check the board at chosen steps."""

from __future__ import annotations

import json

from exports.i18n import translations
from projections.base import META_TYPES
from tests.variants_war.helpers import ROOT, RS, board_after, load_example

JA = translations("ja")  # the text board as kifu board says it by default

HEAD, EVENTS = load_example()


def seq_of(predicate) -> int:  # type: ignore[no-untyped-def]
    return next(e["seq"] for e in EVENTS if predicate(e))


def test_example_is_valid_jsonl_with_contiguous_seq() -> None:
    assert RS.validate_header(HEAD) == []
    assert [e["seq"] for e in EVENTS] == list(range(1, len(EVENTS) + 1))
    for e in EVENTS:
        if e["type"] not in META_TYPES:
            assert RS.validate_move(e) == [], e
    text = (ROOT / "examples" / "variants-war-example.jsonl").read_text(encoding="utf-8")
    assert "森羅万象" in text and "\\u" not in text


def test_example_has_no_violations_and_b_wins_on_life() -> None:
    board = RS.initial_board(HEAD)
    for e in EVENTS:
        if e["type"] in META_TYPES:
            continue
        assert RS.check(board, e) == [], e
        board = RS.apply(board, e)
    result = RS.result(board)
    assert result is not None and result.winner == "B" and result.reason == "life"
    js = RS.board_json(board)
    assert js["players"]["A"]["life"] == 0 and js["players"]["B"]["life"] == 3
    json.dumps(js, ensure_ascii=False)


def test_draft_and_opening_hand() -> None:
    board = board_after(HEAD, EVENTS, seq_of(lambda e: e["type"] == "draw"))
    assert board.phase == "setup"
    assert board.player("A").picks == ("レプティアの武者騎兵", "シュルブの魔導騎兵", "ダイカミナリ・ジャイクロプス", "バンドラの宝具箱")
    board = board_after(HEAD, EVENTS, seq_of(lambda e: e["type"] == "draw" and e["by"] == "B") + 1)
    assert board.turn == 1 and board.active == "A" and board.phase == "draw"
    js = RS.board_json(board)
    assert js["players"]["A"]["hand"] == 2 and js["players"]["A"]["hand_known"] == ["ヴァリアンツの忍者－南月"]
    assert js["players"]["A"]["deck"] == 6 and js["players"]["A"]["ex"] == ["ヴァリアンツの聚－幻中"]


def test_arctos_appears_facing_the_roller() -> None:
    seq = seq_of(lambda e: e["type"] == "master")
    js = RS.board_json(board_after(HEAD, EVENTS, seq))
    assert js["arctos"]["square"] == "c2" and js["arctos"]["facing"] == "B" and js["arctos"]["damage"] == 0
    assert {z["square"]: z["lockon"] for z in js["zones"] if z["lockon"]} == {
        "b1": 1, "c1": 2, "d1": 3, "d2": 4, "d3": 5, "c3": 6, "b3": 7, "b2": 8}
    text = RS.render_text(board_after(HEAD, EVENTS, seq), JA)
    assert "アルクトス^0" in text and "[8]" in text and "アルクトスXII: 佐藤の方を向く  ダメージ0/6000" in text


def test_ace_summon_and_special_effect() -> None:
    seq = seq_of(lambda e: e["type"] == "effect" and e.get("kind") == "special")
    js = RS.board_json(board_after(HEAD, EVENTS, seq))
    gd = next(m for m in js["monsters"] if m["square"] == "d3")
    assert gd["card"] == "ヴァリアンツＧ－グランデューク" and gd["owner"] == "B"
    assert gd["position"] == "attack" and gd["facing"] == "south" and gd["atk"] == 3050
    assert js["players"]["A"]["life"] == 2 and js["players"]["B"]["ex"] == []


def test_lateral_move_and_orientation() -> None:
    seq = seq_of(lambda e: e["type"] == "effect" and e.get("kind") == "lateral")
    js = RS.board_json(board_after(HEAD, EVENTS, seq))
    by_sq = {m["square"]: m for m in js["monsters"]}
    assert by_sq["b1"]["position"] == "defence" and by_sq["b1"]["orientation"] == "horizontal"
    assert by_sq["d1"]["card"] == "ヴァリアンツの武者－北条" and by_sq["d1"]["facing"] == "north"


def test_arctos_damage_accumulates_then_it_falls() -> None:
    masters = [e["seq"] for e in EVENTS if e["type"] == "master"]
    damages = []
    for seq in masters:
        arctos = RS.board_json(board_after(HEAD, EVENTS, seq))["arctos"]
        damages.append(arctos["damage"] if arctos else None)
    assert damages == [0, 0, 1800, 1800, 1800, 3200, 3200, None]
    last = RS.board_json(board_after(HEAD, EVENTS, masters[-1]))
    assert last["arctos_destroyed"] is True


def test_magic_modifier_wins_the_battle() -> None:
    seq = seq_of(lambda e: e["type"] == "magic")
    board = board_after(HEAD, EVENTS, seq)
    rep = next(m for m in RS.board_json(board)["monsters"] if m["square"] == "b1")
    assert rep["atk"] == 2800 and rep["def"] == 2200
    assert RS.board_json(board)["magic_deck"] == 10


def test_grand_duke_breakthrough_leaves_for_good() -> None:
    seq = seq_of(lambda e: e["type"] == "breakthrough")
    js = RS.board_json(board_after(HEAD, EVENTS, seq))
    assert js["players"]["A"]["life"] == 1
    assert js["players"]["B"]["aces_gone"] == ["ヴァリアンツＧ－グランデューク"]
    assert all(m["card"] != "ヴァリアンツＧ－グランデューク" for m in js["monsters"])


def test_one_move_and_one_position_change_a_turn() -> None:
    """「以下の行動を一回ずつモンスターに適用できる。」: the example never spends a chip twice."""
    counts: dict[tuple[int, str], int] = {}
    board = RS.initial_board(HEAD)
    for e in EVENTS:
        if e["type"] in META_TYPES:
            continue
        if e["type"] in ("move", "position") or (e["type"] == "effect" and e["kind"] == "normal"):
            key = (board.turn, e["type"])
            counts[key] = counts.get(key, 0) + 1
        board = RS.apply(board, e)
    assert counts and max(counts.values()) == 1


def test_builder_reproduces_the_shipped_examples() -> None:
    from tests.variants_war.build_examples import build, checked

    for name, rows in build().items():
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        assert (ROOT / "examples" / name).read_text(encoding="utf-8") == text, name
        assert checked(rows[0], [r for r in rows[1:] if r["type"] not in ("dispute", "ruling")]) == []
