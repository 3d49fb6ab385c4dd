"""`kifu matches` pages and filters in SQL (issue 25 item 2): ``--limit``/``--offset`` take a
slice of the creation order, the filters keep what the list page's filters keep, and no
stored header is read to list (``store.headers()`` reads every one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recorder.store import Store
from recorder.web.common import matches_filter

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def imported(kifu, db):
    code, _, err = kifu("import", str(EXAMPLES))
    assert code == 0, err
    code, out, err = kifu("matches", "--json")
    assert code == 0, err
    return json.loads(out)


def _ids(kifu, *args: str) -> list[str]:
    code, out, err = kifu("matches", "--json", *args)
    assert code == 0, err
    return [r["id"] for r in json.loads(out)]


def test_limit_and_offset_slice_the_creation_order(kifu, db, imported, monkeypatch):
    every = [r["id"] for r in imported]
    assert len(every) >= 4
    monkeypatch.setattr(Store, "headers", lambda self: pytest.fail("kifu matches read every stored header"))
    assert _ids(kifu, "--limit", "2") == every[:2]
    assert _ids(kifu, "--limit", "2", "--offset", "2") == every[2:4]
    assert _ids(kifu, "--offset", str(len(every) - 1)) == every[-1:]
    assert _ids(kifu, "--limit", "0") == []


def test_the_filters_keep_what_the_list_pages_filters_keep(kifu, db, imported):
    from exports.timeline import summary
    from projections.replay import Replay

    store = Store(db)
    try:
        summaries = []
        for row in imported:
            header, entries = store.load(row["id"])
            summaries.append(summary(header, Replay(header, entries)))
    finally:
        store.close()
    some = summaries[0]
    player = some["players"][0]["name"]
    asks = [
        ("game", some["game"], ["--game", some["game"]]),
        ("event", (some["event"] or "")[:2], ["--event", (some["event"] or "")[:2]]),
        ("player", player[:2], ["--player", player[:2]]),
        ("deck", (some["players"][0]["deck"] or "x")[:3], ["--deck", (some["players"][0]["deck"] or "x")[:3]]),
        ("result", "decided", ["--result", "decided"]),
        ("result", "in-progress", ["--result", "in-progress"]),
    ]
    if some.get("round") is not None:
        asks.append(("round", str(some["round"]), ["--round", str(some["round"])]))
    for key, value, args in asks:
        expected = [s["id"] for s in summaries if matches_filter(s, {key: value})]
        assert _ids(kifu, *args) == expected, args
    both = [s["id"] for s in summaries if matches_filter(s, {"game": some["game"], "player": player[:2]})]
    assert _ids(kifu, "--game", some["game"], "--player", player[:2], "--limit", "1") == both[:1]


def test_search_finds_a_match_by_its_id_or_a_players_name(kifu, db, imported):
    target = imported[-1]
    assert _ids(kifu, "--search", target["id"]) == [r["id"] for r in imported if target["id"] in r["id"]]
    assert _ids(kifu, "--search", target["id"].upper())[-1] == target["id"]  # names compare case-folded
    name = target["players"][0]["name"]
    assert target["id"] in _ids(kifu, "--search", name)
    assert _ids(kifu, "--search", "この名前の対戦はない") == []


def test_an_unknown_game_is_one_line_not_an_empty_list(kifu, db, imported):
    code, out, err = kifu("matches", "--game", "no-such-game")
    assert code != 0 and "unknown game 'no-such-game'" in err and "Traceback" not in err
