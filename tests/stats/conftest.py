from __future__ import annotations

import sys
from pathlib import Path

import pytest

from recorder import cli

DATA = Path(__file__).parent / "data"
GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def kifu(db, capsys, monkeypatch):
    """The kifu command in process (the toy game is registered here): (exit code, out, err)."""
    monkeypatch.delenv("KIFU_READMODEL", raising=False)

    def run(*args):
        monkeypatch.setattr(sys, "argv", ["kifu", "--db", db, *args])
        code = 0
        try:
            cli.main()
        except SystemExit as exc:
            code = exc.code or 0
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run
