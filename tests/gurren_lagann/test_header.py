"""Deck construction (GL-1) and house-rule options in the header."""

from __future__ import annotations

from projections.gurren_lagann import RULESET as R
from projections.gurren_lagann.catalog import fits, load

from .helpers import header


def problems(hdr):
    return [str(e) for e in R.validate_header(hdr)]


def test_sample_decks_are_legal():
    assert R.validate_header(header()) == []


def test_thirty_cards_gl_1_1():
    h = header()
    h["players"][0]["deck"]["cards"].pop()
    assert any(p.startswith("players[0].deck.cards: GL-1.1") for p in problems(h))


def test_three_copies_gl_1_2():
    h = header()
    cards = h["players"][1]["deck"]["cards"]
    cards[cards.index("ビャコウ")] = "エンキ"
    assert any("GL-1.2" in p and "エンキ" in p for p in problems(h))


def test_unknown_card_is_a_field_error_gl_1_7():
    h = header()
    h["players"][0]["deck"]["cards"][0] = "アンチスパイラル"
    assert any(p.startswith("players[0].deck.cards: GL-1.7") for p in problems(h))


def test_stock_one_per_name_and_figures_gl_1_3_gl_1_4():
    h = header()
    h["players"][0]["deck"]["stock"].append("ラガン")
    assert any("players[0].deck.stock: GL-1.3" in p for p in problems(h))
    h = header()
    h["players"][0]["deck"]["stock"].remove("グレンブーメラン")
    assert any("GL-1.4" in p and "グレンブーメラン" in p for p in problems(h))
    h = header()
    del h["players"][1]["deck"]["stock"]
    assert any(p.startswith("players[1].deck.stock") for p in problems(h))


def test_combine_needs_its_parts_gl_1_6():
    h = header()
    deck = h["players"][0]["deck"]
    deck["stock"].remove("ラガン")
    assert any("GL-1.6" in p and "ラガン" in p for p in problems(h))


def test_base_shapes_gl_1_5():
    cat = load()
    big = cat.cards["グレン"].cells  # 2×2
    assert fits([big, big, big])
    assert not fits([big, big, big, big])
    # グレンラガン (6 cells) is left out of the count: 大グレン団 uses 4+1+2+1+1 cells
    assert R.validate_header(header()) == []
    # shapes cannot rotate: three 2×2 and three vertical 2×1 do not fit, though only 18 cells
    v = cat.cards["ダヤッカイザー"].cells
    assert not fits([big, big, big, v, v, v, v])
    assert fits([big, v, big, v, big, v])


def test_house_rules_in_header():
    assert R.validate_header(header({"split_movement": True, "deckout": "draw"})) == []
    bad = problems(header({"mulligan": True}))
    assert bad and bad[0].startswith("match.house_rules.mulligan")
    assert problems(header({"deckout": "never"}))
    assert problems(header({"draw_per_turn": "2"}))


def test_two_players_only():
    h = header()
    h["players"].append(dict(h["players"][0], id="C"))
    assert any(p.startswith("players:") for p in problems(h))
