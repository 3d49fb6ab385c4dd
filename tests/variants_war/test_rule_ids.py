"""Every rule id of docs/rules/variants-war.md is tested (issue 18): each id the checks emit fires
on one move and is silent on the same kind of move made legally; each id that shapes the board
without a violation of its own is named by a test of that behaviour; every structural refusal
of ``validate_move`` is triggered with its text."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from projections.variants_war import catalog
from projections.variants_war.board import Arctos, Board
from tests.variants_war.helpers import HYAKU, RS, SHINRA, fold, header, mid_game, rules_of

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "variants-war.md"
PKG = ROOT / "projections" / "variants_war"
SHI, SAI, NAN, HOJ, GEN = SHINRA
BAR, VAI, MAR, DUK, GD = HYAKU
DORA, WIND = "銅鑼ドラゴン", "破天荒な風"


def doc_ids() -> set[str]:
    return set(re.findall(r"\*\*(VW-\d+\.\d+)\b", DOC.read_text(encoding="utf-8")))


def emitted_ids() -> set[str]:
    return {m for p in PKG.rglob("*.py") for m in re.findall(r'"(VW-\d+\.\d+)"', p.read_text(encoding="utf-8"))}


def check(board: Board, move: dict[str, Any]) -> list[str]:
    return rules_of(RS.check(board, {"seq": 1, **move}))


def after(board: Board, *moves: dict[str, Any]) -> Board:
    for move in moves:
        board = RS.apply(board, {"seq": 1, **move})
    return board


def step(src: str, dst: str, by: str = "A") -> dict[str, Any]:
    return {"type": "move", "by": by, "from": src, "to": dst}


def two() -> Board:
    return mid_game({"b1": (NAN, "A", "attack"), "d1": (SHI, "A", "attack")})


def standby(*cards: str) -> Board:
    return mid_game({"b1": (NAN, "A", "attack")}, phase="standby", hand={"A": list(cards)})


def opening() -> Board:
    return RS.initial_board(header(drafted=True))


def fight(**extra: Any) -> Board:
    return mid_game({"b1": (NAN, "A", "attack"), "b2": (DUK, "B", "attack"), **extra}, phase="battle")


def with_arctos(turn: int = 3, monsters: Any = None, **kw: Any) -> Board:
    board = mid_game({"b2": (NAN, "A", "attack"), "b3": (BAR, "B", "attack")} if monsters is None else monsters,
                     turn=turn, active="A" if turn % 2 else "B", phase="battle")
    return replace(board, arctos=Arctos("B", 2), **kw)


def status(board: Board, sq: str, name: str) -> Board:
    return board.put(sq, replace(board.at(sq), statuses=((name, board.turn),)))


def effect(card: str, sq: str, kind: str = "normal", by: str = "A", **acts: Any) -> dict[str, Any]:
    return {"type": "effect", "by": by, "card": card, "square": sq, "kind": kind, "actions": acts.get("actions", [])}


def duke(ex: tuple[str, ...] = (GD,)) -> Board:
    board = mid_game({"d3": (DUK, "B", "attack"), "b3": (BAR, "B", "attack")}, turn=4, active="B")
    return board.with_player(replace(board.player("B"), ex=ex))


CRASH, DRAW_MAGIC, DESTROY_C3 = "シールドクラッシュ", {"do": "draw", "pile": "magic", "card": None}, {"do": "destroy", "square": "c3"}


def crash(position: str) -> Board:
    return mid_game({"c3": (BAR, "B", position)}, phase="standby", hand={"A": [CRASH]})


def wind(amount: int) -> dict[str, Any]:
    return {"do": "modify", "square": "b1", "stat": "both", "op": "add", "amount": amount}


SUMMON = effect(DUK, "d3", by="B", actions=[{"do": "to_deck", "square": "d3"}, {"do": "to_deck", "square": "b3"},
                                            {"do": "summon", "card": GD, "to": "d3"}])
DRAFT = RS.initial_board(header())
Case = tuple[Callable[[], Board], dict[str, Any], Callable[[], Board], dict[str, Any]]

# id: (board where it fires, the move, board where the same kind of move is legal, that move)
CASES: dict[str, Case] = {
    "VW-2.2": (lambda: DRAFT, {"type": "draft", "by": "A", "card": NAN},
               lambda: DRAFT, {"type": "draft", "by": "A", "card": DORA}),
    "VW-2.5": (lambda: after(opening(), {"type": "draw", "by": "A", "card": None}, {"type": "draw", "by": "A", "card": None}),
               {"type": "draw", "by": "A", "card": None},
               lambda: after(opening(), {"type": "draw", "by": "A", "card": None}), {"type": "draw", "by": "A", "card": None}),
    "VW-3.1": (lambda: replace(standby(DORA), phase="main"), {"type": "set", "by": "A", "card": DORA, "to": "b0"},
               lambda: standby(DORA), {"type": "set", "by": "A", "card": DORA, "to": "b0"}),
    "VW-3.2": (lambda: mid_game({"b1": (NAN, "B", "attack")}), step("b1", "b2", "B"),
               lambda: mid_game({"b1": (NAN, "A", "attack")}), step("b1", "b2")),
    "VW-3.3": (lambda: replace(mid_game(), phase="draw", drawn=False), {"type": "end_turn", "by": "A"},
               lambda: replace(mid_game(), phase="battle"), {"type": "end_turn", "by": "A"}),
    "VW-3.4": (lambda: mid_game(hand={"A": [SAI]}), {"type": "reveal", "by": "A", "card": NAN},
               lambda: mid_game(hand={"A": [None]}), {"type": "reveal", "by": "A", "card": NAN}),  # type: ignore[list-item]
    "VW-4.1": (lambda: standby(DORA), {"type": "set", "by": "A", "card": DORA, "to": "d4"},
               lambda: standby(DORA), {"type": "set", "by": "A", "card": DORA, "to": "d0"}),
    "VW-4.2": (lambda: standby(DORA), {"type": "magic", "by": "A", "card": DORA},
               lambda: standby(WIND), {"type": "magic", "by": "A", "card": WIND}),
    "VW-5.1": (lambda: after(two(), step("b1", "b2")), step("d1", "d2"), two, step("d1", "d2")),
    "VW-5.2": (two, step("b1", "a1"), two, step("b1", "b2")),
    "VW-5.3": (lambda: mid_game({"b1": (NAN, "A", "attack"), "b2": (SHI, "A", "attack")}), step("b1", "b2"),
               lambda: mid_game({"b1": (NAN, "A", "attack"), "b2": (SHI, "A", "attack")}), step("b2", "b3")),
    "VW-5.4": (lambda: mid_game({"b1": (DORA, "A", "attack")}), effect(DORA, "b1"),
               lambda: mid_game({"b1": (SHI, "A", "attack")}),
               effect(SHI, "b1", actions=[{"do": "draw", "pile": "magic", "card": None}])),
    "VW-5.5": (lambda: mid_game({"b1": (SHI, "A", "defence")}), effect(SHI, "b1", "lateral"),
               lambda: after(mid_game({"b1": (SHI, "A", "defence")}), step("b1", "a1")),
               effect(SHI, "a1", "lateral", actions=[{"do": "draw", "pile": "rescue", "card": None}])),
    "VW-5.6": (lambda: mid_game({"b0": (NAN, "A", None)}), {"type": "position", "by": "A", "square": "b0"},
               two, {"type": "position", "by": "A", "square": "b1"}),
    "VW-5.7": (two, step("b2", "b3"), two, step("b1", "b2")),
    "VW-5.8": (lambda: status(two(), "b1", "no_action"), step("b1", "b2"), two, step("b1", "b2")),
    "VW-6.1": (lambda: fight(d1=(SAI, "B", "attack")), {"type": "battle", "by": "A", "squares": ["b1", "d1"], "destroyed": []},
               fight, {"type": "battle", "by": "A", "squares": ["b1", "b2"], "destroyed": ["b1"]}),
    "VW-6.2": (fight, {"type": "battle", "by": "A", "squares": ["b1", "b2"], "destroyed": ["b2"]},
               fight, {"type": "battle", "by": "A", "squares": ["b1", "b2"], "destroyed": ["b1"]}),
    "VW-6.3": (fight, {"type": "battle", "by": "A", "squares": ["b1", "b2"], "destroyed": ["b1"], "retreat": ["b1"]},
               lambda: mid_game({"a1": (NAN, "A", "attack"), "a2": (DUK, "B", "attack")}, phase="battle"),
               {"type": "battle", "by": "A", "squares": ["a1", "a2"], "destroyed": ["a1"], "retreat": ["a1"]}),
    "VW-6.4": (fight, {"type": "end_turn", "by": "A"},
               lambda: after(fight(), {"type": "battle", "by": "A", "squares": ["b1", "b2"], "destroyed": ["b1"]}),
               {"type": "end_turn", "by": "A"}),
    "VW-6.5": (lambda: mid_game({"b3": (NAN, "A", "attack"), "d3": (SHI, "A", "attack")}, phase="battle"),
               {"type": "breakthrough", "by": "A", "squares": ["b3"]},
               lambda: mid_game({"b3": (NAN, "A", "attack"), "d3": (SHI, "A", "attack")}, phase="battle"),
               {"type": "breakthrough", "by": "A", "squares": ["b3", "d3"]}),
    "VW-7.1": (lambda: replace(mid_game(), phase="battle"), {"type": "master", "by": "A", "dice": [6, 6]},
               lambda: mid_game(turn=4, active="B", phase="battle"), {"type": "master", "by": "B", "dice": [6, 6]}),
    "VW-7.4": (with_arctos, {"type": "battle", "by": "A", "squares": ["b2", "c2"], "destroyed": []},
               with_arctos, {"type": "battle", "by": "A", "squares": ["b2", "b3"], "destroyed": ["b3"]}),
    "VW-7.5": (lambda: replace(with_arctos(turn=5, monsters={}), arctos=None, arctos_destroyed=True),
               {"type": "master", "by": "A", "dice": [1, 2]},
               lambda: with_arctos(turn=5, monsters={}), {"type": "master", "by": "A", "dice": [1, 2]}),
    "VW-8.1": (duke, {**SUMMON, "actions": SUMMON["actions"][1:]}, duke, SUMMON),
    "VW-8.2": (lambda: after(duke(), SUMMON), step("d3", "d2", "B"),
               lambda: replace(after(duke(), SUMMON), turn=6), step("d3", "d2", "B")),
    "VW-8.3": (lambda: duke(ex=()), SUMMON, duke, SUMMON),
    "VW-9.1": (two, effect(SHI, "b1", actions=[{"do": "draw", "pile": "magic", "card": None}]),
               two, effect(SHI, "d1", actions=[{"do": "draw", "pile": "magic", "card": None}])),
    "VW-9.2": (two, effect(NAN, "b1", actions=[{"do": "move", "from": "c1", "to": "c2"}]),
               two, effect(NAN, "b1", actions=[{"do": "move", "from": "d1", "to": "e1"}])),
    "VW-9.3": (lambda: status(mid_game({"b1": (NAN, "A", "attack"), "c3": (BAR, "B", "attack")}), "c3", "immune"),
               effect(NAN, "b1", actions=[{"do": "move", "from": "c3", "to": "d3"}]),
               lambda: mid_game({"b1": (NAN, "A", "attack"), "c3": (BAR, "B", "attack")}),
               effect(NAN, "b1", actions=[{"do": "move", "from": "c3", "to": "d3"}])),
    "VW-9.4": (lambda: replace(standby(DORA), sealed=(("b0", 3),)), {"type": "set", "by": "A", "card": DORA, "to": "b0"},
               lambda: replace(standby(DORA), sealed=(("d0", 3),)), {"type": "set", "by": "A", "card": DORA, "to": "b0"}),
    "VW-10.2": (lambda: replace(mid_game(), phase="over", winner="B", reason="life"), {"type": "end_turn", "by": "A"},
                lambda: replace(mid_game(), phase="battle"), {"type": "end_turn", "by": "A"}),
    # card texts (VW-11); every text's own cases: test_card_texts.py
    "VW-11.1": (lambda: mid_game({"b1": (SHI, "A", "attack")}), effect(SHI, "b1", actions=[DRAW_MAGIC, DRAW_MAGIC]),
                lambda: mid_game({"b1": (SHI, "A", "attack")}), effect(SHI, "b1", actions=[DRAW_MAGIC])),
    "VW-11.2": (two, effect(NAN, "b1", actions=[{"do": "move", "from": "b1", "to": "a1"}]),
                two, effect(NAN, "b1", actions=[{"do": "move", "from": "d1", "to": "e1"}])),
    "VW-11.3": (two, effect(NAN, "b1", actions=[{"do": "move", "from": "d1", "to": "d3"}]),
                two, effect(NAN, "b1", actions=[{"do": "move", "from": "d1", "to": "e1"}])),
    "VW-11.4": (lambda: crash("attack"), {"type": "magic", "by": "A", "card": CRASH, "actions": [DESTROY_C3]},
                lambda: crash("defence"), {"type": "magic", "by": "A", "card": CRASH, "actions": [DESTROY_C3]}),
    "VW-11.5": (lambda: mid_game({"b1": (MAR, "A", "attack")}),
                effect(MAR, "b1", actions=[{"do": "die", "result": 3}, {"do": "draw", "pile": "rescue", "card": None}]),
                lambda: mid_game({"b1": (MAR, "A", "attack")}),
                effect(MAR, "b1", actions=[{"do": "die", "result": 3}, DRAW_MAGIC])),
    "VW-11.6": (lambda: mid_game({"b1": (SHI, "A", "attack")}),
                effect(SHI, "b1", actions=[{"do": "draw", "pile": "rescue", "card": None}]),
                lambda: mid_game({"b1": (SHI, "A", "attack")}), effect(SHI, "b1", actions=[DRAW_MAGIC])),
    "VW-11.7": (lambda: standby(WIND), {"type": "magic", "by": "A", "card": WIND, "actions": [wind(500)]},
                lambda: standby(WIND), {"type": "magic", "by": "A", "card": WIND, "actions": [wind(1000)]}),
}
DESCRIPTIVE = {  # ids that shape the board and raise no violation of their own: the test showing each
    "VW-1.1": "test_vw_1_1_squares", "VW-1.2": "test_vw_1_2_back_row_zones", "VW-1.3": "test_vw_1_3_orientation",
    "VW-1.4": "test_vw_1_4_lockon_numbering", "VW-2.1": "test_vw_2_1_factions_in_the_header",
    "VW-2.3": "test_vw_2_3_ace_aside", "VW-2.4": "test_vw_2_4_sub_board", "VW-7.2": "test_vw_7_2_appearance",
    "VW-7.3": "test_vw_7_3_lockon_roll", "VW-8.4": "test_vw_8_4_genchu_values", "VW-10.1": "test_vw_10_1_life",
    "VW-11.8": "test_vw_11_8_revenge",
}


def test_every_doc_id_is_tested_here() -> None:
    ids = doc_ids()
    assert len(ids) > 40
    assert ids == set(CASES) | set(DESCRIPTIVE), sorted(ids ^ (set(CASES) | set(DESCRIPTIVE)))
    assert emitted_ids() == set(CASES), "a violation id without a fire/legal case, or a case the code never emits"
    source = Path(__file__).read_text(encoding="utf-8")
    for rule, name in DESCRIPTIVE.items():
        assert f"def {name}(" in source, rule


def test_every_doc_id_is_named_by_some_test_file() -> None:
    sources = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py")
                      if p.name != Path(__file__).name)
    missing = [rule for rule in sorted(set(CASES)) if f'"{rule}"' not in sources]
    assert missing == []


@pytest.mark.parametrize("rule", sorted(CASES))
def test_fires_and_is_silent_on_the_legal_move(rule: str) -> None:
    bad_board, bad, good_board, good = CASES[rule]
    assert bad["type"] == good["type"]
    assert check(bad_board(), bad) == [rule]
    assert check(good_board(), good) == []


# --- ids without a violation of their own --------------------------------------------------------
def test_vw_1_1_squares() -> None:
    zones = RS.board_json(mid_game())["zones"]
    assert [z["square"] for z in zones][:6] == ["a0", "b0", "c0", "d0", "e0", "a1"] and len(zones) == 25
    assert {z["zone"] for z in zones if z["square"][1] == "2"} == {"common"}
    assert {z["owner"] for z in zones if z["square"][1] in "01"} == {"A"}


def test_vw_1_2_back_row_zones() -> None:
    kinds = {z["square"]: z["zone"] for z in RS.board_json(mid_game())["zones"]}
    assert [kinds[f"{c}0"] for c in "abcde"] == ["retreat", "sortie", "retreat", "sortie", "retreat"]
    assert [kinds[f"{c}4"] for c in "abcde"] == ["retreat", "sortie", "retreat", "sortie", "retreat"]


def test_vw_1_3_orientation() -> None:
    board = after(mid_game({"b0": (NAN, "A", None), "d3": (BAR, "B", "defence")}), step("b0", "b1"))
    mons = {m["square"]: m for m in RS.board_json(board)["monsters"]}
    assert mons["b1"]["position"] == "attack" and mons["b1"]["facing"] == "north"  # comes in attack position
    assert mons["d3"]["orientation"] == "horizontal" and mons["d3"]["facing"] == "south"
    assert after(board, {"type": "end_turn", "by": "A"}).at("b1").position == "attack"


def test_vw_1_4_lockon_numbering() -> None:
    zones = RS.board_json(with_arctos())["zones"]
    assert {z["square"]: z["lockon"] for z in zones if z["lockon"]} == {
        "b1": 1, "c1": 2, "d1": 3, "d2": 4, "d3": 5, "c3": 6, "b3": 7, "b2": 8}
    assert not any(z["lockon"] for z in RS.board_json(mid_game())["zones"])


def test_vw_2_1_factions_in_the_header() -> None:
    h = header()
    h["players"][1]["deck"] = {"name": "x", "archetype": "闇"}
    assert [str(e) for e in RS.validate_header(h)] == [
        "players[1].deck.archetype: choose a faction: 森羅万象 or 百識公国"]
    assert RS.validate_header(header(drafted=True)) == []


def test_vw_2_3_ace_aside() -> None:
    board = RS.initial_board(header())
    assert board.player("A").ex == (GEN,) and GEN not in board.player("A").deck.pool
    assert board.player("B").ex == (GD,) and len(board.player("B").deck.cards) == 4


def test_vw_2_4_sub_board() -> None:
    js = RS.board_json(RS.initial_board(header()))
    assert js["rescue_deck"] == 10 and js["magic_deck"] == 10
    assert {p["life"] for p in js["players"].values()} == {3}
    assert sorted(catalog.rescue_cards()) == sorted(RS.initial_board(header()).rescue.pool)


def test_vw_7_2_appearance() -> None:
    board = after(mid_game({"c2": (NAN, "A", "attack")}, turn=2, active="B", phase="battle"),
                  {"type": "master", "by": "B", "dice": [5, 7]})
    assert board.arctos == Arctos("B", 2) and board.at("c2") is None
    miss = after(mid_game(turn=2, active="B", phase="battle"), {"type": "master", "by": "B", "dice": [5, 6]})
    assert miss.arctos is None


def test_vw_7_3_lockon_roll() -> None:
    board = after(with_arctos(), {"type": "master", "by": "A", "dice": [8, 8]})
    assert board.at("b2") is None and board.arctos.damage == 1800 and board.at("b3") is not None


def test_vw_8_4_genchu_values() -> None:
    board = mid_game({"b1": (GEN, "A", "attack")})
    assert RS.board_json(board)["monsters"][0]["atk"] == 2500
    board = mid_game({"b1": (GEN, "A", "attack")}, genchu_atk=3000, genchu_def=100)
    assert (RS.board_json(board)["monsters"][0]["atk"], RS.board_json(board)["monsters"][0]["def"]) == (3000, 100)


def test_vw_10_1_life() -> None:
    board = mid_game({"d3": (NAN, "A", "attack")}, phase="battle")
    board = board.with_player(replace(board.player("B"), life=1))
    assert RS.result(board) is None
    board = after(board, {"type": "breakthrough", "by": "A", "squares": ["d3"]})
    result = RS.result(board)
    assert result is not None and (result.winner, result.reason) == ("A", "life") and board.phase == "over"


def test_vw_11_8_revenge() -> None:
    """瞬着ボマー: the battle it loses destroys the monster that won it too (VW-6.2's outcome)."""
    bomber = "瞬着ボマー"
    board = mid_game({"b1": (bomber, "A", "attack"), "b2": (DUK, "B", "attack")})
    board = replace(after(board, effect(bomber, "b1", actions=[{"do": "status", "square": "b1", "status": "revenge"}])),
                    phase="battle")
    fought = {"type": "battle", "by": "A", "squares": ["b1", "b2"]}
    assert check(board, {**fought, "destroyed": ["b1", "b2"]}) == []
    assert check(board, {**fought, "destroyed": ["b1"]}) == ["VW-6.2"]


# --- structural refusals of validate_move -------------------------------------------------------
REFUSALS = [
    ({"type": "fly", "by": "A"}, "type: unknown move type 'fly'"),
    ({"type": "set", "by": "A", "card": NAN}, "to: missing"),
    ({"type": "end_turn", "by": 3}, "by: must be a player id string"),
    ({"type": "draw", "by": "A", "card": 7}, "card: must be a card name or null"),
    ({"type": "move", "by": "A", "from": "b1", "to": "z9"}, "to: not a square: 'z9'"),
    ({"type": "position", "by": "A", "square": "b"}, "square: not a square: 'b'"),
    ({"type": "breakthrough", "by": "A", "squares": "b3"}, "squares: must be a list of squares"),
    ({"type": "battle", "by": "A", "squares": ["b1", "b2"], "destroyed": ["q1"]}, "destroyed: must be a list of squares"),
    ({"type": "battle", "by": "A", "squares": ["b1", "b2"], "destroyed": [], "retreat": "b1"},
     "retreat: must be a list of squares"),
    ({"type": "battle", "by": "A", "squares": ["b1"], "destroyed": []}, "squares: a battle is between exactly 2 squares"),
    ({"type": "master", "by": "A", "dice": [9, 1]}, "dice: must be two d8 results 1..8"),
    ({"type": "effect", "by": "A", "card": NAN, "kind": "secret"}, "kind: must be normal, lateral or special"),
    ({"type": "magic", "by": "A", "card": WIND, "actions": {"do": "move"}}, "actions: must be a list"),
    ({"type": "magic", "by": "A", "card": WIND, "actions": [{"do": "teleport"}]}, "actions[0]: unknown action (known: move,"),
    ({"type": "magic", "by": "A", "card": WIND, "actions": [{"do": "swap", "a": "b1"}]}, "actions[0].b: missing"),
    ({"type": "magic", "by": "A", "card": WIND, "actions": [{"do": "destroy", "square": "k3"}]},
     "actions[0].square: not a square: 'k3'"),
    ({"type": "magic", "by": "A", "card": WIND, "actions": [{"do": "status", "square": "b1", "status": "immune",
                                                            "until": "forever"}]},
     "actions[0].until: one of turn_end, next_turn_end, owner_next_turn_end, permanent"),
    ({"type": "magic", "by": "A", "card": WIND, "actions": [{"do": "draw", "pile": "graveyard"}]},
     "actions[0].pile: deck, rescue or magic"),
]


@pytest.mark.parametrize(("move", "text"), REFUSALS, ids=[t.split(":")[0] + str(i) for i, (_, t) in enumerate(REFUSALS)])
def test_each_structural_refusal_says_what_is_wrong(move: dict[str, Any], text: str) -> None:
    problems = [str(e) for e in RS.validate_move({"seq": 1, **move})]
    assert any(p.startswith(text) for p in problems), problems


def test_a_clean_line_of_each_type_is_accepted() -> None:
    for spec in RS.move_types.values():
        assert RS.validate_move(spec.example) == []
    _, found = fold([{"type": "draw", "by": "A", "card": None}], head=header(drafted=True))
    assert found == []
