"""Every refusal of the match-log format, as the user reads it: ``FILE:LINE: field: problem``.

One case per distinct message of recorder/logformat.py, each checked by its whole text, and
the acceptances that sit right beside a refusal (a draw, a pinned rules version, a retract
without text, the last earlier seq), so that a check weakened or turned around is caught.
"""

from __future__ import annotations

import json
import os

import pytest

from projections import registry
from projections.errors import LogFormatError
from recorder import logformat
from tests.core.test_versions import ToyV1, ToyV2

HEADER = {"kifu": 1, "game": "toy", "match": {"id": "m1", "event": "冬の大会", "round": 1, "date": "2026-11-29"},
          "players": [{"id": "A", "name": "山田太郎", "deck": {"name": "闇ダイス組"}},
                      {"id": "B", "name": "佐藤", "deck": {"name": "イスルギ組"}}], "first": "A"}
SCORE = {"seq": 1, "type": "score", "by": "A", "points": 2}


def header(**changes):
    h = json.loads(json.dumps(HEADER))
    for key, value in changes.items():
        if key.startswith("match_"):
            h["match"][key[6:]] = value
        else:
            h[key] = value
    return h


def write(tmp_path, lines, name="m.jsonl"):
    path = tmp_path / name
    text = "\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in lines) + "\n"
    path.write_text(text, encoding="utf-8")
    return str(path)


def refused(tmp_path, lines):
    path = write(tmp_path, lines)
    with pytest.raises(LogFormatError) as exc:
        logformat.read_file(path)
    return [p.replace(path, "F") for p in exc.value.problems]


def read(tmp_path, lines):
    return logformat.read_file(write(tmp_path, lines))


def moves(*lines):
    """Event lines numbered from 1."""
    return [dict(line, seq=i) for i, line in enumerate(lines, start=1)]


# -- the header ------------------------------------------------------------------------------

HEADER_CASES = [
    (header(kifu=2), "F:1: kifu: must be 1 (the integer match-log format version)"),
    (header(kifu=True), "F:1: kifu: must be 1 (the integer match-log format version)"),
    (header(kifu="1"), "F:1: kifu: must be 1 (the integer match-log format version)"),
    ({k: v for k, v in HEADER.items() if k != "game"}, "F:1: game: missing"),
    (header(game=7), "F:1: game: must be a string (" + ", ".join(registry.available()) + ")"),
    (header(game="gandice"), None),  # filled in below: another game's checks apply
    (header(rules="gandice/1"), "F:1: rules: 'gandice/1' is not a ruleset of 'toy'"),
    (header(match=[]), "F:1: match: must be an object"),
    (header(match_id="a b"), "F:1: match.id: must be 1-100 letters, digits, '.', ':', '_' or '-'"),
    (header(match_id="x" * 101), "F:1: match.id: must be 1-100 letters, digits, '.', ':', '_' or '-'"),
    (header(match_id="m1\n"), "F:1: match.id: must be 1-100 letters, digits, '.', ':', '_' or '-'"),
    (header(match_id=7), "F:1: match.id: must be 1-100 letters, digits, '.', ':', '_' or '-'"),
    (header(match_round="3"), "F:1: match.round: must be an integer"),
    (header(match_round=True), "F:1: match.round: must be an integer"),
    (header(match_table=[3]), "F:1: match.table: must be a string"),
    (header(match_title=1), "F:1: match.title: must be a string"),
    (header(match_event=None), "F:1: match.event: must be a string"),
    (header(match_title="決勝\n戦"), "F:1: match.title: must be one line without control characters"),
    (header(match_event="冬\t大会"), "F:1: match.event: must be one line without control characters"),
    (header(match_table="3\r"), "F:1: match.table: must be one line without control characters"),
    (header(match_date="29/11/2026"), "F:1: match.date: must be a date YYYY-MM-DD"),
    (header(match_date=20261129), "F:1: match.date: must be a date YYYY-MM-DD"),
    (header(match_house_rules=[]), "F:1: match.house_rules: must be an object"),
    (header(players=[]), "F:1: players: must be a non-empty list"),
    (header(players={"A": {}}), "F:1: players: must be a non-empty list"),
    (header(players=["A", {"id": "B"}], first="B"), "F:1: players[0]: must be an object"),
    (header(players=[{"id": ""}, {"id": "B"}]), "F:1: players[0].id: must be a non-empty string"),
    (header(players=[{"id": "  "}, {"id": "B"}]), "F:1: players[0].id: must be a non-empty string"),
    (header(players=[{"id": "A"}, {"id": "A"}]), "F:1: players[1].id: duplicate player id 'A'"),
    (header(players=[{"id": "A\n"}, {"id": "B"}]),
     "F:1: players[0].id: must be 1-100 characters without control characters"),
    (header(players=[{"id": "A" * 101}, {"id": "B"}]),
     "F:1: players[0].id: must be 1-100 characters without control characters"),
    (header(players=[{"id": "A", "name": 1}, {"id": "B"}]), "F:1: players[0].name: must be a string"),
    (header(players=[{"id": "A", "name": "山田\n太郎"}, {"id": "B"}]),
     "F:1: players[0].name: must be one line without control characters"),
    (header(players=[{"id": "A", "deck": "闇"}, {"id": "B"}]), "F:1: players[0].deck: must be an object"),
    (header(players=[{"id": "A", "deck": {"name": 1}}, {"id": "B"}]), "F:1: players[0].deck.name: must be a string"),
    (header(players=[{"id": "A", "deck": {"archetype": ["闇"]}}, {"id": "B"}]),
     "F:1: players[0].deck.archetype: must be a string"),
    (header(players=[{"id": "A", "deck": {"name": "闇\x00"}}, {"id": "B"}]),
     "F:1: players[0].deck.name: must be one line without control characters"),
    (header(players=[{"id": "A"}]), "F:1: players: toy takes 2 to 3 players, not 1"),
    (header(players=[{"id": p} for p in "ABCD"]), "F:1: players: toy takes 2 to 3 players, not 4"),
    (header(first="C"), "F:1: first: 'C' is not a player id (A, B)"),
    (header(first=1), "F:1: first: 1 is not a player id (A, B)"),
]
HEADER_CASES = [c for c in HEADER_CASES if c[1] is not None]


