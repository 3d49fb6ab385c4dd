"""Issue 27, card texts that bind (VW-11): every text of the card list has its check, each check
fires on a line that breaks the text and is silent on the line the text allows, the fold takes
what the text fixes, and the table of docs/rules/variants-war.md lists every sentence of the
catalog with the rule that checks it."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from projections.variants_war import catalog
from projections.variants_war.board import Board, HandCard, Mod, Pile
from projections.variants_war.check.cards import TEXTS
from tests.variants_war.helpers import HYAKU, RS, SHINRA, mid_game, rules_of

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "variants-war.md"
SHI, SAI, NAN, HOJ, GEN = SHINRA
BAR, VAI, MAR, DUK, GD = HYAKU
GOLD, RISE, DORA, REP = "メタルフォーゼ・ゴルドライバー", "召喚師ライズベルト", "銅鑼ドラゴン", "レプティアの武者騎兵"
JAI, BAN, SHU, EEL = "ダイカミナリ・ジャイクロプス", "バンドラの宝具箱", "シュルブの魔導騎兵", "EMシール・イール"
GAN, COV, GOE, SWORD, BOMB = "破壊竜ガンドラ", "督戦官コヴィントン", "忍者義賊ゴエゴエ", "超重武者ソード－９９９", "瞬着ボマー"
EXP, KAR, PEN, ASS = "モンスターエクスプレス", "カラクリ武者六参壱八", "ペンギン忍者", "アサルト・アルマート"
DAZE, KNIGHT, LAND, MORALE, CRASH = "幻惑の巻物", "騎士道精神", "一点着地", "士気高揚", "シールドクラッシュ"
SHIFT, SWAP, WIND, HERO, MINE = "ポジションチェンジ", "強制転移", "破天荒な風", "ヒーローハート", "機雷化"


def check(board: Board, move: dict[str, Any]) -> list[str]:
    return rules_of(RS.check(board, {"seq": 1, **move}))


def fx(card: str, sq: str, *actions: dict[str, Any], kind: str = "normal", by: str = "A") -> dict[str, Any]:
    return {"type": "effect", "by": by, "card": card, "square": sq, "kind": kind, "actions": list(actions)}


def mg(card: str, *actions: dict[str, Any], by: str = "A") -> dict[str, Any]:
    return {"type": "magic", "by": by, "card": card, "actions": list(actions)}


def on(monsters: dict[str, Any], lateral: str | None = None, arrived: str | None = None, **kw: Any) -> Any:
    """A board factory: ``monsters`` as mid_game takes them; ``lateral``: that monster has moved
    sideways (its lateral effect may trigger); ``arrived``: that ace came this turn."""
    def make() -> Board:
        board = mid_game(monsters, **kw)
        for sq, field in ((lateral, "lateral"), (arrived, "arrived")):
            if sq:
                board = board.put(sq, replace(board.at(sq), **{field: 1 if field == "lateral" else board.turn}))
        return board
    return make


def magic(card: str, monsters: dict[str, Any]) -> Any:
    return on(monsters, phase="standby", hand={"A": [card]})


def draw(pile: str, **kw: Any) -> dict[str, Any]:
    return {"do": "draw", "pile": pile, "card": None, **kw}


def die(n: Any) -> dict[str, Any]:
    return {"do": "die", "result": n}


def coin(face: str) -> dict[str, Any]:
    return {"do": "coin", "result": face}


def mv(a: str, b: str) -> dict[str, Any]:
    return {"do": "move", "from": a, "to": b}


def pos(sq: str) -> dict[str, Any]:
    return {"do": "position", "square": sq}


def status(sq: str, name: str, **kw: Any) -> dict[str, Any]:
    return {"do": "status", "square": sq, "status": name, **kw}


def modify(sq: str, stat: str, op: str, **kw: Any) -> dict[str, Any]:
    return {"do": "modify", "square": sq, "stat": stat, "op": op, **kw}


def destroy(sq: str) -> dict[str, Any]:
    return {"do": "destroy", "square": sq}


def lose(pid: str, n: int = 1) -> dict[str, Any]:
    return {"do": "lose_life", "player": pid, "amount": n}


A = "attack"
SAION = {"b1": (SAI, "A", A), "c3": (BAR, "B", A)}
NANGETSU = {"b1": (NAN, "A", A), "c1": (SHI, "A", A), "d0": (DORA, "A", None), "b4": (BAR, "B", None)}
GENCHU = {"b2": (GEN, "A", A), "d3": (BAR, "B", A)}
GENCHU_FULL = {**GENCHU, "d4": (VAI, "B", None)}
GRAND = {"d3": (GD, "B", A), "b0": (NAN, "A", None), "b1": (SHI, "A", A)}
GRAND_KW = {"turn": 4, "active": "B", "arrived": "d3"}
ALL = {"b1": (SHI, "A", A), "d1": (NAN, "A", A), "c3": (BAR, "B", A), "d3": (DUK, "B", A)}

# (what, board factory, line that breaks the text, the rules it breaks); each text also has
# a legal line in LEGAL below.
BROKEN: list[tuple[str, Any, dict[str, Any], list[str]]] = [
    ("東雲 normal draws from the magic deck", on({"b1": (SHI, "A", A)}), fx(SHI, "b1", draw("rescue")), ["VW-11.6"]),
    ("東雲 normal draws one card", on({"b1": (SHI, "A", A)}), fx(SHI, "b1", draw("magic"), draw("magic")), ["VW-11.1"]),
    ("東雲 normal: the draw is missing", on({"b1": (SHI, "A", A)}), fx(SHI, "b1"), ["VW-11.1"]),
    ("東雲 lateral draws from the rescue deck", on({"b1": (SHI, "A", "defence")}, "b1"),
     fx(SHI, "b1", draw("magic"), kind="lateral"), ["VW-11.6"]),
    ("東雲 lateral draws into its own player's hand", on({"b1": (SHI, "A", "defence")}, "b1"),
     fx(SHI, "b1", draw("rescue", player="B"), kind="lateral"), ["VW-11.2"]),
    ("西園 normal: heads does not halve", on(SAION), fx(SAI, "b1", coin("heads"), modify("c3", "atk", "halve")),
     ["VW-11.5"]),
    ("西園 normal: the toss is recorded", on(SAION), fx(SAI, "b1", status("c3", "no_effect")), ["VW-11.5"]),
    ("西園 normal: a coin has two faces", on(SAION), fx(SAI, "b1", coin("edge"), status("c3", "no_effect")),
     ["VW-11.5"]),
    ("西園 normal: an opponent's monster", on(SAION), fx(SAI, "b1", coin("heads"), status("b1", "no_effect")),
     ["VW-11.2"]),
    ("西園 normal: halved until its owner's next turn", on(SAION),
     fx(SAI, "b1", coin("tails"), modify("c3", "atk", "halve", until="turn_end")), ["VW-11.7"]),
    ("西園 normal: heads, and the status is missing", on(SAION), fx(SAI, "b1", coin("heads")), ["VW-11.5"]),
    ("西園 lateral: heads bounces", on(SAION, "b1"), fx(SAI, "b1", coin("heads"), pos("c3"), kind="lateral"),
     ["VW-11.5"]),
    ("南月 normal: not this card", on(NANGETSU), fx(NAN, "b1", mv("b1", "a1")), ["VW-11.2"]),
    ("南月 normal: to the square next to it", on(NANGETSU), fx(NAN, "b1", mv("c1", "c3")), ["VW-11.3"]),
    ("南月 lateral: to the square in front", on(NANGETSU, "b1"), fx(NAN, "b1", mv("d0", "d2"), kind="lateral"),
     ["VW-11.3"]),
    ("南月 lateral: from your own back-row zone", on(NANGETSU, "b1"), fx(NAN, "b1", mv("b4", "b3"), kind="lateral"),
     ["VW-11.2", "VW-11.3"]),
    ("北条 normal: a sortie or retreat zone", on({"b1": (HOJ, "A", A), "d1": (SHI, "A", A)}),
     fx(HOJ, "b1", {"do": "bounce", "square": "d1"}), ["VW-11.3"]),
    ("北条 normal: back to the hand, nothing else", on({"b1": (HOJ, "A", A), "b4": (BAR, "B", None)}),
     fx(HOJ, "b1", destroy("b4")), ["VW-11.1"]),
    ("幻中: the opponent's zone of the column", on(GENCHU, arrived="b2"), fx(GEN, "b2", mv("d3", "d2"), kind="special"),
     ["VW-11.3"]),
    ("幻中: an opponent's monster", on({**GENCHU, "d1": (SHI, "A", A)}, arrived="b2"),
     fx(GEN, "b2", mv("d1", "d4"), kind="special"), ["VW-11.2"]),
    ("幻中: the monster already there is destroyed and a life lost", on(GENCHU_FULL, arrived="b2"),
     fx(GEN, "b2", mv("d3", "d4"), kind="special"), ["VW-9.2", "VW-11.1", "VW-11.1"]),
    ("幻中: no life lost into an empty zone", on(GENCHU, arrived="b2"),
     fx(GEN, "b2", mv("d3", "d4"), lose("B"), kind="special"), ["VW-11.1"]),
    ("幻中: the opponent loses the life", on(GENCHU_FULL, arrived="b2"),
     fx(GEN, "b2", destroy("d4"), mv("d3", "d4"), lose("A"), kind="special"), ["VW-11.2"]),
    ("幻中: the move is missing", on(GENCHU, arrived="b2"), fx(GEN, "b2", kind="special"), ["VW-11.1"]),
    ("バロン normal: another of your monsters", on({"b1": (BAR, "A", A), "d3": (DUK, "B", A)}),
     fx(BAR, "b1", mv("d3", "e3")), ["VW-11.2"]),
    ("バロン lateral: the retreat zone beside", on({"b1": (BAR, "A", A), "b4": (DUK, "B", None)}, "b1"),
     fx(BAR, "b1", mv("b4", "b3"), kind="lateral"), ["VW-11.3"]),
    ("バロン lateral: from a sortie zone", on({"b1": (BAR, "A", A), "a4": (DUK, "B", None)}, "b1"),
     fx(BAR, "b1", mv("a4", "b4"), kind="lateral"), ["VW-11.3"]),
    ("ヴァイカント normal: your retreat zone", on({"b1": (VAI, "A", A)}, hand={"A": [DORA]}),
     fx(VAI, "b1", {"do": "place", "card": DORA, "to": "b0"}), ["VW-11.3"]),
    ("ヴァイカント normal: from the hand", on({"b1": (VAI, "A", A)}),
     fx(VAI, "b1", {"do": "place", "card": DORA, "to": "a0", "from": "deck"}), ["VW-11.3"]),
    ("ヴァイカント normal: a monster of the hand", on({"b1": (VAI, "A", A)}, hand={"A": [SHI]}),
     fx(VAI, "b1", {"do": "place", "card": DORA, "to": "a0"}), ["VW-3.4"]),
    ("ヴァイカント normal: a monster", on({"b1": (VAI, "A", A)}, hand={"A": [WIND]}),
     fx(VAI, "b1", {"do": "place", "card": WIND, "to": "a0"}), ["VW-11.1"]),
    ("ヴァイカント lateral: your sortie zone", on({"b1": (VAI, "A", A)}, "b1", hand={"A": [DORA]}),
     fx(VAI, "b1", {"do": "place", "card": DORA, "to": "a0"}, kind="lateral"), ["VW-11.3"]),
    ("マーキス normal: an odd roll draws from the magic deck", on({"b1": (MAR, "A", A)}),
     fx(MAR, "b1", die(3), draw("rescue")), ["VW-11.5"]),
    ("マーキス normal: an even roll draws from the rescue deck", on({"b1": (MAR, "A", A)}),
     fx(MAR, "b1", die(4), draw("magic")), ["VW-11.5"]),
    ("マーキス normal: the draw the roll calls for is missing", on({"b1": (MAR, "A", A)}), fx(MAR, "b1", die(2)),
     ["VW-11.5"]),
    ("マーキス normal: the roll is recorded", on({"b1": (MAR, "A", A)}), fx(MAR, "b1", draw("rescue")), ["VW-11.5"]),
    ("マーキス normal: a die has six faces", on({"b1": (MAR, "A", A)}), fx(MAR, "b1", die(7), draw("rescue")),
     ["VW-11.5"]),
    ("マーキス lateral: a 6 moves nothing", on({"b1": (MAR, "A", A), "a0": (DORA, "A", None)}, "b1"),
     fx(MAR, "b1", die(6), mv("a0", "a1"), kind="lateral"), ["VW-11.5"]),
    ("マーキス lateral: from your retreat zone", on({"b1": (MAR, "A", A), "d0": (DORA, "A", None)}, "b1"),
     fx(MAR, "b1", die(3), mv("d0", "d1"), kind="lateral"), ["VW-11.3"]),
    ("デューク lateral: an opponent's monster", on({"b1": (DUK, "A", A), "c3": (BAR, "B", A)}, "b1"),
     fx(DUK, "b1", status("b1", "no_position"), status("b1", "no_effect"), kind="lateral"), ["VW-11.2", "VW-11.2"]),
    ("デューク lateral: both position changes and effects", on({"b1": (DUK, "A", A), "c3": (BAR, "B", A)}, "b1"),
     fx(DUK, "b1", status("c3", "no_effect"), kind="lateral"), ["VW-11.1"]),
    ("デューク lateral: until the end of the opponent's next turn",
     on({"b1": (DUK, "A", A), "c3": (BAR, "B", A)}, "b1"),
     fx(DUK, "b1", status("c3", "no_position"), status("c3", "no_effect", until="turn_end"), kind="lateral"),
     ["VW-11.7"]),
    ("デューク lateral: no other status", on({"b1": (DUK, "A", A), "c3": (BAR, "B", A)}, "b1"),
     fx(DUK, "b1", status("c3", "no_position"), status("c3", "no_action"), kind="lateral"), ["VW-11.1", "VW-11.1"]),
    ("グランデューク: half the destroyed monster's ATK", on(GRAND, **GRAND_KW),
     fx(GD, "d3", destroy("b0"), modify("d3", "atk", "add", amount=1000, until="permanent"), lose("A"),
        kind="special", by="B"), ["VW-11.7"]),
    ("グランデューク: a sortie or retreat zone", on(GRAND, **GRAND_KW),
     fx(GD, "d3", destroy("b1"), modify("d3", "atk", "add", amount=250), lose("A"), kind="special", by="B"),
     ["VW-11.3"]),
    ("グランデューク: the opponent loses 1 life", on(GRAND, **GRAND_KW),
     fx(GD, "d3", destroy("b0"), modify("d3", "atk", "add"), kind="special", by="B"), ["VW-11.1"]),
    ("グランデューク: the destroy is missing", on(GRAND, **GRAND_KW), fx(GD, "d3", kind="special", by="B"), ["VW-11.1"]),
    ("グランデューク: a permanent gain", on(GRAND, **GRAND_KW),
     fx(GD, "d3", destroy("b0"), modify("d3", "atk", "add", until="turn_end"), lose("A"), kind="special", by="B"),
     ["VW-11.7"]),
    ("ゴルドライバー lateral: this card", on({"b1": (GOLD, "A", A), "d1": (SHI, "A", A)}, "b1"),
     fx(GOLD, "b1", pos("d1"), kind="lateral"), ["VW-11.2"]),
    ("ライズベルト: the shown monster's ATK", on({"b1": (RISE, "A", A)}, hand={"A": [NAN]}),
     fx(RISE, "b1", modify("b1", "both", "add", amount=1000), {"do": "return", "card": NAN, "pile": "deck"}),
     ["VW-11.7"]),
    ("ライズベルト: back to the deck it came from", on({"b1": (RISE, "A", A)}, hand={"A": [NAN]}),
     fx(RISE, "b1", modify("b1", "both", "add"), {"do": "return", "card": NAN, "pile": "rescue"}), ["VW-11.6"]),
    ("ライズベルト: the shown monster goes back too", on({"b1": (RISE, "A", A)}, hand={"A": [NAN]}),
     fx(RISE, "b1", modify("b1", "both", "add", amount=1800)), ["VW-11.1"]),
    ("ライズベルト: a monster of the hand", on({"b1": (RISE, "A", A)}, hand={"A": [SHI]}),
     fx(RISE, "b1", modify("b1", "both", "add", amount=1800), {"do": "return", "card": NAN, "pile": "deck"}),
     ["VW-3.4"]),
    ("ライズベルト: a monster is shown", on({"b1": (RISE, "A", A)}, hand={"A": [WIND]}),
     fx(RISE, "b1", modify("b1", "both", "add", amount=0), {"do": "return", "card": WIND, "pile": "deck"}),
     ["VW-11.1"]),
    ("レプティア: this card moves", on({"b1": (REP, "A", A), "d1": (SHI, "A", A)}), fx(REP, "b1", mv("d1", "e1")),
     ["VW-11.2"]),
    ("レプティア: to the square next to it", on({"b1": (REP, "A", A)}), fx(REP, "b1", mv("b1", "b3")), ["VW-11.3"]),
    ("ジャイクロプス normal: your monsters", on({"b1": (JAI, "A", A), "c3": (BAR, "B", A)}), fx(JAI, "b1", pos("c3")),
     ["VW-11.2"]),
    ("ジャイクロプス normal: each once", on({"b1": (JAI, "A", A)}), fx(JAI, "b1", pos("b1"), pos("b1")), ["VW-11.1"]),
    ("ジャイクロプス normal: battlefield monsters", on({"b1": (JAI, "A", A), "b0": (DORA, "A", None)}),
     fx(JAI, "b1", pos("b0")), ["VW-11.3"]),
    ("ジャイクロプス lateral: two at most", on({"b1": (JAI, "A", A), "d1": (SHI, "A", A), "c3": (BAR, "B", A)}, "b1"),
     fx(JAI, "b1", pos("b1"), pos("d1"), pos("c3"), kind="lateral"), ["VW-11.1"]),
    ("バンドラ normal: the rescue deck", on({"b1": (BAN, "A", A)}), fx(BAN, "b1", draw("magic")), ["VW-11.6"]),
    ("バンドラ lateral: the card back to the deck it came from", on({"b1": (BAN, "A", A)}, "b1", hand={"A": [NAN]}),
     fx(BAN, "b1", draw("magic"), {"do": "return", "card": NAN, "pile": "magic"}, kind="lateral"), ["VW-11.6"]),
    ("バンドラ lateral: a hand card goes back", on({"b1": (BAN, "A", A)}, "b1", hand={"A": [NAN]}),
     fx(BAN, "b1", draw("magic"), kind="lateral"), ["VW-11.1"]),
    ("バンドラ lateral: after the draw", on({"b1": (BAN, "A", A)}, "b1", hand={"A": [NAN]}),
     fx(BAN, "b1", {"do": "return", "card": NAN, "pile": "deck"}, draw("magic"), kind="lateral"), ["VW-11.1"]),
    ("シュルブ: this card", on({"b1": (SHU, "A", A), "d1": (SHI, "A", A)}), fx(SHU, "b1", status("d1", "immune")),
     ["VW-11.2"]),
    ("シュルブ: until the end of the next turn", on({"b1": (SHU, "A", A)}),
     fx(SHU, "b1", status("b1", "immune", until="turn_end")), ["VW-11.7"]),
    ("シール・イール normal: no effects, not no actions", on({"b1": (EEL, "A", A), "c3": (BAR, "B", A)}),
     fx(EEL, "b1", status("c3", "no_action")), ["VW-11.1"]),
    ("シール・イール normal: one monster", on({"b1": (EEL, "A", A), "c3": (BAR, "B", A)}),
     fx(EEL, "b1", status("c3", "no_effect"), status("b1", "no_effect")), ["VW-11.1"]),
    ("シール・イール lateral: a zone with no card", on({"b1": (EEL, "A", A)}, "b1"),
     fx(EEL, "b1", {"do": "seal_zone", "square": "b1"}, kind="lateral"), ["VW-11.3"]),
    ("ガンドラ: every monster around it", on({"c2": (GAN, "A", A), "b2": (BAR, "B", A), "c3": (SHI, "A", A)}),
     fx(GAN, "c2", destroy("b2")), ["VW-11.1"]),
    ("ガンドラ: the 8 squares around it", on({"c2": (GAN, "A", A), "b2": (BAR, "B", A), "e2": (DORA, "B", A)}),
     fx(GAN, "c2", destroy("b2"), destroy("e2")), ["VW-11.3"]),
    ("コヴィントン: one square forward", on({"b1": (COV, "A", A), "c1": (SHI, "A", A)}), fx(COV, "b1", mv("c1", "c0")),
     ["VW-11.3"]),
    ("コヴィントン: next to it", on({"b1": (COV, "A", A), "d1": (SHI, "A", A)}), fx(COV, "b1", mv("d1", "d2")),
     ["VW-11.3"]),
    ("ゴエゴエ: this turn only", on({"b1": (GOE, "A", A)}), fx(GOE, "b1", status("b1", "diagonal", until="next_turn_end")),
     ["VW-11.7"]),
    ("ソード: only in defence position", on({"b2": (SWORD, "A", A), "b3": (BAR, "B", A)}),
     fx(SWORD, "b2", modify("b3", "atk", "set")), ["VW-11.4"]),
    ("ソード: the square in front", on({"b2": (SWORD, "A", "defence"), "c2": (BAR, "B", A)}),
     fx(SWORD, "b2", modify("c2", "atk", "set")), ["VW-11.3"]),
    ("ソード: an opponent's monster", on({"b2": (SWORD, "A", "defence"), "b3": (SHI, "A", A)}),
     fx(SWORD, "b2", modify("b3", "atk", "set")), ["VW-11.2"]),
    ("ソード: ATK to 0", on({"b2": (SWORD, "A", "defence"), "b3": (BAR, "B", A)}),
     fx(SWORD, "b2", modify("b3", "atk", "set", amount=100)), ["VW-11.7"]),
    ("ボマー: the revenge status", on({"b1": (BOMB, "A", A)}), fx(BOMB, "b1", status("b1", "immune")), ["VW-11.1"]),
    ("エクスプレス: two at most",
     on({"c1": (EXP, "A", A), "b0": (DORA, "A", None), "d0": (SHI, "A", None), "a0": (NAN, "A", None)}),
     fx(EXP, "c1", mv("b0", "b1"), mv("d0", "d1"), mv("a0", "a1")), ["VW-11.1"]),
    ("エクスプレス: into the square in front", on({"c1": (EXP, "A", A), "b0": (DORA, "A", None)}),
     fx(EXP, "c1", mv("b0", "b2")), ["VW-11.3"]),
    ("カラクリ: the square in front", on({"b1": (KAR, "A", A), "c2": (BAR, "B", A)}), fx(KAR, "b1", pos("c2")),
     ["VW-11.3"]),
    ("カラクリ: a battlefield monster", on({"b3": (KAR, "A", A), "b4": (BAR, "B", None)}), fx(KAR, "b3", pos("b4")),
     ["VW-11.3"]),
    ("ゴルドライバー lateral: only on the battlefield", on({"a0": (GOLD, "A", None)}, "a0"),
     fx(GOLD, "a0", pos("a0"), kind="lateral"), ["VW-11.3"]),
    ("カラクリ: an opponent's monster", on({"b1": (KAR, "A", A), "b2": (SHI, "A", A)}), fx(KAR, "b1", pos("b2")),
     ["VW-11.2"]),
    ("ペンギン: with another of your monsters", on({"b1": (PEN, "A", A), "c3": (BAR, "B", A)}),
     fx(PEN, "b1", {"do": "swap", "a": "b1", "b": "c3"}), ["VW-11.2"]),
    ("ペンギン: this card is one of the two", on({"b1": (PEN, "A", A), "d1": (SHI, "A", A), "e1": (NAN, "A", A)}),
     fx(PEN, "b1", {"do": "swap", "a": "d1", "b": "e1"}), ["VW-11.2"]),
    ("アサルト: 1000 down", on({"b1": (ASS, "A", A), "c3": (BAR, "B", A)}),
     fx(ASS, "b1", modify("c3", "both", "add", amount=-500)), ["VW-11.7"]),
    ("アサルト: ATK and DEF", on({"b1": (ASS, "A", A), "c3": (BAR, "B", A)}),
     fx(ASS, "b1", modify("c3", "atk", "add", amount=-1000)), ["VW-11.7"]),
    ("アサルト: an opponent's monster", on({"b1": (ASS, "A", A)}), fx(ASS, "b1", modify("b1", "both", "add")),
     ["VW-11.2"]),
    ("幻惑の巻物: an opponent's monster", magic(DAZE, ALL), mg(DAZE, status("b1", "no_action")), ["VW-11.2"]),
    ("幻惑の巻物: through its owner's next turn", magic(DAZE, ALL), mg(DAZE, status("c3", "no_action", until="turn_end")),
     ["VW-11.7"]),
    ("騎士道精神: your monster", magic(KNIGHT, ALL), mg(KNIGHT, status("c3", "immune")), ["VW-11.2"]),
    ("一点着地: your monster", magic(LAND, ALL), mg(LAND, status("c3", "diagonal")), ["VW-11.2"]),
    ("士気高揚: once", magic(MORALE, ALL), mg(MORALE, status("b1", "extra_move"), status("b1", "extra_move")),
     ["VW-11.1"]),
    ("シールドクラッシュ: a monster in defence position", magic(CRASH, ALL), mg(CRASH, destroy("c3")), ["VW-11.4"]),
    ("シールドクラッシュ: an opponent's monster", magic(CRASH, {**ALL, "b1": (SHI, "A", "defence")}),
     mg(CRASH, destroy("b1")), ["VW-11.2"]),
    ("ポジションチェンジ: from the battlefield", magic(SHIFT, {**ALL, "b0": (DORA, "A", None)}), mg(SHIFT, mv("b0", "a0")),
     ["VW-11.3"]),
    ("ポジションチェンジ: to the zone next to it", magic(SHIFT, ALL), mg(SHIFT, mv("c3", "a3")), ["VW-11.3"]),
    ("強制転移: two of your monsters", magic(SWAP, ALL), mg(SWAP, {"do": "swap", "a": "b1", "b": "c3"}), ["VW-11.2"]),
    ("破天荒な風: 1000 up", magic(WIND, ALL), mg(WIND, modify("c3", "both", "add", amount=500)), ["VW-11.7"]),
    ("破天荒な風: one monster", magic(WIND, ALL), mg(WIND, modify("c3", "both", "add"), modify("b1", "both", "add")),
     ["VW-11.1"]),
    ("ヒーローハート: the ATK halved too", magic(HERO, ALL), mg(HERO, status("b1", "extra_move")), ["VW-11.1"]),
    ("ヒーローハート: one monster", magic(HERO, ALL), mg(HERO, modify("b1", "atk", "halve"), status("d1", "extra_move")),
     ["VW-11.1"]),
    ("機雷化: all three", magic(MINE, ALL), mg(MINE, destroy("b1"), destroy("c3")), ["VW-11.1"]),
    ("機雷化: one of the opponent's", magic(MINE, ALL), mg(MINE, destroy("b1"), destroy("c3"), destroy("d3")),
     ["VW-11.2"]),
]

LEGAL: list[tuple[str, Any, dict[str, Any]]] = [
    ("東雲 normal", on({"b1": (SHI, "A", A)}), fx(SHI, "b1", draw("magic"))),
    ("東雲 normal, the magic deck empty", lambda: replace(on({"b1": (SHI, "A", A)})(), magic=Pile()), fx(SHI, "b1")),
    ("東雲 lateral", on({"b1": (SHI, "A", "defence")}, "b1"), fx(SHI, "b1", draw("rescue"), kind="lateral")),
    ("西園 normal heads", on(SAION), fx(SAI, "b1", coin("heads"), status("c3", "no_effect"))),
    ("西園 normal tails", on(SAION), fx(SAI, "b1", coin("tails"), modify("c3", "atk", "halve"))),
    ("西園 normal, a duration named otherwise", on(SAION),
     fx(SAI, "b1", coin("tails"), modify("c3", "atk", "halve", until="next_turn_end"))),
    ("西園 normal, no monster of the opponent to choose", on({"b1": (SAI, "A", A)}), fx(SAI, "b1", coin("heads"))),
    ("西園 lateral heads", on(SAION, "b1"), fx(SAI, "b1", coin("heads"), {"do": "bounce", "square": "c3"}, kind="lateral")),
    ("西園 lateral tails", on(SAION, "b1"), fx(SAI, "b1", coin("tails"), pos("c3"), kind="lateral")),
    ("南月 normal", on(NANGETSU), fx(NAN, "b1", mv("c1", "c2"))),
    ("南月 lateral", on(NANGETSU, "b1"), fx(NAN, "b1", mv("d0", "d1"), kind="lateral")),
    ("北条 normal, either side's zone", on({"b1": (HOJ, "A", A), "b4": (BAR, "B", None)}),
     fx(HOJ, "b1", {"do": "bounce", "square": "b4"})),
    ("幻中 into an empty zone", on(GENCHU, arrived="b2"), fx(GEN, "b2", mv("d3", "d4"), kind="special")),
    ("幻中 onto a monster", on(GENCHU_FULL, arrived="b2"),
     fx(GEN, "b2", destroy("d4"), mv("d3", "d4"), lose("B"), kind="special")),
    ("幻中, no opponent's battlefield monster to choose", on({"b2": (GEN, "A", A), "d4": (BAR, "B", None)}, arrived="b2"),
     fx(GEN, "b2", kind="special")),
    ("グランデューク, no monster in the opponent's back row", on({"d3": (GD, "B", A), "b1": (SHI, "A", A)}, **GRAND_KW),
     fx(GD, "d3", kind="special", by="B")),
    ("バロン normal", on({"b1": (BAR, "A", A), "d1": (SHI, "A", A)}), fx(BAR, "b1", mv("d1", "e1"))),
    ("バロン lateral, the opponent's sortie zone", on({"b1": (BAR, "A", A), "b4": (DUK, "B", None)}, "b1"),
     fx(BAR, "b1", mv("b4", "a4"), kind="lateral")),
    ("ヴァイカント normal", on({"b1": (VAI, "A", A)}, hand={"A": [DORA]}),
     fx(VAI, "b1", {"do": "place", "card": DORA, "to": "a0"})),
    ("ヴァイカント lateral from the deck", on({"b1": (VAI, "A", A)}, "b1"),
     fx(VAI, "b1", {"do": "place", "card": NAN, "to": "d0", "from": "deck"}, kind="lateral")),
    ("マーキス normal odd", on({"b1": (MAR, "A", A)}), fx(MAR, "b1", die(3), draw("magic"))),
    ("マーキス normal even", on({"b1": (MAR, "A", A)}), fx(MAR, "b1", die(4), draw("rescue"))),
    ("マーキス lateral 3", on({"b1": (MAR, "A", A), "a0": (DORA, "A", None)}, "b1"),
     fx(MAR, "b1", die(3), mv("a0", "a1"), kind="lateral")),
    ("マーキス lateral 6, nothing moves", on({"b1": (MAR, "A", A), "a0": (DORA, "A", None)}, "b1"),
     fx(MAR, "b1", die(6), kind="lateral")),
    ("デューク lateral", on({"b1": (DUK, "A", A), "c3": (BAR, "B", A)}, "b1"),
     fx(DUK, "b1", status("c3", "no_position"), status("c3", "no_effect"), kind="lateral")),
    ("グランデューク", on(GRAND, **GRAND_KW),
     fx(GD, "d3", destroy("b0"), modify("d3", "atk", "add", amount=900, until="permanent"), lose("A"),
        kind="special", by="B")),
    ("ゴルドライバー lateral", on({"b1": (GOLD, "A", A)}, "b1"), fx(GOLD, "b1", pos("b1"), kind="lateral")),
    ("ライズベルト", on({"b1": (RISE, "A", A)}, hand={"A": [NAN]}),
     fx(RISE, "b1", modify("b1", "both", "add", amount=1800), {"do": "return", "card": NAN, "pile": "deck"})),
    ("レプティア", on({"b1": (REP, "A", A)}), fx(REP, "b1", mv("b1", "c1"))),
    ("ジャイクロプス normal, any number", on({"b1": (JAI, "A", A), "d1": (SHI, "A", A), "d2": (NAN, "A", A)}),
     fx(JAI, "b1", pos("b1"), pos("d1"), pos("d2"))),
    ("ジャイクロプス lateral, either side", on({"b1": (JAI, "A", A), "c3": (BAR, "B", A)}, "b1"),
     fx(JAI, "b1", pos("b1"), pos("c3"), kind="lateral")),
    ("バンドラ normal", on({"b1": (BAN, "A", A)}), fx(BAN, "b1", draw("rescue"))),
    ("バンドラ lateral", on({"b1": (BAN, "A", A)}, "b1", hand={"A": [NAN]}),
     fx(BAN, "b1", draw("magic"), {"do": "return", "card": NAN, "pile": "deck"}, kind="lateral")),
    ("シュルブ", on({"b1": (SHU, "A", A)}), fx(SHU, "b1", status("b1", "immune"))),
    ("シール・イール normal", on({"b1": (EEL, "A", A), "c3": (BAR, "B", A)}), fx(EEL, "b1", status("c3", "no_effect"))),
    ("シール・イール lateral", on({"b1": (EEL, "A", A)}, "b1"), fx(EEL, "b1", {"do": "seal_zone", "square": "c2"},
                                                                    kind="lateral")),
    ("ガンドラ", on({"c2": (GAN, "A", A), "b2": (BAR, "B", A), "c3": (SHI, "A", A), "e2": (DORA, "B", A)}),
     fx(GAN, "c2", destroy("b2"), destroy("c3"))),
    ("ガンドラ, an immune monster of yours spared (騎士道精神)",
     lambda: (lambda b: b.put("c3", replace(b.at("c3"), statuses=(("immune", 4),))))(
         on({"c2": (GAN, "A", A), "b2": (BAR, "B", A), "c3": (SHI, "A", A)})()),
     fx(GAN, "c2", destroy("b2"))),
    ("コヴィントン", on({"b1": (COV, "A", A), "c1": (SHI, "A", A)}), fx(COV, "b1", mv("c1", "c2"))),
    ("ゴエゴエ", on({"b1": (GOE, "A", A)}), fx(GOE, "b1", status("b1", "diagonal"))),
    ("ソード", on({"b2": (SWORD, "A", "defence"), "b3": (BAR, "B", A)}), fx(SWORD, "b2", modify("b3", "atk", "set"))),
    ("ボマー", on({"b1": (BOMB, "A", A)}), fx(BOMB, "b1", status("b1", "revenge"))),
    ("エクスプレス", on({"c1": (EXP, "A", A), "b0": (DORA, "A", None), "a0": (NAN, "A", None)}),
     fx(EXP, "c1", mv("b0", "b1"), mv("a0", "a1"))),
    ("カラクリ", on({"b1": (KAR, "A", A), "b2": (BAR, "B", A)}), fx(KAR, "b1", pos("b2"))),
    ("ペンギン", on({"b1": (PEN, "A", A), "d1": (SHI, "A", A)}), fx(PEN, "b1", {"do": "swap", "a": "d1", "b": "b1"})),
    ("アサルト", on({"b1": (ASS, "A", A), "c3": (BAR, "B", A)}), fx(ASS, "b1", modify("c3", "both", "add"))),
    ("幻惑の巻物", magic(DAZE, ALL), mg(DAZE, status("c3", "no_action"))),
    ("騎士道精神", magic(KNIGHT, ALL), mg(KNIGHT, status("b1", "immune"))),
    ("一点着地", magic(LAND, ALL), mg(LAND, status("b1", "diagonal"))),
    ("士気高揚", magic(MORALE, ALL), mg(MORALE, status("b1", "extra_move"))),
    ("シールドクラッシュ", magic(CRASH, {**ALL, "c3": (BAR, "B", "defence")}), mg(CRASH, destroy("c3"))),
    ("ポジションチェンジ, either side's", magic(SHIFT, ALL), mg(SHIFT, mv("c3", "c2"))),
    ("強制転移", magic(SWAP, ALL), mg(SWAP, {"do": "swap", "a": "b1", "b": "d1"})),
    ("破天荒な風, either side's", magic(WIND, ALL), mg(WIND, modify("c3", "both", "add", amount=1000))),
    ("ヒーローハート", magic(HERO, ALL), mg(HERO, modify("b1", "atk", "halve"), status("b1", "extra_move"))),
    ("機雷化", magic(MINE, ALL), mg(MINE, destroy("b1"), destroy("c3"), destroy("d1"))),
]


@pytest.mark.parametrize(("what", "board", "line", "rules"), BROKEN, ids=[c[0] for c in BROKEN])
def test_a_line_that_breaks_its_card_text(what: str, board: Any, line: dict[str, Any], rules: list[str]) -> None:
    assert check(board(), line) == rules


@pytest.mark.parametrize(("what", "board", "line"), LEGAL, ids=[c[0] for c in LEGAL])
def test_the_line_its_card_text_allows(what: str, board: Any, line: dict[str, Any]) -> None:
    assert check(board(), line) == []


def test_every_text_has_a_broken_and_a_legal_line() -> None:
    def text_of(line: dict[str, Any]) -> tuple[str, str]:
        return line["card"], "effect" if line["type"] == "magic" else line["kind"]
    summoned_by_vw_8_1 = {(DUK, "normal"), (HOJ, "lateral")}  # VW-8.1's cases (test_rule_ids, test_refusal_texts)
    assert {text_of(line) for _, _, line, _ in BROKEN} | summoned_by_vw_8_1 == set(TEXTS)
    assert {text_of(line) for _, _, line in LEGAL} | summoned_by_vw_8_1 == set(TEXTS)


def test_an_effect_that_may_not_be_activated_is_not_read_against_its_text() -> None:
    board = on({"b1": (SHI, "A", A)})()
    assert check(board, fx(SHI, "b1", draw("rescue"))) == ["VW-11.6"]
    blocked = board.put("b1", replace(board.at("b1"), statuses=(("no_effect", 3),)))
    assert check(blocked, fx(SHI, "b1", draw("rescue"))) == ["VW-5.8"]


# --- the two known wrong cases of issue 27 -------------------------------------------------------
def test_shield_crash_destroys_a_monster_in_defence_position_only() -> None:
    """「相手の守備表示モンスター1体を選んで破壊する。」"""
    attack = magic(CRASH, {"c3": (BAR, "B", "attack")})()
    found = RS.check(attack, {"seq": 7, **mg(CRASH, destroy("c3"))})
    assert [(v.rule, v.message) for v in found] == [
        ("VW-11.4", "シールドクラッシュ: ヴァリアンツＢ－バロン on c3 is not in defence position (守備表示) "
                    "(「相手の守備表示モンスター1体を選んで破壊する。」)")]
    assert check(magic(CRASH, {"c3": (BAR, "B", "defence")})(), mg(CRASH, destroy("c3"))) == []


def test_marquis_odd_roll_then_a_rescue_draw_is_flagged() -> None:
    """「サイコロを１回振り偶数が出た場合、救援デッキから1枚ドローする。奇数が出た場合、魔法デッキから1枚ドローする。」"""
    board = on({"b1": (MAR, "A", A)})()
    found = RS.check(board, {"seq": 7, **fx(MAR, "b1", die(5), draw("rescue"))})
    assert [(v.rule, v.message) for v in found] == [
        ("VW-11.5", "ヴァリアンツＭ－マーキス: an odd roll (5) draws from the magic deck, not the rescue deck "
                    "(「奇数が出た場合、魔法デッキから1枚ドローする。」)")]
    assert check(board, fx(MAR, "b1", die(5), draw("magic"))) == []
    assert found[0].expected == {"action": draw("rescue")}
    assert found[0].suggest == (fx(MAR, "b1", die(5), draw("magic")),)  # the line the roll calls for


def test_a_draw_from_another_deck_is_offered_the_deck_the_text_names() -> None:
    board = on({"b1": (SHI, "A", A)})()
    found = RS.check(board, {"seq": 3, "at": "2026-12-01T10:00:00+09:00", **fx(SHI, "b1", draw("rescue", card="x"))})
    assert [(v.rule, v.suggest) for v in found] == [("VW-11.6", (fx(SHI, "b1", draw("magic", card="x")),))]
    nowhere = RS.check(on({"b1": (BAN, "A", A)}, "b1", hand={"A": [NAN]})(),
                       {"seq": 3, **fx(BAN, "b1", draw("deck"), {"do": "return", "card": NAN, "pile": "deck"},
                                       kind="lateral")})
    assert [(v.rule, v.suggest) for v in nowhere] == [("VW-11.6", None)]  # magic or rescue: the scorekeeper knows


def test_the_known_cases_replay_unflagged_under_version_2() -> None:
    """A variants-war/2 match recorded them as the scorekeeper saw them: no VW-11 there."""
    board = recorded(magic(CRASH, {"c3": (BAR, "B", "attack")})())
    assert check(board, mg(CRASH, destroy("c3"))) == []
    assert check(recorded(on({"b1": (MAR, "A", A)})()), fx(MAR, "b1", die(5), draw("rescue"))) == []


def recorded(board: Board) -> Board:
    return replace(board, options=tuple(sorted({**dict(board.options), "card_texts": "recorded"}.items())))


# --- what the fold takes from the text (VW-11.7) ---------------------------------------------------
def fold(board: Board, line: dict[str, Any]) -> Board:
    return RS.apply(board, {"seq": 1, **line})


def test_the_fold_takes_the_duration_the_text_fixes() -> None:
    board = on(SAION)()
    after = fold(board, fx(SAI, "b1", coin("tails"), modify("c3", "atk", "halve")))
    assert after.at("c3").mods == (Mod("atk", "halve", 0, 4),)  # through B's turn 4 (その持ち主の次のターンまで)
    as_recorded = fold(recorded(on(SAION)()), fx(SAI, "b1", coin("tails"), modify("c3", "atk", "halve")))
    assert as_recorded.at("c3").mods == (Mod("atk", "halve", 0, 3),)  # /2: turn_end, the action's default
    duke = fold(on({"b1": (DUK, "A", A), "c3": (BAR, "B", A)}, "b1")(),
                fx(DUK, "b1", status("c3", "no_position"), status("c3", "no_effect"), kind="lateral"))
    assert duke.at("c3").statuses == (("no_position", 4), ("no_effect", 4))


def test_the_fold_takes_the_amount_the_text_fixes() -> None:
    assault = fold(on({"b1": (ASS, "A", A), "c3": (BAR, "B", A)})(), fx(ASS, "b1", modify("c3", "both", "add")))
    assert assault.at("c3").mods == (Mod("atk", "add", -1000, 3), Mod("def", "add", -1000, 3))
    wind = fold(magic(WIND, ALL)(), mg(WIND, modify("c3", "both", "add")))
    assert RS.board_json(wind)["monsters"][2]["atk"] == 1800  # バロン 800 + 1000
    sword = fold(on({"b2": (SWORD, "A", "defence"), "b3": (BAR, "B", A)})(), fx(SWORD, "b2", modify("b3", "atk", "set")))
    assert sword.at("b3").mods == (Mod("atk", "set", 0, 3),)
    board = on({"b1": (RISE, "A", A)})()
    board = board.with_player(replace(board.player("A"), hand=(HandCard(NAN, "deck"),)))
    rise = fold(board, fx(RISE, "b1", modify("b1", "both", "add"), {"do": "return", "card": NAN, "pile": "deck"}))
    assert rise.at("b1").mods == (Mod("atk", "add", 1800, 3), Mod("def", "add", 1800, 3))
    assert rise.player("A").hand == () and rise.player("A").deck.cards[-1] == NAN


def test_grand_duke_gains_half_the_destroyed_monsters_atk() -> None:
    board = on(GRAND, **GRAND_KW)()
    line = fx(GD, "d3", destroy("b0"), modify("d3", "atk", "add"), lose("A"), kind="special", by="B")
    assert check(board, line) == []
    after = fold(board, line)
    assert after.at("d3").atk_bonus == 900 and after.at("d3").mods == ()  # 南月 1800 / 2, permanent
    assert after.player("A").life == 2


def test_a_modify_the_text_does_not_make_is_folded_as_recorded() -> None:
    board = on({"b1": (ASS, "A", A), "c3": (BAR, "B", A)})()
    line = fx(ASS, "b1", modify("c3", "atk", "halve"))
    assert check(board, line) == ["VW-11.7"]
    assert fold(board, line).at("c3").mods == (Mod("atk", "halve", 0, 3),)


# --- VW-11.8: 瞬着ボマー -------------------------------------------------------------------------------
def test_vw_11_8_revenge_in_battle() -> None:
    board = on({"b1": (BOMB, "A", A), "b2": (DUK, "B", A)})()
    board = fold(board, fx(BOMB, "b1", status("b1", "revenge")))
    board = replace(board, phase="battle")
    both = {"type": "battle", "by": "A", "squares": ["b1", "b2"], "destroyed": ["b1", "b2"]}
    only_bomber = {**both, "destroyed": ["b1"]}
    assert check(board, both) == [] and check(board, only_bomber) == ["VW-6.2"]
    after = fold(board, both)
    assert after.at("b1") is None and after.at("b2") is None
    assert check(recorded(board), only_bomber) == [] and check(recorded(board), both) == ["VW-6.2"]
    next_turn = fold(replace(board, phase="battle"), {"type": "end_turn", "by": "A"})
    assert next_turn.at("b1").statuses == ()  # this turn only


# --- the table of docs/rules/variants-war.md ------------------------------------------------------
def table_rows() -> list[tuple[str, str, str, str]]:
    text = DOC.read_text(encoding="utf-8")
    part = text.split("### Every sentence of the card list", 1)[1]
    rows = []
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) == 4 and cells[0] not in ("card", "---"):
            rows.append((cells[0], cells[1].split("`")[1] if "`" in cells[1] else cells[1], cells[2], cells[3]))
        elif rows and not line.startswith("|"):
            break
    return rows


def test_the_table_lists_every_sentence_of_the_catalog() -> None:
    rows = table_rows()
    expected = [(name, kind, sentence) for name in catalog.cards() for kind, sentence in catalog.sentences(name)]
    assert [r[:3] for r in rows] == expected
    assert len(rows) > 80


def test_each_row_names_its_rule_or_says_why_none() -> None:
    ids = set(re.findall(r"\*\*(VW-\d+\.\d+)\b", DOC.read_text(encoding="utf-8")))
    for name, kind, sentence, cell in table_rows():
        cited = re.findall(r"VW-\d+\.\d+", cell)
        assert cited or cell.startswith("none:"), (name, sentence)
        assert set(cited) <= ids, (name, sentence, set(cited) - ids)
        if kind in ("normal", "lateral") and sentence == catalog.NONE_TEXT:
            assert cited[0] == ("VW-5.4" if kind == "normal" else "VW-5.5"), name


def test_every_card_text_has_its_check_and_its_terms() -> None:
    texts = {(name, kind) for name in catalog.cards() for kind, sentence in catalog.sentences(name)
             if sentence != catalog.NONE_TEXT}
    assert set(TEXTS) == texts
    assert set(catalog.TERMS) <= texts


def test_a_card_added_without_its_row_fails_the_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    cards = dict(catalog.cards())
    cards["新しいカード"] = {"name": "新しいカード", "group": "magic", "kind": "magic", "effect": "1枚ドローする。"}
    monkeypatch.setattr(catalog, "cards", lambda: cards)
    with pytest.raises(AssertionError):
        test_the_table_lists_every_sentence_of_the_catalog()
    with pytest.raises(AssertionError):
        test_every_card_text_has_its_check_and_its_terms()
