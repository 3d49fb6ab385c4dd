"""The recording page's guess of the next move (exports/recording.py likely_type), counted over
every move of the four shipped examples without a browser: the pre-selected type and player
are the line's for the share printed here (issue 37 asks 90%; the floor below is what the
turn orders reach today, so a change that guesses worse fails)."""

from __future__ import annotations

import json

import pytest

from exports.recording import likely_type, state
from projections import registry
from projections.replay import Replay
from tests.web.conftest import ROOT

GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")
FLOOR = 0.885


def guessed(game: str) -> tuple[int, int]:
    lines = [json.loads(x) for x in (ROOT / "examples" / f"{game}-example.jsonl").read_text("utf-8").splitlines() if x]
    rep = Replay(lines[0], [])
    right = moves = 0
    for line in lines[1:]:
        if line["type"] != "annotate":
            nxt = state(rep, "ja", lambda b: "")["next"]
            moves += 1
            right += (nxt["type"], nxt["by"]) == (line["type"], line["by"])
        rep.extend([line])
    return right, moves


def test_the_next_move_is_guessed_for_most_moves_of_the_examples():
    counted = {g: guessed(g) for g in GAMES}
    right, moves = sum(r for r, _ in counted.values()), sum(m for _, m in counted.values())
    print({g: f"{r}/{m}" for g, (r, m) in counted.items()}, f"{right}/{moves}")
    assert moves == 256
    assert right / moves >= FLOOR, counted


@pytest.mark.parametrize("last_by, expected", [("A", "position"), ("B", "draw")])  # after a step, the main phase goes on (移動, 通常効果, 表示形式)
def test_a_turn_goes_on_in_its_order_and_a_new_turn_starts_over(last_by, expected):
    vw = registry.get("variants-war")
    legal = [{"type": "draw", "by": "A"}, {"type": "battle", "by": "A"}, {"type": "position", "by": "A"}]
    entries = [{"seq": 1, "type": "move", "by": last_by}, {"seq": 2, "type": "annotate", "on": 1, "by": "解説"}]
    assert likely_type(vw, entries, legal) == expected  # notes are not moves


def test_without_an_order_or_a_move_the_first_legal_move_leads():
    class Bare:
        turn_order = ()

    legal = [{"type": "b", "by": "A"}, {"type": "a", "by": "A"}]
    assert likely_type(Bare(), [{"seq": 1, "type": "a", "by": "A"}], legal) == "b"
    assert likely_type(registry.get("gandice"), [], legal) == "b"
    assert likely_type(registry.get("gandice"), [], []) is None


def lines_of(game: str) -> list[dict]:
    return [json.loads(x) for x in (ROOT / "examples" / f"{game}-example.jsonl").read_text("utf-8").splitlines() if x]


def next_after(game: str, seq: int) -> dict:
    """The page's next move once the example's lines up to ``seq`` are recorded."""
    lines = lines_of(game)
    return state(Replay(lines[0], [x for x in lines[1:] if x["seq"] <= seq]), "ja", lambda b: "")["next"]


def test_draft_picks_alternate_from_whoever_picked_first():
    header = lines_of("variants-war")[0]
    rep = Replay(header, [{"seq": 1, "type": "draft", "by": "B", "card": "銅鑼ドラゴン"}])
    assert state(rep, "ja", lambda b: "")["next"] == {"type": "draft", "by": "A"}
    rep.extend([{"seq": 2, "type": "draft", "by": "A", "card": "レプティアの武者騎兵"}])
    assert state(rep, "ja", lambda b: "")["next"] == {"type": "draft", "by": "B"}  # B began: B again


def test_an_aces_special_effect_is_offered_once_and_a_lateral_one_not_after_the_main_phase():
    # seq 41: グランデューク's special effect as it came; then the turn ends (VW-3: nothing else due)
    st_moves = [m["move"] for m in state(Replay(lines_of("variants-war")[0],
                                                [x for x in lines_of("variants-war")[1:] if x["seq"] <= 42]),
                                         "ja", lambda b: "")["legal"]]
    assert not any(m.get("kind") == "special" for m in st_moves)
    assert next_after("variants-war", 42)["type"] == "end_turn"
    # seq 33: the master phase after 南月's sideways step: its lateral effect no longer leads
    assert next_after("variants-war", 34)["type"] == "end_turn"


