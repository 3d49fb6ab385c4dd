"""What the read model's rows say about one match: every column docs/stats.md lists, the seats
counted from the first player, and a record this build cannot fold kept with its error."""

from __future__ import annotations

import sqlite3
import uuid
from dataclasses import dataclass

import pytest

from projections import registry
from projections.errors import UnknownGameError
from projections.names import name_key, normalise_name
from projections.readmodel import ReadModel, match_rows
from recorder.store import Store
from tests.toy import ToyBoard


def toy_header(mid, players="AB", first="A", **match):
    header = {"kifu": 1, "game": "toy", "rules": "toy/1",
              "match": {"id": mid, "event": "秋の大会", **match},
              "players": [{"id": p, "name": f"名{p}", "deck": {"name": f"デッキ{p}", "archetype": f"型{p}"}}
                          for p in players]}
    if first is not None:
        header["first"] = first
    return header


def score(seq, by, points):
    return {"seq": seq, "type": "score", "by": by, "points": points}


def only(store, tmp_path):
    with ReadModel(str(tmp_path / "rm.db")) as rm:
        rm.catch_up(store)
        [m] = rm.matches()
    return m


def seats(row):
    return {r["player"]: (r["seat"], r["is_first"]) for r in row["results"]}


def test_a_row_holds_the_header_as_recorded(store, tmp_path):
    store.create(toy_header("r1", title="決勝", round=3, table=7, date="2026-11-29"), [score(1, "A", 3)])
    m = only(store, tmp_path)
    assert {k: m[k] for k in ("id", "stream", "game", "rules", "title", "event", "round", "table", "date")} == {
        "id": "r1", "stream": str(Store.stream_of("r1")), "game": "toy", "rules": "toy/1", "title": "決勝",
        "event": "秋の大会", "round": 3, "table": "7", "date": "2026-11-29"}
    assert (m["player_count"], m["event_key"]) == (2, name_key("秋の大会"))
    assert [(r["deck_key"], r["archetype_key"], r["player_key"]) for r in m["results"]] == [
        (normalise_name("デッキA"), normalise_name("型A"), name_key("名A")),
        (normalise_name("デッキB"), normalise_name("型B"), name_key("名B"))]
    assert [(r["player"], r["name"], r["deck"], r["archetype"]) for r in m["results"]] == [
        ("A", "名A", "デッキA", "型A"), ("B", "名B", "デッキB", "型B")]


def test_a_match_without_table_or_date_leaves_them_empty(store, tmp_path):
    store.create(toy_header("r2"))
    m = only(store, tmp_path)
    assert (m["title"], m["table"], m["date"], m["steps"], m["turns"]) == (None, None, None, 0, 1)


def test_the_json_columns_are_readable_in_the_file(store, tmp_path):
    """The file is documented for anyone to query (sqlite3, Datasette): names stay as written."""
    header = toy_header("r3")
    header["players"][1].pop("name")  # a player known by id only is listed by id
    store.create(header)
    only(store, tmp_path)
    con = sqlite3.connect(tmp_path / "rm.db")
    try:
        assert con.execute("select players, decks, archetypes from matches").fetchone() == (
            '["名A", "B"]', '["デッキA", "デッキB"]', '["型A", "型B"]')
    finally:
        con.close()


def test_seats_count_round_the_table_from_the_first_player(store, tmp_path):
    store.create(toy_header("r4", players="ABC", first="B"))
    assert seats(only(store, tmp_path)) == {"A": (3, 0), "B": (1, 1), "C": (2, 0)}


def test_a_header_without_first_starts_with_its_first_player(store, tmp_path):
    store.create(toy_header("r5", first=None))
    m = only(store, tmp_path)
    assert m["first"] == "A" and seats(m) == {"A": (1, 1), "B": (2, 0)}


def test_a_first_player_not_at_the_table_leaves_seats_in_header_order(store, tmp_path):
    store.create(toy_header("r6", first="Z"))
    m = only(store, tmp_path)
    assert m["first"] == "Z" and seats(m) == {"A": (1, 0), "B": (2, 0)}