@pytest.mark.parametrize("bad, expected", HEADER_CASES, ids=[c[1].split(": ", 1)[1][:60] for c in HEADER_CASES])
def test_each_header_refusal(tmp_path, bad, expected):
    assert refused(tmp_path, [bad]) == [expected]


def test_a_game_of_exactly_two_says_two(tmp_path):
    bad = header(game="mushijingi", players=[{"id": p} for p in "ABC"])
    assert refused(tmp_path, [bad]) == ["F:1: players: mushijingi takes 2 players, not 3"]


def test_unknown_game_and_unknown_rules_version(tmp_path):
    assert refused(tmp_path, [header(game="chess")])[0].startswith("F:1: game: unknown game 'chess'")
    assert refused(tmp_path, [header(rules="toy/9")])[0].startswith("F:1: rules: no ruleset toy/9")


def test_first_is_not_judged_while_a_player_id_is_wrong(tmp_path):
    """One problem, not two: `first` is only compared with ids that are themselves valid."""
    bad = header(players=[{"id": "A"}, {"id": "A"}], first="B")
    assert refused(tmp_path, [bad]) == ["F:1: players[1].id: duplicate player id 'A'"]


def test_header_must_be_an_object_and_come_first(tmp_path):
    assert refused(tmp_path, ["[1, 2]"]) == ["F:1: header: line 1 must be a JSON object (the match header)"]
    assert refused(tmp_path, ["", HEADER]) == ["F:1: header: empty line (line 1 must be the match header)",
                                               "F:2: header: line 1 did not hold the header"]
    assert refused(tmp_path, ["not json at all"]) == [
        "F:1: header: line 1 is not JSON, so this is not a match log (Expecting value (column 1))"]
    (tmp_path / "empty.jsonl").write_bytes(b"")
    with pytest.raises(LogFormatError) as exc:
        logformat.read_file(str(tmp_path / "empty.jsonl"))
    assert exc.value.problems == [f"{tmp_path / 'empty.jsonl'}:1: header: the file is empty"]


# -- what kifu fills in, and what it keeps -----------------------------------------------------


def test_a_pinned_older_rules_version_survives_import(tmp_path):
    registry.register("toy2", {1: ToyV1(), 2: ToyV2()})
    try:
        pinned = header(game="toy2", rules="toy2/1")
        got, _ = read(tmp_path, [pinned, SCORE])
        assert got["rules"] == "toy2/1"
        fresh, _ = read(tmp_path, [header(game="toy2"), SCORE])
        assert fresh["rules"] == "toy2/2"
        assert logformat.normalise_header(pinned)["rules"] == "toy2/1"
    finally:
        registry._PLUGINS.pop("toy2")
        registry.GAMES.pop("toy2")


def test_first_defaults_to_the_first_player_and_a_given_one_stays(tmp_path):
    without = {k: v for k, v in HEADER.items() if k != "first"}
    got, _ = read(tmp_path, [without])
    assert got["first"] == "A"
    got, _ = read(tmp_path, [header(first="B")])
    assert got["first"] == "B"
    swapped = dict(without, players=list(reversed(HEADER["players"])))
    assert logformat.normalise_header(swapped)["first"] == "B"


