"""The rules Japanese events play by (issue 32, item 6): a game unfinished at time as a loss for
both players (``unfinished="double-loss"``, 両者敗北), the OOMW tiebreak (opponents' opponents'
match-win percentage), best of five — worked out by hand in exact fractions; and OMW, GW, OGW
and OOMW checked against their definitions on random events (hypothesis)."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from projections import standings as S

FL = F(33, 100)


def game(mid: str, rnd: int, a: str, b: str, res: str, reason: str = "declared") -> S.Game:
    """``res``: "A"/"B" the seat that won, "=" a drawn game, "…" still open."""
    finished = res != "…"
    return S.Game(mid, rnd, f"{a}-{b}", (a, b), finished, {"A": a, "B": b}.get(res),
                  (reason if res != "=" else "draw") if finished else None)


# Round 1: 甲 beats 乙; 丙–丁 unfinished at time (the round closed: a double loss).
# Round 2: 甲 beats 丙; 乙 beats 丁. Best of one.
#   甲 2-0-0, 6 pts, MW 1, GW 1      乙 1-1-0, 3 pts, MW 1/2, GW 1/2
#   丙 0-2-0, 0 pts, MW 0.33, GW 0.33 (0 of 2 games)   丁 0-2-0 alike
#   OMW: 甲 (1/2 + 33/100)/2 = 83/200, 乙 (1 + 33/100)/2 = 133/200, 丙 (33/100 + 1)/2 = 133/200,
#        丁 (33/100 + 1/2)/2 = 83/200
#   OOMW (the mean of the opponents' OMW): 甲 (133/200 + 133/200)/2 = 133/200, 乙 (83 + 83)/400 = 83/200,
#        丙 (丁 83/200 + 甲 83/200)/2 = 83/200, 丁 (丙 133/200 + 乙 133/200)/2 = 133/200
DAY = [game("r1a", 1, "甲", "乙", "A"), game("r1b", 1, "丙", "丁", "…"),
       game("r2a", 2, "甲", "丙", "A"), game("r2b", 2, "乙", "丁", "A")]


def rows(games, **options) -> dict[str, S.Standing]:
    return {s.player: s for s in S.standings("両者敗北", games, **options).rows}


def test_a_game_unfinished_at_time_is_a_loss_for_both():
    t = rows(DAY, best_of=1, unfinished="double-loss", closed_rounds={1, 2}, tiebreaks=("omw", "gw", "ogw", "oomw"))
    assert {p: (s.points, s.record, s.games_won, s.games_lost) for p, s in t.items()} == {
        "甲": (6, "2-0-0", 2, 0), "乙": (3, "1-1-0", 1, 1), "丙": (0, "0-2-0", 0, 2), "丁": (0, "0-2-0", 0, 2)}
    assert {p: (s.mwp, s.gwp) for p, s in t.items()} == {
        "甲": (F(1), F(1)), "乙": (F(1, 2), F(1, 2)), "丙": (FL, FL), "丁": (FL, FL)}
    assert {p: s.omw for p, s in t.items()} == {"甲": F(83, 200), "乙": F(133, 200), "丙": F(133, 200), "丁": F(83, 200)}
    assert {p: s.ogw for p, s in t.items()} == {"甲": F(83, 200), "乙": F(133, 200), "丙": F(133, 200), "丁": F(83, 200)}
    assert {p: s.oomw for p, s in t.items()} == {"甲": F(133, 200), "乙": F(83, 200), "丙": F(83, 200), "丁": F(133, 200)}
    # 丙 and 丁 (0 points) part on OMW: 丙 third
    assert [s.player for s in sorted(t.values(), key=lambda s: s.rank)] == ["甲", "乙", "丙", "丁"]
    # ... and on OOMW when the event ranks by it first: 丁 third
    t = rows(DAY, best_of=1, unfinished="double-loss", closed_rounds={1, 2}, tiebreaks=("oomw", "omw"))
    assert [s.player for s in sorted(t.values(), key=lambda s: s.rank)] == ["甲", "乙", "丁", "丙"]
    row = t["丁"].to_json()
    assert row["oomw"] == S.pct(F(133, 200)) and "place" not in row
    # the same day under the MTR's rule: a drawn match, 1 point each
    t = rows(DAY, best_of=1, unfinished="draw", closed_rounds={1, 2})
    assert (t["丙"].points, t["丙"].record, t["丙"].oomw) == (1, "0-1-1", None)


def test_a_double_loss_leaves_the_match_to_whoever_won_more_games():
    games = [game("g1", 1, "甲", "乙", "A"), game("g2", 1, "甲", "乙", "…"), game("g3", 1, "甲", "乙", "…")]
    t = rows(games, best_of=3, unfinished="double-loss", closed_rounds={1})
    assert (t["甲"].record, t["甲"].games_won, t["甲"].games_lost) == ("1-0-0", 1, 1)
    assert (t["乙"].record, t["乙"].games_won, t["乙"].games_lost) == ("0-1-0", 0, 2)
    t = rows(games, best_of=3, unfinished="double-loss", closed_rounds=set(), roster=["甲", "乙"])
    assert t["甲"].points == 0 and t["甲"].record == "0-0-0"  # open round: pending
    games[0] = game("g1", 1, "甲", "乙", "=")  # a drawn game and time: equal wins, both lose
    t = rows(games, best_of=3, unfinished="double-loss", closed_rounds={1})
    assert (t["甲"].points, t["甲"].record, t["甲"].games_drawn, t["甲"].games_lost) == (0, "0-1-0", 1, 1)
    assert (t["乙"].points, t["乙"].record) == (0, "0-1-0")


def test_a_judges_time_result_counts_as_the_event_says_even_before_the_close():
    timed = [S.Game("g1", 1, "甲-乙", ("甲", "乙"), True, None, "time")]
    t = rows(timed, best_of=1, unfinished="double-loss")
    assert (t["甲"].record, t["乙"].record, t["甲"].points) == ("0-1-0", "0-1-0", 0)
    t = rows(timed, best_of=1, unfinished="draw")
    assert (t["甲"].record, t["甲"].points) == ("0-0-1", 1)
    t = rows(timed, best_of=1, unfinished="exclude")
    assert (t["甲"].record, t["甲"].games_won + t["甲"].games_lost + t["甲"].games_drawn) == ("0-0-1", 0)
    # a best of three at 1-0 when time is called: the match goes to the one game up
    bo3 = [game("g1", 1, "甲", "乙", "B"), S.Game("g2", 1, "甲-乙", ("甲", "乙"), True, None, "time"),
           game("g3", 1, "甲", "乙", "…")]
    t = rows(bo3, best_of=3, unfinished="double-loss")
    assert (t["乙"].record, t["甲"].record, t["乙"].games_lost) == ("1-0-0", "0-1-0", 1)
    # without a format (an old store) a time result is a drawn game, as before
    t = rows(timed)
    assert t["甲"].record == "0-0-1"


def test_best_of_five_is_decided_at_three_game_wins():
    games = [game(f"g{i}", 1, "甲", "乙", r) for i, r in enumerate("AABA…", 1)]
    assert rows(games[:3], best_of=5, roster=["甲", "乙"])["甲"].record == "0-0-0"  # 2-1: pending
    t = rows(games, best_of=5)
    assert (t["甲"].record, t["甲"].games_won, t["甲"].games_lost) == ("1-0-0", 3, 1)


# -- the tiebreaks against their definitions, on random events ---------------------------------


@st.composite
def events(draw):
    n = draw(st.integers(2, 9))
    players = [f"p{i}" for i in range(n)]
    rounds = draw(st.integers(1, 4))
    best_of = draw(st.sampled_from([1, 3]))
    games: list[S.Game] = []
    byes: dict[int, list[str]] = {}
    results: list[tuple[int, str, str, list[str | None]]] = []  # round, a, b, game winners (None: a draw)
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(players))
        if len(order) % 2:
            byes[rnd] = [order[-1]]
            order = order[:-1]
        for i in range(0, len(order), 2):
            a, b = order[i], order[i + 1]
            winners: list[str | None] = []
            need = best_of // 2 + 1
            while max(winners.count(a), winners.count(b)) < need and len(winners) < best_of + 2:
                winners.append(draw(st.sampled_from([a, b, None])))
            for g, w in enumerate(winners):
                games.append(S.Game(f"r{rnd}-{a}-{b}-g{g}", rnd, f"{a}-{b}", (a, b), True, w,
                                    "declared" if w else "draw"))
            results.append((rnd, a, b, winners))
    return players, games, byes, results, best_of


def by_definition(players, byes, results, best_of):
    """MW%, OMW%, GW%, OGW%, OOMW% straight from Appendix C's words (and one level further)."""
    mp = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    gp = dict.fromkeys(players, 0)
    games = dict.fromkeys(players, 0)
    opps: dict[str, list[str]] = {p: [] for p in players}
    for _, a, b, winners in results:
        wa, wb = winners.count(a), winners.count(b)
        for me, other, mine, theirs in ((a, b, wa, wb), (b, a, wb, wa)):
            played[me] += 1
            opps[me].append(other)
            mp[me] += 3 if mine > theirs else 1 if mine == theirs else 0
            games[me] += len(winners)
            gp[me] += 3 * mine + (len(winners) - wa - wb)
    for names in byes.values():
        for p in names:  # a 2-0 win, no opponent
            played[p] += 1
            mp[p] += 3
            games[p] += 2
            gp[p] += 6
    mw = {p: max(FL, F(mp[p], 3 * played[p])) if played[p] else FL for p in players}
    gw = {p: max(FL, F(gp[p], 3 * games[p])) if games[p] else FL for p in players}

    def mean(xs):
        return sum(xs, F(0)) / len(xs) if xs else F(0)

    omw = {p: mean([mw[o] for o in opps[p]]) for p in players}
    ogw = {p: mean([gw[o] for o in opps[p]]) for p in players}
    oomw = {p: mean([omw[o] for o in opps[p]]) for p in players}
    return mp, mw, omw, gw, ogw, oomw


