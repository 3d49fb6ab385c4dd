"""The statistics over hand-built rows: Wilson interval, counting rules, filters, NFKC."""

from __future__ import annotations

import pytest

from projections.errors import LogFormatError, UnknownGameError
from projections.readmodel import normalise_name
from projections.stats import Filters, make_filters, report, wilson
from tests.stats.helpers import cell, deck, match


# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I
# (score method without continuity correction), and the textbook 0/10, 5/10, 1/10 cases.
@pytest.mark.parametrize("x, n, low, high", [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (0, 10, 0.0, 0.2775),
    (5, 10, 0.2366, 0.7634),
    (1, 10, 0.0179, 0.4042),
    (10, 10, 0.7225, 1.0),
])
def test_wilson_known_values(x, n, low, high):
    lo, hi = wilson(x, n)
    assert round(lo, 4) == low and round(hi, 4) == high


def test_wilson_edges():
    assert wilson(0, 0) is None
    lo, hi = wilson(0.5, 1)  # one drawn game: half a win, symmetric around one half
    assert lo == pytest.approx(1 - hi)
    lo, hi = wilson(3, 7)
    lo2, hi2 = wilson(4, 7)
    assert lo == pytest.approx(1 - hi2) and hi == pytest.approx(1 - lo2)


def test_two_player_counts_and_draw_is_half_a_win():
    rows = [
        match("m1", [("A", "闇", "x"), ("B", "光", "y")], "A"),
        match("m2", [("A", "闇", "x"), ("B", "光", "y")], "B", first="B"),
        match("m3", [("A", "光", "y"), ("B", "闇", "x")], None),
        match("m4", [("A", "光", "y"), ("B", "闇", "x")], "B"),
    ]
    r = report(rows)
    c = cell(r, "闇", "光")
    assert (c["games"], c["wins"], c["losses"], c["draws"]) == (4, 2, 1, 1)
    assert c["win_rate"] == 0.625  # (2 + 1/2) / 4
    lo, hi = wilson(2.5, 4)
    assert (c["low"], c["high"]) == (round(lo, 4), round(hi, 4))
    inverse = cell(r, "光", "闇")
    assert (inverse["wins"], inverse["losses"], inverse["draws"]) == (1, 2, 1)
    dark = deck(r, "闇")
    assert (dark["games"], dark["wins"], dark["losses"], dark["draws"], dark["matches"]) == (4, 2, 1, 1, 4)
    # 闇 went first only in m1 (A, won); m2 (B first), m3 and m4 (A = 光 first) it went second.
    assert dark["first"]["games"] == 1 and dark["first"]["wins"] == 1
    assert dark["second"]["games"] == 3
    assert r["matches"] == 4 and r["unfinished"] == 0
    first = r["seats"][0]
    assert first["label"] == "first" and (first["wins"], first["losses"], first["draws"]) == (2, 1, 1)


def test_mirror_shown_but_left_out_of_overall_rates():
    rows = [
        match("m1", [("A", "闇", "x"), ("B", "闇", "x")], "A"),
        match("m2", [("A", "闇", "x"), ("B", "闇", "x")], None),
        match("m3", [("A", "闇", "x"), ("B", "光", "y")], "B"),
    ]
    r = report(rows)
    mirror = cell(r, "闇", "闇")
    assert mirror["mirror"] is True and mirror["games"] == 2 and mirror["draws"] == 1
    assert mirror["win_rate"] is None
    dark = deck(r, "闇")
    assert (dark["games"], dark["wins"], dark["losses"], dark["draws"]) == (1, 0, 1, 0)
    assert dark["matches"] == 3  # mirrors still count as matches the deck played
    assert dark["win_rate"] == 0.0
    # seat rates are per match and include mirrors
    assert r["seats"][0]["games"] == 3


def test_multiplayer_winner_beats_each_other_player_rest_not_counted():
    rows = [match("m1", [("A", "闇", "x"), ("B", "光", "y"), ("C", "核", "z"), ("D", "光", "y")], "C")]
    r = report(rows)
    assert cell(r, "核", "闇")["wins"] == 1
    assert cell(r, "核", "光")["games"] == 2 and cell(r, "核", "光")["wins"] == 2
    assert cell(r, "闇", "光") is None  # non-winners' pairings say nothing
    assert cell(r, "光", "光") is None  # not a mirror either: neither won against the other
    assert (deck(r, "核")["wins"], deck(r, "核")["games"]) == (3, 3)
    assert (deck(r, "光")["losses"], deck(r, "光")["games"]) == (2, 2)
    assert deck(r, "光")["matches"] == 1
    assert [s["label"] for s in r["seats"]] == ["first", "second", "third", "fourth"]
    assert r["seats"][2]["wins"] == 1 and r["seats"][0]["losses"] == 1


def test_multiplayer_draw_is_a_draw_for_every_pairing():
    r = report([match("m1", [("A", "闇", "x"), ("B", "光", "y"), ("C", "核", "z")], None)])
    assert cell(r, "闇", "光")["draws"] == 1 and cell(r, "光", "核")["draws"] == 1
    assert deck(r, "闇")["games"] == 2 and deck(r, "闇")["win_rate"] == 0.5