def test_a_missing_match_id_is_generated_and_a_given_one_kept(tmp_path):
    got, _ = read(tmp_path, [header(match={"event": "冬の大会"})])
    mid = got["match"]["id"]
    assert mid.startswith("toy-") and len(mid) == len("toy-") + 12 and logformat.MATCH_ID.fullmatch(mid)
    assert got["match"]["event"] == "冬の大会"
    again, _ = read(tmp_path, [header(match={})])
    assert again["match"]["id"] != mid  # each import its own id
    assert read(tmp_path, [header(match_id="wc26-r3:t12_a.b")])[0]["match"]["id"] == "wc26-r3:t12_a.b"
    assert read(tmp_path, [header(match_id="x" * 100)])[0]["match"]["id"] == "x" * 100
    assert read(tmp_path, [header(match_id="棋譜-1")])[0]["match"]["id"] == "棋譜-1"  # \w is Unicode


def test_the_header_read_is_the_header_written(tmp_path):
    got, entries = read(tmp_path, [HEADER, SCORE])
    assert got == dict(HEADER, rules="toy/1") and entries == [SCORE]
    assert list(logformat.export_lines(got, entries)) == [json.dumps(got, ensure_ascii=False),
                                                         json.dumps(SCORE, ensure_ascii=False)]


# -- event lines -----------------------------------------------------------------------------

ANNOTATE = {"type": "annotate", "by": "解説", "on": 1, "text": "好手"}
DISPUTE = {"type": "dispute", "by": "B", "on": 1, "claim": "5点は多すぎる"}
RULING = {"type": "ruling", "by": "フロア", "dispute": 2, "decision": "upheld", "text": "そのまま"}
PENALTY = {"type": "penalty", "by": "ヘッド", "player": "A", "infraction": "遅延", "penalty": "warning"}

