from __future__ import annotations

import json

import pytest

from recorder.logformat import export_lines

HEADER = {"kifu": 1, "game": "toy", "rules": "toy/1",
          "match": {"id": "m1", "event": "秋の大会", "round": 1, "table": "3", "date": "2026-11-29"},
          "players": [{"id": "A", "name": "山田"}, {"id": "B", "name": "佐藤"}], "first": "A"}


def score(seq, by, points, **kw):
    return {"seq": seq, "type": "score", "by": by, "points": points, **kw}


def write_log(tmp_path, header, lines, name="m.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(export_lines(header, lines)) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def board(kifu):
    def get(match, *args):
        code, out, err = kifu("board", match, "--json", *args)
        assert code == 0, err
        return json.loads(out)
    return get