def test_a_game_this_build_does_not_have_is_kept_with_the_reason(store, tmp_path):
    header = {"kifu": 1, "game": "chess", "match": {"id": "c1"}, "players": []}
    store.create(header)
    with pytest.raises(UnknownGameError) as exc:
        registry.for_header(header)
    m = only(store, tmp_path)
    assert (m["id"], m["stream"], m["game"], m["error"], m["finished"]) == (
        "c1", str(Store.stream_of("c1")), "chess", str(exc.value), 0)
    assert (m["players"], m["results"], m["first"]) == ([], [], None)


def test_a_line_the_rule_checks_choke_on_does_not_blank_the_row(store, tmp_path):
    """The read model folds boards and results only: a ruleset whose check cannot read a
    stored line (here a points value that is text) still gives the match its row."""
    moves = [score(1, "A", 3), score(2, "B", "3"), score(3, "A", 3), score(4, "B", 1),
             score(5, "A", 3), score(6, "B", 1), score(7, "A", 3)]
    store.create(toy_header("r7"), moves)
    m = only(store, tmp_path)
    assert (m["error"], m["steps"], m["turns"], m["winner"]) == (None, 7, 7, "A")  # line 2 not applied
    row, results = match_rows("r7", "s", toy_header("r7"), moves)  # the whole log, no fold at hand
    assert (row["error"], row["winner"], [r["outcome"] for r in results]) == (None, "A", ["win", "loss"])


def test_a_turn_that_is_not_a_number_leaves_turns_empty(store, tmp_path, monkeypatch):
    """A game may name its turns in words; the statistics average numbers only."""
    monkeypatch.setattr(type(registry.get("toy")), "initial_board",
                        lambda self, header: ToyBoard(("A", "B"), (0, 0), "一巡目", "A"))
    store.create(toy_header("r8"))
    m = only(store, tmp_path)
    assert (m["turns"], m["error"]) == (None, None)


def test_one_row_per_match_and_one_per_player_by_key(store, tmp_path):
    """The keys docs/stats.md's tables promise (and that Datasette links rows by)."""
    store.create(toy_header("r9"))
    with ReadModel(str(tmp_path / "rm.db")) as rm:
        rm.catch_up(store)
        assert rm.db["matches"].pks == ["id"] and rm.db["results"].pks == ["match_id", "player"]
        assert ["stream"] in [ix.columns for ix in rm.db["matches"].indexes if ix.unique]


def test_a_board_that_names_no_turn_takes_the_turn_its_game_reports(store, tmp_path, monkeypatch):
    @dataclass(frozen=True)
    class Plain:  # a game whose board keeps no `turn` of its own
        players: tuple[str, ...]

    toy = type(registry.get("toy"))
    monkeypatch.setattr(toy, "initial_board", lambda self, header: Plain(("A", "B")))
    monkeypatch.setattr(toy, "board_json", lambda self, board: {"turn": 7, "players": {}})
    monkeypatch.setattr(toy, "result", lambda self, board: None)
    store.create(toy_header("r10"))
    m = only(store, tmp_path)
    assert (m["turns"], m["error"]) == (7, None)


def test_a_match_never_seen_in_this_process_gets_its_rows(store, tmp_path):
    """The header's part of the rows is kept per process; a match id no earlier catch-up of
    this process has met is computed from its header."""
    mid = f"new-{uuid.uuid4().hex}"
    store.create(toy_header(mid), [score(1, "A", 3)])
    m = only(store, tmp_path)
    assert (m["id"], m["steps"], m["players"]) == (mid, 1, ["名A", "名B"])


def test_a_bye_with_no_players_is_finished_and_counts_nothing(store, tmp_path, monkeypatch):
    """A game whose board can be set up with nobody at the table: the judge records a bye."""
    monkeypatch.setattr(type(registry.get("toy")), "initial_board", lambda self, header: ToyBoard((), (), 1, ""))
    header = {"kifu": 1, "game": "toy", "rules": "toy/1", "match": {"id": "bye"}, "players": []}
    store.create(header, [{"seq": 1, "type": "result", "by": "judge", "winner": None, "reason": "bye"}])
    with ReadModel(str(tmp_path / "rm.db")) as rm:
        rm.catch_up(store)
        [m] = rm.matches()
        assert (m["finished"], m["reason"], m["error"], m["results"]) == (1, "bye", None, [])
        assert rm.report()["matches"] == 1 and rm.report()["decks"] == []
