"""`kifu --help` (and every command's registration) loads none of the heavy modules: the
store, the library's application, the read model, sqlite-utils, rich, the server. They load
inside the commands that use them (issue 13, start-up). A check of what is imported, not a
timing: timings belong in `make bench`."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = (
    "eventsourcing.application", "eventsourcing.sqlite", "recorder.store", "recorder.service",
    "projections.readmodel", "sqlite_utils", "rich.console", "rich.progress", "starlette",
    "uvicorn", "exports.server", "pydantic",
)


def test_registering_every_command_imports_nothing_heavy():
    code = (
        "import sys, json\n"
        "from recorder import cli\n"
        "cli.load_commands()\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_help_lists_every_command_group():
    out = subprocess.run([sys.executable, "-m", "recorder.cli", "--help"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    for name in ("record", "import", "board", "stats", "serve", "bench"):
        assert name in out.stdout
