"""A directory import never stops halfway (issue 16): every file is tried, whatever the one
before it did; non-regular files are refused by name; Ctrl-C ends with a summary; the read
model counts what was imported. On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from projections.errors import LogFormatError
from recorder import bulk, logformat
from tests.hardening.conftest import dump
from tests.hardening.corpus import CASES, HERE, file_name

ROOT = Path(__file__).resolve().parents[2]
GOOD = [ROOT / "examples" / "gandice-example.jsonl", ROOT / "examples" / "mushijingi-example.jsonl"]


def problem_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("kifu: ")]


def folder(tmp_path: Path, hostile: list[tuple[str, bytes]]) -> Path:
    """good, then the hostile files, then good: sorted by name in that order."""
    d = tmp_path / "logs"
    d.mkdir()
    shutil.copy(GOOD[0], d / "a-good.jsonl")
    for name, data in hostile:
        (d / f"b-{name}").write_bytes(data)
    shutil.copy(GOOD[1], d / "c-good.jsonl")
    return d


def stats_matches(kifu_run, db: str) -> int:
    code, out, err = kifu_run("--db", db, "stats", "--json")
    assert code == 0, err
    return int(json.loads(out)["matches"])


@pytest.fixture
def run(capsys, monkeypatch, tmp_path):
    """The kifu command in process, on any database given with --db (the read model of a
    PostgreSQL store would otherwise be ./kifu.readmodel.db)."""
    import sys

    from recorder import cli

    monkeypatch.setenv("KIFU_READMODEL", str(tmp_path / "test.readmodel.db"))

    def go(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["kifu", *args])
        code = 0
        try:
            cli.main()
        except SystemExit as exc:
            code = exc.code or 0
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return go


def test_good_hostile_good_imports_both_good_files_and_stats_counts_them(run, backend, tmp_path):
    deep = b'{"kifu": 1, "game": "gandice", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    d = folder(tmp_path, [("deep.jsonl", deep), ("nan.jsonl", (HERE / file_name(59, CASES[58])).read_bytes())])
    code, out, err = run("--db", backend, "import", str(d))
    assert code == 1
    assert "imported 2, skipped 0 duplicate(s), failed 2" in out
    lines = problem_lines(err)
    assert len(lines) == 2 and all("internal error" not in line for line in lines), err
    assert lines[0].startswith(f"kifu: {d}/b-deep.jsonl:1: json: nested deeper than")
    code, out, _ = run("--db", backend, "matches")
    assert "gandice-reiwa-example" in out
    assert stats_matches(run, backend) == 2


def test_every_corpus_file_in_one_folder_fails_alone(run, backend, tmp_path):
    d = folder(tmp_path, [(p.name, p.read_bytes()) for p in sorted(HERE.glob("*.jsonl"))])
    code, out, err = run("--db", backend, "import", str(d))
    assert code == 1
    assert f"imported 2, skipped 0 duplicate(s), failed {len(CASES)}" in out
    assert len(problem_lines(err)) == len(CASES)
    assert "internal error" not in err
    assert stats_matches(run, backend) == 2


def test_a_fifo_is_refused_by_name_and_never_opened(run, db, tmp_path):
    d = folder(tmp_path, [])
    os.mkfifo(d / "b-pipe.jsonl")
    code, out, err = run("--db", db, "import", str(d))
    assert code == 1
    assert problem_lines(err) == [f"kifu: {d}/b-pipe.jsonl:0: file: a FIFO, not a match log (only regular files are read)"]
    assert "imported 2, skipped 0 duplicate(s), failed 1" in out
    code, out, err = run("--db", db, "import", str(d / "b-pipe.jsonl"))  # named: refused, not opened
    assert code == 1 and "a FIFO" in err


def test_a_file_name_with_a_newline_stays_on_one_line(run, db, tmp_path):
    d = tmp_path / "logs"
    d.mkdir()
    (d / "bad\nname.jsonl").write_bytes(b"not json\n")
    code, out, err = run("--db", db, "import", str(d))
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f'kifu: "{d}/bad\\nname.jsonl":1: header: '), err


def test_one_missing_seq_is_one_problem(run, db, tmp_path):
    lines = GOOD[0].read_text(encoding="utf-8").splitlines()
    del lines[5]  # seq 5 is gone: every later line is one off, but that is one mistake
    path = tmp_path / "gap.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run("--db", db, "import", str(path))
    assert code == 1
    assert problem_lines(err) == [f"kifu: {path}:6: seq: expected 5, got 6 (seq starts at 1 with no gaps)"]


def test_a_readme_is_one_line_and_many_problems_are_capped(run, db, tmp_path):
    code, _, err = run("--db", db, "import", str(ROOT / "README.md"))
    assert code == 1 and len(problem_lines(err)) == 1, err
    header = GOOD[0].read_text(encoding="utf-8").splitlines()[0]
    kinds = [{"seq": i, "type": "summon", "by": "A", f"f{i}": "x", "rolls": "no"} for i in range(1, 3)]
    kinds += [{"seq": i, "type": t, "by": "A"} for i, t in enumerate(["a", "b"], start=3)]
    kinds += [{"seq": 5 + i, "type": "annotate", "by": "J", "on": 1, "text": "t", "symbol": s}
              for i, s in enumerate(["x", "y"])]
    bad = [json.dumps(k, ensure_ascii=False) for k in kinds]
    bad += [f'{{"seq": {i}, "type": "annotate", "by": "J", "on": 1, "text": "t", "k": 1, "k": {i}}}' for i in range(7, 23)]
    bad += ['{"seq": 23, "n": NaN}', '{"seq": 24, "n": 1e999}', '{"seq": 25, "at": "soon", "type": "annotate"}']
    bad += [c.hostile_line().decode("utf-8").replace("{", f'{{"seq": {26 + i}, ', 1)  # a kind each
            for i, c in enumerate(c for c in CASES if c.api and c.line == 2)]
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join([header, *bad]) + "\n", encoding="utf-8")
    code, _, err = run("--db", db, "import", str(path))
    lines = problem_lines(err)
    assert code == 1 and len(lines) == 10, err
    assert lines[-1].startswith(f"kifu: {path}: and ") and lines[-1].endswith("more kinds of problem")
    assert any("(also lines" in line for line in lines)  # the same duplicate-key problem on 16 lines is one line


def test_ctrl_c_stops_with_a_summary_and_the_read_model_caught_up(run, backend, tmp_path, monkeypatch, capsys):
    d = folder(tmp_path, [])
    shutil.copy(ROOT / "examples" / "variants-war-example.jsonl", d / "d-third.jsonl")
    real = bulk.logformat.read_file
    calls = []

    def read_then_interrupt(path: str):
        calls.append(path)
        if len(calls) == 2:  # Ctrl-C while the second file is being read
            raise KeyboardInterrupt
        return real(path)

    monkeypatch.setattr(bulk.logformat, "read_file", read_then_interrupt)
    code, out, err = run("--db", backend, "import", str(d))
    assert code == 130
    assert "interrupted: imported 1, skipped 0 duplicate(s), failed 0, not tried 2" in out
    monkeypatch.setattr(bulk.logformat, "read_file", real)
    assert stats_matches(run, backend) == 1
    code, out, err = run("--db", backend, "import", str(d))  # the rerun finishes the job
    assert "imported 2, skipped 1 duplicate(s), failed 0" in out
    assert stats_matches(run, backend) == 3


def test_ctrl_c_while_a_match_is_stored_counts_it_only_if_it_is_there(run, db, tmp_path, monkeypatch):
    from recorder.store import Store

    d = folder(tmp_path, [])
    real = Store.create_prepared  # what an import stores a prepared file with

    def store_then_interrupt(self, match_id, stream, stored):
        real(self, match_id, stream, stored)
        raise KeyboardInterrupt  # after its events went in (its savepoint released)

    monkeypatch.setattr(Store, "create_prepared", store_then_interrupt)
    code, out, _ = run("--db", db, "import", str(d))
    assert code == 130
    assert "interrupted: imported 1, skipped 0 duplicate(s), failed 0, not tried 1" in out
    monkeypatch.setattr(Store, "create_prepared", real)
    assert stats_matches(run, db) == 1


def test_a_bug_in_one_file_fails_that_file_not_the_run(run, db, tmp_path, monkeypatch):
    d = folder(tmp_path, [])
    real = bulk.logformat.read_file

    def buggy(path: str):
        if "a-good" in path:
            raise ZeroDivisionError("a ruleset bug")
        return real(path)

    monkeypatch.setattr(bulk.logformat, "read_file", buggy)
    code, out, err = run("--db", db, "import", str(d))
    assert code == 1
    assert "imported 1, skipped 0 duplicate(s), failed 1" in out
    lines = problem_lines(err)
    assert len(lines) == 1 and "a-good.jsonl: internal error: ZeroDivisionError" in lines[0]
    before = dump(db)
    assert before and stats_matches(run, db) == 1


def test_a_read_model_that_cannot_catch_up_does_not_stop_the_import(run, db, tmp_path, monkeypatch):
    from projections.errors import KifuError

    d = folder(tmp_path, [])
    shutil.copy(ROOT / "examples" / "variants-war-example.jsonl", d / "d-third.jsonl")

    def locked(store, known=None):
        raise KifuError("read model kifu.readmodel.db: database is locked")

    monkeypatch.setattr(bulk, "FEED_LINES", 1)  # catch up after every file
    monkeypatch.setattr(bulk.hooks, "after_write", locked)
    code, out, err = run("--db", db, "import", str(d))
    assert "imported 3, skipped 0 duplicate(s), failed 0" in out
    assert problem_lines(err) == ["kifu: read model not brought up to date: read model kifu.readmodel.db: database is locked"]


SIGINT_RUNNER = """
import os, signal, sys
# Ctrl-C as a user's shell delivers it, whatever this child inherited from the test process
# (an ignored or blocked SIGINT is inherited across exec, and another test may leave one).
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
sys.path.insert(0, {root!r})
from recorder import bulk, cli
real, seen = bulk.logformat.read_file, []

