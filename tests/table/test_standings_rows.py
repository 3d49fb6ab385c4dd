"""The two edges of the standings a mutation run found untested: a game read from the match
list's summary (``Game.from_summary``) and a standing as the JSON the pages and ``--json`` print
(``Standing.to_json``)."""

from __future__ import annotations

from fractions import Fraction as F

from projections import standings as S


def summary(**over):
    row = {"id": "r2-t5", "round": 2, "table": 5,
           "players": [{"id": "A", "name": "ＳＡＴＯ　 太郎"}, {"id": "B", "name": "鈴木"}],
           "result": {"winner": "A", "reason": "life"}}
    return {**row, **over}


def test_a_finished_game_from_the_list_summary():
    g = S.Game.from_summary(summary())
    assert g == S.Game(match_id="r2-t5", round=2, table="5", players=("SATO 太郎", "鈴木"), finished=True,
                       winner="SATO 太郎", reason="life", loser=None, ruling=False)


def test_a_match_loss_names_the_loser_a_draw_and_a_game_in_progress_name_nobody():
    loss = S.Game.from_summary(summary(result={"winner": "B", "reason": "penalty-match-loss"}))
    assert (loss.winner, loss.loser, loss.reason) == ("鈴木", "SATO 太郎", "penalty-match-loss")
    dq = S.Game.from_summary(summary(result={"winner": "A", "reason": "penalty-disqualification"}))
    assert dq.loser == "鈴木"
    draw = S.Game.from_summary(summary(result={"winner": None, "reason": "draw"}))
    assert (draw.finished, draw.winner, draw.loser, draw.reason) == (True, None, None, "draw")
    going = S.Game.from_summary(summary(result=None))
    assert (going.finished, going.winner, going.reason, going.ruling) == (False, None, None, False)
    pending = S.Game.from_summary(summary(result={"winner": "A", "reason": "time", "pending": True}))
    assert (pending.finished, pending.ruling, pending.winner) == (False, True, "SATO 太郎")


def test_a_match_loss_among_three_players_names_no_loser():
    three = summary(players=[{"id": "A", "name": "a"}, {"id": "B", "name": "b"}, {"id": "C", "name": "c"}],
                    result={"winner": "A", "reason": "penalty-match-loss"})
    assert S.Game.from_summary(three).loser is None


def test_round_and_table_as_the_header_had_them():
    assert S.Game.from_summary(summary(round="3")).round == 3
    assert S.Game.from_summary(summary(round="三")).round is None
    assert S.Game.from_summary(summary(round=None)).round is None
    assert S.Game.from_summary(summary(table=None)).table is None
    assert S.Game.from_summary(summary(table="A-1")).table == "A-1"
    nameless = summary(players=[{"id": "A"}, {"id": "B", "name": ""}], result={"winner": "B", "reason": "life"})
    g = S.Game.from_summary(nameless)
    assert g.players == ("A", "B") and g.winner == "B"


def test_a_standing_as_json():
    row = S.Standing(rank=2, player="佐藤", points=7, wins=2, losses=1, draws=1, games_won=5, games_lost=3,
                     games_drawn=1, mwp=F(7, 12), omw=F(1, 3), gwp=F(16, 27), ogw=F(2, 3), opponents=["鈴木", "田中"],
                     byes=1, dropped_after=3)
    assert row.to_json() == {
        "rank": 2, "player": "佐藤", "points": 7, "record": "2-1-1", "wins": 2, "losses": 1, "draws": 1,
        "games": {"won": 5, "lost": 3, "drawn": 1},
        "mwp": 58.3333, "omw": 33.3333, "gwp": 59.2593, "ogw": 66.6667,
        "opponents": ["鈴木", "田中"], "byes": 1, "dropped_after": 3, "missed": 0, "no_show": False,
    }


def test_the_options_are_refused_in_one_line_naming_the_value_and_what_is_known():
    import pytest

    from projections.errors import KifuError

    assert S.check_options(["ogw", "omw"], "exclude", 1) == ("ogw", "omw")  # a single game is a format
    assert S.check_options([], "draw", None) == ()
    for args, said in (
        ((["omw", "xx"], "draw", None), "tiebreaks: omw, xx: each of omw, gw, ogw, oomw at most once"),
        ((["gw", "gw"], "draw", None), "tiebreaks: gw, gw: each of omw, gw, ogw, oomw at most once"),
        ((["omw"], "loss", None), "unfinished: loss: one of draw, exclude, double-loss"),
        ((["omw"], "draw", 0), "best_of: 0: a whole number of games, 1 or more"),
        ((["omw"], "draw", "3"), "best_of: 3: a whole number of games, 1 or more"),
    ):
        with pytest.raises(KifuError) as refused:
            S.check_options(*args)
        assert str(refused.value) == said


def test_pairings_go_by_round_then_table_number_then_table_name():
    def game(mid, rnd, table):
        return S.Game(match_id=mid, round=rnd, table=table, players=(f"{mid}a", f"{mid}b"), finished=True,
                      winner=f"{mid}a", reason="life", loser=None, ruling=False)

    games = [game("m1", 1, "B"), game("m2", 1, "10"), game("m3", 1, None), game("m4", 1, "2"), game("m5", 1, "A"),
             game("m6", 0, "9"), game("m7", 1, "100")]
    order = [(p.round, p.table) for p in S.pairings(games)]
    assert order == [(0, "9"), (1, "2"), (1, "10"), (1, "100"), (1, None), (1, "A"), (1, "B")]
