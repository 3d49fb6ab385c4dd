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
        "opponents": ["鈴木", "田中"], "byes": 1, "dropped_after": 3,
    }
