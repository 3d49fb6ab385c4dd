"""The store as an operator handles it: moved, copied, backed up, restored, verified, upgraded
(issue 35). Helpers shared by these tests."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.backends.conftest import _pg_database, backend_url, pg_url  # noqa: F401 - fixtures

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EVENT = "春季大会"
PLAYERS = ["山田", "佐藤", "鈴木", "田中"]


@pytest.fixture
def run(capsys, monkeypatch):
    """Run the kifu command in process on a given store: run(db, *args) -> (code, out, err)."""
    from recorder import cli

    monkeypatch.delenv("KIFU_READMODEL", raising=False)

    def go(db: str, *args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["kifu", "--db", str(db), "--lang", "en", *args])
        code = 0
        try:
            cli.main()
        except SystemExit as exc:
            code = exc.code or 0
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return go


def half_example(tmp_path: Path, game: str = "gandice", lines: int = 10, match_id: str = "half") -> tuple[Path, str]:
    """A log of the example's first ``lines`` lines under another id, and the next line."""
    import json

    text = (EXAMPLES / f"{game}-example.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(text[0])
    header["match"]["id"] = match_id
    path = tmp_path / f"{match_id}.jsonl"
    path.write_text("\n".join([json.dumps(header, ensure_ascii=False), *text[1:lines + 1]]) + "\n", encoding="utf-8")
    return path, text[lines + 1]


def fill(run, db: str, tmp_path: Path) -> None:
    """Two finished matches, one unfinished, a tournament with round 1 paired; the read model built."""
    for game in ("gandice", "mushijingi"):
        assert run(db, "import", str(EXAMPLES / f"{game}-example.jsonl"))[0] == 0
    half, _ = half_example(tmp_path)
    assert run(db, "import", str(half))[0] == 0
    assert run(db, "event", "new", EVENT, "--game", "mushijingi", "--rounds", "3", "--seed", "3")[0] == 0
    for p in PLAYERS:
        assert run(db, "event", "register", EVENT, "--player", p)[0] == 0
    assert run(db, "round", "pair", EVENT)[0] == 0
    code, _, err = run(db, "stats")
    assert code == 0, err


def copy_folder(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst)
