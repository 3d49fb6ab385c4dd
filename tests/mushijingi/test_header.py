"""Deck construction (MJ-1), the card catalog, house-rule names: validate_header."""

from __future__ import annotations

import json

from projections.mushijingi import RULESET as R
from projections.mushijingi.catalog import CatalogError, load_catalog, parse_catalog
from tests.mushijingi.helpers import A_DECK, B_DECK, header


def fields(errors):
    return [(e.field, e.problem) for e in errors]


def test_sample_header_is_valid():
    assert R.validate_header(header()) == []


def test_deck_list_may_be_absent():
    h = header()
    h["players"][1]["deck"] = {"name": "?", "archetype": "?"}
    assert R.validate_header(h) == []


def test_deck_must_have_20_cards():
    errors = R.validate_header(header(a_cards=A_DECK[:19]))
    assert [e.field for e in errors] == ["players[0].deck.cards"]
    assert "MJ-1.1" in errors[0].problem


def test_third_copy_in_deck_list():
    cards = A_DECK[:-1] + ["カブトムシ"]  # a third カブトムシ replaces a 羽化
    errors = R.validate_header(header(a_cards=cards))
    assert [e.field for e in errors] == ["players[0].deck.cards"]
    assert "MJ-1.2" in errors[0].problem and "カブトムシ" in errors[0].problem


def test_unknown_card_names_the_field_path():
    cards = B_DECK[:5] + ["ギラファノコギリクワガタ"] + B_DECK[6:]
    errors = R.validate_header(header(b_cards=cards))
    assert [e.field for e in errors] == ["players[1].deck.cards[5]"]
    assert "ギラファノコギリクワガタ" in errors[0].problem and "MJ-1.4" in errors[0].problem


def test_unknown_house_rule_and_bad_values():
    errors = R.validate_header(header(no_such_rule=True, deck_out="sometimes", flip_direct_win=1))
    assert sorted(e.field for e in errors) == [
        "match.house_rules.deck_out",
        "match.house_rules.flip_direct_win",
        "match.house_rules.no_such_rule",
    ]


def test_two_players_exactly():
    h = header()
    h["players"] = h["players"][:1]
    assert "players" in [e.field for e in R.validate_header(h)]


def test_header_names_a_toml_catalog(tmp_path):
    path = tmp_path / "pool.toml"
    path.write_text(
        'name = "pool"\n[[cards]]\nname = "カブトムシ"\nkind = "insect"\ncost = 2\n'
        'colour = "緑"\nhp = 1200\ntechniques = [{name = "つのでつく", attack = 600}]\n',
        encoding="utf-8",
    )
    h = header(a_cards=["カブトムシ"] * 2 + ["ヘラクレスオオカブト"] * 18)
    h["match"]["catalog"] = str(path)
    errors = R.validate_header(h)
    assert {e.field for e in errors} == {"players[0].deck.cards"} | {
        f"players[0].deck.cards[{i}]" for i in range(2, 20)
    } | {f"players[1].deck.cards[{i}]" for i in range(20) if B_DECK[i] != "カブトムシ"}
    board = R.initial_board(h)
    assert board.catalog.name == "pool"


def test_header_names_a_json_catalog(tmp_path):
    path = tmp_path / "pool.json"
    data = {
        "name": "json-pool",
        "cards": [
            {
                "name": n,
                "kind": "insect",
                "cost": 1,
                "colour": "赤",
                "hp": 100,
                "techniques": [{"name": "x", "attack": 1}],
            }
            for n in sorted(set(A_DECK))
        ],
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    h = header()
    h["match"]["catalog"] = str(path)
    errors = R.validate_header(h)
    assert errors and all(e.field.startswith("players[1]") for e in errors)


def test_missing_catalog_file_is_a_header_error(tmp_path):
    h = header()
    h["match"]["catalog"] = str(tmp_path / "none.json")
    assert [e.field for e in R.validate_header(h)] == ["match.catalog"]


def test_catalog_format_errors():
    for bad in (
        {},
        {"cards": [{"name": "x", "kind": "beetle", "cost": 1, "colour": "赤"}]},
        {"cards": [{"name": "x", "kind": "insect", "cost": 1, "colour": "赤"}]},
        {"cards": [{"name": "x", "kind": "spell", "cost": "1", "colour": "赤"}]},
    ):
        try:
            parse_catalog(bad)
        except CatalogError:
            continue
        raise AssertionError(f"accepted {bad}")


def test_sample_catalog_kinds():
    cat = load_catalog()
    assert cat.cards["タガメ"].technique("すくいなげ").target is True
    assert cat.cards["大嵐"].target == "all" and cat.cards["樹液の罠"].target == "insect"
    assert cat.cards["紅の紋様"].sets_colour == "赤"


def test_vocabulary_has_cards_and_techniques():
    words = R.vocabulary(header())
    assert "ヘラクレスオオカブト" in words and "すくいなげ" in words and "attack" in words
