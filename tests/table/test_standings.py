"""Standings against the hand-computed 8-player, 3-round event of tests/table/event.py."""

from __future__ import annotations

import csv
import io
import json

from exports import desk
from projections import standings
from tests.table.event import EVENT, EXPECTED, fill


def test_standings_match_the_hand_computed_event(store):
    fill(store)
    table = desk.standings_table(EVENT, desk.store_matches(store, EVENT))
    got = [(s.rank, s.player, s.points, s.record, s.omw, s.gwp, s.ogw) for s in table.rows]
    assert got == EXPECTED
    assert table.pending == []
    assert len(table.pairings) == 12


def test_concession_and_game_loss_count_as_lost_games(store):
    fill(store)
    table = desk.standings_table(EVENT, desk.store_matches(store, EVENT))
    by = {s.player: s for s in table.rows}
    # 加藤 conceded game 2 of round 1: lost 0-2, six games lost over the event
    assert (by["加藤"].games_won, by["加藤"].games_lost, by["加藤"].games_drawn) == (0, 6, 0)
    # 上田's round-2 game loss: that match went 1-2
    assert (by["上田"].games_won, by["上田"].games_lost, by["上田"].games_drawn) == (4, 4, 1)
    assert by["上田"].opponents == ["江口", "工藤", "木村"]


def test_an_unfinished_game_keeps_its_match_out(store):
    fill(store)
    header, entries = _unfinished()
    store.create(header, entries)
    table = desk.standings_table(EVENT, desk.store_matches(store, EVENT))
    assert [(p.round, p.table) for p in table.pending] == [(4, "1")]
    assert [s.points for s in table.rows] == [e[2] for e in EXPECTED]


def test_match_loss_penalty_loses_the_whole_match():
    def game(mid, winner, reason):
        return standings.Game(mid, 1, "1", ("甲", "乙"), True, winner, reason,
                              loser="乙" if reason == "penalty-match-loss" else None)

    # 乙 won the first two games, then got a match loss: 甲 wins the match
    t = standings.standings("E", [game("g1", "乙", "x"), game("g2", "乙", "x"), game("g3", "甲", "penalty-match-loss")])
    assert [(s.player, s.points) for s in t.rows] == [("甲", 3), ("乙", 0)]


def test_kifu_standings_text_csv_json(kifu, store):
    fill(store)
    code, text, err = kifu("standings", EVENT)
    assert code == 0, err
    first = text.splitlines()[2].split()
    assert first[:4] == ["1", "大野", "7", "2-0-1"] and first[4:6] == ["77.78", "59.15"]  # MW%, OMW%
    assert text.splitlines()[1].split()[4:8] == ["MW%", "OMW%", "GW%", "OGW%"]
    assert text.splitlines()[-1].split()[4] == "33.00"  # 加藤 0-3-0: MW% floored
    code, text, _ = kifu("standings", EVENT, "--csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["player"] for r in rows] == [e[1] for e in EXPECTED]
    assert rows[-1]["gw_pct"] == "33.00" and rows[-1]["mw_pct"] == "33.00" and rows[0]["mw_pct"] == "77.78"
    assert rows[0]["byes"] == "0" and rows[0]["dropped_after"] == ""
    code, text, _ = kifu("standings", EVENT, "--json")
    data = json.loads(text)
    assert data["standings"][6]["player"] == "井上" and data["standings"][6]["gwp"] == 33.3333
    code, _, err = kifu("standings", "存在しない大会")
    assert code != 0 and err.count("\n") == 1 and "存在しない大会" in err
    code, _, err = kifu("standings", EVENT, "--csv", "--json")
    assert code != 0 and "choose one" in err


def _unfinished():
    header = {
        "kifu": 1, "game": "toy", "rules": "toy/1",
        "match": {"id": "wc-r4-t1-g1", "event": EVENT, "round": 4, "table": "1", "house_rules": {}},
        "players": [{"id": "A", "name": "大野", "deck": {"name": "d", "cards": []}},
                    {"id": "B", "name": "工藤", "deck": {"name": "d", "cards": []}}],
        "first": "A",
    }
    return header, [{"seq": 1, "type": "score", "by": "A", "points": 1}]
