"""The hostile corpus (tests/hardening/corpus.py): every file is refused by ``kifu import``
with one line naming its file, line and field; every hostile event line is refused the same
way by ``kifu record`` and with a 4xx (never a 500) by the server's POST; nothing is written."""

from __future__ import annotations

import json

import pytest

from tests.hardening.conftest import TOKEN, dump, seed
from tests.hardening.corpus import CASES, HERE, Case, file_name, write

FILES = [(file_name(i, c), c) for i, c in enumerate(CASES, start=1)]
EVENTS = [(n, c) for n, c in FILES if c.api]


def problem_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("kifu: ")]


def test_the_corpus_is_big_enough_and_committed_as_generated(tmp_path):
    assert len(CASES) >= 60
    assert len({c.name for c in CASES}) == len(CASES)
    write(tmp_path)
    committed = {p.name: p.read_bytes() for p in HERE.glob("*.jsonl")}
    generated = {p.name: p.read_bytes() for p in tmp_path.glob("*.jsonl")}
    assert committed == generated, "run `python -m tests.hardening.corpus` and commit tests/hardening/corpus/"


@pytest.mark.parametrize(("name", "case"), FILES, ids=[n for n, _ in FILES])
def test_import_refuses_on_one_line_naming_file_line_and_field(kifu, db, name: str, case: Case):
    seed(db)
    before = dump(db)
    path = str(HERE / name)
    code, out, err = kifu("import", path)
    assert code == 1, (out, err)
    lines = problem_lines(err)
    assert len(lines) == 1, err
    assert lines[0].startswith(f"kifu: {path}:{case.line}: {case.field}: "), lines[0]
    assert "internal error" not in err and "Traceback" not in err
    assert len(lines[0]) < 300
    assert dump(db) == before


@pytest.mark.parametrize(("name", "case"), EVENTS, ids=[n for n, _ in EVENTS])
def test_record_refuses_the_same_line_in_one_line(kifu, db, name: str, case: Case):
    mid = seed(db)
    before = dump(db)
    text = case.hostile_line().decode("utf-8", "surrogateescape")
    code, out, err = kifu("record", mid, text)
    assert code == 2, (out, err)
    lines = problem_lines(err)
    assert len(lines) == 1 and lines[0].startswith(("kifu: move: ", f"kifu: {mid}: ")), err
    assert "internal error" not in err
    assert dump(db) == before


@pytest.mark.parametrize(("name", "case"), EVENTS, ids=[n for n, _ in EVENTS])
def test_post_refuses_the_same_line_with_a_4xx(live_server, name: str, case: Case):
    before = dump(live_server.db)
    with live_server.client(TOKEN) as client:
        r = client.post("/api/matches/hostile-base/events", content=case.hostile_line(),
                        headers={"Content-Type": "application/json"})
    assert r.status_code in (400, 413, 422), (r.status_code, r.text)
    body = r.json()
    assert body["error"].startswith(("body", "hostile-base")), body
    assert "\n" not in body["error"] and len(body["error"]) < 300
    assert dump(live_server.db) == before


# -- the big ones, generated here ---------------------------------------------------------

def header_line() -> bytes:
    from tests.hardening.corpus import H

    return H.encode("utf-8")


BIG = {
    "deep-100000": (b"[" * 100_000 + b"]" * 100_000, "json"),
    "deep-objects-50000": (b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "json"),
    "int-5000-digits": (b'{"seq": 1, "type": "summon", "by": "A", "n": ' + b"9" * 5000 + b"}", "json"),
    "string-10MB": (b'{"seq": 1, "type": "annotate", "on": 1, "by": "x", "text": "' + b"a" * 10_000_000 + b'"}', "line"),
    "float-5000-digits": (b'{"seq": 1, "type": "summon", "by": "A", "n": 0.' + b"1" * 5000 + b"}", "json"),
}


@pytest.mark.parametrize("name", sorted(BIG))
def test_big_hostile_lines_are_refused_on_one_line(kifu, db, tmp_path, name: str):
    seed(db)
    before = dump(db)
    line, field = BIG[name]
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(header_line() + b"\n" + line + b"\n")
    code, out, err = kifu("import", str(path))
    assert code == 1
    lines = problem_lines(err)
    assert len(lines) == 1 and lines[0].startswith(f"kifu: {path}:2: {field}: "), err[:500]
    assert len(lines[0]) < 300
    assert dump(db) == before


@pytest.mark.parametrize("name", sorted(BIG))
def test_big_hostile_bodies_get_a_4xx(live_server, name: str):
    before = dump(live_server.db)
    body = BIG[name][0].replace(b'"seq": 1, ', b"")
    with live_server.client(TOKEN) as client:
        r = client.post("/api/matches/hostile-base/events", content=body)
    assert r.status_code in (400, 413, 422), r.text[:300]
    assert "error" in r.json()
    assert dump(live_server.db) == before


@pytest.mark.parametrize("name", ["deep-100000", "int-5000-digits", "float-5000-digits"])
def test_big_hostile_moves_are_refused_by_record(kifu, db, name: str):
    mid = seed(db)
    before = dump(db)
    code, out, err = kifu("record", mid, BIG[name][0].replace(b'"seq": 1, ', b"").decode())
    assert code == 2
    assert len(problem_lines(err)) == 1 and "internal error" not in err
    assert dump(db) == before


def test_a_header_file_for_kifu_new_goes_through_the_same_parser(kifu, db, tmp_path):
    seed(db)
    before = dump(db)
    for i, case in enumerate(CASES[:43], start=1):  # the header cases
        path = tmp_path / f"h{i}.json"
        path.write_bytes(case.data().split(b"\n")[0])
        code, out, err = kifu("new", str(path))
        assert code == 2, (case.name, out, err)
        lines = problem_lines(err)
        assert lines and "internal error" not in err, (case.name, err)
        assert all(len(line) < 300 for line in lines)
    assert dump(db) == before


def test_json_is_never_written_with_nan(kifu, db):
    """What is stored is exported as strict JSON (the parser refused NaN on the way in)."""
    mid = seed(db)
    code, out, _ = kifu("export", mid)
    assert code == 0
    for line in out.splitlines():
        json.loads(line, parse_constant=lambda name: pytest.fail(f"{name} in the export"))