# (lines after the header, the one problem expected)
ENTRY_CASES = [
    (["[1]"], "F:2: line: must be a JSON object"),
    ([dict(SCORE, seq=2)], "F:2: seq: expected 1, got 2 (seq starts at 1 with no gaps)"),
    ([dict(SCORE, seq="1")], "F:2: seq: expected 1, got '1' (seq starts at 1 with no gaps)"),
    ([dict(SCORE, seq=True)], "F:2: seq: expected 1, got True (seq starts at 1 with no gaps)"),
    ([{k: v for k, v in SCORE.items() if k != "seq"}], "F:2: seq: expected 1, got None (seq starts at 1 with no gaps)"),
    ([dict(SCORE, at="yesterday")], "F:2: at: must be an ISO 8601 timestamp"),
    ([dict(SCORE, claimed_at=5)], "F:2: claimed_at: must be an ISO 8601 timestamp"),
    ([dict(SCORE, at="2026-11-29T10:00:00Z" + "0" * 30)], "F:2: at: must be an ISO 8601 timestamp"),
    ([dict(SCORE, at="2026-11-29T10:00:00z")], "F:2: at: must be an ISO 8601 timestamp"),  # only Z means UTC
    ([{"seq": 1, "by": "A"}], "F:2: type: missing"),
    ([dict(SCORE, type=3)], "F:2: type: must be a string (a move type)"),
    ([dict(SCORE, type="fly")], "F:2: type: unknown toy move type 'fly' (known: pass, score)"),
    ([dict(SCORE, by="Z")], "F:2: by: must be a player id (A, B), got 'Z'"),
    ([{"seq": 1, "type": "concede", "by": "審判"}], "F:2: by: must be a player id (A, B), got '審判'"),
    ([dict(SCORE, points="2")], "F:2: points: must be an integer"),
    ([SCORE, {"seq": 2, "type": "annotate", "on": 1, "text": "x"}], "F:3: by: missing"),
    ([SCORE, {"seq": 2, "type": "annotate", "by": " ", "on": 1, "text": "x"}], "F:3: by: must be a non-empty string"),
    ([SCORE, {"seq": 2, "type": "annotate", "by": "解\n説", "on": 1, "text": "x"}],
     "F:3: by: must be a name of 1-100 characters without control characters"),
    ([SCORE, {"seq": 2, "type": "annotate", "by": "x" * 101, "on": 1, "text": "x"}],
     "F:3: by: must be a name of 1-100 characters without control characters"),
    ([SCORE, dict(ANNOTATE, seq=2, on=2)], "F:3: on: must be the seq of an earlier event (1..1)"),
    ([SCORE, dict(ANNOTATE, seq=2, on=0)], "F:3: on: must be the seq of an earlier event (1..1)"),
    ([SCORE, dict(ANNOTATE, seq=2, on="1")], "F:3: on: must be the seq of an earlier event (1..1)"),
    ([SCORE, dict(ANNOTATE, seq=2, on=True)], "F:3: on: must be the seq of an earlier event (1..1)"),
    ([SCORE, {"seq": 2, "type": "annotate", "by": "解説", "text": "x"}], "F:3: on: missing"),
    ([SCORE, {"seq": 2, "type": "annotate", "by": "解説", "on": 1}], "F:3: text: missing"),
    ([SCORE, dict(ANNOTATE, seq=2, text="")], "F:3: text: must be a non-empty string"),
    ([SCORE, dict(ANNOTATE, seq=2, symbol="!!!")], "F:3: symbol: must be one of ! ? !! ?? !? ?!"),
    ([SCORE, dict(ANNOTATE, seq=2, tags="好手")], "F:3: tags: must be a list of strings"),
    ([SCORE, dict(ANNOTATE, seq=2, tags=["好手", 1])], "F:3: tags: must be a list of strings"),
    ([SCORE, dict(ANNOTATE, seq=2), {"seq": 3, "type": "retract", "by": "解説", "on": 2, "text": 5}],
     "F:4: text: must be a non-empty string"),
    ([SCORE, {"seq": 2, "type": "dispute", "by": "B", "on": 1}], "F:3: claim: missing"),
    ([SCORE, dict(DISPUTE, seq=2, rule=7)], "F:3: rule: must be a non-empty string"),
    ([SCORE, dict(DISPUTE, seq=2), dict(RULING, seq=3, dispute=3)],
     "F:4: dispute: must be the seq of an earlier event (1..2)"),
    ([SCORE, dict(DISPUTE, seq=2), dict(RULING, seq=3, decision="maybe")], "F:4: decision: must be upheld or overturned"),
    ([SCORE, dict(DISPUTE, seq=2), {k: v for k, v in RULING.items() if k != "decision"} | {"seq": 3}],
     "F:4: decision: must be upheld or overturned"),
    ([SCORE, dict(DISPUTE, seq=2), dict(RULING, seq=3, level="supreme")], "F:4: level: must be floor or head"),
    ([SCORE, dict(DISPUTE, seq=2), dict(RULING, seq=3, decision="overturned", rewind="yes")],
     "F:4: rewind: must be true or false"),
    ([SCORE, dict(DISPUTE, seq=2), dict(RULING, seq=3, decision="overturned", replace={"type": "pass"})],
     "F:4: replace: must be a list of move objects"),
    ([SCORE, dict(DISPUTE, seq=2), dict(RULING, seq=3, decision="overturned", replace=["pass"])],
     "F:4: replace[0]: must be an object"),
    ([SCORE, dict(DISPUTE, seq=2), dict(RULING, seq=3, decision="overturned", replace=[{"type": "warp", "by": "A"}])],
     "F:4: replace[0].type: unknown toy move type 'warp'"),
    ([SCORE, dict(DISPUTE, seq=2), dict(RULING, seq=3, decision="overturned", replace=[{"type": "pass", "by": "Z"}])],
     "F:4: replace[0].by: must be a player id (A, B)"),
    ([SCORE, dict(DISPUTE, seq=2),
      dict(RULING, seq=3, decision="overturned", replace=[{"type": "pass", "by": "A"}, {"type": "score", "by": "A"}])],
     "F:4: replace[1].points: must be an integer"),
    ([SCORE, {"seq": 2, "type": "correct", "by": "記録", "on": 1}], "F:3: text: missing"),
    ([SCORE, {"seq": 2, "type": "correct", "by": "記録", "on": 1, "text": "t", "replace": [{"type": "x", "by": "A"}]}],
     "F:3: replace[0].type: unknown toy move type 'x'"),
    ([SCORE, dict(DISPUTE, seq=2), dict(RULING, seq=3), {"seq": 4, "type": "appeal", "by": "B", "ruling": 3}],
     "F:5: grounds: missing"),
    ([SCORE, {"seq": 2, "type": "appeal", "by": "B", "grounds": "g"}], "F:3: ruling: missing"),
    ([dict(PENALTY, seq=1, player="Z")], "F:2: player: must be a player id (A, B)"),
    ([{k: v for k, v in PENALTY.items() if k != "infraction"} | {"seq": 1}], "F:2: infraction: missing"),
    ([dict(PENALTY, seq=1, penalty="fine")],
     "F:2: penalty: must be one of warning, game-loss, match-loss, disqualification"),
    ([dict(PENALTY, seq=1, on=1)], "F:2: on: must be the seq of an earlier event (1..0)"),
    ([{"seq": 1, "type": "result", "by": "審判", "reason": "time"}],
     "F:2: winner: missing (a player id, or null for a draw)"),
    ([{"seq": 1, "type": "result", "by": "審判", "winner": "Q", "reason": "time"}],
     "F:2: winner: must be a player id (A, B) or null"),
    ([{"seq": 1, "type": "result", "by": "審判", "winner": None}], "F:2: reason: missing"),
]


