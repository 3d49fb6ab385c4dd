"""Issue 17: where the seed's wording decides a point, quoted sentence by sentence.

Each test quotes the seed sentence (docs/seeds/gurren-lagann-tcg.ja.txt) it rests on and
checks that docs/rules/gurren-lagann.md cites it; a house rule is shown with its literal
default and with its option.
"""

from __future__ import annotations

from pathlib import Path

from projections.gurren_lagann.header import HOUSE_RULES

from .helpers import fold, header, last, opening
from .test_rules import SETUP, draw, dp, end, mv, put, skill

ROOT = Path(__file__).resolve().parents[2]
SEED = (ROOT / "docs" / "seeds" / "gurren-lagann-tcg.ja.txt").read_text(encoding="utf-8")
DOC = (ROOT / "docs" / "rules" / "gurren-lagann.md").read_text(encoding="utf-8")


def cited(sentence: str) -> None:
    assert sentence in SEED, "not the seed's wording"
    assert sentence in DOC, "the rules doc does not cite it"


def damage_to_b(hdr: dict, moves: list[dict]) -> int:
    board, found = fold(hdr, moves)
    assert found == [], found
    return board.sides[1].damage


READY = {"type": "effect", "by": "A", "card": "グレン", "readied": ["グレン"]}


def at(square: str) -> list[dict]:
    """SETUP, then A's グレン placed on ``square`` and made 未行動 (no damage: a card text)."""
    return [*SETUP, put("A", "グレン", square), READY]


# ---------------------------------------------------------------- 17.2 侵入ダメージ (GL-6.8)

INVASION = "※相手の(通常)出陣ゾーンに侵入した場合 1ダメージ、本陣に侵入した場合 2ダメージを与える。"


def test_entering_the_deploy_zone_deals_one_the_hq_two():
    """※相手の(通常)出陣ゾーンに侵入した場合 1ダメージ、本陣に侵入した場合 2ダメージを与える。"""
    cited(INVASION)
    h = header()
    assert damage_to_b(h, [*at("a5"), mv("A", ["グレン"], "a5", "a6")]) == 1
    assert damage_to_b(h, [*at("c4"), mv("A", ["グレン"], "c4", "c5", "c6")]) == 2
    assert damage_to_b(h, [*at("a5"), mv("A", ["グレン"], "a5", "a4")]) == 0  # no zone entered


def test_moving_inside_the_zone_enters_nothing():
    """侵入 is entering: b6→a6, already inside B's 出陣ゾーン, deals no new damage (was 1 → 2)."""
    h = header()
    assert damage_to_b(h, [*at("b6"), mv("A", ["グレン"], "b6", "a6")]) == 0
    clear = put("B", "ガンメン", "a3")  # out of the way
    assert damage_to_b(h, [*at("b5"), clear, mv("A", ["グレン"], "b5", "b6", "a6")]) == 1  # entered on the way
    # the 本陣 lies inside the zone: leaving it for a normal square enters nothing ...
    assert damage_to_b(h, [*at("c6"), mv("A", ["グレン"], "c6", "b6")]) == 0
    # ... and entering it from a normal square of the zone is entering the 本陣
    assert damage_to_b(h, [*at("b6"), mv("A", ["グレン"], "b6", "c6")]) == 2
    # what counts is a step into the zone: leaving it and coming back in is entering again
    assert damage_to_b(h, [*at("e6"), mv("A", ["グレン"], "e6", "e5", "e6")]) == 1
    assert damage_to_b(h, [*at("c6"), mv("A", ["グレン"], "c6", "c5", "c6")]) == 2
    through = [*at("c5"), clear, mv("A", ["グレン"], "c5", "c6", "b6")]
    assert damage_to_b(h, through) == 1  # through the 本陣, ends on a normal square
    # the same with the house rule per_figure: nothing entered, nothing dealt
    pf = header({"invasion_damage": "per_figure"})
    assert damage_to_b(pf, [*at("b6"), mv("A", ["グレン"], "b6", "a6")]) == 0


