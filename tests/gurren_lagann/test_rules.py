"""Each enforced rule, with an illegal move flagged by its GL- id."""

from __future__ import annotations

from projections.gurren_lagann import RULESET as R

from .helpers import fold, header, last, opening, rules_of

H = header()


def dp(by, card, sq):
    return {"type": "deploy", "by": by, "card": card, "square": sq}


def mv(by, figs, *path):
    return {"type": "move", "by": by, "figures": list(figs), "path": list(path)}


def end(by, disc=()):
    return {"type": "end_turn", "by": by, "discarded": list(disc)}


def draw(by, *cards):
    return (
        {"type": "draw", "by": by, "cards": list(cards)}
        if cards
        else {"type": "draw", "by": by, "count": 1}
    )


def put(by, fig, sq):
    """A card text moved a figure (used to set up positions)."""
    return {"type": "effect", "by": by, "card": fig, "moved": {f"{by}:{fig}": sq}}


def skill(by, card, **kw):
    return {"type": "skill", "by": by, "card": card, **kw}


# A: ラガン b1, グレン d1 | B: エンキ d6, ガンメン b6 | A to move on turn 3 after drawing
SETUP = [
    *opening(),
    dp("A", "ラガン", "b1"),
    dp("A", "グレン", "d1"),
    end("A"),
    draw("B", "螺旋王の命令"),
    dp("B", "エンキ", "d6"),
    dp("B", "ガンメン", "b6"),
    end("B"),
    draw("A", "グレンラガン"),
]
# グレン d1 attacks エンキ (placed on d3): the battle is in progress
BATTLE = [*SETUP, put("B", "エンキ", "d3"), mv("A", ["グレン"], "d1", "d2", "d3")]


def test_setup_is_legal():
    board, found = fold(H, SETUP)
    assert found == []
    assert board.turn == 3 and board.active == "A" and board.phase == "main"
    assert fold(H, BATTLE)[1] == []


def test_turn_order_gl_3_1():
    assert "GL-3.1" in last(H, opening(), dp("B", "エンキ", "d6"))
    assert "GL-3.1" in last(H, opening(), end("B"))


def test_first_player_draws_nothing_gl_3_4():
    assert last(H, opening(), draw("A", "グレン")) == ["GL-3.4"]


def test_draw_phase_gl_3_3():
    before = [*opening(), end("A")]
    assert "GL-3.3" in last(H, before, dp("B", "エンキ", "d6"))  # main action before the draw
    assert last(H, before, draw("B", "エンキ")) == []
    assert "GL-3.3" in last(H, [*before, draw("B")], draw("B"))  # a second draw
    assert "GL-3.3" in last(H, before, {"type": "draw", "by": "B", "count": 2})


def test_first_turn_deploys_at_most_two_gl_3_5():
    moves = [*opening(), dp("A", "ラガン", "b1"), dp("A", "グレン", "d1")]
    assert last(H, moves, dp("A", "ダヤッカイザー", "a1")) == ["GL-3.5"]
    b_moves = [
        *moves,
        end("A"),
        draw("B", "ヴィラル"),
        dp("B", "エンキ", "d6"),
        dp("B", "ビャコウ", "c6"),
    ]
    assert last(H, b_moves, dp("B", "ガンメン", "b6")) == []  # only the first player is limited


def test_hand_limit_gl_3_6():
    moves = [*opening(), end("A"), draw("B")]  # B holds 7
    assert "GL-3.6" in last(H, moves, end("B"))
    assert last(H, moves, end("B", ["ビャコウ"])) == []
    assert "GL-3.6" in last(H, moves, end("B", ["ビャコウ", "ガンメン"]))  # only down to 6
    board, _ = fold(H, [*moves, end("B", ["ビャコウ"])])
    assert len(board.sides[1].hand) == 6 and board.sides[1].discard == ("ビャコウ",)


def test_deploy_rules_gl_4():
    base = opening()
    assert "GL-4.1" in last(H, base, dp("A", "カミナ", "b1"))
    assert "GL-4.3" in last(H, base, dp("A", "ラガン", "b2"))
    assert "GL-4.3" in last(H, base, dp("A", "ラガン", "b6"))  # the enemy's deploy zone
    assert last(H, base, dp("A", "ラガン", "c1")) == []  # 本陣 is part of the deploy zone
    on_field = [*base, dp("A", "ラガン", "b1")]
    assert "GL-4.2" in last(H, on_field, dp("A", "ラガン", "a1"))  # figure not in stock
    assert "GL-9.1" in last(H, on_field, dp("A", "ラガン", "a1"))  # name already on the field


def test_deploying_onto_enemies_gl_6_5():
    moves = [*SETUP, put("B", "ガンメン", "a1")]
    assert "GL-6.5" in last(H, moves, dp("A", "ダヤッカイザー", "a1"))


