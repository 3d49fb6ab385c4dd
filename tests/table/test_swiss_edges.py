"""Edges of the Swiss pairing a mutation run found untested: round one is the seeded shuffle
(not a matching of players on zero points), a pairing carries its round, the players missing
from the standings rank by points then name, and the refusals name every player concerned."""

from __future__ import annotations

import random

import pytest

from projections.errors import KifuError
from projections.swiss import _order, _random_round, pair_round

PLAYERS = [f"選手{i}" for i in range(1, 8)]


def test_round_one_is_the_seeded_shuffle_with_each_player_once():
    got = pair_round(1, PLAYERS, points={}, ranking=[], met=set(), had_bye=set(), seed="秋")
    assert got == _random_round(1, list(PLAYERS), set(), random.Random("秋/1"))
    seated = [p for t in got.tables for p in t] + [got.bye]
    assert sorted(seated) == sorted(PLAYERS) and got.round == 1 and len(got.tables) == 3
    shuffled = sorted(PLAYERS)
    random.Random("秋/1").shuffle(shuffled)
    assert got.bye == shuffled[-1]
    assert got.tables == tuple((shuffled[i], shuffled[i + 1]) for i in range(0, 6, 2))


def test_round_ones_bye_passes_over_a_player_who_had_one():
    shuffled = sorted(PLAYERS)
    random.Random("秋/1").shuffle(shuffled)
    got = _random_round(1, list(PLAYERS), {shuffled[-1]}, random.Random("秋/1"))
    assert got.bye == shuffled[-2]


def test_a_later_round_carries_its_number():
    points = {p: 3 * (i % 3) for i, p in enumerate(PLAYERS)}
    got = pair_round(4, PLAYERS, points=points, ranking=PLAYERS, met=set(), had_bye=set(), seed=1)
    assert got.round == 4 and sorted([p for t in got.tables for p in t] + [got.bye]) == sorted(PLAYERS)


def test_players_missing_from_the_standings_rank_after_it_by_points_then_name():
    points = {"c": 3, "a": 3, "d": 0, "b": 6}
    assert _order(["d", "c", "a", "b", "e"], points, ["b", "x"]) == ["b", "a", "c", "d", "e"]
    # nobody on the standings, nobody with points: by name
    assert _order(["z", "y"], {}, []) == ["y", "z"]


def test_refusals_name_every_player_concerned():
    with pytest.raises(KifuError) as twice:
        pair_round(2, ["a", "b", "a", "c", "b"], points={}, ranking=[], met=set(), had_bye=set(), seed=1)
    assert str(twice.value) == "players: a, b: listed twice"
    with pytest.raises(KifuError) as gone:
        pair_round(2, ["a", "b", "c"], points={}, ranking=[], met=set(), had_bye=set(), seed=1, dropped=["c", "b"])
    assert str(gone.value) == "players: b, c: dropped, never paired"
