"""The worked examples: step through them and check the board at chosen steps."""

from __future__ import annotations

from exports.i18n import translations
from projections.base import META_TYPES, Result
from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import read_example

JA = translations("ja")  # the text board as kifu board says it by default


def boards(name):
    header, entries = read_example(name)
    assert R.validate_header(header) == []
    board = R.initial_board(header)
    out = {0: board}
    for i, entry in enumerate(entries, start=1):
        assert entry["seq"] == i
        if entry["type"] not in META_TYPES:
            assert R.validate_move(entry) == []
            assert R.check(board, entry) == [], entry
            board = R.apply(board, entry)
        out[i] = board
    return entries, out


def player(board, pid):
    return R.board_json(board)["players"][pid]


def insects(board, pid):
    return {i["uid"]: (i["card"], i["damage"]) for i in player(board, pid)["insects"]}


def test_example_is_annotated():
    entries, _ = boards("mushijingi-example.jsonl")
    notes = [e for e in entries if e["type"] == "annotate"]
    assert len(notes) >= 8 and all(e["on"] < e["seq"] for e in notes)


def test_example_key_moments():
    entries, at = boards("mushijingi-example.jsonl")
    seq = {(e["type"], e.get("attacker"), e.get("target"), e.get("by")): e["seq"] for e in entries}
    a = player(at[2], "A")
    assert (a["territory"], a["deck"], a["hand"]) == (
        6,
        10,
        ["オオカマキリ", "カブトムシ", "羽化", "ナナホシテントウ"],
    )
    first_hit = seq[("attack", "A1", "player", "A")]
    assert player(at[first_hit], "B")["territory"] == 5
    assert player(at[first_hit], "B")["hand_count"] == 5
    b_bite = seq[("attack", "B1", "A1", "B")]
    assert insects(at[b_bite], "A") == {"A1": ("オオカマキリ", 400)}
    assert insects(at[b_bite + 2], "A") == {"A1": ("オオカマキリ", 0)}  # healed at turn end
    kill = seq[("attack", "A1", "B1", "A")]
    assert insects(at[kill], "B") == {} and player(at[kill], "B")["territory"] == 4
    assert player(at[kill], "A")["feed"] == ["羽化", "ナナホシテントウ"]
    assert R.board_json(at[kill])["cost"] == {"total": 2, "spent": 2, "left": 0}


def test_example_accumulated_damage_and_result():
    entries, at = boards("mushijingi-example.jsonl")
    tagame = [e["seq"] for e in entries if e["type"] == "attack" and e.get("target") == "B2"]
    assert insects(at[tagame[0]], "B") == {"B2": ("タガメ", 1000)}
    assert insects(at[tagame[1]], "B") == {}
    final = at[len(entries)]
    assert R.result(final) == Result("A", "direct-attack")
    assert player(final, "B")["territory"] == 0 and player(final, "A")["territory"] == 5
    assert set(insects(final, "A")) == {"A2", "A4"}
    assert player(final, "B")["deck"] == 6


def test_deckout_example():
    entries, at = boards("mushijingi-deckout.jsonl")
    final = at[len(entries)]
    assert R.result(final) == Result("B", "deck-out")
    a, b = player(final, "A"), player(final, "B")
    assert (a["territory"], b["territory"], b["deck"]) == (5, 6, 0)
    zero_hit = next(e["seq"] for e in entries if e["type"] == "attack" and e["by"] == "B")
    assert player(at[zero_hit], "A")["territory"] == 5
    assert all(c is None for c in b["hand"])


def test_render_text_draws_the_board():
    entries, at = boards("mushijingi-example.jsonl")
    text = R.render_text(at[len(entries)], JA)
    assert "縄張り 0" in text and "[A4] ヘラクレスオオカブト" in text
    assert "結果: 山田の勝ち (直接攻撃)" in text
    assert "山田 (A)" in text and "佐藤 (B)" in text and "凡例" in text
    mid = R.render_text(at[20], JA)
    assert "体力" in text and "コスト 残り2/2" in mid and "▶ 山田 (A)" in mid
    for raw in ("{", "}", "'", "direct-attack", "result:", "turn "):
        assert raw not in text + mid, raw
