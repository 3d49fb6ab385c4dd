"""Every rule id of docs/rules/gurren-lagann.md is tested (issue 18): each id the checks emit
fires on an illegal move here and stays silent on the same kind of move made legally; each id
that describes behaviour (setup, damage, battle results, the end) and each house rule (GL-H*)
has a test here or in a named test showing both sides; and every id is named by some other
test file of this folder as well."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from projections.base import FieldError
from projections.gurren_lagann import RULESET as R
from projections.gurren_lagann.catalog import Card, load
from projections.gurren_lagann.header import deck_problems

from .helpers import fold, header, opening, rules_of
from .test_rules import BATTLE, SETUP, dp, draw, end, mv, put, skill

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules" / "gurren-lagann.md").read_text(encoding="utf-8")
HERE = Path(__file__).resolve().parent
CODE = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "projections" / "gurren_lagann").rglob("*.py"))


def doc_ids() -> list[str]:
    rules = re.findall(r"\*\*(GL-\d+\.\d+)\*\*", DOC)
    house = [f"GL-{h}" for h in re.findall(r"^\| `\w+` \| [^|]+ \| (H\d+) \|", DOC, re.M)]
    return rules + house


def code_ids() -> set[str]:
    """The ids violations and header errors cite: ``v("GL-4.1", …)`` and ``f"GL-1.1: …"``."""
    return set(re.findall(r'v\(\s*"(GL-\d+\.\d+)"', CODE)) | set(re.findall(r'f?"(GL-\d+\.\d+):', CODE))


H = header()
SUPPORT = {"type": "support", "by": "A", "card": "カミナ", "target": "グレン"}
BOOMERANG = {"type": "equip", "by": "A", "card": "グレンブーメラン", "target": "グレン"}
COMBINE = {
    "type": "effect",
    "by": "A",
    "card": "グレンラガン",
    "destroyed": ["A:ラガン", "A:グレン"],
    "deployed": {"card": "グレンラガン", "square": "d1"},
}
B_TURN = [*opening(), end("A"), draw("B", "螺旋王の命令"), dp("B", "エンキ", "d6")]
FOUR_SKILLS = [
    *B_TURN,
    {"type": "support", "by": "B", "card": "ヴィラル", "target": "エンキ"},
    skill("B", "螺旋王の命令", user="エンキ"),
    skill("B", "待ち伏せ", set=True),
    {"type": "effect", "by": "B", "card": "エンキ", "drew": ["螺旋王の命令", "螺旋王の命令"]},
    skill("B", "螺旋王の命令", user="エンキ"),
]
SEVEN_CELLS = [
    *SETUP,
    dp("A", "ダヤッカイザー", "e1"),
    mv("A", ["グレン"], "d1", "e1"),
    put("A", "ラガン", "d1"),
    {"type": "effect", "by": "A", "card": "ラガン", "readied": ["ラガン"]},
]
SQUAD = [*SETUP, put("A", "ラガン", "d1"), {"type": "effect", "by": "A", "card": "ラガン", "readied": ["ラガン"]}]
OVER = [*SETUP, {"type": "effect", "by": "A", "card": "グレン", "damage": {"B": 5}}]
BATTLE_OK = {"type": "battle", "by": "A", "attack": 3, "defend": 4}
# B sets 待ち伏せ in its turn, keeps it over the turn end (GL-H9), and グレン attacks エンキ on d3:
# the battle 「相手のフィギュアがバトルを仕掛けた時」 that springs it (GL-8.8)
KEEP_TRAPS = header({"traps_survive_turn_end": True})
AMBUSH = [*SETUP[:-2], skill("B", "待ち伏せ", set=True), *SETUP[-2:], put("B", "エンキ", "d3"),
          mv("A", ["グレン"], "d1", "d2", "d3")]
SPRING = {"type": "trap", "by": "B", "card": "待ち伏せ"}
KIAI = [*SETUP, {"type": "effect", "by": "A", "card": "グレン", "drew": ["気合い"]}]
ORDER = [*B_TURN, {"type": "support", "by": "B", "card": "ヴィラル", "target": "エンキ"}]


# (rule, what, moves before the illegal one, the illegal move, moves before the legal one, the legal move[, header])
Case = tuple[Any, ...]
VIOLATIONS: list[Case] = [
    ("GL-1.7", "a card not in the catalog", SETUP, dp("A", "アンチスパイラル", "a1"), SETUP, dp("A", "ダヤッカイザー", "a1")),
    ("GL-3.1", "a main action out of turn", SETUP, dp("B", "ビャコウ", "c6"), SETUP, dp("A", "ダヤッカイザー", "a1")),
    ("GL-3.1", "a draw out of turn", [*opening(), end("A")], draw("A"), [*opening(), end("A")], draw("B")),
    ("GL-3.1", "the defender records the battle", BATTLE, {**BATTLE_OK, "by": "B"}, BATTLE, BATTLE_OK),
    ("GL-3.1", "a turn end out of turn", SETUP, end("B"), SETUP, end("A")),
    ("GL-3.3", "a main action before the draw", [*opening(), end("A")], dp("B", "エンキ", "d6"),
     [*opening(), end("A"), draw("B")], dp("B", "エンキ", "d6")),
    ("GL-3.3", "a second draw", [*opening(), end("A"), draw("B")], draw("B"), [*opening(), end("A")], draw("B")),
    ("GL-3.3", "two cards drawn", [*opening(), end("A")], {"type": "draw", "by": "B", "count": 2},
     [*opening(), end("A")], {"type": "draw", "by": "B", "count": 1}),
    ("GL-3.4", "the first player's first draw", opening(), draw("A"), [*opening(), end("A")], draw("B")),
    ("GL-3.5", "a third deploy on the first turn", [*opening(), dp("A", "ラガン", "b1"), dp("A", "グレン", "d1")],
     dp("A", "ダヤッカイザー", "a1"), [*opening(), dp("A", "ラガン", "b1")], dp("A", "ダヤッカイザー", "a1")),
    ("GL-3.6", "no discard above the hand limit", [*opening(), end("A"), draw("B")], end("B"),
     [*opening(), end("A"), draw("B")], end("B", ["ビャコウ"])),
    ("GL-4.1", "deploying a character card", opening(), dp("A", "カミナ", "b1"), opening(), dp("A", "ラガン", "b1")),
    ("GL-4.1", "合体 into a non-GBS card", [*SETUP, put("A", "ラガン", "d1")],
     {**COMBINE, "deployed": {"card": "カミナ", "square": "d1"}}, [*SETUP, put("A", "ラガン", "d1")], COMBINE),
    ("GL-4.2", "the wrong figure", opening(), {**dp("A", "ラガン", "a1"), "figure": "グレン"}, opening(),
     dp("A", "ラガン", "a1")),
    ("GL-4.2", "a figure already on the field", [*opening(), dp("A", "ラガン", "b1")], dp("A", "ラガン", "a1"),
     opening(), dp("A", "ラガン", "a1")),
    ("GL-4.3", "outside the deploy zone", opening(), dp("A", "ラガン", "b2"), opening(), dp("A", "ラガン", "b1")),
    ("GL-4.4", "moving a figure deployed this turn", [*opening(), dp("A", "ラガン", "b1")],
     mv("A", ["ラガン"], "b1", "b2"), SETUP, mv("A", ["ラガン"], "b1", "b2")),
    ("GL-4.5", "deploying a 合体 card", SETUP, dp("A", "グレンラガン", "a1"), SETUP, dp("A", "ダヤッカイザー", "a1")),
    ("GL-4.5", "合体 without its parts together", SETUP, COMBINE, [*SETUP, put("A", "ラガン", "d1")], COMBINE),
    ("GL-5.1", "support with a skill card", SETUP, {**SUPPORT, "card": "ドリル一閃"}, SETUP, SUPPORT),
    ("GL-5.1", "support on an enemy figure", SETUP, {**SUPPORT, "target": "B:エンキ"}, SETUP, SUPPORT),
    ("GL-5.2", "equipping a character card", SETUP, {**BOOMERANG, "card": "カミナ"}, SETUP, BOOMERANG),
    ("GL-5.2", "an item figure not in stock",
     [*SETUP, BOOMERANG, {"type": "effect", "by": "A", "card": "グレン", "drew": ["グレンブーメラン"]}],
     {**BOOMERANG, "target": "グレン"}, SETUP, BOOMERANG),
    ("GL-5.3", "a second item", [*SETUP, BOOMERANG, {"type": "effect", "by": "A", "card": "グレン", "drew": ["ギガドリル"]}],
     {"type": "equip", "by": "A", "card": "ギガドリル", "target": "グレン"}, SETUP, BOOMERANG),
    ("GL-5.4", "an item on a figure it does not fit", SETUP, {**BOOMERANG, "target": "ラガン"}, SETUP, BOOMERANG),
    ("GL-6.1", "moving an enemy figure", SETUP, mv("A", ["エンキ"], "d6", "d5"), SETUP, mv("A", ["グレン"], "d1", "d2")),
    ("GL-6.1", "moving twice", [*SETUP, mv("A", ["グレン"], "d1", "d2")], mv("A", ["グレン"], "d2", "d3"),
     [*SETUP, mv("A", ["グレン"], "d1", "d2")], mv("A", ["ラガン"], "b1", "b2")),
    ("GL-6.2", "a third square", SETUP, mv("A", ["グレン"], "d1", "d2", "d3", "d4"), SETUP,
     mv("A", ["グレン"], "d1", "d2", "d3")),
    ("GL-6.3", "a jump", SETUP, mv("A", ["グレン"], "d1", "d3"), SETUP, mv("A", ["グレン"], "d1", "d2")),
    ("GL-6.3", "a path from the wrong square", SETUP, mv("A", ["グレン"], "c1", "c2"), SETUP,
     mv("A", ["グレン"], "d1", "c1")),
    ("GL-6.3", "a path of one square", SETUP, mv("A", ["グレン"], "d1"), SETUP, mv("A", ["グレン"], "d1", "d2")),
    ("GL-6.4", "a seventh cell", SEVEN_CELLS, mv("A", ["ラガン"], "d1", "e1"), SEVEN_CELLS, mv("A", ["ラガン"], "d1", "d2")),
    ("GL-6.5", "deploying onto enemies", [*SETUP, put("B", "ガンメン", "a1")], dp("A", "ダヤッカイザー", "a1"),
     [*SETUP, put("B", "ガンメン", "a1")], dp("A", "ダヤッカイザー", "e1")),
    ("GL-6.6", "passing through enemies", [*SETUP, put("B", "ガンメン", "d2")], mv("A", ["グレン"], "d1", "d2", "d3"),
     [*SETUP, put("B", "ガンメン", "d2")], mv("A", ["グレン"], "d1", "e1", "e2")),
    ("GL-6.7", "a squad with squad_moves off", SQUAD, mv("A", ["グレン", "ラガン"], "d1", "d2"), SQUAD,
     mv("A", ["グレン"], "d1", "d2"), header({"squad_moves": False})),
    ("GL-7.3", "the attacker's skill after the defender's", [*BATTLE, skill("B", "獣人の誇り", user="エンキ")],
     skill("A", "ドリル一閃", user="グレン"), BATTLE, skill("A", "ドリル一閃", user="グレン")),
    ("GL-7.4", "an outcome against the powers", BATTLE, {**BATTLE_OK, "outcome": "attacker"}, BATTLE,
     {**BATTLE_OK, "outcome": "defender"}),
    ("GL-7.5", "powers against the cards", BATTLE, {**BATTLE_OK, "attack": 5}, BATTLE, BATTLE_OK),
    ("GL-7.7", "a turn end during a battle", BATTLE, end("A"), [*BATTLE, BATTLE_OK], end("A")),
    ("GL-7.7", "a deploy during a battle", BATTLE, dp("A", "ダヤッカイザー", "a1"), [*BATTLE, BATTLE_OK],
     dp("A", "ダヤッカイザー", "a1")),
    ("GL-7.7", "a battle line without a battle", SETUP, {"type": "battle", "by": "A", "attack": 1, "defend": 0},
     BATTLE, BATTLE_OK),
    ("GL-8.1", "a character card as a skill", SETUP, skill("A", "カミナ"), BATTLE, skill("A", "ドリル一閃", user="グレン")),
    ("GL-8.2", "a 【戦闘】 skill outside a battle", SETUP, skill("A", "ドリル一閃", user="グレン"), BATTLE,
     skill("A", "ドリル一閃", user="グレン")),
    ("GL-8.2", "a 【罠】 used, not set", B_TURN, skill("B", "待ち伏せ"), B_TURN, skill("B", "待ち伏せ", set=True)),
    ("GL-8.2", "a 【メイン】 card set", [*B_TURN, {"type": "support", "by": "B", "card": "ヴィラル", "target": "エンキ"}],
     skill("B", "螺旋王の命令", user="エンキ", set=True),
     [*B_TURN, {"type": "support", "by": "B", "card": "ヴィラル", "target": "エンキ"}],
     skill("B", "螺旋王の命令", user="エンキ")),
    ("GL-8.3", "a user not in the battle", BATTLE, skill("A", "ドリル一閃", user="ラガン"), BATTLE,
     skill("A", "ドリル一閃", user="グレン")),
    ("GL-8.3", "skill too low", B_TURN, skill("B", "螺旋王の命令", user="エンキ"),
     [*B_TURN, {"type": "support", "by": "B", "card": "ヴィラル", "target": "エンキ"}],
     skill("B", "螺旋王の命令", user="エンキ")),
    ("GL-8.4", "a fourth skill", FOUR_SKILLS, skill("B", "螺旋王の命令", user="エンキ"), FOUR_SKILLS[:-1],
     skill("B", "螺旋王の命令", user="エンキ")),
    ("GL-8.5", "springing a trap never set", B_TURN, SPRING, AMBUSH, SPRING, KEEP_TRAPS),
    ("GL-8.6", "気合い drawing two", KIAI, skill("A", "気合い", user="ラガン", drew=2), KIAI,
     skill("A", "気合い", user="ラガン", drew=1)),
    ("GL-8.7", "螺旋王の命令 readying an enemy figure", ORDER,
     skill("B", "螺旋王の命令", user="エンキ", readied=["A:グレン"]), ORDER,
     skill("B", "螺旋王の命令", user="エンキ", readied=["エンキ"])),
    ("GL-8.7", "螺旋王の命令 readying two", ORDER,
     skill("B", "螺旋王の命令", user="エンキ", readied=["エンキ", "ガンメン"]), ORDER,
     skill("B", "螺旋王の命令", user="エンキ", readied=["エンキ"])),
    ("GL-8.8", "待ち伏せ sprung with no attack on B", [*B_TURN, skill("B", "待ち伏せ", set=True)], SPRING, AMBUSH,
     SPRING, KEEP_TRAPS),
    ("GL-8.9", "待ち伏せ recorded +3", AMBUSH, {**SPRING, "power": 3}, AMBUSH, {**SPRING, "power": 2}, KEEP_TRAPS),
    ("GL-8.9", "ドリル一閃 recorded +2", BATTLE, skill("A", "ドリル一閃", user="グレン", power=2), BATTLE,
     skill("A", "ドリル一閃", user="グレン", power=1)),
    ("GL-9.1", "a second カミナ on the field",
     [*SETUP, SUPPORT, {"type": "effect", "by": "A", "card": "グレン", "drew": ["カミナ"]}],
     {**SUPPORT, "target": "ラガン"}, SETUP, {**SUPPORT, "target": "ラガン"}),
    ("GL-10.1", "a card no longer in hand", [*opening(), dp("A", "ダヤッカイザー", "a1")],
     {"type": "effect", "by": "A", "card": "グレン", "discarded": ["ダヤッカイザー"]} | {"type": "end_turn"},
     opening(), end("A", [])),
    ("GL-10.1", "a card not in the known hand", opening(), dp("A", "ダヤッカイザー", "a1") | {"card": "エンキ"},
     opening(), dp("A", "ダヤッカイザー", "a1")),
    ("GL-10.2", "an effect of a card nowhere", opening(), {"type": "effect", "by": "A", "card": "エンキ"}, opening(),
     {"type": "effect", "by": "A", "card": "グレン"}),
    ("GL-10.3", "more cards revealed than unknown", opening(), {"type": "reveal", "by": "A", "cards": ["グレン"]}, [],
     {"type": "reveal", "by": "A", "cards": ["グレン"]}),
    ("GL-10.4", "a fourth copy", [], {"type": "reveal", "by": "B", "cards": ["エンキ"] * 4}, [],
     {"type": "reveal", "by": "B", "cards": ["エンキ"] * 3}),
    ("GL-11.3", "a move after the result", OVER, end("A"), SETUP, end("A")),
]


@pytest.mark.parametrize("case", VIOLATIONS, ids=[f"{c[0]} {c[1]}" for c in VIOLATIONS])
def test_fires_and_the_same_move_made_legally_is_clean(case: Case) -> None:
    rule, _what, before, bad, before_ok, good = case[:6]
    hdr = case[6] if len(case) > 6 else H
    board, found = fold(hdr, before)
    assert found == [], found
    assert rule in rules_of(R.check(board, {"seq": 99, **bad})), bad
    assert bad["type"] == good["type"]
    board, found = fold(hdr, before_ok)
    assert found == [] and R.check(board, {"seq": 99, **good}) == [], good


# --- deck construction: FieldErrors on the header --------------------------------------


def _deck(pid: int) -> dict[str, Any]:
    return H["players"][pid]["deck"]


def _header_with(change: Callable[[dict[str, Any]], None]) -> list[FieldError]:
    h = header()
    change(h)
    return R.validate_header(h)


HEADER_RULES: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("GL-1.1", lambda h: h["players"][0]["deck"]["cards"].pop()),
    ("GL-1.2", lambda h: h["players"][1]["deck"]["cards"].__setitem__(3, "エンキ")),
    ("GL-1.3", lambda h: h["players"][0]["deck"]["stock"].append("ラガン")),
    ("GL-1.4", lambda h: h["players"][0]["deck"]["stock"].remove("グレンブーメラン")),
    ("GL-1.6", lambda h: h["players"][0]["deck"]["stock"].remove("ラガン")),
    ("GL-1.7", lambda h: h["players"][0]["deck"]["cards"].__setitem__(0, "アンチスパイラル")),
]


def test_base_shapes_gl_1_5_fire_with_a_catalog_of_big_figures():
    """GL-1.5 cannot fire with the sample catalog (all its shapes fit 3 units), so the check
    runs on the same deck with three 6-cell figures added to the catalog."""
    cat = load()
    big = {f"巨大{i}": Card(f"巨大{i}", "gbs", power=1, shape=("###", "###")) for i in range(3)}
    bigger = replace(cat, cards={**cat.cards, **big})
    deck = _deck(0)
    assert deck_problems(deck["cards"], deck["stock"], bigger) == []
    cards = [*deck["cards"][:-3], *big]
    found = deck_problems(cards, [*deck["stock"], *big], bigger)
    assert [p for _, p in found if p.startswith("GL-1.5")] == ["GL-1.5: base shapes (27 cells) do not fit 3 units of 2×3"]
    assert deck_problems([*deck["cards"][:-2], *list(big)[:2]], [*deck["stock"], *list(big)[:2]], bigger)  # 21 cells


@pytest.mark.parametrize(("rule", "change"), HEADER_RULES, ids=[r for r, _ in HEADER_RULES])
def test_deck_rule_fires_and_the_sample_decks_are_clean(rule: str, change: Callable[[dict[str, Any]], None]) -> None:
    assert R.validate_header(header()) == []
    assert any(e.problem.startswith(f"{rule}:") for e in _header_with(change)), _header_with(change)


# --- behaviour: what the rules make happen, each shown both ways --------------------------


def b_json(moves: list[dict[str, Any]], hdr: dict[str, Any] = H) -> dict[str, Any]:
    board, found = fold(hdr, moves)
    assert found == [], found
    return R.board_json(board)


def gl_2_1() -> None:
    start = b_json([])["players"]["B"]
    assert (start["damage"], start["life"]) == (0, 5)
    hit = b_json([*SETUP, {"type": "effect", "by": "A", "card": "グレン", "damage": {"B": 2}}])["players"]["B"]
    assert (hit["damage"], hit["life"]) == (2, 3)


def gl_2_2() -> None:
    p = b_json([])["players"]["A"]
    assert (p["hand"], p["deck"]) == ([None] * 6, 24)
    assert b_json(opening())["players"]["A"]["hand"][0] == "グレン"


def gl_2_3() -> None:
    assert R.validate_move({"seq": 1, "type": "mulligan", "by": "A"})[0].field == "type"
    assert "mulligan" not in R.move_types


def gl_3_2() -> None:
    before = b_json([*SETUP[:-2], skill("B", "待ち伏せ", set=True)])
    assert before["players"]["B"]["skill_zone"] and before["active"] == "B"
    after = b_json([*SETUP[:-1]])  # B's turn ended, A's begins: A's figures 未行動
    figs = [f for sq in after["field"]["squares"] for f in sq["figures"] if f["owner"] == "A"]
    assert figs and not any(f["acted"] for f in figs)
    assert all(f["acted"] for sq in after["field"]["squares"] for f in sq["figures"] if f["owner"] == "B")


def gl_6_8() -> None:
    assert b_json([*SETUP, put("A", "グレン", "e5"), {"type": "effect", "by": "A", "card": "グレン", "readied": ["グレン"]},
                   mv("A", ["グレン"], "e5", "e6")])["players"]["B"]["damage"] == 1
    assert b_json([*SETUP, put("A", "グレン", "e6"), {"type": "effect", "by": "A", "card": "グレン", "readied": ["グレン"]},
                   mv("A", ["グレン"], "e6", "e5")])["players"]["B"]["damage"] == 0


def gl_7_1() -> None:
    assert b_json(BATTLE)["battle"]["defenders"] == ["エンキ"]
    assert b_json([*SETUP, mv("A", ["グレン"], "d1", "d2", "d3")])["battle"] is None


def gl_7_2() -> None:
    # ラガン was deployed first (b1), but グレン reached d1 first: the earliest to arrive leads
    j = b_json([*SETUP, put("A", "ラガン", "d1")])
    d1 = next(s for s in j["field"]["squares"] if s["square"] == "d1")
    assert d1["leader"] == "グレン" and [f["figure"] for f in d1["figures"]] == ["グレン", "ラガン"]
    j = b_json([*SETUP, put("A", "グレン", "b1")])
    b1 = next(s for s in j["field"]["squares"] if s["square"] == "b1")
    assert b1["leader"] == "ラガン" and [f["figure"] for f in b1["figures"]] == ["ラガン", "グレン"]
    j = b_json([*SQUAD, mv("A", ["ラガン", "グレン"], "d1", "d2")])  # a squad keeps the order it is named in
    d2 = next(s for s in j["field"]["squares"] if s["square"] == "d2")
    assert [f["figure"] for f in d2["figures"]] == ["ラガン", "グレン"]


def gl_7_6() -> None:
    lost = b_json([*BATTLE, BATTLE_OK])
    assert "グレン" in lost["players"]["A"]["stock"] and "グレン" in lost["players"]["A"]["discard"]
    won_battle = b_json([*SETUP, put("B", "ガンメン", "d3"), mv("A", ["グレン"], "d1", "d2", "d3"),
                         {"type": "battle", "by": "A", "attack": 3, "defend": 1}])
    d3 = next(s for s in won_battle["field"]["squares"] if s["square"] == "d3")
    assert [f["figure"] for f in d3["figures"]] == ["グレン"] and d3["figures"][0]["acted"]
    assert "ガンメン" in won_battle["players"]["B"]["stock"]


def gl_11_1() -> None:
    board, _ = fold(H, OVER)
    assert R.result(board).to_json() == {"winner": "A", "reason": "damage"}
    board, _ = fold(H, [*SETUP, {"type": "effect", "by": "A", "card": "グレン", "damage": {"B": 4}}])
    assert R.result(board) is None


def gl_11_2() -> None:
    board, _ = fold(H, SETUP)
    assert R.result(board) is None
    empty = replace(board, sides=(board.sides[0], replace(board.sides[1], deck=0)))
    assert R.result(empty).to_json() == {"winner": "A", "reason": "deck-out-tie"}


BEHAVIOURS: dict[str, Callable[[], None]] = {
    "GL-2.1": gl_2_1,
    "GL-2.2": gl_2_2,
    "GL-2.3": gl_2_3,
    "GL-3.2": gl_3_2,
    "GL-6.8": gl_6_8,
    "GL-7.1": gl_7_1,
    "GL-7.2": gl_7_2,
    "GL-7.6": gl_7_6,
    "GL-11.1": gl_11_1,
    "GL-11.2": gl_11_2,
}


@pytest.mark.parametrize("rule", sorted(BEHAVIOURS))
def test_behaviour(rule: str) -> None:
    BEHAVIOURS[rule]()


# House rules: each is shown with its default and its option by the test named here.
HOUSE: dict[str, str] = {
    "GL-H1": "test_house_rules.py::test_draw_per_turn",
    "GL-H2": "test_house_rules.py::test_split_movement",
    "GL-H3": "test_house_rules.py::test_squad_moves",
    "GL-H4": "test_house_rules.py::test_pass_through_enemy",
    "GL-H5": "test_house_rules.py::test_diagonal_moves",
    "GL-H6": "test_house_rules.py::test_invasion_damage_per_figure",
    "GL-H7": "test_house_rules.py::test_deckout_timing",
    "GL-H8": "test_house_rules.py::test_deploy_to_headquarters",
    "GL-H9": "test_house_rules.py::test_traps_survive_turn_end",
    "GL-H10": "test_house_rules.py::test_invasion_on_entry",
}


def _test_source(ref: str) -> str:
    file, _, name = ref.partition("::")
    text = (HERE / file).read_text(encoding="utf-8")
    start = text.index(f"def {name}(")
    end = text.find("\ndef ", start + 1)
    return text[start : end if end > 0 else None]


def test_house_rule_tests_name_their_id_and_set_the_option():
    for rule, ref in HOUSE.items():
        body = _test_source(ref)
        assert rule in body, f"{ref} does not name {rule}"
        option = re.search(rf"\| `(\w+)` \| [^|]+ \| {rule[3:]} \|", DOC)
        assert option and option.group(1) in body, f"{ref} does not set {option and option.group(1)}"


# --- the doc, the code and the tests agree on the ids ------------------------------------


def test_every_id_the_code_cites_is_documented():
    assert code_ids() <= set(doc_ids())


def test_every_documented_id_is_tested_here():
    fired = {c[0] for c in VIOLATIONS} | {r for r, _ in HEADER_RULES} | {"GL-1.5"}
    assert set(doc_ids()) - fired - set(BEHAVIOURS) - set(HOUSE) == set()
    assert code_ids() <= fired


def _named(rule: str, text: str) -> bool:
    spelled = text + "\n" + text.replace("_", ".").replace("gl.", "GL-").replace("GL.", "GL-")  # test_x_gl_3_1
    return re.search(rf"{re.escape(rule)}(?![\d.])", spelled) is not None


def test_every_documented_id_is_named_by_a_test_file():
    """The text search of issue 18: every id of the doc appears in the tests of this folder, and
    each id of a check or a house rule also in a test file beside this one (its focused test)."""
    files = {p.name: p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py")}
    everything = "\n".join(files.values())
    others = "\n".join(text for name, text in files.items() if name != Path(__file__).name)
    assert [rule for rule in doc_ids() if not _named(rule, everything)] == []
    assert [rule for rule in doc_ids() if rule not in BEHAVIOURS and not _named(rule, others)] == []
