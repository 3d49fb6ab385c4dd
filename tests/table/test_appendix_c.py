"""Standings against the Magic: The Gathering Tournament Rules, Appendix C ("Tiebreaker
Explanation"), each example built as an event of games and read back from ``standings``.

Quoted from the appendix (checked against a stored copy of the text): the match-point
examples (6–2–0 → 18, 4–2–2 → 14), the game-point examples (2–0–0 → 6 and 0, 2–1–0 → 6 and
3, 2–0–1 → 7 and 1), "Unfinished games are considered draws. Unplayed games are worth 0
points.", the match-win table (5-2-1: 16/(8*3) = 0.667; 1-3-0 then withdraws: 3/(4*3) = 0.25,
so 0.33 is used; 3-2-0 including a first-round bye, then withdraws: 9/(5*3) = 0.60) and the
bye rule (a 2–0 win, 3 match points and 6 game points; "A player's byes are ignored when
computing their opponents' match-win and opponents' game-win percentages").

Reconstructed from memory, not checked against the published text: the records of the
game-win, opponents' match-win (with withdrawn opponents) and bye-opponent examples below.
Their figures are computed here exactly from those records, so they stand whatever the
appendix's own rows are.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from exports import desk
from projections import standings as S
from projections.errors import KifuError
from tests.table import tournament as T


class Build:
    """An event built from records: each opponent that matters is a real player, everyone
    else a filler met once."""

    def __init__(self) -> None:
        self.games: list[S.Game] = []
        self.byes: dict[int, list[str]] = {}
        self.dropped: dict[str, int] = {}
        self.n = 0

    def match(self, rnd: int, a: str, b: str, games: str) -> None:
        # the table label "a-b" keeps pairings apart without a table plan
        for res in games:
            self.n += 1
            finished = res != "…"
            self.games.append(S.Game(f"m{self.n}", rnd, f"{a}-{b}", (a, b), finished,
                                     {"A": a, "B": b}.get(res), "declared" if finished else None))

    def filler(self) -> str:
        self.n += 1
        return f"filler{self.n}"

    def result(self, rnd: int, player: str, outcome: str, against: str | None = None) -> None:
        """``outcome`` W, L or D for ``player`` (2-0, 0-2 or 1-1-1 in games)."""
        games = {"W": "AA", "L": "BB", "D": "AB="}[outcome]
        self.match(rnd, player, against or self.filler(), games)

    def record(self, player: str, outcomes: str, skip: dict[int, str] | None = None) -> None:
        """One outcome a round from round 1, against fillers; ``skip`` rounds are played
        elsewhere (against a real player)."""
        rnd = 0
        for outcome in outcomes:
            rnd += 1
            while skip and rnd in skip:
                rnd += 1
            self.result(rnd, player, outcome)

    def table(self, **options: Any) -> dict[str, S.Standing]:
        t = S.standings("AppC", self.games, byes=self.byes, dropped=self.dropped, **options)
        return {s.player: s for s in t.rows}


def test_match_points_examples():
    b = Build()
    b.record("P1", "WWWWWWLL")  # 6–2–0
    b.record("P2", "WWWWLLDD")  # 4–2–2
    rows = b.table()
    assert (rows["P1"].record, rows["P1"].points) == ("6-2-0", 18)
    assert (rows["P2"].record, rows["P2"].points) == ("4-2-2", 14)


@pytest.mark.parametrize("games,winner_gp,loser_gp", [("AA", 6, 0), ("ABA", 6, 3), ("A=A", 7, 1)])
def test_game_points_examples(games, winner_gp, loser_gp):
    b = Build()
    b.match(1, "W", "L", games)
    rows = b.table()

    def gp(s: S.Standing) -> int:
        return 3 * s.games_won + s.games_drawn

    assert (gp(rows["W"]), gp(rows["L"])) == (winner_gp, loser_gp)
    n = len(games)
    assert rows["W"].gwp == F(winner_gp, 3 * n)
    assert rows["L"].gwp == max(F(loser_gp, 3 * n), S.FLOOR)


def test_unfinished_games_are_draws_and_unplayed_games_count_nothing():
    # time is called in game 2 of a best of three at 1-0; game 3's row was never played
    b = Build()
    b.match(1, "W", "L", "A……")
    assert b.table(best_of=3) == {}  # the round is still on: pending
    rows = b.table(best_of=3, closed_rounds={1})
    assert (rows["W"].games_won, rows["W"].games_lost, rows["W"].games_drawn) == (1, 0, 1)
    assert 3 * rows["W"].games_won + rows["W"].games_drawn == 4 and rows["W"].gwp == F(4, 6)
    assert rows["W"].points == 3 and rows["L"].points == 0


def test_match_win_percentage_examples():
    b = Build()
    b.record("P1", "WWWWWLLD")  # 5-2-1, all 8 rounds
    b.record("P2", "WLLL")  # 1-3-0, then withdraws
    b.dropped["P2"] = 4
    b.byes[1] = ["P3"]  # 3-2-0 including a first-round bye, then withdraws
    b.record("P3", "WLWL", skip={1: "bye"})
    b.dropped["P3"] = 5
    rows = b.table()
    p1, p2, p3 = rows["P1"], rows["P2"], rows["P3"]
    assert (p1.points, p1.mwp, round(float(p1.mwp), 3)) == (16, F(16, 24), 0.667)
    assert p2.points == 3 and F(3, 12) == F(1, 4) and p2.mwp == F(33, 100)  # 0.25, so 0.33 is used
    assert (p3.points, p3.record, p3.byes, p3.mwp) == (9, "3-2-0", 1, F(9, 15))
    assert round(float(p3.mwp), 2) == 0.60
    assert (p2.dropped_after, p3.dropped_after, p1.dropped_after) == (4, 5, None)


def test_game_win_percentage_examples():
    # four rounds: 2–0, 2–1, 1–2, 2–0 → 7 game wins in 10 games: 21/(10*3) = 0.70;
    # 0–2, 1–2, 0–2, 0–2 → 1 game win in 9: 3/(9*3) = 0.11, so 0.33 is used
    b = Build()
    for rnd, games in enumerate(["AA", "ABA", "BAB", "AA"], 1):
        b.match(rnd, "P1", b.filler(), games)
    for rnd, games in enumerate(["BB", "ABB", "BB", "BB"], 1):
        b.match(rnd, "P2", b.filler(), games)
    rows = b.table()
    assert (rows["P1"].games_won, rows["P1"].games_lost, rows["P1"].gwp) == (7, 3, F(21, 30))
    assert (rows["P2"].games_won, rows["P2"].games_lost, rows["P2"].gwp) == (1, 8, F(33, 100))


# P is 6–2–0 over eight rounds; each opponent's final record, the round P met them, P's result
OPPONENTS = [("O1", "4-4-0", 1, "W"), ("O2", "7-1-0", 2, "L"), ("O3", "1-3-1", 3, "W"),
             ("O4", "3-4-1", 4, "W"), ("O5", "6-2-0", 5, "W"), ("O6", "5-2-1", 6, "W"),
             ("O7", "4-3-1", 7, "W"), ("O8", "6-1-1", 8, "L")]


def _opponents_event(bye_round: int | None = None) -> Build:
    b = Build()
    for name, rec, rnd, p_result in OPPONENTS:
        if rnd == bye_round:
            continue
        w, lost, d = (int(x) for x in rec.split("-"))
        b.result(rnd, "P", p_result, against=name)
        # the rest of the opponent's record, against fillers in their other rounds
        rest = "W" * (w - (p_result == "L")) + "L" * (lost - (p_result == "W")) + "D" * d
        b.record(name, rest, skip={rnd: "P"})
        if w + lost + d < 8:
            b.dropped[name] = w + lost + d  # O3 withdrew after round 5
    return b


def test_opponents_match_win_percentage_with_withdrawn_opponents():
    rows = _opponents_event().table()
    assert rows["P"].record == "6-2-0"
    mw = {"O1": F(12, 24), "O2": F(21, 24), "O3": F(33, 100), "O4": F(10, 24), "O5": F(18, 24),
          "O6": F(16, 24), "O7": F(13, 24), "O8": F(19, 24)}
    assert {o: rows[o].mwp for o in mw} == mw
    assert F(4, 15) < S.FLOOR  # O3: 1-3-1 withdrew after five rounds, 4/15 = 0.27 → 0.33
    assert rows["O3"].dropped_after == 5
    assert rows["P"].omw == sum(mw.values()) / 8 == F(2923, 4800)
    assert round(float(rows["P"].omw), 3) == 0.609


def test_a_bye_is_left_out_of_the_opponents_averages():
    # the same P with a round-1 bye in place of O1: 6–2–0 including the bye, seven opponents
    b = _opponents_event(bye_round=1)
    b.byes[1] = ["P"]
    rows = b.table()
    p = rows["P"]
    assert (p.record, p.points, p.byes, p.mwp) == ("6-2-0", 18, 1, F(18, 24))
    assert (p.games_won, p.games_lost) == (12, 4) and p.gwp == F(36, 48)  # the bye is a 2-0
    seven = [rows[o].mwp for o, *_ in OPPONENTS[1:]]
    assert p.omw == sum(seven, F(0)) / 7 != (sum(seven, F(0)) + 1) / 8
    assert p.ogw == sum((rows[o].gwp for o, *_ in OPPONENTS[1:]), F(0)) / 7
    assert "BYE" not in rows and p.opponents == [o for o, *_ in OPPONENTS[1:]]


def _rows(table: S.Table) -> list[tuple[object, ...]]:
    return [(s.rank, s.player, s.points, s.record, s.mwp, s.omw, s.gwp, s.ogw, s.byes, s.dropped_after)
            for s in table.rows]


def test_eight_players_three_rounds_with_a_drop_and_byes():
    """The event of tests/table/tournament.py (its docstring works it out by hand)."""
    final = S.standings(T.EVENT, T.games(), **T.options())
    assert _rows(final) == T.FINAL
    assert final.pending == [] and len(final.pairings) == 10
    after2 = S.standings(T.EVENT, T.games(), **T.options(upto_round=2))
    assert _rows(after2) == T.AFTER_2 and after2.upto_round == 2
    after1 = S.standings(T.EVENT, T.games(), **T.options(upto_round=1))
    assert [(s.rank, s.player, s.points) for s in after1.rows] == T.AFTER_1
    # as of round 1 nobody has had a bye yet, and 山本's drop (after round 1) shows
    assert {s.player: (s.byes, s.dropped_after) for s in after1.rows}["山本"] == (0, 1)
    assert all(s.byes == 0 for s in after1.rows)


def test_before_the_close_an_unfinished_game_keeps_its_match_pending():
    t = S.standings(T.EVENT, T.games(), **T.options(closed_rounds={1, 2}))
    assert [(p.round, p.table) for p in t.pending] == [(3, "1")]  # 佐藤–伊藤 at 1-1, game 3 on
    by = {s.player: s for s in t.rows}
    # 中村–高橋 2-0 with game 3 open is decided (best of three) and counts 2-0
    assert (by["中村"].points, by["中村"].games_won, by["中村"].games_lost) == (6, 5, 2)
    assert (by["佐藤"].points, by["伊藤"].points) == (6, 4)


def test_unfinished_exclude_leaves_the_game_out():
    t = S.standings(T.EVENT, T.games(), **T.options(unfinished="exclude"))
    by = {s.player: s for s in t.rows}
    assert (by["佐藤"].record, by["佐藤"].games_drawn, by["佐藤"].gwp) == ("2-0-1", 0, F(15, 21))
    assert (by["伊藤"].games_won, by["伊藤"].games_lost, by["伊藤"].games_drawn) == (4, 2, 1)
    assert by["伊藤"].gwp == F(13, 21)


def test_without_a_format_an_open_game_keeps_the_match_pending_as_before():
    # old stores: no best_of, no closed rounds: every open game row keeps its match out
    t = S.standings(T.EVENT, T.games(), byes=T.BYES)
    assert sorted((p.round, p.table) for p in t.pending) == [(3, "1"), (3, "3")]


def test_a_best_of_three_at_one_game_each_waits_for_its_decider():
    b = Build()
    b.match(1, "甲", "乙", "AB")
    assert b.table(best_of=3) == {}  # pending: nobody has two wins
    assert b.table(best_of=3, closed_rounds={1})["甲"].record == "0-0-1"  # time: a drawn match
    assert b.table()["甲"].record == "0-0-1"  # old stores: whatever was played
    b.match(1, "甲", "乙", "=")  # a drawn game does not count towards the three
    assert b.table(best_of=3) == {}
    b.match(1, "甲", "乙", "A")
    rows = b.table(best_of=3)
    assert (rows["甲"].record, rows["甲"].games_won, rows["甲"].games_drawn) == ("1-0-0", 2, 1)


def test_a_match_loss_decides_a_best_of_three_with_a_game_open():
    games = [S.Game("g1", 1, "1", ("甲", "乙"), True, "乙", "x"),
             S.Game("g2", 1, "1", ("甲", "乙"), True, "甲", "penalty-match-loss", loser="乙"),
             S.Game("g3", 1, "1", ("甲", "乙"), False, None, None)]
    t = S.standings("E", games, best_of=3)
    assert [(s.player, s.points, s.games_won) for s in t.rows] == [("甲", 3, 1), ("乙", 0, 1)]


def test_the_tiebreak_order_is_the_events():
    t = S.standings(T.EVENT, T.games(), **T.options(tiebreaks=("gw", "omw", "ogw")))
    order = [s.player for s in t.rows]
    # 6 points: 中村 (GW 5/7) now before 鈴木 (4/7); 3 points: 田中 (3/7) before 高橋 (0.33)
    assert order == ["佐藤", "中村", "鈴木", "伊藤", "渡辺", "田中", "高橋", "山本"]
    assert t.tiebreaks == ("gw", "omw", "ogw")
    only_points = S.standings(T.EVENT, T.games(), **T.options(tiebreaks=()))
    assert [(s.rank, s.player) for s in only_points.rows][1:3] == [(2, "中村"), (2, "鈴木")]


@pytest.mark.parametrize("option,value,named", [
    ("tiebreaks", ("omw", "sos"), "tiebreaks: omw, sos"),
    ("tiebreaks", ("gw", "gw"), "tiebreaks: gw, gw"),
    ("unfinished", "loss", "unfinished: loss"),
    ("best_of", 0, "best_of: 0"),
])
def test_bad_options_are_refused_in_one_line(option, value, named):
    with pytest.raises(KifuError) as err:
        S.standings("E", [], **{option: value})
    assert str(err.value).startswith(named) and "\n" not in str(err.value)


def test_the_roster_lists_players_before_their_first_match():
    t = S.standings(T.EVENT, [], roster=T.ROSTER)
    assert sorted(s.player for s in t.rows) == sorted(T.ROSTER)
    assert {(s.rank, s.points, s.mwp, s.omw) for s in t.rows} == {(1, 0, S.FLOOR, F(0))}
    late = S.standings(T.EVENT, T.games(), **T.options(roster=[*T.ROSTER, "小林"]))
    assert late.rows[-1].player == "小林" and late.rows[-1].record == "0-0-0"


def test_from_summaries_passes_the_options():
    summary = {"id": "x1", "event": "E", "round": 1, "table": "1", "result": {"winner": "A", "reason": "r"},
               "players": [{"id": "A", "name": "甲"}, {"id": "B", "name": "乙"}]}
    t = S.from_summaries("E", [summary], byes={2: ["甲"]}, roster=["丙"])
    assert {s.player: s.points for s in t.rows} == {"甲": 6, "乙": 0, "丙": 0}
    # rounds as JSON gives them (strings) count the same
    as_json = S.from_summaries("E", [summary], byes={"2": ["甲"]}, dropped={"乙": "1"}, upto_round=2)
    assert {s.player: (s.points, s.dropped_after) for s in as_json.rows} == {"甲": (6, None), "乙": (0, 1)}


def test_desk_text_and_csv_show_match_win_byes_and_drops():
    t = S.standings(T.EVENT, T.games(), **T.options())
    text = desk.standings_text(t).splitlines()
    assert text[1].split()[-5:] == ["MW%", "OMW%", "GW%", "OGW%", "備考"]
    assert text[3].split()[:5] == ["2", "鈴木", "6", "2-1-0", "66.67"] and text[3].endswith("不戦勝1")
    assert text[-1].split()[-1] == "第1回戦後ドロップ" and text[2].split()[-1] == "62.30"  # 佐藤 OGW 157/252
    en = desk.standings_text(S.standings(T.EVENT, T.games(), **T.options(upto_round=2)), "en")
    assert en.splitlines()[0].endswith("(after round 2)") and "dropped after round 1" in en
    assert "1 bye(s)" in en and "Notes" in en.splitlines()[1]
    lines = desk.standings_csv(t).splitlines()
    assert lines[0].endswith("mw_pct,omw_pct,gw_pct,ogw_pct,byes,dropped_after,place,no_show")
    assert lines[2] == "2,鈴木,6,2,1,0,4,3,0,66.67,61.11,57.14,60.42,1,,,0"  # no place without the event's stream
    assert lines[-1].endswith(",33.00,66.67,33.00,71.43,0,1,,0")