@pytest.mark.parametrize("lines, expected", ENTRY_CASES, ids=[c[1][3:70] for c in ENTRY_CASES])
def test_each_event_refusal(tmp_path, lines, expected):
    assert refused(tmp_path, [HEADER, *lines]) == [expected]


@pytest.mark.parametrize("lines", [
    [{"seq": 1, "type": "result", "by": "審判", "winner": None, "reason": "time"}],  # a draw
    [{"seq": 1, "type": "result", "by": "審判", "winner": "B", "reason": "penalty"}],
    [SCORE, dict(ANNOTATE, seq=2, on=1), {"seq": 3, "type": "retract", "by": "解説", "on": 2}],  # no text
    [SCORE, dict(ANNOTATE, seq=2, on=1, symbol="!?", tags=["序盤"]), dict(ANNOTATE, seq=3, on=2)],
    [SCORE, dict(DISPUTE, seq=2), dict(RULING, seq=3, level="head", rule="TOY-2")],
    [dict(PENALTY, seq=1), dict(PENALTY, seq=2, on=1, text="二度目", penalty="game-loss")],
    [dict(SCORE, at="2026-11-29T10:00:00Z", claimed_at="2026-11-29T09:59:00+09:00")],
    [{"seq": 1, "type": "concede", "by": "B"}],
], ids=["draw", "winner", "retract-without-text", "annotate-the-last-line", "head-ruling", "penalties",
        "times", "concede"])
def test_lines_beside_a_refusal_are_accepted(tmp_path, lines):
    got, entries = read(tmp_path, [HEADER, *lines])
    assert entries == lines


def test_a_draw_is_a_draw(tmp_path):
    from projections.replay import Replay

    got, entries = read(tmp_path, [HEADER, SCORE, {"seq": 2, "type": "result", "by": "審判", "winner": None,
                                                   "reason": "time"}])
    assert Replay(got, entries).board_json()["result"] == {"winner": None, "reason": "time"}


# -- the JSON of a line ----------------------------------------------------------------------

BIG = logformat.MAX_INT + 1
JSON_CASES = [
    ('{"seq": 1, "type": "score", "by": "A", "points": NaN}', "F:2: json: NaN is not a JSON number"),
    ('{"seq": 1, "type": "score", "by": "A", "points": -Infinity}', "F:2: json: -Infinity is not a JSON number"),
    ('{"seq": 1, "type": "score", "by": "A", "points": 1, "points": 2}',
     "F:2: points: duplicate key (each key once per object)"),
    (f'{{"seq": 1, "type": "score", "by": "A", "points": {BIG}}}',
     f"F:2: json: integer {BIG} is larger than {logformat.MAX_INT} (2**53 - 1)"),
    (f'{{"seq": 1, "type": "score", "by": "A", "points": -{BIG}}}',
     f"F:2: json: integer -{BIG} is larger than {logformat.MAX_INT} (2**53 - 1)"),
    ('{"seq": 1, "type": "score", "by": "A", "points": 12345678901234567}',
     f"F:2: json: integer of 17 digits is larger than {logformat.MAX_INT} (2**53 - 1)"),
    ('{"seq": 1, "type": "score", "by": "A", "points": 1' + "0" * 400 + '.5}',
     "F:2: json: number of 403 characters is too long"),
    ('{"seq": 1, "type": "score", "by": "A", "points": 1e999}', "F:2: json: number 1e999 is too large for a float"),
    ('{"seq": 1, "type": "score", "by": "A", "points": ' + "[" * 40 + "]" * 40 + "}",
     "F:2: json: nested deeper than 32 levels"),
    ('{"seq": 1, "type": "score", "by": "A\\ud800", "points": 1}',
     "F:2: by: text that is not valid Unicode (a lone surrogate) cannot be stored"),
    ('{"seq": 1, "type": "score", "by": "A", "\\udc00": 1}',
     "F:2: \\udc00: text that is not valid Unicode (a lone surrogate) cannot be stored"),
    ('{"seq": 1, "type": "score", "by": "A", "points": 1', "F:2: json: Expecting ',' delimiter (column 51)"),
]


@pytest.mark.parametrize("line, expected", JSON_CASES, ids=[c[1][3:60] for c in JSON_CASES])
def test_each_json_refusal(tmp_path, line, expected):
    assert refused(tmp_path, [HEADER, line]) == [expected]


