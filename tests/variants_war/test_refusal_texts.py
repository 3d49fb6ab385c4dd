"""Issue 18: what a judge reads when a line is refused — each branch of each check, with its rule
id, its exact text and the `expected` / `suggest` a scorekeeper is offered — beside the same kind
of line made legally, where the rules allow it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from projections.variants_war.board import Arctos, Board, HandCard, Monster, Pile
from tests.variants_war.helpers import A_PICKS, B_PICKS, RS, mid_game
from tests.variants_war.test_rule_ids import (
    BAR,
    DORA,
    DRAFT,
    DUK,
    GD,
    GEN,
    HOJ,
    NAN,
    SAI,
    SHI,
    SUMMON,
    WIND,
    after,
    duke,
    effect,
    fight,
    opening,
    standby,
    status,
    step,
    two,
    with_arctos,
)

Said = list[tuple[str, str, Any, Any]]
DRAW_MAGIC = {"do": "draw", "pile": "magic", "card": None}
DRAW_RESCUE = {"do": "draw", "pile": "rescue", "card": None}  # 東雲's lateral effect
RISE = "召喚師ライズベルト"  # a normal effect, no lateral one


def said(board: Board, move: dict[str, Any]) -> Said:
    return [(v.rule, v.message, v.expected, v.suggest) for v in RS.check(board, {"seq": 5, **move})]


def battle(a: str, b: str, destroyed: list[str], **extra: Any) -> dict[str, Any]:
    return {"type": "battle", "by": "A", "squares": [a, b], "destroyed": destroyed, **extra}


def drafted(*picks: str) -> Board:
    board = DRAFT
    for i, card in enumerate(picks):
        board = after(board, {"type": "draft", "by": "AB"[i % 2], "card": card})
    return board


def in_draw_phase(**house: Any) -> Board:
    return replace(mid_game(**house), phase="draw", drawn=False)


def with_deck(board: Board, pid: str, deck: Pile) -> Board:
    return board.with_player(replace(board.player(pid), deck=deck))


def two_fights() -> Board:
    return mid_game({"b1": (NAN, "A", "attack"), "b2": (DUK, "B", "attack"),
                     "d1": (SHI, "A", "attack"), "d2": (BAR, "B", "attack")}, phase="battle")


def unseen_rescue_card() -> Board:
    board = mid_game()
    return board.with_player(replace(board.player("A"), hand=(HandCard(None, "rescue"),)))


def per_monster(*used: dict[str, Any]) -> Board:
    return after(mid_game({"b1": (SHI, "A", "attack"), "d1": (NAN, "A", "attack")}, main_actions="per_monster"), *used)


def summon_with(*actions: dict[str, Any]) -> dict[str, Any]:
    return {**SUMMON, "actions": list(actions)}


TO_DECK_D3, TO_DECK_B3, CALL_GD = SUMMON["actions"]
SUMMONED = {"do": "summon", "card": GD, "to": "d3"}
GD_TEXT = ("「このカードを含む自分の「ヴァリアンツ」モンスター2体を戦場ゾーンからデッキに戻して、"
           "このカードのいた位置に『ヴァリアンツＧ－グランデューク』を呼び出す。」")
GEN_TEXT = ("「このカードを含む自分の「ヴァリアンツ」モンスター3体をフィールドのゾーンからデッキに戻して、"
            "このカードのいた位置に『ヴァリアンツの聚－幻中』を呼び出す。」")


def hojo_moved_sideways() -> Board:
    return after(mid_game({"b1": (HOJ, "A", "defence"), "d1": (SHI, "A", "attack")}), step("b1", "a1"))


def arctos_in_main(monsters: Any = None) -> Board:
    return replace(with_arctos(monsters=monsters), phase="main")


WIND_BOARD = lambda: mid_game({"b1": (NAN, "A", "attack"), "d1": (SHI, "A", "attack")},  # noqa: E731
                              hand={"A": [WIND]}, phase="standby")
RETREAT_WHY = "only a monster destroyed in its own battlefield zone with an empty retreat zone directly behind"

# (what, board, the line, what the judge reads)
REFUSED: list[tuple[str, Any, dict[str, Any], Said]] = [
    # --- the turn's flow (VW-3, VW-10.2) ---------------------------------------------------------
    ("VW-10.2 a line after the result is refused for that alone",
     lambda: replace(mid_game(), phase="over", winner="B", reason="life"), step("b1", "b2"),
     [("VW-10.2", "the match is already decided", None, None)]),
    ("VW-3.2 out of turn: the other checks wait for the turn player",
     two, step("b3", "b4", "B"), [("VW-3.2", "it is A's turn", {"active": "A"}, None)]),
    ("VW-2.2 a draft line after the draft, by either player", mid_game, {"type": "draft", "by": "B", "card": DORA},
     [("VW-2.2", "the draft is over", None, None)]),
    ("VW-2.2 a draw before the draft ends, by either player", lambda: DRAFT, {"type": "draw", "by": "B", "card": None},
     [("VW-2.2", "the draft (4 picks each) is not finished", None, None)]),
    ("VW-3.1 a sortie after the main phase began", lambda: replace(standby(DORA), phase="main"),
     {"type": "set", "by": "A", "card": DORA, "to": "b0"},
     [("VW-3.1", "set belongs to the standby phase but the main phase has begun", {"phase": "main"}, None)]),
    ("VW-3.1 a stray `from` on a set line does not make it an effect's extra move",
     lambda: (lambda b: b.put("b1", replace(b.at("b1"), extra_moves=1)))(replace(standby(DORA), phase="main")),
     {"type": "set", "by": "A", "card": DORA, "to": "d0", "from": "b1"},
     [("VW-3.1", "set belongs to the standby phase but the main phase has begun", {"phase": "main"}, None)]),
    ("VW-3.3 the turn ends without the draw", in_draw_phase, {"type": "end_turn", "by": "A"},
     [("VW-3.3", "the draw phase was skipped though the deck has cards", None,
       ({"type": "draw", "by": "A", "card": None},))]),
    # --- the draft (VW-2.2) and the draws (VW-2.5, VW-3.3, VW-3.4) -------------------------------
    ("VW-2.2 a card already picked", lambda: drafted(DORA), {"type": "draft", "by": "B", "card": DORA},
     [("VW-2.2", "銅鑼ドラゴン is not among the enhancement cards left",
       {"left": ["メタルフォーゼ・ゴルドライバー", RISE, "レプティアの武者騎兵", "ダイカミナリ・ジャイクロプス",
                 "バンドラの宝具箱", "シュルブの魔導騎兵", "EMシール・イール"]}, None)]),
    ("VW-2.2 two picks in a row", lambda: drafted(DORA), {"type": "draft", "by": "A", "card": A_PICKS[0]},
     [("VW-2.2", "picks alternate: it is B's pick", {"picker": "B"}, None)]),
    ("VW-2.2 a fifth pick", lambda: drafted(*[c for pair in zip(A_PICKS, B_PICKS) for c in pair][:7]),
     {"type": "draft", "by": "A", "card": B_PICKS[3]}, [("VW-2.2", "A already picked 4 cards", None, None)]),
    ("VW-2.5 a third opening draw",
     lambda: after(opening(), *[{"type": "draw", "by": "A", "card": None}] * 2), {"type": "draw", "by": "A", "card": None},
     [("VW-2.5", "the opening hand is 2 cards", None, None)]),
    ("VW-3.3 a second draw", lambda: replace(in_draw_phase(), drawn=True), {"type": "draw", "by": "A", "card": None},
     [("VW-3.3", "one draw per turn, in the draw phase", None, None)]),
    ("VW-3.3 a draw from an empty deck", lambda: with_deck(in_draw_phase(), "A", Pile()),
     {"type": "draw", "by": "A", "card": None}, [("VW-3.3", "the deck is empty: the draw phase is skipped", None, None)]),
    ("VW-3.3 the first player's turn-1 draw with first_turn_draw off",
     lambda: replace(in_draw_phase(first_turn_draw=False), turn=1), {"type": "draw", "by": "A", "card": None},
     [("VW-3.3", "house rule first_turn_draw: the first player does not draw on turn 1", None, None)]),
    ("VW-3.4 a draw naming another card than the known top",
     lambda: with_deck(in_draw_phase(), "A", Pile((NAN, None), (SHI,))), {"type": "draw", "by": "A", "card": SHI},
     [("VW-3.4", f"{SHI} cannot be the top card of A's deck", {"card": NAN}, None)]),
    ("VW-3.4 a draw naming a card the deck cannot hold", in_draw_phase, {"type": "draw", "by": "A", "card": WIND},
     [("VW-3.4", f"{WIND} cannot be the top card of A's deck", {"card": None}, None)]),
    ("VW-3.4 an unseen rescue card revealed as a deck card", unseen_rescue_card,
     {"type": "reveal", "by": "A", "card": NAN}, [("VW-3.4", f"no unseen card in A's hand can be {NAN}", None, None)]),
    # --- the sortie (VW-4.1) and magic (VW-4.2) ------------------------------------------------------
    ("VW-8.1 an ace set from hand", lambda: standby(GEN), {"type": "set", "by": "A", "card": GEN, "to": "b0"},
     [("VW-8.1", f"{GEN} is an ace: it comes only through its card's effect", None, None)]),
    ("VW-4.1 a magic card set", lambda: standby(WIND), {"type": "set", "by": "A", "card": WIND, "to": "d0"},
     [("VW-4.1", f"{WIND} is not a monster", None, None)]),
    ("VW-4.1 a second sortie", lambda: replace(standby(DORA), sortied=True),
     {"type": "set", "by": "A", "card": DORA, "to": "d0"}, [("VW-4.1", "one monster per standby phase", None, None)]),
    ("VW-4.1 the second player sets into the first player's zone",
     lambda: mid_game(turn=4, active="B", phase="standby", hand={"B": [DORA]}),
     {"type": "set", "by": "B", "card": DORA, "to": "b0"},
     [("VW-4.1", "b0 is not B's sortie zone", {"sortie": ["b4", "d4"]}, None)]),
    ("VW-4.1 the first player sets into the second player's zone", lambda: standby(DORA),
     {"type": "set", "by": "A", "card": DORA, "to": "d4"},
     [("VW-4.1", "d4 is not A's sortie zone", {"sortie": ["b0", "d0"]}, None)]),
    ("VW-4.1 an occupied sortie zone", lambda: standby(DORA).put("b0", Monster(SHI, "A", "deck")),
     {"type": "set", "by": "A", "card": DORA, "to": "b0"}, [("VW-4.1", "b0 is occupied", None, None)]),
    ("VW-3.4 a monster not in hand", lambda: standby(DORA), {"type": "set", "by": "A", "card": SAI, "to": "b0"},
     [("VW-3.4", f"{SAI} is not in A's hand", None, None)]),
    ("VW-9.4 a sealed sortie zone", lambda: replace(standby(DORA), sealed=(("b0", 3),)),
     {"type": "set", "by": "A", "card": DORA, "to": "b0"}, [("VW-9.4", "b0 is sealed (シール・イール)", None, None)]),
    ("VW-4.2 a monster played as magic", lambda: standby(DORA), {"type": "magic", "by": "A", "card": DORA},
     [("VW-4.2", f"{DORA} is not a magic card", None, None)]),
    ("VW-3.4 a magic card not in hand", lambda: standby(DORA), {"type": "magic", "by": "A", "card": WIND},
     [("VW-3.4", f"{WIND} is not in A's hand", None, None)]),
    # --- moving and position (VW-5, VW-7.4) ---------------------------------------------------------
    ("VW-7.4 a move onto Arctos", lambda: arctos_in_main({"c1": (NAN, "A", "attack")}), step("c1", "c2"),
     [("VW-7.4", "Arctos stands on the centre", None, None)]),
    ("VW-5.3 a move into the opponent's back row", lambda: mid_game({"b3": (NAN, "A", "attack")}), step("b3", "b4"),
     [("VW-5.3", "a monster never enters the opponent's sortie/retreat zones by moving", None, None)]),
    ("VW-5.3 a move back home with retreat_by_move off",
     lambda: mid_game({"a1": (NAN, "A", "attack")}, retreat_by_move=False), step("a1", "a0"),
     [("VW-5.3", "house rule retreat_by_move is off: no moving back into your own zones", None, None)]),
    ("VW-5.1 a second move in the turn", lambda: after(two(), step("b1", "b2")), step("d1", "d2"),
     [("VW-5.1", "the turn's move (行動権) is already used: one move per turn", None, None)]),
    ("VW-5.2 a defence-position monster stepping forward", lambda: mid_game({"b1": (NAN, "A", "defence")}),
     step("b1", "b2"),
     [("VW-5.2", f"{NAN}: defence position moves only left/right", {"to": ["a1", "c1"]},
       (step("b1", "a1"), step("b1", "c1")))]),
    ("VW-5.2 an attack-position monster stepping sideways", two, step("b1", "a1"),
     [("VW-5.2", f"{NAN}: attack position (and sortie/retreat zones) move only up/down", {"to": ["b0", "b2"]},
       (step("b1", "b0"), step("b1", "b2")))]),
    ("VW-5.7 turning an enemy monster", two, {"type": "position", "by": "A", "square": "b3"},
     [("VW-5.7", "no monster of A on b3", None, None)]),
    ("VW-5.6 turning a monster in a sortie zone", lambda: mid_game({"b0": (NAN, "A", None)}),
     {"type": "position", "by": "A", "square": "b0"},
     [("VW-5.6", "only battlefield monsters have a position (出撃・撤退ゾーンは縦のみ)", None, None)]),
    ("VW-5.6 a second position change in the turn", lambda: after(two(), {"type": "position", "by": "A", "square": "b1"}),
     {"type": "position", "by": "A", "square": "d1"},
     [("VW-5.6", "the turn's position change (行動権) is already used: one per turn", None, None)]),
    ("VW-5.6 per_monster: the same monster turned twice",
     lambda: per_monster({"type": "position", "by": "A", "square": "b1"}), {"type": "position", "by": "A", "square": "b1"},
     [("VW-5.6", f"{SHI} already changed position this turn", None, None)]),
    ("VW-5.8 turning a monster under 幻惑の巻物", lambda: status(two(), "b1", "no_action"),
     {"type": "position", "by": "A", "square": "b1"},
     [("VW-5.8", f"{NAN} may not change position now (effect in force)", None, None)]),
    # --- effects (VW-5.4, VW-5.5, VW-5.8, VW-9) ------------------------------------------------------
    ("VW-9.1 a special effect of a monster that is no ace", two, effect(NAN, "b1", "special"),
     [("VW-9.1", "a special effect (特殊効果) is an ace's, on the turn it is summoned", None, None)]),
    ("VW-9.1 an ace's special effect a turn after it came",
     lambda: mid_game({"d3": (GD, "B", "attack")}, turn=4, active="B"), effect(GD, "d3", "special", by="B"),
     [("VW-9.1", "a special effect (特殊効果) is an ace's, on the turn it is summoned", None, None)]),
    ("VW-9.1 a special effect of a monster set this turn",
     lambda: (lambda b: b.put("b1", replace(b.at("b1"), arrived=3)))(two()), effect(NAN, "b1", "special"),
     [("VW-9.1", "a special effect (特殊効果) is an ace's, on the turn it is summoned", None, None)]),
    ("VW-5.4 a card without a normal effect", lambda: mid_game({"b1": (DORA, "A", "attack")}), effect(DORA, "b1"),
     [("VW-5.4", f"{DORA} has no 通常効果", None, None)]),
    ("VW-5.5 a card without a lateral effect", lambda: mid_game({"b1": (RISE, "A", "defence")}),
     effect(RISE, "b1", "lateral"),
     [("VW-5.5", f"{RISE} has no 横移動効果", None, None),
      ("VW-5.5", f"{RISE} has not moved sideways on this turn since its last trigger", None, None)]),
    ("VW-5.4 a second normal effect in the turn", lambda: after(two(), effect(SHI, "b1", actions=[DRAW_MAGIC])),
     effect(SHI, "d1", actions=[DRAW_MAGIC]),
     [("VW-5.4", "the turn's normal effect (行動権) is already used: one per turn", None, None)]),
    ("VW-5.4 per_monster: the same monster's normal effect twice",
     lambda: per_monster(effect(SHI, "b1", actions=[DRAW_MAGIC])), effect(SHI, "b1", actions=[DRAW_MAGIC]),
     [("VW-5.4", f"{SHI} already activated its normal effect this turn", None, None)]),
    ("VW-5.8 an effect of a monster under no_effect", lambda: status(two(), "b1", "no_effect"),
     effect(NAN, "b1", actions=[DRAW_MAGIC]), [("VW-5.8", f"{NAN} may not activate effects now", None, None)]),
    ("VW-5.8 a normal effect under 幻惑の巻物", lambda: status(two(), "b1", "no_action"),
     effect(NAN, "b1", actions=[DRAW_MAGIC]), [("VW-5.8", f"{NAN} may not act this turn (幻惑の巻物)", None, None)]),
    ("VW-7.4 an effect on Arctos", lambda: arctos_in_main(), effect(NAN, "b2", actions=[{"do": "destroy", "square": "c2"}]),
     [("VW-7.4", "Arctos takes no effects", {"action": {"do": "destroy", "square": "c2"}}, None)]),
    ("VW-7.4 an effect moving a monster onto Arctos", lambda: arctos_in_main(),
     effect(NAN, "b2", actions=[{"do": "move", "from": "b3", "to": "c2"}]),
     [("VW-7.4", "Arctos stands on the centre", {"action": {"do": "move", "from": "b3", "to": "c2"}}, None)]),
    ("VW-7.4 a card placed onto Arctos", lambda: replace(WIND_BOARD(), arctos=Arctos("B", 2)),
     {"type": "magic", "by": "A", "card": WIND, "actions": [{"do": "place", "card": SAI, "to": "c2"}]},
     [("VW-7.4", "Arctos stands on the centre", {"action": {"do": "place", "card": SAI, "to": "c2"}}, None)]),
    ("VW-9.2 a card placed onto a monster", WIND_BOARD,
     {"type": "magic", "by": "A", "card": WIND, "actions": [{"do": "place", "card": SAI, "to": "d1"}]},
     [("VW-9.2", "d1 is occupied", {"action": {"do": "place", "card": SAI, "to": "d1"}}, None)]),
    ("VW-9.4 an effect moving a monster onto a sealed zone", lambda: replace(two(), sealed=(("e1", 5),)),
     effect(NAN, "b1", actions=[{"do": "move", "from": "d1", "to": "e1"}]),
     [("VW-9.4", "e1 is sealed (シール・イール)", {"action": {"do": "move", "from": "d1", "to": "e1"}}, None)]),
    ("VW-9.2 an action for a player of another match, and the actions after it still checked", two,
     effect(NAN, "b1", actions=[{**DRAW_MAGIC, "player": "Z"}, {"do": "destroy", "square": "c3"}]),
     [("VW-9.2", "'Z' is not a player", {"action": {**DRAW_MAGIC, "player": "Z"}}, None),
      ("VW-9.2", "no monster on c3", {"action": {"do": "destroy", "square": "c3"}}, None)]),
    ("VW-9.2 a draw from the named player's empty deck", lambda: with_deck(two(), "B", Pile()),
     effect(NAN, "b1", actions=[{"do": "draw", "pile": "deck", "player": "B"}]),
     [("VW-9.2", "the deck (デッキ) is empty: nothing to draw", {"action": {"do": "draw", "pile": "deck", "player": "B"}},
       None)]),
    ("VW-9.2 a draw from the empty rescue deck", lambda: replace(two(), rescue=Pile()),
     effect(NAN, "b1", actions=[{"do": "draw", "pile": "rescue"}]),
     [("VW-9.2", "the rescue deck (救援デッキ) is empty: nothing to draw", {"action": {"do": "draw", "pile": "rescue"}},
       None)]),
    # --- aces (VW-8) ---------------------------------------------------------------------------------
    ("VW-9.2 summoning a monster that is no ace", duke, summon_with(TO_DECK_D3, TO_DECK_B3, {**SUMMONED, "card": BAR}),
     [("VW-9.2", f"{BAR} is not an ace", {"action": {**SUMMONED, "card": BAR}}, None)]),
    ("VW-8.1 the summoner's lateral effect instead of its normal one", duke, {**SUMMON, "kind": "lateral"},
     [("VW-5.5", f"{DUK} has not moved sideways on this turn since its last trigger", None, None),
      ("VW-8.1", f"{GD} comes only through the normal effect of {DUK}", {"action": CALL_GD}, None)]),
    ("VW-8.1 a magic line citing the summoner's name",
     lambda: replace(duke(), phase="standby"), {**SUMMON, "type": "magic"},
     [("VW-4.2", f"{DUK} is not a magic card", None, None),
      ("VW-8.1", f"{GD} comes only through the normal effect of {DUK}", {"action": CALL_GD}, None)]),
    ("VW-8.3 an ace summoned for the player whose EX deck lacks it", duke,
     summon_with(TO_DECK_D3, TO_DECK_B3, {**SUMMONED, "player": "A"}),
     [("VW-8.3", f"{GD} is not in A's EX deck (an ace that left never returns)",
       {"action": {**SUMMONED, "player": "A"}}, None)]),
    ("VW-8.1 an ace summoned away from its summoner", duke, summon_with(TO_DECK_D3, TO_DECK_B3, {**SUMMONED, "to": "c3"}),
     [("VW-8.1", "the ace is summoned where its summoner stood", {"action": {**SUMMONED, "to": "c3"}}, None)]),
    ("VW-8.1 the summoner stays on the field", duke, summon_with(TO_DECK_B3, CALL_GD),
     [("VW-8.1", f"{DUK}: the summoner itself goes back to the deck first ({GD_TEXT})", {"action": CALL_GD}, None)]),
    ("VW-8.1 one monster back instead of two (戦場ゾーン)", duke, summon_with(TO_DECK_D3, CALL_GD),
     [("VW-8.1", f"{DUK}: 2 monsters go back to the deck from the 戦場ゾーン, not 1 ({GD_TEXT})", {"action": CALL_GD},
       None)]),
    ("VW-8.1 an empty square sent back", duke, summon_with(TO_DECK_D3, {"do": "to_deck", "square": "a3"}, CALL_GD),
     [("VW-9.2", "no monster on a3", {"action": {"do": "to_deck", "square": "a3"}}, None),
      ("VW-8.1", f"{DUK}: a3 is not one of your 「ヴァリアンツ」 monsters ({GD_TEXT})", {"action": CALL_GD}, None)]),
    ("VW-8.1 a monster of another family sent back",
     lambda: duke().put("b3", Monster(DORA, "B", "deck", position="attack", arrived=1)), SUMMON,
     [("VW-8.1", f"{DUK}: {DORA} is not one of your 「ヴァリアンツ」 monsters ({GD_TEXT})", {"action": CALL_GD}, None)]),
    ("VW-8.1 幻中 with two monsters back instead of three (フィールドのゾーン)", hojo_moved_sideways,
     effect(HOJ, "a1", "lateral", actions=[{"do": "to_deck", "square": "a1"}, {"do": "to_deck", "square": "d1"},
                                           {"do": "summon", "card": GEN, "to": "a1"}]),
     [("VW-8.1", f"{HOJ}: 3 monsters go back to the deck from the フィールドのゾーン, not 2 ({GEN_TEXT})",
       {"action": {"do": "summon", "card": GEN, "to": "a1"}}, None)]),
    # --- battles (VW-6, VW-7.4) ----------------------------------------------------------------------
    ("VW-7.4 a battle with Arctos", with_arctos, battle("b2", "c2", []), [("VW-7.4", "Arctos never fights", None, None)]),
    ("VW-6.1 a battle from an empty square", fight, battle("c1", "b1", []), [("VW-6.1", "no monster on c1", None, None)]),
    ("VW-6.1 a battle against an empty square", fight, battle("b1", "c1", []), [("VW-6.1", "no monster on c1", None, None)]),
    ("VW-6.1 a battle from a sortie zone", lambda: fight(b0=(SHI, "A", None)), battle("b0", "b1", []),
     [("VW-6.1", "monsters in sortie/retreat zones never fight", None, None)]),
    ("VW-6.1 a battle between squares apart", lambda: fight(d1=(SAI, "B", "attack")), battle("b1", "d1", []),
     [("VW-6.1", "b1 and d1 are not adjacent", None, None)]),
    ("VW-6.1 a battle between two monsters of one player", lambda: fight(c1=(SAI, "A", "attack")), battle("b1", "c1", []),
     [("VW-6.1", "a battle is between your monster and the opponent's", None, None)]),
    ("VW-6.4 a pair fought again, named the other way round",
     lambda: after(fight(), battle("b1", "b2", ["b1"])), battle("b2", "b1", ["b1"]),
     [("VW-6.1", "no monster on b1", None, None)]),
    ("VW-6.4 a pair that already fought", lambda: replace(fight(), fought=frozenset({"b1-b2"})), battle("b2", "b1", ["b1"]),
     [("VW-6.4", "b2 and b1 already fought this turn", None, None)]),
    ("VW-6.2 the wrong monster destroyed", fight, battle("b1", "b2", ["b2"]),
     [("VW-6.2", "the lower value is destroyed (short edge ATK, long edge DEF)",
       {"values": {"b1": ["atk", 1800], "b2": ["atk", 2000]}, "destroyed": ["b1"]}, (battle("b1", "b2", ["b1"]),))]),
    ("VW-6.3 a retreat from a sortie column", fight, battle("b1", "b2", ["b1"], retreat=["b1"]),
     [("VW-6.3", f"b1 cannot go to a retreat zone: {RETREAT_WHY}", None, None)]),
    ("VW-6.3 a retreat of the winner",
     lambda: mid_game({"a1": (NAN, "A", "attack"), "a2": (DUK, "B", "attack")}, phase="battle"),
     battle("a1", "a2", ["a1"], retreat=["a2"]), [("VW-6.3", f"a2 cannot go to a retreat zone: {RETREAT_WHY}", None, None)]),
    ("VW-6.4 a breakthrough before two battles", two_fights, {"type": "breakthrough", "by": "A", "squares": []},
     [("VW-6.4", "battles not fought: b1-b2, d1-d2", {"battles": [["b1", "b2"], ["d1", "d2"]]}, None)]),
    ("VW-6.4 the master phase before the battles", lambda: replace(two_fights(), turn=4, active="B"),
     {"type": "master", "by": "B", "dice": [1, 2]},
     [("VW-6.4", "battles not fought: b1-b2, d1-d2", {"battles": [["b1", "b2"], ["d1", "d2"]]}, None)]),
    ("VW-6.5 the master phase before the breakthrough",
     lambda: mid_game({"b3": (NAN, "A", "attack")}, turn=4, phase="battle"), {"type": "master", "by": "A", "dice": [1, 2]},
     [("VW-6.5", "monsters in the opponent's battlefield zone were not resolved", {"squares": ["b3"]},
       ({"type": "breakthrough", "by": "A", "squares": ["b3"]},))]),
    ("VW-6.5 a second breakthrough",
     lambda: replace(mid_game({"b3": (NAN, "A", "attack"), "d3": (SHI, "A", "attack")}, phase="battle"), resolved=True),
     {"type": "breakthrough", "by": "A", "squares": ["b3", "d3"]},
     [("VW-6.5", "the breakthrough was already resolved this turn", None, None)]),
    ("VW-6.5 a breakthrough leaving one invader out",
     lambda: mid_game({"b3": (NAN, "A", "attack"), "d3": (SHI, "A", "attack")}, phase="battle"),
     {"type": "breakthrough", "by": "A", "squares": ["b3"]},
     [("VW-6.5", "every monster of yours in the opponent's battlefield zone, and only those", {"squares": ["b3", "d3"]},
       ({"type": "breakthrough", "by": "A", "squares": ["b3", "d3"]},))]),
    # --- the master phase (VW-7.1, VW-7.5) -----------------------------------------------------------
    ("VW-7.1 the turn ends without its master phase", lambda: mid_game(turn=4, active="B", phase="battle"),
     {"type": "end_turn", "by": "B"},
     [("VW-7.1", "the master phase (two d8) is due at the end of this turn", {"master": "summon"}, None)]),
    ("VW-7.1 a second master phase", lambda: replace(mid_game(turn=4, active="B", phase="master"), mastered=True),
     {"type": "master", "by": "B", "dice": [1, 2]}, [("VW-7.1", "the master phase already happened this turn", None, None)]),
    ("VW-7.1 a master phase on an odd turn", lambda: mid_game(turn=3, phase="battle"),
     {"type": "master", "by": "A", "dice": [1, 2]},
     [("VW-7.1", "the master phase comes only after every 2 turns", None, None)]),
    ("VW-7.5 a master phase after Arctos was destroyed",
     lambda: replace(mid_game(turn=4, active="B", phase="battle"), arctos_destroyed=True),
     {"type": "master", "by": "B", "dice": [1, 2]},
     [("VW-7.5", "Arctos was destroyed: the master phase is skipped", None, None)]),
]

# (what, board, a legal line of the same kind as a refused one above)
LEGAL: list[tuple[str, Any, dict[str, Any]]] = [
    ("VW-3.4 a reveal comes from either player, in any turn", lambda: mid_game(hand={"B": [None]}),  # type: ignore[list-item]
     {"type": "reveal", "by": "B", "card": BAR}),
    ("VW-3.4 an unseen rescue card revealed as a rescue card", unseen_rescue_card,
     {"type": "reveal", "by": "A", "card": "ペンギン忍者"}),
    ("VW-2.2 the fourth pick of the player behind", lambda: drafted(*[c for pair in zip(A_PICKS, B_PICKS) for c in pair][:7]),
     {"type": "draft", "by": "B", "card": B_PICKS[3]}),
    ("VW-3.4 the known top card drawn", lambda: with_deck(in_draw_phase(), "A", Pile((NAN, None), (SHI,))),
     {"type": "draw", "by": "A", "card": NAN}),
    ("VW-3.3 the first player's turn-1 draw by default", lambda: replace(in_draw_phase(), turn=1),
     {"type": "draw", "by": "A", "card": None}),
    ("VW-4.1 the second player's own sortie zone", lambda: mid_game(turn=4, active="B", phase="standby", hand={"B": [DORA]}),
     {"type": "set", "by": "B", "card": DORA, "to": "b4"}),
    ("VW-5.3 a move back home by default", lambda: mid_game({"a1": (NAN, "A", "attack")}), step("a1", "a0")),
    ("VW-9.1 an ace's special effect on the turn it came",
     lambda: (lambda b: b.put("d3", replace(b.at("d3"), arrived=4)))(mid_game({"d3": (GD, "B", "attack")}, turn=4,
                                                                               active="B")),
     effect(GD, "d3", "special", by="B")),
    ("VW-5.4 per_monster: another monster's normal effect", lambda: per_monster(effect(SHI, "b1", actions=[DRAW_MAGIC])),
     effect(NAN, "d1", actions=[DRAW_MAGIC])),
    ("VW-5.5 a lateral effect after the same monster's normal effect",
     lambda: after(mid_game({"b1": (SHI, "A", "defence")}), effect(SHI, "b1", actions=[DRAW_MAGIC]), step("b1", "a1")),
     effect(SHI, "a1", "lateral", actions=[DRAW_RESCUE])),
    ("VW-5.8 a lateral effect under 幻惑の巻物 (it stops normal effects only)",
     lambda: status(after(mid_game({"b1": (SHI, "A", "defence")}), step("b1", "a1")), "a1", "no_action"),
     effect(SHI, "a1", "lateral", actions=[DRAW_RESCUE])),
    ("VW-5.8 no_effect on another monster", lambda: status(two(), "b1", "no_effect"), effect(SHI, "d1", actions=[DRAW_MAGIC])),
    ("VW-9.3 an effect moving your own immune monster", lambda: status(two(), "d1", "immune"),
     effect(NAN, "b1", actions=[{"do": "move", "from": "d1", "to": "d2"}])),
    ("VW-7.4 an effect moving a monster to c2 with no Arctos", two,
     effect(NAN, "b1", actions=[{"do": "move", "from": "d1", "to": "c2"}])),
    ("VW-9.2 a card placed onto an empty square", WIND_BOARD,
     {"type": "magic", "by": "A", "card": WIND, "actions": [{"do": "place", "card": SAI, "to": "c1"}]}),
    ("VW-9.4 an effect move beside a sealed zone", lambda: replace(two(), sealed=(("e1", 5),)),
     effect(NAN, "b1", actions=[{"do": "move", "from": "d1", "to": "d2"}])),
    ("VW-9.2 only move, place and summon have a destination: a stray `to` on a destroy is ignored", two,
     effect(NAN, "b1", actions=[{"do": "destroy", "square": "d1", "to": "b1"}])),
    ("VW-9.2 a draw from the mover's own deck", lambda: with_deck(two(), "B", Pile()),
     effect(NAN, "b1", actions=[{"do": "draw", "pile": "deck"}])),
    ("VW-8.1 the ace's summon", duke, SUMMON),
    ("VW-6.5 the master phase after the breakthrough",
     lambda: replace(mid_game({"b3": (NAN, "A", "attack")}, turn=4, phase="battle"), resolved=True),
     {"type": "master", "by": "A", "dice": [1, 2]}),
]


# Lines that show a check of every version (VW-5, VW-7.4, VW-8, VW-9) with actions their card's text
# does not make (南月 drawing a card, 破天荒な風 placing one): shown with the card texts only recorded
# (house rule card_texts: recorded, the default of variants-war/1 and /2). Checked, as variants-war/3
# does by default, each also breaks VW-11 (test_card_texts.py): test_generic_lines_break_the_card_text.
# An effect that may not be activated at all (VW-5.4, 5.5, 5.8, 9.1) is not read against its text.
RECORDED_ONLY = {
    "VW-7.4 an effect on Arctos", "VW-7.4 an effect moving a monster onto Arctos", "VW-7.4 a card placed onto Arctos",
    "VW-9.2 a card placed onto a monster", "VW-9.2 an action for a player of another match, and the actions after it "
    "still checked", "VW-9.2 a draw from the named player's empty deck", "VW-9.2 a draw from the empty rescue deck",
    "VW-5.4 per_monster: another monster's normal effect", "VW-7.4 an effect moving a monster to c2 with no Arctos",
    "VW-9.2 a card placed onto an empty square",
    "VW-9.2 only move, place and summon have a destination: a stray `to` on a destroy is ignored",
    "VW-9.2 a draw from the mover's own deck",
}


def recorded(board: Board) -> Board:
    return replace(board, options=tuple(sorted({**dict(board.options), "card_texts": "recorded"}.items())))


def on(what: str, board: Board) -> Board:
    return recorded(board) if what in RECORDED_ONLY else board


@pytest.mark.parametrize(("what", "board", "move", "text"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_refused_line_says_why(what: str, board: Any, move: dict[str, Any], text: Said) -> None:
    assert said(on(what, board()), move) == text


@pytest.mark.parametrize(("what", "board", "move"), LEGAL, ids=[r[0] for r in LEGAL])
def test_the_same_kind_of_line_made_legally_is_clean(what: str, board: Any, move: dict[str, Any]) -> None:
    assert said(on(what, board()), move) == []


def test_generic_lines_break_the_card_text() -> None:
    """Every line shown with the card texts only recorded breaks a VW-11 rule when they are checked."""
    cases = [(w, b, m) for w, b, m, *_ in REFUSED + LEGAL if w in RECORDED_ONLY]
    assert {w for w, *_ in cases} == RECORDED_ONLY
    for what, board, move in cases:
        assert any(rule.startswith("VW-11.") for rule, *_ in said(board(), move)), what


def test_vw_3_2_a_line_by_someone_not_playing_is_reported_at_its_seq() -> None:
    line = {"type": "end_turn", "by": "Z"}
    (found,) = RS.check(mid_game(), {"seq": 7, **line})
    assert (found.seq, found.rule, found.message) == (7, "VW-3.2", "'Z' is not a player")
    (found,) = RS.check(mid_game(), line)  # a judge's proposed replacement carries no seq yet
    assert (found.seq, found.rule, found.message) == (0, "VW-3.2", "'Z' is not a player")
    assert RS.check(mid_game(), {"seq": 7, **line, "by": "A"}) == []


def test_vw_5_7_each_violation_carries_the_lines_seq() -> None:
    assert [(v.seq, v.rule) for v in RS.check(two(), {"seq": 12, **step("b2", "b3")})] == [(12, "VW-5.7")]
    assert [(v.seq, v.rule) for v in RS.check(two(), step("b2", "b3"))] == [(0, "VW-5.7")]
