"""Match log format 1: validation with FILE:LINE: field: problem, all or nothing."""

from __future__ import annotations

import json

import pytest

from projections.errors import LogFormatError
from recorder import logformat, service

HEADER = {"kifu": 1, "game": "toy", "match": {"id": "m1", "event": "冬の大会", "round": 1, "date": "2026-11-29"},
          "players": [{"id": "A", "name": "山田太郎", "deck": {"name": "闇ダイス組"}},
                      {"id": "B", "name": "佐藤", "deck": {"name": "イスルギ組"}}], "first": "A"}


def write(tmp_path, lines, name="m.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) if not isinstance(x, str) else x for x in lines) + "\n", encoding="utf-8")
    return str(path)


def problems(tmp_path, lines):
    path = write(tmp_path, lines)
    with pytest.raises(LogFormatError) as exc:
        logformat.read_file(path)
    return [p.replace(path, "F") for p in exc.value.problems]


def test_valid_log_fills_rules_and_keeps_japanese(tmp_path):
    path = write(tmp_path, [HEADER, {"seq": 1, "type": "score", "by": "A", "points": 2}])
    header, entries = logformat.read_file(path)
    assert header["rules"] == "toy/1"
    assert header["players"][0]["name"] == "山田太郎"
    assert "山田太郎" in next(iter(logformat.export_lines(header, entries)))


@pytest.mark.parametrize("line, expected", [
    ({"seq": 2, "type": "score", "by": "A", "points": 1}, "F:2: seq: expected 1, got 2"),
    ({"seq": 1, "type": "fly", "by": "A"}, "F:2: type: unknown toy move type 'fly'"),
    ({"seq": 1, "type": "score", "by": "Z", "points": 1}, "F:2: by: must be a player id"),
    ({"seq": 1, "type": "score", "by": "A", "points": "x"}, "F:2: points: must be an integer"),
    ({"seq": 1, "type": "annotate", "by": "c", "on": 5, "text": "x"}, "F:2: on: must be the seq of an earlier event"),
    ({"seq": 1, "type": "result", "by": "j", "winner": "Q", "reason": "time"}, "F:2: winner: must be a player id"),
    ('{"seq": 1, "type":', "F:2: json: Expecting value"),
])
def test_each_problem_names_file_line_and_field(tmp_path, line, expected):
    found = problems(tmp_path, [HEADER, line])
    assert any(p.startswith(expected) for p in found), found


@pytest.mark.parametrize("mutate, expected", [
    (lambda h: h.update(kifu=2), "F:1: kifu: must be 1"),
    (lambda h: h.update(game="chess"), "F:1: game: unknown game 'chess'"),
    (lambda h: h["match"].update(date="29/11/2026"), "F:1: match.date: must be a date"),
    (lambda h: h.update(first="C"), "F:1: first: 'C' is not a player id"),
    (lambda h: h["players"].append(dict(h["players"][0])), "F:1: players[2].id: duplicate player id"),
    (lambda h: h["match"].update(house_rules={"speed": 1}), "F:1: match.house_rules: unknown option 'speed'"),
    (lambda h: h.update(rules="toy/9"), "F:1: rules: no ruleset toy/9"),
])
def test_header_problems(tmp_path, mutate, expected):
    header = json.loads(json.dumps(HEADER))
    mutate(header)
    found = problems(tmp_path, [header])
    assert any(p.startswith(expected) for p in found), found


def test_every_problem_is_reported_and_nothing_imported(tmp_path, store):
    path = write(tmp_path, [HEADER, {"seq": 1, "type": "score", "by": "A", "points": 1},
                            {"seq": 3, "type": "score", "by": "B", "points": 1},
                            {"seq": 3, "type": "nope", "by": "A"}])
    with pytest.raises(LogFormatError) as exc:
        service.import_file(store, path)
    assert len(exc.value.problems) == 2
    assert exc.value.problems[0].startswith(f"{path}:3: seq:")
    assert not store.exists("m1")


def test_workflow_rules_at_import(tmp_path):
    base = [HEADER, {"seq": 1, "type": "score", "by": "A", "points": 5},
            {"seq": 2, "type": "dispute", "by": "B", "on": 1, "claim": "5点は多すぎる"}]
    ruled = {"seq": 3, "type": "ruling", "by": "フロア", "dispute": 2, "decision": "overturned", "text": "t",
             "replace": [{"type": "score", "by": "A", "points": 3}]}
    assert logformat.read_file(write(tmp_path, base + [ruled]))
    again = dict(ruled, seq=4)
    assert any("already ruled" in p for p in problems(tmp_path, base + [ruled, again]))
    head = dict(ruled, seq=4, level="head")
    appeal = {"seq": 5, "type": "appeal", "by": "A", "ruling": 4, "grounds": "g"}
    assert any("final" in p for p in problems(tmp_path, base + [ruled, head, appeal]))
    dispute_meta = {"seq": 3, "type": "dispute", "by": "B", "on": 2, "claim": "x"}
    assert any("not a move" in p for p in problems(tmp_path, base + [dispute_meta]))
    bad_replace = dict(ruled, replace=[{"type": "warp", "by": "A"}])
    assert any("replace[0].type" in p for p in problems(tmp_path, base + [bad_replace]))


def test_one_bad_line_is_one_problem_not_a_cascade(tmp_path):
    lines = [HEADER, {"seq": 1, "type": "score", "by": "A", "points": 1}, '{"seq": 2, oops',
             {"seq": 3, "type": "score", "by": "A", "points": 1}, {"seq": 4, "type": "score", "by": "B", "points": 1}]
    found = problems(tmp_path, lines)
    assert len(found) == 1 and found[0].startswith("F:3: json:")