def test_card_not_in_hand_gl_10_1():
    assert "GL-10.1" in last(H, opening(), dp("A", "ダヤッカイザー", "a1") | {"card": "エンキ"})


def test_combined_card_only_by_combine_gl_4_5():
    assert "GL-4.5" in last(H, SETUP, dp("A", "グレンラガン", "a1"))
    combine = {
        "type": "effect",
        "by": "A",
        "card": "グレンラガン",
        "destroyed": ["A:ラガン", "A:グレン"],
        "deployed": {"card": "グレンラガン", "square": "d1"},
    }
    assert "GL-4.5" in last(H, SETUP, combine)  # ラガン is on b1, not d1
    together = [*SETUP, put("A", "ラガン", "d1")]
    assert last(H, together, combine) == []
    board, _ = fold(H, [*together, combine])
    assert [(u.figure, u.square) for u in board.units if u.owner == "A"] == [("グレンラガン", "d1")]


def test_summoning_sickness_gl_4_4():
    moves = [*opening(), dp("A", "ラガン", "b1")]
    assert last(H, moves, mv("A", ["ラガン"], "b1", "b2")) == ["GL-4.4"]


def test_support_gl_5_1():
    assert (
        last(H, SETUP, {"type": "support", "by": "A", "card": "カミナ", "target": "グレン"}) == []
    )
    assert "GL-5.1" in last(
        H, SETUP, {"type": "support", "by": "A", "card": "カミナ", "target": "エンキ"}
    )
    assert "GL-5.1" in last(
        H, SETUP, {"type": "support", "by": "A", "card": "ドリル一閃", "target": "グレン"}
    )


def test_equip_gl_5_2_to_5_4():
    boom = {"type": "equip", "by": "A", "card": "グレンブーメラン", "target": "グレン"}
    assert last(H, SETUP, boom) == []
    assert "GL-5.4" in last(H, SETUP, {**boom, "target": "ラガン"})
    again = [
        *SETUP,
        boom,
        {"type": "effect", "by": "A", "card": "グレン", "drew": ["グレンブーメラン"]},
    ]
    assert "GL-5.2" in last(H, again, {**boom, "target": "ラガン"})  # item figure not in stock
    drill = [*SETUP, boom, {"type": "effect", "by": "A", "card": "グレン", "drew": ["ギガドリル"]}]
    found = last(H, drill, {"type": "equip", "by": "A", "card": "ギガドリル", "target": "グレン"})
    assert {"GL-5.3", "GL-5.4"} <= set(found)


def test_unique_support_gl_9_1():
    moves = [
        *SETUP,
        {"type": "support", "by": "A", "card": "カミナ", "target": "グレン"},
        {"type": "effect", "by": "A", "card": "グレン", "drew": ["カミナ"]},
    ]
    assert "GL-9.1" in last(
        H, moves, {"type": "support", "by": "A", "card": "カミナ", "target": "ラガン"}
    )


def test_movement_gl_6_1_to_6_3():
    m = SETUP
    assert last(H, m, mv("A", ["グレン"], "d1", "d2", "d3")) == []
    assert "GL-6.2" in last(H, m, mv("A", ["グレン"], "d1", "d2", "d3", "d4"))  # a third square
    assert "GL-6.3" in last(H, m, mv("A", ["グレン"], "d1", "d3"))
    assert "GL-6.3" in last(H, m, mv("A", ["グレン"], "d1", "e2"))  # diagonal: off by default
    assert "GL-6.3" in last(H, m, mv("A", ["グレン"], "c1", "c2"))  # not its square
    assert "GL-6.1" in last(H, m, mv("A", ["エンキ"], "d6", "d5"))  # not A's figure
    moved = [*m, mv("A", ["グレン"], "d1", "d2")]
    assert "GL-6.1" in last(H, moved, mv("A", ["グレン"], "d2", "d3"))  # moved once already


def test_seventh_cell_gl_6_4():
    # グレン (4 cells) + ダヤッカイザー (2) fill e1; ラガン would be the 7th cell
    moves = [
        *SETUP,
        dp("A", "ダヤッカイザー", "e1"),
        mv("A", ["グレン"], "d1", "e1"),
        put("A", "ラガン", "d1"),
        {"type": "effect", "by": "A", "card": "ラガン", "readied": ["ラガン"]},
    ]
    assert fold(H, moves)[1] == []
    assert last(H, moves, mv("A", ["ラガン"], "d1", "e1")) == ["GL-6.4"]
    assert last(H, moves, mv("A", ["ラガン"], "d1", "d2")) == []


