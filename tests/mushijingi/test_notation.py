"""Notation (issue 14): ``describe(board, move, lang)`` says a move the way players say it,
from the board before it, in Japanese (default) and English, for every move type."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from projections.mushijingi import RULESET as R
from tests.mushijingi.helpers import fold, header, main_board, started


def say(board, move):
    move = {"seq": 1, **move}
    assert R.validate_move(move) == []
    return R.describe(board, move), R.describe(board, move, "en")


def test_setup():
    board = R.initial_board(header())
    ja, en = say(board, {"type": "setup", "by": "A", "hand": ["カブトムシ", None, "闘志", None]})
    assert ja == "山田 ゲームの準備: 縄張り6枚、手札4枚 (カブトムシ, ?, 闘志, ?)"
    assert en == "山田 sets up: 6 territory cards, a hand of 4 (カブトムシ, ?, 闘志, ?)"
    ja, en = say(board, {"type": "setup", "by": "B"})
    assert ja == "佐藤 ゲームの準備: 縄張り6枚、手札4枚"
    assert en == "佐藤 sets up: 6 territory cards, a hand of 4"


def test_draw_seen_unseen_and_from_an_empty_deck():
    board = started()
    assert say(board, {"type": "draw", "by": "B", "card": "タガメ"}) == (
        "佐藤 ドロー: タガメ",
        "佐藤 draws タガメ",
    )
    assert say(board, {"type": "draw", "by": "B", "card": None}) == (
        "佐藤 ドロー (非公開)",
        "佐藤 draws a card (unseen)",
    )
    empty = board.with_side(replace(board.side("B"), deck=0))
    assert say(empty, {"type": "draw", "by": "B"}) == (
        "佐藤 ドロー (山札切れ)",
        "佐藤 draws from an empty deck (deck-out)",
    )


def test_set():
    board = started(hand_a=["羽化", None, None, None])
    assert say(board, {"type": "set", "by": "A", "card": "羽化"}) == (
        "山田 エサをセット: 羽化 (エサ場1枚)",
        "山田 sets 羽化 as food (feed: 1)",
    )


def test_play_insect_enhancement_spell_and_unknown_card():
    board = main_board(a=["カブトムシ"], b=["タガメ"])
    assert say(board, {"type": "play", "by": "A", "card": "ヘラクレスオオカブト"}) == (
        "山田 虫を場に出す: ヘラクレスオオカブト (コスト4)",
        "山田 plays the insect ヘラクレスオオカブト (cost 4)",
    )
    assert say(board, {"type": "play", "by": "A", "card": "鋼の大顎", "target": "A1"}) == (
        "山田 強化: 鋼の大顎 → カブトムシ (コスト1)",
        "山田 enhances カブトムシ with 鋼の大顎 (cost 1)",
    )
    assert say(board, {"type": "play", "by": "A", "card": "樹液の罠", "target": "B1"}) == (
        "山田 術: 樹液の罠 → タガメ (コスト2)",
        "山田 casts the spell 樹液の罠 on タガメ (cost 2)",
    )
    assert say(board, {"type": "play", "by": "A", "card": "大嵐"}) == (
        "山田 術: 大嵐 (コスト3)",
        "山田 casts the spell 大嵐 (cost 3)",
    )
    assert say(board, {"type": "play", "by": "A", "card": "謎のカード", "target": "Z9"}) == (
        "山田 カードを使用: 謎のカード → Z9",
        "山田 plays 謎のカード on Z9",
    )


def test_attack_on_an_insect_with_damage_advantage_and_destruction():
    board = main_board(a=["カブトムシ", "カブトムシ"], b=["タガメ"])
    move = {"type": "attack", "by": "A", "attacker": "A2", "technique": "つのでつく", "target": "B1"}
    assert say(board, move) == (
        "山田: カブトムシ[A2](つのでつく)→タガメ 攻撃 1200ダメージ (3すくみ2倍) 破壊",
        "山田: カブトムシ[A2] (つのでつく) attacks タガメ, 1200 damage (colour advantage x2), destroyed",
    )
    board = main_board(a=["オオカマキリ"], b=["ヘラクレスオオカブト"])
    move = {"type": "attack", "by": "A", "attacker": "A1", "technique": "かまできる", "target": "B1"}
    assert say(board, move) == (
        "山田: オオカマキリ(かまできる)→ヘラクレスオオカブト 攻撃 500ダメージ",
        "山田: オオカマキリ (かまできる) attacks ヘラクレスオオカブト, 500 damage",
    )


def test_direct_attack_takes_territory_or_wins():
    board = main_board(a=["カブトムシ"])
    move = {"type": "attack", "by": "A", "attacker": "A1", "technique": "つのでつく", "target": "player"}
    assert say(board, {**move, "territory_card": "大嵐"}) == (
        "山田: カブトムシ(つのでつく)→佐藤 直接攻撃 (縄張り6→5) 縄張りから: 大嵐",
        "山田: カブトムシ (つのでつく) attacks 佐藤 directly (territory 6→5), territory card 大嵐",
    )
    zero = board.with_side(replace(board.side("B"), territory=0))
    assert say(zero, move) == (
        "山田: カブトムシ(つのでつく)→佐藤 直接攻撃 (縄張り0) 勝利",
        "山田: カブトムシ (つのでつく) attacks 佐藤 directly (territory 0), wins",
    )


def test_effect_actions_become_phrases():
    board = main_board(a=["カブトムシ"], b=["タガメ", "アシダカグモ"])
    storm = {"type": "effect", "by": "B", "card": "大嵐", "damage": {"A1": 300, "B2": 300}}
    assert say(board, storm) == (
        "佐藤: 大嵐の効果: カブトムシに300ダメージ、アシダカグモに300ダメージ",
        "佐藤: effect of 大嵐: 300 damage to カブトムシ, 300 damage to アシダカグモ",
    )
    flip = {"type": "effect", "by": "B", "card": "タガメ", "technique": "すくいなげ", "flip": ["A1"]}
    assert say(board, flip) == (
        "佐藤: タガメ(すくいなげ)の効果: カブトムシをターン終了時まで裏返す",
        "佐藤: effect of タガメ (すくいなげ): flips カブトムシ face down until end of turn",
    )
    many = {
        "type": "effect",
        "by": "A",
        "card": "カブトムシ",
        "player": "B",
        "boost": {"A1": 300},
        "destroy": ["B1"],
        "bounce": ["B2"],
        "draw": 2,
        "territory": 1,
        "discard": ["闘志"],
        "feed_discard": ["羽化"],
        "summon": ["ナナホシテントウ"],
        "from": "discard",
    }
    ja, en = say(board, many)
    assert ja == (
        "山田: カブトムシの効果: カブトムシの攻撃力+300、タガメを破壊、アシダカグモを手札に戻す、"
        "佐藤が2枚ドロー、佐藤が縄張りから1枚手札に、佐藤が手札の闘志を捨てる、"
        "佐藤がエサ場の羽化を捨てる、捨て札からナナホシテントウを場に出す"
    )
    assert en == (
        "山田: effect of カブトムシ: カブトムシ attack +300, destroys タガメ, returns アシダカグモ "
        "to its owner's hand, 佐藤 draws 2, 佐藤 takes 1 territory card(s) into hand, 佐藤 discards "
        "闘志, 佐藤 discards 羽化 from the feed, puts ナナホシテントウ onto the field from the "
        "discard pile"
    )
    text_only = {"type": "effect", "by": "A", "card": "ゲンジボタル", "text": "相手は次のターン攻撃できない"}
    assert say(board, text_only) == (
        "山田: ゲンジボタルの効果: 相手は次のターン攻撃できない",
        "山田: effect of ゲンジボタル: 相手は次のターン攻撃できない",
    )


def test_reveal_and_end_turn():
    board = started()
    assert say(board, {"type": "reveal", "by": "A", "cards": ["闘志", "羽化"]}) == (
        "山田 手札を公開: 闘志, 羽化",
        "山田 reveals 闘志, 羽化",
    )
    assert say(board, {"type": "end_turn", "by": "B"}) == ("佐藤 ターンエンド", "佐藤 ends the turn")


def test_every_move_type_is_covered_here():
    import inspect
    import sys

    source = inspect.getsource(sys.modules[__name__])
    for name in R.move_types:
        assert f'"type": "{name}"' in source, name


RAW = ("{", "}", "['", "']", "':", '"', "None", "[]")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_never_raises_and_never_shows_raw_data(lang):
    """Generated matches, the spec examples on a fresh board, and moves naming what is not
    there (unknown cards, insects, players): always a plain sentence."""
    boards_and_moves = []
    for seed in range(4):
        hdr, moves = R.generate(random.Random(seed), f"n{seed}")
        board = R.initial_board(hdr)
        for move in moves:
            boards_and_moves.append((board, move))
            board = R.apply(board, move)
    fresh = R.initial_board(header())
    odd = [
        {"seq": 1, "type": "attack", "by": "Z", "attacker": "X9", "technique": "?", "target": "player"},
        {"seq": 1, "type": "attack", "by": "A", "attacker": "謎", "technique": "?", "target": "B7"},
        {"seq": 1, "type": "effect", "by": "Z", "card": "謎", "player": "Q", "damage": {"X": 1}},
        {"seq": 1, "type": "draw", "by": "Z"},
        {"seq": 1, "type": "set", "by": "Z", "card": "謎"},
        {"seq": 1, "type": "play", "by": "A", "card": "鋼の大顎"},
    ]
    boards_and_moves += [(fresh, dict(spec.example)) for spec in R.move_types.values()]
    boards_and_moves += [(fresh, m) for m in odd]
    for board, move in boards_and_moves:
        assert R.validate_move(move) == [], move
        text = R.describe(board, move, lang)
        assert text and not any(r in text for r in RAW), (move, text)


def test_describe_reads_the_board_and_leaves_it_alone():
    board, _ = fold(main_board(a=["カブトムシ"], b=["タガメ"]), [])
    before = repr(board)
    R.describe(
        board, {"seq": 1, "type": "attack", "by": "A", "attacker": "A1", "technique": "つのでつく", "target": "B1"}
    )
    assert repr(board) == before
