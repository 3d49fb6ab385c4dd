"""Migrate reports a conflict and goes on (issue 16): a match the target holds in another
form is named with the first differing seq and left untouched; every other match is copied;
the run ends with a summary and a non-zero exit; --only / --skip name matches."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from recorder.migrate import Conflict, first_difference, migrate
from recorder.store import Store

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ["gandice-example", "mushijingi-example", "variants-war-example"]


def log_of(name: str) -> tuple[dict, list[dict]]:
    lines = [json.loads(x) for x in (ROOT / "examples" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    return lines[0], lines[1:]


def match_id(name: str) -> str:
    return log_of(name)[0]["match"]["id"]


def fill_source(path: str) -> Store:
    store = Store(path)
    for name in EXAMPLES:
        header, entries = log_of(name)
        store.create(header, entries)
    return store


def events_of(store: Store, mid: str) -> list:
    header, timed = store.load_timed(mid)
    return [header, *[(e, t.isoformat()) for e, t in timed]]


@pytest.fixture
def run(capsys, monkeypatch):
    from recorder import cli

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


def conflicting_target(url: str, source_path: str, at_seq: int = 3) -> Store:
    """The target holds a different copy of the mushijingi match (with the source's recorded
    times): only line ``at_seq`` differs."""
    source = Store(source_path)
    header, timed = source.load_timed(match_id("mushijingi-example"))
    source.close()
    entries = [dict(e) for e, _ in timed]
    entries[at_seq - 1]["note"] = "別の記録"
    target = Store(url)
    target.create(header, entries, [t for _, t in timed])
    return target


def test_a_conflict_is_named_left_untouched_and_everything_else_copied(run, tmp_path, backend):
    source_path = str(tmp_path / "source.db")
    fill_source(source_path).close()
    target = conflicting_target(backend, source_path)
    clash = match_id("mushijingi-example")
    before = events_of(target, clash)
    code, out, err = run("migrate", "--from", source_path, "--to", backend)
    assert code == 1
    assert err.splitlines() == [f"kifu: conflict: match {clash!r} differs between source and target at seq 3; left untouched in the target"]
    assert "copied 2 match(es)" in out and "1 conflict(s)" in out
    after = Store(backend)
    assert events_of(after, clash) == before
    source = Store(source_path)
    for name in EXAMPLES:
        if name != "mushijingi-example":
            assert events_of(after, match_id(name)) == events_of(source, match_id(name))
    # a rerun copies nothing twice and still names the conflict
    code, out, err = run("migrate", "--from", source_path, "--to", backend)
    assert code == 1 and "copied 0 match(es)" in out and "2 already present and verified" in out
    assert "at seq 3" in err
    # --skip leaves the conflicting match out: a clean run
    code, out, err = run("migrate", "--from", source_path, "--to", backend, "--skip", clash)
    assert code == 0 and err == "" and "1 skipped" in out
    assert events_of(Store(backend), clash) == before


def test_only_names_the_matches_to_copy(run, tmp_path, backend):
    source_path = str(tmp_path / "source.db")
    fill_source(source_path).close()
    wanted = match_id("variants-war-example")
    code, out, err = run("migrate", "--from", source_path, "--to", backend, "--only", wanted)
    assert code == 0, err
    assert "copied 1 match(es)" in out and "2 skipped" in out
    target = Store(backend)
    assert target.exists(wanted) and not target.exists(match_id("gandice-example"))
    code, out, err = run("migrate", "--from", source_path, "--to", backend, "--only", "no-such-match")
    assert code == 1 and "--only: no match 'no-such-match' in the source" in err


def test_first_difference_names_header_seq_time_and_length():
    a = (["h", "1", "2"], ["t1", "t2"])
    assert first_difference(a, a) is None
    assert first_difference(a, (["H", "1", "2"], ["t1", "t2"])) == Conflict("", 0, "the header")
    assert first_difference(a, (["h", "1", "x"], ["t1", "t2"])) == Conflict("", 2, "seq 2")
    assert first_difference(a, (["h", "1", "2"], ["t1", "T2"])) == Conflict("", 2, "the recorded time of seq 2")
    assert first_difference(a, (["h", "1"], ["t1"])) == Conflict("", 2, "seq 2 (only in the source)")
    assert first_difference((["h"], []), a) == Conflict("", 1, "seq 1 (only in the target)")


def test_the_report_in_process(tmp_path):
    source = fill_source(str(tmp_path / "s.db"))
    target = conflicting_target(str(tmp_path / "t.db"), str(tmp_path / "s.db"), at_seq=1)
    report = migrate(source, target, show_progress=False)
    assert [c.match for c in report.conflicts] == [match_id("mushijingi-example")]
    assert report.conflicts[0].seq == 1 and not report.ok
    assert sorted(report.copied) == sorted(match_id(n) for n in EXAMPLES if n != "mushijingi-example")
