"""``kifu record -i`` reads its lines through the one parser: hostile lines are one problem
each and the session goes on; nothing hostile is stored."""

from __future__ import annotations

import io
import sys

from tests.hardening.conftest import dump, seed

HOSTILE = [
    "{" + '"a": [' * 5000 + "1" + "]" * 5000 + "}",  # past the recursion limit of json.loads
    '{"type": "summon", "by": "A", "by": "B"}',
    '{"type": "summon", "by": "A", "n": NaN}',
    '{"type": "summon", "by": "A", "n": ' + "9" * 5000 + "}",
    '{"type": "summon", "by": "A", "n": "\\ud800"}',
    "summon by=A n=" + "[" * 5000,
    "summon by=A n=1e999",
    "summon by=A rolls=" + '{"x": 1, "x": 2}',
]


def test_hostile_lines_in_a_live_session_are_refused_and_the_session_goes_on(kifu, db, monkeypatch):
    mid = seed(db)
    before = dump(db)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(HOSTILE) + "\nquit\n"))
    code, out, err = kifu("record", mid, "-i")
    assert code == 0, err
    assert "internal error" not in out + err and "Traceback" not in out + err
    for needle in ("nested deeper than", "duplicate key", "NaN is not a JSON number", "larger than",
                   "lone surrogate", "too large for a float"):
        assert needle in out + err, needle
    assert dump(db) == before


def test_replace_options_go_through_the_one_parser(kifu, db):
    mid = seed(db)
    before = dump(db)
    for text in ("[" * 5000, '{"type": "summon", "by": "A", "by": "B"}', '{"type": "summon", "n": NaN}'):
        code, out, err = kifu("correct", mid, "--on", "1", "--by", "記録係", "--text", "t", "--replace", text)
        assert code == 2 and err.startswith("kifu: --replace[0]: "), err
        assert len(err.splitlines()) == 1
    assert dump(db) == before