@settings(max_examples=60, deadline=None)
@given(events())
def test_the_tiebreaks_are_their_definitions_on_random_events(event):
    players, games, byes, results, best_of = event
    order = ("omw", "gw", "ogw", "oomw")
    table = S.standings("random", games, roster=players, byes=byes, best_of=best_of, tiebreaks=order,
                        closed_rounds=set(byes) | {r for r, *_ in results})
    mp, mw, omw, gw, ogw, oomw = by_definition(players, byes, results, best_of)
    got = {s.player: s for s in table.rows}
    assert {p: got[p].points for p in players} == mp
    assert {p: got[p].mwp for p in players} == mw
    assert {p: got[p].omw for p in players} == omw
    assert {p: got[p].gwp for p in players} == gw
    assert {p: got[p].ogw for p in players} == ogw
    assert {p: got[p].oomw for p in players} == oomw
    # ranked by points, then the tiebreaks in the event's order; equal on all: one rank
    keys = [(s.points, s.omw, s.gwp, s.ogw, s.oomw) for s in table.rows]
    assert keys == sorted(keys, reverse=True)
    for prev, s in zip(table.rows, table.rows[1:]):
        same = (prev.points, prev.omw, prev.gwp, prev.ogw, prev.oomw) == (s.points, s.omw, s.gwp, s.ogw, s.oomw)
        assert (s.rank == prev.rank) == same