def test_the_largest_exact_integer_and_the_deepest_nesting_allowed_are_read(tmp_path):
    exact = f'{{"seq": 1, "type": "score", "by": "A", "points": 2, "n": {logformat.MAX_INT}, "m": -{logformat.MAX_INT}}}'
    assert read(tmp_path, [HEADER, exact])[1][0]["n"] == logformat.MAX_INT
    nested = '{"seq": 1, "type": "score", "by": "A", "points": 2, "x": ' + "[" * 31 + "]" * 31 + "}"
    assert read(tmp_path, [HEADER, nested])[1][0]["x"] == json.loads("[" * 31 + "]" * 31)
    float_ok = '{"seq": 1, "type": "score", "by": "A", "points": 2, "f": 1.5e300}'
    assert read(tmp_path, [HEADER, float_ok])[1][0]["f"] == 1.5e300


def test_a_line_past_the_length_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(logformat, "MAX_LINE", 300)
    line = json.dumps(dict(SCORE, note="x" * 300))
    assert refused(tmp_path, [HEADER, line]) == [f"F:2: line: longer than 300 characters ({len(line)})"]
    exact = json.dumps(dict(SCORE, note="x" * 100))
    exact = exact[:-1] + " " * (300 - len(exact)) + "}"
    assert len(exact) == 300 and read(tmp_path, [HEADER, exact])[1][0]["note"] == "x" * 100


def test_a_header_that_is_not_storable_is_refused_on_line_1(tmp_path):
    line = '{"kifu": 1, "game": "toy", "match": {"id": "m1"}, "players": [{"id": "A", "name": "\\ud800"}, {"id": "B"}]}'
    assert refused(tmp_path, [line]) == [
        "F:1: players[0].name: text that is not valid Unicode (a lone surrogate) cannot be stored"]
    assert refused(tmp_path, ['{"kifu": NaN}']) == ["F:1: json: NaN is not a JSON number"]


@pytest.mark.parametrize("value, expected", [
    ({"a": [[[]]]}, []),
    ({"a": 1.5, "b": None, "c": True, "d": -3}, []),
    ({"a": float("nan")}, ["a: NaN and Infinity are not JSON numbers"]),
    ({"a": [float("inf")]}, ["a[0]: NaN and Infinity are not JSON numbers"]),
    ({"a": -(2**53)}, ["a: integer larger than 9007199254740991 (2**53 - 1)"]),
    ({"a": {"b": {1, 2}}}, ["a.b: a set is not a JSON value"]),
    ({1: "x"}, ["line: key 1 is not a string"]),
    ({"a": {2: "x"}}, ["a: key 2 is not a string"]),
    (["\ud800"], ["line[0]: text that is not valid Unicode (a lone surrogate) cannot be stored"]),
    (json.loads("[" * 33 + "]" * 33), ["line[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
                                       "[0][0][0][0][0][0][0][0]: nested deeper than 32 levels"]),
])
def test_what_a_built_value_cannot_store(value, expected):
    """Lines built by the CLI or the server, not parsed from a file, go through the same check."""
    assert [str(e) for e in logformat.storable_errors(value)] == expected


def test_32_levels_are_storable_and_33_are_not():
    assert logformat.storable_errors(json.loads("[" * 32 + "]" * 32)) == []
    assert len(logformat.storable_errors(json.loads("[" * 33 + "]" * 33))) == 1


# -- a whole file --------------------------------------------------------------------------------


def test_the_same_problem_on_several_lines_is_one_line_with_the_others(tmp_path):
    bad = [dict(SCORE, seq=i, by="Z") for i in range(1, 9)]
    found = refused(tmp_path, [HEADER, *bad])
    assert found == ["F:2: by: must be a player id (A, B), got 'Z' (also lines 3, 4, 5, 6, 7, …)"]
    two = refused(tmp_path, [HEADER, *bad[:2]])
    assert two == ["F:2: by: must be a player id (A, B), got 'Z' (also line 3)"]


def test_at_most_ten_kinds_of_problem_then_a_count(tmp_path):
    kinds = [dict(SCORE, at="x"), dict(SCORE, claimed_at="x"), dict(SCORE, type=3), dict(SCORE, points="x"),
             dict(SCORE, by="Z"), dict(PENALTY, player="Z"), dict(PENALTY, penalty="fine"),
             dict(ANNOTATE, symbol="!!!"), dict(ANNOTATE, tags="t"), dict(RULING, decision="x", dispute=1),
             dict(RULING, level="x", dispute=1), dict(RULING, rewind="x", dispute=1)]
    lines = moves(*kinds)
    found = refused(tmp_path, [HEADER, *lines])
    assert len(found) == logformat.MAX_REPORTED
    assert found[-1] == "F: and 3 more kinds of problem"
    assert found[0] == "F:2: at: must be an ISO 8601 timestamp"
    nine = refused(tmp_path, [HEADER, *moves(*kinds[:10])])
    assert len(nine) == 10 and not nine[-1].startswith("F: and")