def test_a_type_the_legal_list_may_miss_is_guessed_only_for_a_hand_with_cards_unseen():
    gl = registry.get("gurren-lagann")
    legal = [{"type": "end_turn", "by": "A"}]
    entries = [{"seq": 1, "type": "deploy", "by": "A", "card": "グレン", "square": "b1"}]
    assert likely_type(gl, entries, legal) == "deploy"  # a hand unseen may hold another GBS card
    assert likely_type(gl, entries, legal, lambda by: False) == "end_turn"  # every card seen: none
    assert next_after("gurren-lagann", 5)["type"] == "end_turn"  # A's hand all seen after the reveal


def test_a_card_text_resolves_after_its_card_is_played():
    mj = registry.get("mushijingi")
    header = lines_of("mushijingi")[0]
    assert mj.then(header, {"type": "play", "by": "B", "card": "樹液の罠", "target": "A3"}, {}) == ("effect",)  # a spell
    assert mj.then(header, {"type": "play", "by": "B", "card": "オオカマキリ"}, {}) == ()  # an insect without a text
    assert mj.then(header, {"type": "attack", "by": "B", "attacker": "B2", "technique": "すくいなげ",
                            "target": "A2"}, {}) == ("effect",)
    assert mj.then(header, {"type": "attack", "by": "B", "attacker": "B2", "technique": "かみつく"}, {}) == ()
    assert next_after("mushijingi", 55)["type"] == "effect"


def test_a_figures_moves_are_offered_forward_first():
    """グレンラガン's moves: those that end nearer the opponent's side first (invading scores),
    then the longer (移動力 2); A plays up the rows from c1, B down from c6."""
    gl = registry.get("gurren-lagann")
    board = {"players": {"A": {"headquarters": "c1"}, "B": {"headquarters": "c6"}}}
    moves = [{"type": "move", "by": "A", "figures": ["ラガン"], "path": p} for p in
             (["b1", "a1"], ["b1", "b2"], ["b1", "b2", "b3"], ["b1", "a1", "a2"])]
    ranked = sorted(moves, key=lambda m: gl.rank(board, m))
    assert [m["path"] for m in ranked] == [["b1", "b2", "b3"], ["b1", "a1", "a2"], ["b1", "b2"], ["b1", "a1"]]
    back = {"type": "move", "by": "B", "figures": ["エンキ"], "path": ["d6", "d5", "d4"]}
    assert gl.rank(board, back) < gl.rank(board, {"type": "move", "by": "B", "figures": ["エンキ"], "path": ["d6", "d5"]})
    assert gl.rank(board, {"type": "end_turn", "by": "A"}) == (0, 0)  # other moves keep their order
    assert gl.rank({}, moves[0]) == (0, 0)  # a board without headquarters: no order


def test_in_a_battles_skill_step_the_defender_answers_the_attackers_skill():
    """グレンラガン: 「攻撃側から順に、任意で手札から…スキルカードを使用する」: after the attacker's
    skill in a battle, the defender's (type and player); after the defender's, the battle."""
    gl = registry.get("gurren-lagann")
    header = lines_of("gurren-lagann")[0]
    battle = {"battle": {"attacker": "A", "defender": "B"}}
    skill = {"type": "skill", "by": "A", "card": "ドリル一閃", "user": "グレンラガン"}
    assert gl.then(header, skill, battle) == (("skill", "B"),)
    assert gl.then(header, dict(skill, by="B"), battle) == ()  # the defender's: the battle follows
    assert gl.then(header, skill, {"battle": None}) == ()  # no battle: a main-phase skill
    assert next_after("gurren-lagann", 41) == {"type": "skill", "by": "B"}
    assert next_after("gurren-lagann", 42)["type"] == "battle"


def test_a_battle_begun_with_a_battle_skill_in_the_attackers_hand_goes_to_its_skill_step():
    """グレンラガン's スキル使用ステップ: a move that starts a battle while the attacker's hand shows a
    【戦闘】 skill card (ドリル一閃) pre-selects the attacker's skill; a hand unseen, the battle."""
    gl = registry.get("gurren-lagann")
    header = lines_of("gurren-lagann")[0]
    move = {"type": "move", "by": "A", "figures": ["グレンラガン"], "path": ["c2", "c3", "d3"]}
    board = {"battle": {"attacker": "A", "defender": "B"}, "players": {"A": {"hand": ["ドリル一閃", None]}}}
    assert gl.then(header, move, board) == (("skill", "A"),)
    assert gl.then(header, move, dict(board, players={"A": {"hand": [None, "グレン"]}})) == ()  # no battle skill seen
    assert gl.then(header, move, {"players": board["players"]}) == ()  # no battle begun
    assert next_after("gurren-lagann", 40) == {"type": "skill", "by": "A"}
    assert next_after("gurren-lagann", 46)["type"] == "battle"  # A's hand unseen
