"""The shipped disputed examples: one per game, each with a dispute and a ruling, importing
cleanly with the real `kifu` command and exporting back byte for byte."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from projections import registry
from tests.conftest import KIFU

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = [g for g in registry.available() if g != "toy"]


def disputed(game):
    return ROOT / "examples" / f"{game}-disputed.jsonl"


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_every_game_has_a_disputed_example_with_a_dispute_and_a_ruling():
    kinds = {}
    for game in GAMES:
        path = disputed(game)
        assert path.exists(), f"no {path.name}"
        kinds[game] = [e.get("type") for e in lines(path)[1:]]
        assert "dispute" in kinds[game] and "ruling" in kinds[game], game
    assert any("appeal" in k for k in kinds.values())
    heads = [e for game in GAMES for e in lines(disputed(game)) if e.get("level") == "head"]
    assert heads, "one example shows the head judge's final ruling"


def test_disputed_examples_import_and_export_unchanged(tmp_path):
    db = str(tmp_path / "x.db")
    paths = [str(disputed(g)) for g in GAMES]
    run = subprocess.run([KIFU, "--db", db, "import", *paths], check=False, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    for path in paths:
        header = lines(Path(path))[0]
        out = subprocess.run([KIFU, "--db", db, "export", header["match"]["id"]], check=False, capture_output=True, text=True)
        assert out.stdout == Path(path).read_text(encoding="utf-8"), path
    mid = lines(disputed("gandice"))[0]["match"]["id"]
    listed = subprocess.run([KIFU, "--db", db, "dispute", "list", mid, "--json"], check=False, capture_output=True, text=True)
    assert json.loads(listed.stdout)[0]["status"] == "final"
    floor = subprocess.run([KIFU, "--db", db, "--lang", "en", "result", mid, "--as-of", "2026-11-29T14:06:00+09:00"],
                           check=False, capture_output=True, text=True)
    assert "in progress" in floor.stdout  # between the floor ruling (a tie) and the head ruling


def test_docs_walk_through_the_gandice_example():
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    assert "examples/gandice-disputed.jsonl" in text
    for command in ("kifu annotate", "kifu retract", "kifu dispute open", "kifu dispute rule", "kifu dispute appeal",
                    "kifu dispute list", "kifu correct", "kifu diff", "kifu penalty", "kifu penalties", "--as-of",
                    "--from-violation", "--suggested"):
        assert command in text, command
