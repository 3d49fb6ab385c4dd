"""A game is named as players write it (issue 32): each ruleset declares its names in its own
``aliases`` (the Japanese titles of its rule documents and the short forms), the registry reads
them from there and compares them after NFKC (``＝`` is ``=``), on ``kifu event new`` and on
``kifu new`` alike."""

from __future__ import annotations

import json

import pytest

from projections import registry

NAMES = [
    ("眼魔伝ガンダイス", "gandice"), ("ガンダイス", "gandice"), ("gd", "gandice"),
    ("蟲神器", "mushijingi"), ("mj", "mushijingi"),
    ("天元突破グレンラガン", "gurren-lagann"), ("グレンラガン", "gurren-lagann"), ("gbs", "gurren-lagann"),
    ("ヴァリアンツ＝ウォー", "variants-war"), ("ヴァリアンツ=ウォー", "variants-war"), ("ヴァリアンツウォー", "variants-war"),
    ("ＶＶ", "variants-war"), ("Variants_War", "variants-war"),
]
# Each game's first rule, as ``kifu new`` without decks is refused by it: the game was found.
# What kifu new asks of the game's deck before it writes anything (DECK_REQUIRED of its header)
DECK_RULE = {"gandice": "--cards A=", "gurren-lagann": "--stock A=", "variants-war": "--archetype A="}


@pytest.mark.parametrize("name, game", NAMES)
def test_kifu_event_new_takes_the_game_as_players_write_it(kifu, name, game):
    code, out, err = kifu("event", "new", "春季大会", "--game", name, "--rounds", "2")
    assert code == 0, err
    code, out, err = kifu("event", "show", "春季大会", "--json")
    assert code == 0 and json.loads(out)["event"]["game"] == game, err


@pytest.mark.parametrize("name, game", NAMES)
def test_kifu_new_takes_the_game_as_players_write_it(kifu, name, game):
    code, out, err = kifu("new", "--game", name, "--id", "m1", "--player", "A=山田", "--player", "B=佐藤")
    assert "unknown game" not in err
    if game == "mushijingi":  # a deck is not needed to start: the match is recorded
        assert code == 0 and out.strip() == "m1", err
        code, out, err = kifu("export", "m1")
        assert code == 0 and json.loads(out.splitlines()[0])["game"] == "mushijingi", err
    else:  # the game's own deck is asked for, by the game's name: the name found the game
        assert code != 0 and DECK_RULE[game] in err and f" {game} " in err, err


def test_an_unknown_name_is_still_refused_in_one_line(kifu):
    code, out, err = kifu("event", "new", "春季大会", "--game", "ガンダム", "--rounds", "2")
    assert code != 0 and "unknown game 'ガンダム'" in err and "Traceback" not in err


def test_every_declared_name_belongs_to_one_game_only():
    seen: dict[str, str] = {}
    for game in registry.available():
        for ruleset in registry._versions(game).values():
            for alias in (game, *ruleset.aliases):
                key = registry.name_key(alias)
                assert seen.setdefault(key, game) == game, f"{alias!r} names {seen[key]} and {game}"
                assert registry.canonical(alias) == game


def test_the_registry_keeps_no_list_of_its_own():
    """The names come from the rulesets: the registry's own table holds only names added at run
    time (plugins, the toy game of the tests)."""
    assert not set(registry.ALIASES.values()) & {"gandice", "mushijingi", "gurren-lagann", "variants-war"}