def test_passing_through_enemies_gl_6_6():
    moves = [*SETUP, put("B", "ガンメン", "d2")]
    assert last(H, moves, mv("A", ["グレン"], "d1", "d2", "d3")) == ["GL-6.6"]
    h = header({"pass_through_enemy": True})
    assert last(h, moves, mv("A", ["グレン"], "d1", "d2", "d3")) == []


def test_squad_moves_gl_6_7():
    moves = [
        *SETUP,
        put("A", "ラガン", "d1"),
        {"type": "effect", "by": "A", "card": "ラガン", "readied": ["ラガン"]},
    ]
    squad = mv("A", ["グレン", "ラガン"], "d1", "d2")
    assert last(H, moves, squad) == []
    assert last(header({"squad_moves": False}), moves, squad) == ["GL-6.7"]
    board, _ = fold(H, [*moves, squad])
    assert sorted(u.figure for u in board.units if u.square == "d2") == ["グレン", "ラガン"]


def test_invasion_damage_gl_6_8():
    moves = [
        *SETUP,
        put("A", "グレン", "d5"),
        {"type": "effect", "by": "A", "card": "グレン", "readied": ["グレン"]},
    ]
    board, _ = fold(H, [*moves, mv("A", ["グレン"], "d5", "e5", "e6")])
    assert board.sides[1].damage == 1
    board, _ = fold(H, [*moves, mv("A", ["グレン"], "d5", "c5", "c6")])
    assert board.sides[1].damage == 2


def test_battle_needs_resolving_gl_7_7():
    assert "GL-7.7" in last(H, BATTLE, end("A"))
    assert "GL-7.7" in last(H, BATTLE, dp("A", "ダヤッカイザー", "a1"))
    assert "GL-7.7" in last(H, SETUP, {"type": "battle", "by": "A", "attack": 1, "defend": 0})


def test_battle_outcome_gl_7_4_and_power_gl_7_5():
    ok = {"type": "battle", "by": "A", "attack": 3, "defend": 4}
    assert last(H, BATTLE, ok) == []
    assert "GL-7.4" in last(H, BATTLE, ok | {"outcome": "attacker"})
    board, _ = fold(H, BATTLE)
    found = R.check(board, {"seq": 50, **ok, "attack": 5})
    assert [v.rule for v in found] == ["GL-7.5"]
    assert found[0].expected == {"attack": 3, "defend": 4, "outcome": "defender"}
    assert found[0].suggest[0]["attack"] == 3


def test_battle_results_gl_7_6():
    lost, _ = fold(H, [*BATTLE, {"type": "battle", "by": "A", "attack": 3, "defend": 4}])
    a, _b = lost.sides
    assert "グレン" in a.stock and "グレン" in a.discard
    assert sorted((u.figure, u.square) for u in lost.units if u.owner == "B") == [
        ("エンキ", "d3"),
        ("ガンメン", "b6"),
    ]
    tie = [
        *SETUP,
        put("B", "ガンメン", "d3"),
        put("B", "エンキ", "a6"),
        mv("A", ["グレン"], "d1", "d2", "d3"),
        skill("B", "獣人の誇り", user="ガンメン") | {"power": 2},
    ]
    _board, found = fold(H, tie)
    assert found and {v.rule for v in found} == {"GL-8.3"}  # ガンメン's skill is 0
    both, _ = fold(H, [*tie, {"type": "battle", "by": "A", "attack": 3, "defend": 3}])
    assert {u.figure for u in both.units} == {"ラガン", "エンキ"}
    won, _ = fold(
        H,
        [
            *SETUP,
            put("B", "ガンメン", "d3"),
            mv("A", ["グレン"], "d1", "d2", "d3"),
            {"type": "battle", "by": "A", "attack": 3, "defend": 1},
        ],
    )
    assert [u.square for u in won.units if u.figure == "グレン"] == ["d3"]


def test_battle_skills_attacker_first_gl_7_3():
    after_b = [*BATTLE, skill("B", "獣人の誇り", user="エンキ")]
    assert fold(H, after_b)[1] == []
    assert last(H, after_b, skill("A", "ドリル一閃", user="グレン")) == ["GL-7.3"]
    a_first = [*BATTLE, skill("A", "ドリル一閃", user="グレン")]
    assert last(H, a_first, skill("B", "獣人の誇り", user="エンキ")) == []
    board, _ = fold(H, [*a_first, skill("B", "獣人の誇り", user="エンキ")])
    assert (board.battle.attack_bonus, board.battle.defend_bonus) == (1, 2)


