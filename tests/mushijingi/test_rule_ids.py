"""Every rule id of docs/rules/mushijingi.md bites (issue 18.2).

- Each id the doc marks *check* has a case here: a move on which ``check`` cites the id, and
  a move of the same type that checks clean.
- Each id marked *header* has a bad header whose error names the id, beside a good one.
- Each id marked *board* (the board follows it by itself) has a test of that behaviour here,
  and the move doing it checks clean.
- The doc is parsed: an id with no case, or a case for an id the doc does not have, fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from projections.base import Result
from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import (
    A_DECK,
    B_DECK,
    ROOT,
    extra_catalog,
    fold,
    header,
    insect,
    main_board,
    started,
)

DOC = (ROOT / "docs" / "rules" / "mushijingi.md").read_text(encoding="utf-8")
ROWS = dict(re.findall(r"^\| (MJ-\d+\.\d+) \|.*\| ([^|]+) \|$", DOC, flags=re.MULTILINE))


def rules(board, move) -> list[str]:
    move = {"seq": 1, **move}
    assert R.validate_move(move) == [], move
    return [v.rule for v in R.check(board, move)]


def atk(attacker, technique, target, by="A"):
    return {"type": "attack", "by": by, "attacker": attacker, "technique": technique, "target": target}


def flipped(board, uid):
    return replace(board, field=tuple(replace(i, flipped=True) if i.uid == uid else i for i in board.field))


def after(board, *moves):
    board, found = fold(board, list(moves))
    assert found == [], found
    return board


def with_feed(board, pid, *cards):
    return board.with_side(replace(board.side(pid), feed=tuple(cards)))


Case = tuple[Any, dict[str, Any], Any, dict[str, Any]]  # fire board, move; legal board, move


def _first_turn_draw(_: Path) -> Case:
    b = started()
    turn2 = after(b, {"type": "end_turn", "by": "A"})
    return b, {"type": "draw", "by": "A"}, turn2, {"type": "draw", "by": "B"}


def _won(_: Path) -> Case:
    b = main_board(a=["カブトムシ"])
    b = b.with_side(replace(b.side("B"), territory=0))
    won = after(b, atk("A1", "つのでつく", "player"))
    return won, {"type": "end_turn", "by": "A"}, b, {"type": "end_turn", "by": "A"}


def _on_enter(tmp: Path) -> Case:
    cat = extra_catalog(tmp)
    old = main_board(a=["オオムラサキ"], b=["カブトムシ"], catalog=cat)
    new = after(
        main_board(b=["カブトムシ"], hand_a=["オオムラサキ"], catalog=cat),
        {"type": "play", "by": "A", "card": "オオムラサキ"},
    )
    move = {"type": "effect", "by": "A", "card": "オオムラサキ", "damage": {"B1": 300}}
    return old, move, new, move


def _technique_one_insect(tmp: Path) -> Case:
    b = main_board(a=["オオカマキリ王"], b=["カブトムシ", "タガメ"], catalog=extra_catalog(tmp))
    move = {"type": "effect", "by": "A", "card": "オオカマキリ王", "technique": "かまできる"}
    return b, {**move, "damage": {"B1": 300, "B2": 300}}, b, {**move, "damage": {"B1": 300}}


def _off_field_target(tmp: Path) -> Case:
    b = main_board(hand_a=["ナナホシテントウ"], catalog=extra_catalog(tmp))
    move = {"type": "effect", "by": "A", "summon": ["ナナホシテントウ"]}
    return b, {**move, "card": "大嵐"}, b, {**move, "card": "蟲寄せ"}


def _source(_: Path) -> Case:
    b = main_board(a=["カブトムシ"], hand_a=["闘志"], effect_source_in_play=True)
    move = {"type": "effect", "by": "A", "card": "闘志", "boost": {"A1": 300}}
    played = after(b, {"type": "play", "by": "A", "card": "闘志", "target": "A1"})
    return b, move, played, move


def _attacked_twice(_: Path) -> Case:
    b = main_board(a=["ヘラクレスオオカブト"], b=["タガメ"])
    move = atk("A1", "つのなげ", "B1")
    return after(b, move), move, b, move


def _direct_text(_: Path) -> Case:
    b = main_board(a=["ゲンジボタル"], b=["タガメ"])
    move = {"type": "effect", "by": "A", "card": "ゲンジボタル", "technique": "ひかる", "draw": 1}
    alone = main_board(a=["ゲンジボタル"])
    return after(b, atk("A1", "ひかる", "B1")), move, after(alone, atk("A1", "ひかる", "player")), move


def _bad_setup_again(_: Path) -> Case:
    return started(), {"type": "setup", "by": "A"}, R.initial_board(header()), {"type": "setup", "by": "A"}


def _simple(board_fn: Callable[[], Any], fire: dict[str, Any], legal: dict[str, Any]) -> Callable[[Path], Case]:
    def case(_: Path) -> Case:
        board = board_fn()
        return board, fire, board, legal

    return case


FIELD = lambda **kw: main_board(a=["カブトムシ"], b=["タガメ"], **kw)  # noqa: E731
HAND4 = ["闘志", "羽化", "闘志", "羽化"]

CHECK_CASES: dict[str, Callable[[Path], Case]] = {
    "MJ-1.2": _simple(
        lambda: started(hand_a=["闘志", "闘志", None, None]),
        {"type": "reveal", "by": "A", "cards": ["闘志"]},
        {"type": "reveal", "by": "A", "cards": ["羽化"]},
    ),
    "MJ-1.3": _simple(started, {"type": "reveal", "by": "A", "cards": ["タガメ"]}, {"type": "reveal", "by": "A", "cards": ["羽化"]}),
    "MJ-1.4": _simple(main_board, {"type": "play", "by": "A", "card": "謎のカード"}, {"type": "play", "by": "A", "card": "オオカマキリ"}),
    "MJ-2.2": _simple(
        lambda: R.initial_board(header()),
        {"type": "setup", "by": "A", "hand": HAND4 + ["闘志"]},
        {"type": "setup", "by": "A", "hand": HAND4},
    ),
    "MJ-2.3": _bad_setup_again,
    "MJ-3.1": _simple(lambda: started(hand_a=HAND4), {"type": "end_turn", "by": "B"}, {"type": "end_turn", "by": "A"}),
    "MJ-3.2": _first_turn_draw,
    "MJ-3.3": lambda _: (
        after(started(hand_a=HAND4), {"type": "set", "by": "A", "card": "羽化"}),
        {"type": "set", "by": "A", "card": "闘志"},
        started(hand_a=HAND4),
        {"type": "set", "by": "A", "card": "闘志"},
    ),
    "MJ-3.5": _simple(lambda: main_board(cost=1), {"type": "play", "by": "A", "card": "ヘラクレスオオカブト"}, {"type": "play", "by": "A", "card": "オオカマキリ"}),
    "MJ-3.7": _simple(lambda: started(hand_a=HAND4), {"type": "set", "by": "A", "card": "カブトムシ"}, {"type": "set", "by": "A", "card": "羽化"}),
    "MJ-4.2": lambda _: (main_board(), {"type": "play", "by": "A", "card": "鋼の大顎"}, FIELD(), {"type": "play", "by": "A", "card": "鋼の大顎", "target": "A1"}),
    "MJ-4.4": lambda _: (main_board(), {"type": "play", "by": "A", "card": "樹液の罠"}, FIELD(), {"type": "play", "by": "A", "card": "樹液の罠", "target": "B1"}),
    "MJ-4.6": _simple(
        FIELD,
        {"type": "play", "by": "A", "card": "闘志", "target": "B1"},
        {"type": "play", "by": "A", "card": "闘志", "target": "A1"},
    ),
    "MJ-5.1": _simple(FIELD, atk("B1", "かみつく", "B1"), atk("A1", "つのでつく", "B1")),
    "MJ-5.2": _attacked_twice,
    "MJ-5.3": _simple(FIELD, atk("A1", "はさむ", "B1"), atk("A1", "つのでつく", "B1")),
    "MJ-5.4": _simple(FIELD, atk("A1", "つのでつく", "player"), atk("A1", "つのでつく", "B1")),
    "MJ-5.9": _simple(lambda: main_board(a=["タガメ"]), atk("A1", "すくいなげ", "player"), atk("A1", "かみつく", "player")),
    "MJ-5.10": lambda _: (flipped(FIELD(), "B1"), atk("A1", "つのでつく", "B1"), FIELD(), atk("A1", "つのでつく", "B1")),
    "MJ-6.1": lambda _: (
        with_feed(FIELD(), "A", "大嵐"),
        {"type": "effect", "by": "A", "card": "大嵐", "damage": {"A1": 300}},
        FIELD(),
        {"type": "effect", "by": "A", "card": "大嵐", "damage": {"A1": 300}},
    ),
    "MJ-6.2": _simple(
        FIELD,
        {"type": "effect", "by": "A", "card": "大嵐", "damage": {"A2": 300}},
        {"type": "effect", "by": "A", "card": "大嵐", "damage": {"A1": 300}},
    ),
    "MJ-6.3": _off_field_target,
    "MJ-6.4": _on_enter,
    "MJ-6.5": _technique_one_insect,
    "MJ-6.6": _source,
    "MJ-6.7": _direct_text,
    "MJ-7.3": _won,
    "MJ-8.1": _simple(started, {"type": "reveal", "by": "A", "cards": HAND4 + ["闘志"]}, {"type": "reveal", "by": "A", "cards": ["闘志"]}),
}  # fmt: skip


@pytest.mark.parametrize("rule", sorted(CHECK_CASES))
def test_check_rule_fires_and_the_same_kind_of_move_is_legal(rule, tmp_path):
    fire_board, fire, legal_board, legal = CHECK_CASES[rule](tmp_path)
    assert fire["type"] == legal["type"]
    assert rule in rules(fire_board, fire)
    assert rules(legal_board, legal) == []


HEADER_CASES = {
    "MJ-1.1": header(a_cards=A_DECK[:19]),
    "MJ-1.2": header(a_cards=A_DECK[:-1] + ["カブトムシ"]),
    "MJ-1.4": header(b_cards=B_DECK[:5] + ["ギラファノコギリクワガタ"] + B_DECK[6:]),
}


@pytest.mark.parametrize("rule", sorted(HEADER_CASES))
def test_header_rule_fires_and_the_sample_header_is_legal(rule):
    problems = [e.problem for e in R.validate_header(HEADER_CASES[rule])]
    assert problems and all(p.startswith(f"{rule}:") for p in problems)
    assert R.validate_header(header()) == []


# --- rules the board follows by itself: the behaviour, and the move checks clean ---


def _board_2_1(_):
    board = started()
    for pid in "AB":
        assert (board.side(pid).territory, board.side(pid).deck, len(board.side(pid).hand)) == (6, 10, 4)


def _board_3_4(_):
    board = after(started(hand_a=HAND4), {"type": "set", "by": "A", "card": "羽化"}, {"type": "end_turn", "by": "A"})
    board = after(board, {"type": "draw", "by": "B"}, {"type": "set", "by": "B", "card": "大嵐"})
    assert board.phase == "main" and board.cost == 1
    # feed taken away during the main phase does not lower the cost
    board = R.apply(board, {"seq": 9, "type": "effect", "by": "B", "card": "大嵐", "feed_discard": ["大嵐"]})
    assert board.side("B").feed == () and board.cost == 1


def _board_3_6(_):
    board = main_board(a=["カブトムシ"], b=["ヘラクレスオオカブト"], hand_a=["闘志"])
    board = after(board, atk("A1", "つのでつく", "B1"), {"type": "play", "by": "A", "card": "闘志", "target": "A1"})
    board = R.apply(board, {"seq": 3, "type": "effect", "by": "A", "card": "闘志", "boost": {"A1": 300}})
    assert insect(board, "B1").damage > 0 and insect(board, "A1").attacked and insect(board, "A1").boost == 300
    board = after(board, {"type": "end_turn", "by": "A"})
    assert (insect(board, "B1").damage, insect(board, "A1").attacked, insect(board, "A1").boost) == (0, False, 0)


def _board_4_1(_):
    # no summoning sickness; a green feed pays for a red insect
    board = with_feed(main_board(cost=1), "A", "羽化")
    board = after(board, {"type": "play", "by": "A", "card": "ゲンジボタル"}, atk("A1", "ひかる", "player"))
    assert board.side("B").territory == 5


def _board_4_3(_):
    board = after(
        FIELD(),
        {"type": "play", "by": "A", "card": "紫の紋様", "target": "A1"},
        {"type": "play", "by": "A", "card": "紅の紋様", "target": "A1"},
    )
    assert R.board_json(board)["players"]["A"]["insects"][0]["colour"] == "赤"


def _board_4_5(_):
    board = main_board(a=["オオカマキリ"] * 6, cost=10)
    board = after(board, {"type": "play", "by": "A", "card": "ナナホシテントウ"})
    assert len(board.field) == 7


def _board_5_5(_):
    board = main_board(a=["カブトムシ"])
    hand = len(board.side("B").hand)
    board = after(board, {**atk("A1", "つのでつく", "player"), "territory_card": "大嵐"})
    assert board.side("B").territory == 5 and board.side("B").hand[hand:] == ("大嵐",)


def _board_5_6(_):
    # 「体力1000の虫に、攻撃力600の技を持つ虫と、攻撃力400の技を持つ虫の2匹で攻撃すれば」
    board = main_board(a=["カブトムシ", "アシダカグモ"], b=["ノコギリクワガタ"], sukumi="赤>紫")
    board = after(board, atk("A1", "つのでつく", "B1"))
    assert insect(board, "B1").damage == 600 and insect(board, "A1") is not None  # no counter-damage
    board = after(board, atk("A2", "かみつく", "B1"))
    assert insect(board, "B1") is None and board.side("B").territory == 5


def _board_5_7(_):
    board = after(
        main_board(a=["カブトムシ"], b=["ヘラクレスオオカブト"], hand_a=["紅の紋様", "鋼の大顎"]),
        {"type": "play", "by": "A", "card": "紅の紋様", "target": "A1"},
        {"type": "play", "by": "A", "card": "鋼の大顎", "target": "A1"},
        atk("A1", "つのでつく", "B1"),
    )
    assert insect(board, "B1").damage == (600 + 300) * 2


def _board_5_8(_):
    board = after(main_board(a=["ゲンジボタル"]), atk("A1", "ひかる", "player"))
    assert board.side("B").territory == 5


def _board_7_1(_):
    board = main_board(a=["カブトムシ", "カブトムシ"], b=["ナナホシテントウ"])
    board = board.with_side(replace(board.side("B"), territory=0))
    board = after(board, atk("A1", "つのでつく", "B1"))
    assert board.result is None  # destroying an insect at territory 0 does not win
    board = after(board, atk("A2", "つのでつく", "player"))
    assert R.result(board) == Result("A", "direct-attack")


def _board_7_2(_):
    board = after(started(), {"type": "end_turn", "by": "A"})
    board = board.with_side(replace(board.side("B"), deck=0, territory=5))
    board = after(board, {"type": "draw", "by": "B"})
    assert R.result(board) == Result("A", "deck-out")


def _board_8_2(_):
    board = main_board(hand_a=[None, None])
    board = after(board, {"type": "play", "by": "A", "card": "カブトムシ"})
    assert board.side("A").hand.count(None) == 3 and insect(board, "A1").card == "カブトムシ"


BOARD_CASES: dict[str, Callable[[Path], None]] = {
    "MJ-2.1": _board_2_1,
    "MJ-3.4": _board_3_4,
    "MJ-3.6": _board_3_6,
    "MJ-4.1": _board_4_1,
    "MJ-4.3": _board_4_3,
    "MJ-4.5": _board_4_5,
    "MJ-5.5": _board_5_5,
    "MJ-5.6": _board_5_6,
    "MJ-5.7": _board_5_7,
    "MJ-5.8": _board_5_8,
    "MJ-7.1": _board_7_1,
    "MJ-7.2": _board_7_2,
    "MJ-8.2": _board_8_2,
}


@pytest.mark.parametrize("rule", sorted(BOARD_CASES))
def test_board_rule_holds(rule, tmp_path):
    BOARD_CASES[rule](tmp_path)


def test_every_documented_id_has_its_case_and_no_case_is_stale():
    assert len(ROWS) >= 35
    for rule, checked in ROWS.items():
        if "check" in checked:
            assert rule in CHECK_CASES, f"{rule} is checked but has no firing case"
        if "header" in checked:
            assert rule in HEADER_CASES, f"{rule} is a header rule with no case"
        if "board" in checked and "check" not in checked:
            assert rule in BOARD_CASES, f"{rule} is a board rule with no behaviour test"
    assert set(CHECK_CASES) | set(HEADER_CASES) | set(BOARD_CASES) <= set(ROWS)


def test_every_documented_id_is_named_in_the_tests():
    here = Path(__file__).parent
    source = "".join(p.read_text(encoding="utf-8") for p in here.glob("test_*.py"))
    missing = [rule for rule in ROWS if f'"{rule}"' not in source]
    assert not missing, missing


def test_mj_3_3_says_which_limit_was_broken():
    fed = after(started(hand_a=HAND4), {"type": "set", "by": "A", "card": "羽化"})
    found = R.check(fed, {"seq": 9, "type": "set", "by": "A", "card": "闘志"})
    assert [(v.rule, v.message) for v in found] == [("MJ-3.3", "at most one card is set into the エサ場 each turn")]
    hand = ["羽化", "闘志", "ナナホシテントウ", "羽化"]
    main = after(started(hand_a=hand), {"type": "play", "by": "A", "card": "ナナホシテントウ"})
    found = R.check(main, {"seq": 9, "type": "set", "by": "A", "card": "羽化"})
    assert ("MJ-3.3", "the set phase is over once the main phase has started") in [(v.rule, v.message) for v in found]
