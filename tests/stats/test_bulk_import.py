"""Whole-event import (``kifu import DIR``) for the statistics: hundreds of generated gandice
logs, importing the same event twice adds nothing, the summary line and the exit code. The
real ``kifu`` command in a subprocess (the real games are registered there)."""

from __future__ import annotations

import json
import subprocess

import pytest

from projections import registry
from recorder.logformat import export_lines
from recorder.store import Store
from recorder.tools.synth import generate
from tests.conftest import KIFU

COUNT = 200


@pytest.fixture(scope="module")
def event_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("event")
    gandice = registry.get("gandice")
    for i in range(COUNT):
        header, moves = generate(gandice, 2026, i)
        (folder / f"{header['match']['id']}.jsonl").write_text(
            "\n".join(export_lines(header, moves)) + "\n", encoding="utf-8")
    return folder


def kifu(db, *args):
    return subprocess.run([KIFU, "--db", db, *args], check=False, capture_output=True, text=True, encoding="utf-8",
                          timeout=300, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "KIFU_LANG": "en"})


def test_importing_an_event_twice_adds_nothing(event_dir, db):
    first = kifu(db, "import", str(event_dir))
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == f"imported {COUNT}, skipped 0 duplicate(s), failed 0"
    store = Store(db)
    high = store.max_notification_id()
    store.close()
    stats = kifu(db, "stats", "--json")
    assert stats.returncode == 0, stats.stderr
    report = json.loads(stats.stdout)
    assert report["matches"] + report["unfinished"] == COUNT
    assert sum(s["games"] for s in report["seats"] if s["seat"] == 1) == report["matches"]
    assert report["decks"] and report["matrix"] and report["reasons"]

    again = kifu(db, "import", str(event_dir))
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == f"imported 0, skipped {COUNT} duplicate(s), failed 0"
    assert again.stderr.count("skipped:") == 10 and f"skipped {COUNT - 10} more already-recorded" in again.stderr
    store = Store(db)
    assert store.max_notification_id() == high  # not one event more
    store.close()
    assert kifu(db, "stats", "--json").stdout == stats.stdout
    assert kifu(db, "stats", "--json", "--rebuild").stdout == stats.stdout


def test_a_bad_file_fails_alone_with_exit_1(event_dir, db, tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    for path in sorted(event_dir.glob("*.jsonl"))[:5]:
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    good = sorted(event_dir.glob("*.jsonl"))[5].read_text(encoding="utf-8").splitlines()
    broken = good[:3] + ['{"seq": 4, "type": "summon"'] + good[4:]
    (folder / "broken.jsonl").write_text("\n".join(broken) + "\n", encoding="utf-8")
    result = kifu(db, "import", str(folder))
    assert result.returncode == 1
    assert result.stdout.strip() == "imported 5, skipped 0 duplicate(s), failed 1"
    lines = [line for line in result.stderr.splitlines() if "broken.jsonl" in line]
    assert lines[0].startswith("kifu: ") and "broken.jsonl:4: json:" in lines[0]
    store = Store(db)
    broken_id = json.loads(broken[0])["match"]["id"]
    assert not store.exists(broken_id)  # all or nothing per file
    store.close()
    report = json.loads(kifu(db, "stats", "--json").stdout)
    assert report["matches"] + report["unfinished"] == 5


def test_one_file_prints_its_id_and_a_duplicate_of_one_file_is_exit_1(event_dir, db):
    path = min(event_dir.glob("*.jsonl"))
    first = kifu(db, "import", str(path))
    assert first.returncode == 0 and first.stdout.strip() == path.stem
    again = kifu(db, "import", str(path))
    assert again.returncode == 1 and "already recorded" in again.stderr