def test_skill_rules_gl_8():
    assert "GL-8.1" in last(H, SETUP, skill("A", "カミナ"))
    assert "GL-8.2" in last(
        H, SETUP, skill("A", "ドリル一閃", user="グレン")
    )  # 【戦闘】 outside battle
    assert "GL-8.3" in last(H, BATTLE, skill("A", "ドリル一閃", user="ラガン"))  # not in the battle
    b_turn = [*opening(), end("A"), draw("B", "螺旋王の命令"), dp("B", "エンキ", "d6")]
    assert "GL-8.3" in last(H, b_turn, skill("B", "螺旋王の命令", user="エンキ"))  # skill 1 < 2
    assert "GL-8.2" in last(H, b_turn, skill("B", "待ち伏せ"))  # a trap is set, not used
    assert "GL-8.5" in last(H, b_turn, {"type": "trap", "by": "B", "card": "待ち伏せ"})
    helped = [*b_turn, {"type": "support", "by": "B", "card": "ヴィラル", "target": "エンキ"}]
    assert last(H, helped, skill("B", "螺旋王の命令", user="エンキ")) == []


def test_fourth_skill_gl_8_4():
    moves = [
        *opening(),
        end("A"),
        draw("B", "螺旋王の命令"),
        dp("B", "エンキ", "d6"),
        {"type": "support", "by": "B", "card": "ヴィラル", "target": "エンキ"},
        skill("B", "螺旋王の命令", user="エンキ"),
        skill("B", "待ち伏せ", set=True),
        {"type": "effect", "by": "B", "card": "エンキ", "drew": ["螺旋王の命令", "螺旋王の命令"]},
        skill("B", "螺旋王の命令", user="エンキ"),
    ]
    assert fold(H, moves)[1] == []
    assert last(H, moves, skill("B", "螺旋王の命令", user="エンキ")) == ["GL-8.4"]


def test_trap_set_unseen_and_sprung_later():
    moves = [
        *opening(),
        end("A"),
        draw("B"),
        dp("B", "エンキ", "d6"),
        skill("B", None, set=True),
    ]
    board, found = fold(H, moves)
    assert found == [] and board.sides[1].skill_zone[0].card is None
    sprung, found = fold(H, [*moves, {"type": "trap", "by": "B", "card": "待ち伏せ"}])
    assert rules_of(found) == ["GL-8.8"] and sprung.sides[1].skill_zone[0].card == "待ち伏せ"  # not attacked
    # kept over the turn end only by the house rule (GL-H9); by default the turn end discards it
    keep = header({"traps_survive_turn_end": True})
    kept, found = fold(keep, [*moves, end("B", []), {"type": "trap", "by": "B", "card": "待ち伏せ"}])
    assert rules_of(found) == ["GL-8.8"] and kept.sides[1].skill_zone[0].card == "待ち伏せ"
    assert last(H, [*moves, end("B", [])], {"type": "trap", "by": "B", "card": "待ち伏せ"}) == ["GL-8.8", "GL-8.5"]


def test_hidden_cards_gl_10():
    assert "GL-10.3" in last(H, opening(), {"type": "reveal", "by": "A", "cards": ["グレン"]})
    assert "GL-10.4" in last(H, [], {"type": "reveal", "by": "B", "cards": ["エンキ"] * 4})
    assert "GL-10.2" in last(
        H, opening(), {"type": "effect", "by": "A", "card": "エンキ", "damage": {"B": 1}}
    )
    # an unseen card played keeps counts exact
    board, found = fold(H, [end("A"), draw("B"), dp("B", "エンキ", "d6")])
    assert found == [] and board.sides[1].hand == (None,) * 6


def test_game_over_gl_11():
    moves = [*SETUP, {"type": "effect", "by": "A", "card": "グレン", "damage": {"B": 5}}]
    board, _ = fold(H, moves)
    assert R.result(board).to_json() == {"winner": "A", "reason": "damage"}
    assert "GL-11.3" in last(H, moves, end("A"))


def test_unseen_draw_revealed_later():
    moves = [*opening(), end("A"), draw("B"), dp("B", "エンキ", "d6"), end("B"), draw("A")]
    board, found = fold(H, moves)
    assert found == [] and board.sides[0].hand[-1] is None and len(board.sides[0].hand) == 7
    named, found = fold(H, [*moves, {"type": "reveal", "by": "A", "cards": ["シモン"]}])
    assert found == [] and named.sides[0].hand[-1] == "シモン"
    three = {"type": "reveal", "by": "A", "cards": ["ドリル一閃"]}
    assert last(H, moves, three) == []  # the second of 3 copies: fine


def test_discarding_a_card_twice_gl_10_1():
    drew = {"type": "effect", "by": "B", "card": "エンキ", "drew": ["ガンメン", "ヴィラル"]}
    moves = [*opening(), end("A"), draw("B", "螺旋王の命令"), dp("B", "エンキ", "d6"), drew]
    # B holds 8 with one ビャコウ: discarding it twice is flagged
    assert "GL-10.1" in last(H, moves, end("B", ["ビャコウ", "ビャコウ"]))
    assert last(H, moves, end("B", ["ビャコウ", "ガンメン"])) == []