def test_a_gap_is_one_problem_and_later_lines_are_checked_at_their_own_seq(tmp_path):
    lines = [SCORE, dict(SCORE, seq=5, by="B"), dict(ANNOTATE, seq=6, on=5), dict(SCORE, seq=7, by="Z")]
    assert refused(tmp_path, [HEADER, *lines]) == [
        "F:3: seq: expected 2, got 5 (seq starts at 1 with no gaps)",
        "F:5: by: must be a player id (A, B), got 'Z'"]


def test_a_repeated_seq_is_reported_once(tmp_path):
    lines = [SCORE, dict(SCORE, seq=1, by="B"), dict(SCORE, seq=2), dict(SCORE, seq=3, by="B")]
    assert refused(tmp_path, [HEADER, *lines]) == ["F:3: seq: expected 2, got 1 (seq starts at 1 with no gaps)"]


def test_invalid_utf8_is_reported_at_its_line(tmp_path):
    path = tmp_path / "bytes.jsonl"
    good = json.dumps(HEADER, ensure_ascii=False).encode()
    path.write_bytes(good + b"\n" + b'{"seq": 1, "type": "score", "by": "\xff", "points": 1}\n'
                     + json.dumps(dict(SCORE, seq=2, by="B")).encode() + b"\n")
    with pytest.raises(LogFormatError) as exc:
        logformat.read_file(str(path))
    assert exc.value.problems == [f"{path}:2: encoding: not UTF-8 (byte 0xff at byte 36 of the line)"]
    path.write_bytes(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(LogFormatError) as exc:
        logformat.read_file(str(path))
    assert exc.value.problems == [f"{path}:1: encoding: not UTF-8 (byte 0x89 at byte 1 of the line)"]
    path.write_bytes(b"\xef\xbb\xbf" + good + b"\n")  # a byte-order mark is not a problem
    assert logformat.read_file(str(path))[0]["match"]["id"] == "m1"


def test_files_that_are_not_logs(tmp_path):
    missing = tmp_path / "nope.jsonl"
    with pytest.raises(LogFormatError) as exc:
        logformat.read_file(str(missing))
    assert exc.value.problems == [f"{missing}:0: file: No such file or directory"]
    with pytest.raises(LogFormatError) as exc:
        logformat.read_file(str(tmp_path))
    assert exc.value.problems == [f"{tmp_path}:0: file: a directory, not a match log (only regular files are read)"]
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(LogFormatError) as exc:
        logformat.read_file(str(fifo))
    assert exc.value.problems == [f"{fifo}:0: file: a FIFO, not a match log (only regular files are read)"]
    odd = tmp_path / "改\n行.jsonl"
    odd.write_text("", encoding="utf-8")
    with pytest.raises(LogFormatError) as exc:
        logformat.read_file(str(odd))
    assert exc.value.problems == [f'"{tmp_path}/改\\n行.jsonl":1: header: the file is empty']


# -- one value typed on a command line ------------------------------------------------------------


def test_command_line_values():
    assert logformat.loads_or_text("3", "-f points") == 3
    assert logformat.loads_or_text("ギダン", "-f die") == "ギダン"  # not JSON: the plain text
    assert logformat.loads_or_text('["a", 1]', "-f x") == ["a", 1]
    with pytest.raises(LogFormatError) as exc:
        logformat.loads_or_text("NaN", "-f points")
    assert exc.value.problems == ["-f points: json: NaN is not a JSON number"]
    with pytest.raises(LogFormatError) as exc:
        logformat.loads_or_text("\ud800", "-f die")
    assert exc.value.problems == ["-f die: text that is not valid Unicode (a lone surrogate) cannot be stored"]
    with pytest.raises(LogFormatError) as exc:
        logformat.loads("{", "kifu record m1")
    assert exc.value.problems == ["kifu record m1: json: Expecting property name enclosed in double quotes (column 2)"]
    with pytest.raises(LogFormatError) as exc:
        logformat.loads("{\n\n x", "POST")
    assert exc.value.problems == ["POST: json: Expecting property name enclosed in double quotes (line 3 column 2)"]
    with pytest.raises(LogFormatError) as exc:
        logformat.loads_object("[1]", "kifu record m1", "a move object")
    assert exc.value.problems == ["kifu record m1: must be a move object"]
    assert logformat.loads_object('{"type": "pass"}', "w") == {"type": "pass"}


def test_problem_lines_stay_one_printable_line():
    assert logformat.clip("a\nb\tc\x00d\u2028") == "a\\nb\\tc\\x00d\\u2028"
    assert logformat.clip("x" * 300) == "x" * 199 + "…"
    assert logformat.clip("x" * 200) == "x" * 200
    assert logformat.show("棋譜") == "'棋譜'"
    assert logformat.show("x" * 500) == "'" + "x" * 38 + "…"
    assert logformat.quote_name("普通.jsonl") == "普通.jsonl"
    assert logformat.quote_name('a"b\\c\n') == '"a\\"b\\\\c\\n"'
    assert logformat.clip("\x85\ud800\U000e0001") == "\\x85\\ud800\\U000e0001"


# -- the boundaries of the documented limits -------------------------------------------------------


def test_the_longest_timestamp_read_is_40_characters(tmp_path):
    forty = "2026-11-29T10:00:00.0000+09:00:00.000000"
    assert len(forty) == 40 and read(tmp_path, [HEADER, dict(SCORE, at=forty)])[1][0]["at"] == forty
    longer = "2026-11-29T10:00:00.00000+09:00:00.000000"  # a valid time, but past the limit
    assert refused(tmp_path, [HEADER, dict(SCORE, at=longer)]) == ["F:2: at: must be an ISO 8601 timestamp"]


def test_the_longest_number_read_is_400_characters(tmp_path):
    at_limit = "0." + "0" * 397 + "1"
    line = '{"seq": 1, "type": "score", "by": "A", "points": 2, "f": ' + at_limit + "}"
    assert len(at_limit) == 400 and read(tmp_path, [HEADER, line])[1][0]["f"] == float(at_limit)
    past = "0." + "0" * 398 + "1"
    assert refused(tmp_path, [HEADER, line.replace(at_limit, past)]) == [
        "F:2: json: number of 401 characters is too long"]


def test_a_huge_number_is_quoted_short():
    value, error = logformat.refusal("9" * 40 + "e999")
    assert value is None and str(error) == "json: number " + "9" * 29 + "… is too large for a float"
    assert str(logformat.refusal("-1e999")[1]) == "json: number -1e999 is too large for a float"


def test_what_is_not_an_object_names_where_it_came_from():
    with pytest.raises(LogFormatError) as exc:
        logformat.loads_object("[1]", "kifu new --header")
    assert exc.value.problems == ["kifu new --header: must be a JSON object"]
    with pytest.raises(LogFormatError) as exc:
        logformat.loads_object("{", "kifu new --header")
    assert exc.value.problems == [
        "kifu new --header: json: Expecting property name enclosed in double quotes (column 2)"]


def test_every_bad_replacement_is_reported_not_only_the_first(tmp_path):
    lines = [SCORE, {"seq": 2, "type": "correct", "by": "記録", "on": 1, "text": "t",
                     "replace": ["pass", {"type": "warp", "by": "A"}, {"type": "pass", "by": "Z"},
                                 {"type": "score", "by": "A"}]}]
    assert refused(tmp_path, [HEADER, *lines]) == [
        "F:3: replace[0]: must be an object",
        "F:3: replace[1].type: unknown toy move type 'warp'",
        "F:3: replace[2].by: must be a player id (A, B)",
        "F:3: replace[3].points: must be an integer"]


# -- the walk over a parsed value is skipped only where it cannot find anything ----------------

_PIECES = ['"a"', '"\\ud800"', '"\\udc00x"', '"\\ud83d\\ude00"', '"\\\\ud800"', '"\ud800"', '"\U0001f600"', "1",
           "9007199254740992", "-9007199254740991", "1e309", "1.5", "NaN", "-Infinity", "true", "null", '"棋譜"']


def _texts():
    from hypothesis import strategies as st

    leaf = st.sampled_from(_PIECES)
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
            st.lists(st.tuples(st.sampled_from(['"k"', '"\\udfff"', '"\\u00e9"', '"鍵"']), inner), max_size=4)
            .map(lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"),
        ),
        max_leaves=40,
    )


def test_a_parse_refuses_what_the_full_walk_refuses():
    """The shortcut (no surrogate escape, encodable text: no walk) gives, for any text, the
    value or the refusal that parsing and then walking the value gives."""
    from hypothesis import given, settings

    @settings(max_examples=300, deadline=None)
    @given(_texts())
    def same(text):
        value, error = logformat.refusal(text)
        if error is None:  # what the walk says of the value the shortcut let through
            assert logformat.storable_errors(value) == []

    same()


def test_a_plain_line_is_not_walked_and_a_surrogate_escape_is(monkeypatch):
    walked = []
    real = logformat.storable_errors
    monkeypatch.setattr(logformat, "storable_errors", lambda v: walked.append(v) or real(v))
    assert logformat.refusal('{"by": "山田", "n": 1}') == ({"by": "山田", "n": 1}, None)
    assert walked == []
    assert logformat.refusal('{"by": "\\ud83d\\ude00"}') == ({"by": "\U0001f600"}, None)
    value, error = logformat.refusal('{"by": "\\udc00"}')
    assert value is None and error.problem.endswith("(a lone surrogate) cannot be stored")
    assert len(walked) == 2