def test_a_won_battle_enters_only_from_outside():
    """The attacker's win completes the move (「攻撃側がバトルに勝利: 移動が完了する。」): the move
    enters the zone only if it started outside it."""
    h = header()
    ganmen_a6 = put("B", "ガンメン", "a6")
    won = {"type": "battle", "by": "A", "attack": 3, "defend": 1}
    inside = [*at("b6"), ganmen_a6, mv("A", ["グレン"], "b6", "a6"), won]
    assert damage_to_b(h, inside) == 0
    outside = [*at("a4"), ganmen_a6, mv("A", ["グレン"], "a4", "a5", "a6"), won]
    assert damage_to_b(h, outside) == 1
    back_in = [*at("a6"), put("B", "ガンメン", "b6"), mv("A", ["グレン"], "a6", "a5", "b5"), put("B", "ガンメン", "a5")]
    assert damage_to_b(h, back_in) == 0  # ends outside the zone


# ---------------------------------------------------------------- 17.3 ターン終了 (GL-3.6, GL-H9)

TURN_END = "- スキル置き場にあるスキルカードをすべて捨て札にする。"
TRAPS_ARE_SKILLS = "- スキル: 手札から(使用タイミングが【メイン】または【罠】の)スキルカードを使用・セットする。"


def test_turn_end_discards_every_skill_card_traps_included():
    """○ ターン終了 - スキル置き場にあるスキルカードをすべて捨て札にする。 A 【罠】 card is a skill
    card (「(使用タイミングが【メイン】または【罠】の)スキルカードを使用・セットする」)."""
    cited(TURN_END)
    cited(TRAPS_ARE_SKILLS)
    assert HOUSE_RULES["traps_survive_turn_end"] is False
    moves = [*opening(), end("A"), draw("B"), dp("B", "エンキ", "d6"), skill("B", "待ち伏せ", set=True)]
    spring = {"type": "trap", "by": "B", "card": "待ち伏せ"}
    # sprung in the owner's own turn: still there (GL-8.8 only says nobody attacked B)
    assert last(header(), moves, spring) == ["GL-8.8"]
    gone, found = fold(header(), [*moves, end("B")])
    assert found == [] and gone.sides[1].skill_zone == () and "待ち伏せ" in gone.sides[1].discard
    assert last(header(), [*moves, end("B"), draw("A")], spring) == ["GL-8.8", "GL-8.5"]
    # the option: a set 【罠】 stays over the opponent's turn and is sprung there
    keep = header({"traps_survive_turn_end": True})
    kept, found = fold(keep, [*moves, end("B"), draw("A")])
    assert found == [] and [k.card for k in kept.sides[1].skill_zone] == ["待ち伏せ"]
    assert last(keep, [*moves, end("B"), draw("A")], spring) == ["GL-8.8"]


def test_unseen_set_card_is_counted_in_the_discard_pile():
    moves = [*opening(), end("A"), draw("B"), dp("B", "エンキ", "d6"), skill("B", None, set=True), end("B")]
    board, found = fold(header(), moves)
    assert found == [] and board.sides[1].discard == (None,)


# ---------------------------------------------------------------- ドロー枚数 (GL-3.3, GL-H1)

DRAW_PHASE = "○ ドローフェイズ"
FIRST_DRAW = "- ファーストドロー制限: 有り(先攻 1ターン目においては、カードを引かない上に"


def test_cards_drawn_per_turn_is_a_house_rule_defaulting_to_one():
    """The seed names the phase (「○ ドローフェイズ」) and says the first player's first turn draws
    nothing (「カードを引かない」), never how many are drawn: `draw_per_turn`, default 1."""
    cited(DRAW_PHASE)
    cited(FIRST_DRAW)
    assert HOUSE_RULES["draw_per_turn"] == 1
    before = [*opening(), end("A")]
    assert last(header(), before, draw("B")) == []
    assert last(header(), before, {"type": "draw", "by": "B", "count": 2}) == ["GL-3.3"]
    two = header({"draw_per_turn": 2})
    assert last(two, before, {"type": "draw", "by": "B", "count": 2}) == []
    assert last(two, before, draw("B")) == ["GL-3.3"]
    board, _ = fold(two, [*before, {"type": "draw", "by": "B", "count": 2}])
    assert len(board.sides[1].hand) == 8 and board.sides[1].deck == 22
    assert last(two, opening(), draw("A")) == ["GL-3.4"]  # the first turn still draws nothing


def test_every_house_rule_cites_its_sentence_in_the_doc():
    table = DOC[DOC.index("## House-rule options") :]
    for name in HOUSE_RULES:
        row = next(line for line in table.splitlines() if line.startswith(f"| `{name}`"))
        assert "「" in row, f"{name}: no seed sentence quoted"