def read(path):
    seen.append(path)
    if len(seen) == 2:  # a real Ctrl-C (SIGINT to this process) while the second file is read
        os.kill(os.getpid(), signal.SIGINT)
    return real(path)

bulk.logformat.read_file = read
sys.argv = ["kifu", "--db", {db!r}, "import", {folder!r}]
cli.main()
"""


def test_a_real_sigint_ends_with_the_summary_and_exit_130(run, backend, tmp_path):
    import subprocess

    d = folder(tmp_path, [])
    shutil.copy(ROOT / "examples" / "variants-war-example.jsonl", d / "d-third.jsonl")
    code = SIGINT_RUNNER.format(root=str(ROOT), db=backend, folder=str(d))
    env = dict(os.environ, KIFU_READMODEL=str(tmp_path / "test.readmodel.db"))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 130, proc.stderr
    assert "interrupted: imported 1, skipped 0 duplicate(s), failed 0, not tried 2" in proc.stdout
    assert "Traceback" not in proc.stderr
    assert stats_matches(run, backend) == 1



def test_a_path_with_a_nul_is_refused_by_name(run, db):
    """os.stat raises ValueError (not OSError) on a NUL: found by the hostile-values property.
    The command line refuses the argument; the reader refuses the name by itself too."""
    code, out, err = run("--db", db, "import", "a\x00b.jsonl")
    assert code == 2 and "holds a NUL character" in err and "internal error" not in err
    with pytest.raises(LogFormatError, match="a file name cannot hold a NUL character"):
        logformat.read_file("a\x00b.jsonl")