def test_first_and_second_in_multiplayer_only_pairs_with_the_first_player():
    r = report([match("m1", [("A", "闇", "x"), ("B", "光", "y"), ("C", "核", "z")], "B", first="A")])
    assert deck(r, "光")["second"]["games"] == 1  # beat the first player (闇)
    assert deck(r, "光")["first"]["games"] == 0
    assert deck(r, "闇")["first"]["losses"] == 1
    assert deck(r, "核")["first"]["games"] == 0 and deck(r, "核")["second"]["games"] == 0
    assert deck(r, "核")["losses"] == 1


def test_nfkc_merges_full_and_half_width_names():
    assert normalise_name(" ｲｽﾙｷﾞﾃﾞｯｷ ") == "イスルギデッキ"
    assert normalise_name("ＤＡＲＫ　デッキ") == "DARK デッキ"
    rows = [
        match("m1", [("A", "ｲｽﾙｷﾞﾃﾞｯｷ", "ｲｽﾙｷﾞ"), ("B", "闇", "x")], "A"),
        match("m2", [("A", "イスルギデッキ ", "イスルギ"), ("B", "闇", "x")], "A"),
        match("m3", [("A", "ＤＡＲＫ　デッキ", "x"), ("B", "DARK  デッキ", "x")], "A"),
    ]
    r = report(rows)
    assert deck(r, "イスルギデッキ")["wins"] == 2
    assert cell(r, "DARK デッキ", "DARK デッキ")["mirror"] is True
    by_arch = report(rows, Filters(by="archetype"))
    assert deck(by_arch, "イスルギ")["games"] == 2
    assert cell(by_arch, "x", "x")["games"] == 1


def test_unfinished_and_unreplayable_matches_are_left_out():
    broken = match("m3", [("A", "闇", "x"), ("B", "光", "y")], "A")
    broken["error"] = "unknown game"
    rows = [match("m1", [("A", "闇", "x"), ("B", "光", "y")], "A"),
            match("m2", [("A", "闇", "x"), ("B", "光", "y")], None, finished=False), broken]
    r = report(rows)
    assert r["matches"] == 1 and r["unfinished"] == 2
    assert deck(r, "闇")["games"] == 1


def test_filters_game_event_dates_player():
    rows = [
        match("g1", [("A", "闇", "x"), ("B", "光", "y")], "A", date="2026-11-01", event="練習会",
              names={"A": "山田", "B": "佐藤"}),
        match("g2", [("A", "闇", "x"), ("B", "光", "y")], "B", date="2026-11-28", names={"A": "鈴木", "B": "佐藤"}),
        match("m1", [("A", "緑", "g"), ("B", "紫", "p")], "A", game="mushijingi", date="2026-11-29",
              names={"A": "山田", "B": "渡辺"}),
    ]
    def ids(f):
        return sorted(c["deck"] for c in report(rows, f)["matrix"])
    assert report(rows, make_filters(game="gd"))["matches"] == 2
    assert report(rows, make_filters(game="mushijingi"))["matches"] == 1
    assert report(rows, make_filters(event="秋の大会"))["matches"] == 2
    assert report(rows, make_filters(event=" 練習会 "))["matches"] == 1
    assert report(rows, make_filters(since="2026-11-28"))["matches"] == 2
    assert report(rows, make_filters(until="2026-11-28"))["matches"] == 2
    assert report(rows, make_filters(since="2026-11-02", until="2026-11-28"))["matches"] == 1
    assert report(rows, make_filters(player="山田"))["matches"] == 2
    assert report(rows, make_filters(player="ｻﾄｳ"))["matches"] == 0
    assert report(rows, make_filters(player="A"))["matches"] == 0  # a seat, not a person
    assert report(rows, make_filters(player="佐藤", game="gandice"))["matches"] == 2
    assert ids(make_filters(game="mushijingi")) == ["紫", "緑"]


def test_min_games_hides_rows_and_columns_only():
    rows = [match(f"m{i}", [("A", "闇", "x"), ("B", "光", "y")], "A") for i in range(3)]
    rows.append(match("m9", [("A", "闇", "x"), ("B", "核", "z")], "B"))
    r = report(rows, make_filters(min_games=2))
    assert [d["name"] for d in r["decks"]] == ["闇", "光"]
    assert r["hidden_decks"] == ["核"]
    assert all("核" not in (c["deck"], c["opponent"]) for c in r["matrix"])
    assert deck(r, "闇")["games"] == 4  # its record still counts the game against the hidden deck


def test_bad_filters_are_one_line_each():
    with pytest.raises(LogFormatError) as info:
        make_filters(since="2026-13-01", until="yesterday", by="colour", min_games="-1")
    assert len(info.value.problems) == 4
    assert info.value.problems[0].startswith("--since:")
    with pytest.raises(UnknownGameError):
        make_filters(game="chess")


def test_reasons_and_average_turns():
    rows = [match("m1", [("A", "闇", "x"), ("B", "光", "y")], "A", reason="time", turns=4),
            match("m2", [("A", "闇", "x"), ("B", "光", "y")], "A", reason="all_graveyard", turns=6),
            match("m3", [("A", "闇", "x"), ("B", "光", "y")], "B", reason="time", turns=None)]
    r = report(rows)
    assert r["reasons"] == [{"reason": "time", "count": 2}, {"reason": "all_graveyard", "count": 1}]
    assert r["avg_turns"] == 5.0
