from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from projections import registry  # noqa: E402
from tests.toy import TOY  # noqa: E402

registry.register("toy", {1: TOY}, aliases=("t",))

# A page's state is waited for, never a time: Playwright's `expect` polls until it holds. Its
# default bound (5 s) is a speed check in disguise on a machine kept busy (`make soak`: busy loops
# beside twice as many workers as cores), so every expect of the suite waits up to 20 s; a test
# that passes is not slowed by it.
try:
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - the test extra installs it
    pass
else:
    _expect.set_options(timeout=20_000)

KIFU = str(Path(sys.executable).parent / "kifu")


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "kifu.db")


@pytest.fixture
def store(db):
    from recorder.store import Store

    s = Store(db)
    yield s
    s.close()


@pytest.fixture(autouse=True)
def _no_env_db(monkeypatch):
    monkeypatch.delenv("KIFU_DB", raising=False)
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    # The tests read kifu's messages in English (its source language); what a person reads by
    # default is Japanese, and tests/core/test_cli_lang.py and tests/web/test_i18n*.py say so.
    monkeypatch.setenv("KIFU_LANG", "en")


@pytest.fixture
def kifu(db, capsys, monkeypatch):
    """Run the kifu command in process (the toy game is registered here): (exit code, out, err)."""
    from recorder import cli

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
