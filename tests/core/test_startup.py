"""`kifu --help` (and every command's registration) loads none of the heavy modules: the
store, the library's application, the read model, sqlite-utils, rich, the server. They load
inside the commands that use them (issue 13, start-up). A check of what is imported, not a
timing: timings belong in `make bench`."""

from __future__ import annotations

import json
import subprocess
import sys

from recorder import cli

HEAVY = (
    "eventsourcing.application", "eventsourcing.sqlite", "recorder.store", "recorder.service",
    "projections.readmodel", "sqlite_utils", "rich.console", "rich.progress", "starlette",
    "uvicorn", "recorder.web.server", "pydantic",
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


def test_the_command_table_names_the_module_that_registers_each_command():
    """`kifu CMD` loads only CMD's module (recorder.cli.COMMANDS): the table must say where every
    command really is, or that command would not be found."""
    code = (
        "import importlib, json\n"
        "from recorder import cli\n"
        "from recorder.cli.common import app\n"
        "where = {}\n"
        "for name in cli.COMMAND_MODULES:\n"
        "    c, g = len(app.registered_commands), len(app.registered_groups)\n"
        "    importlib.import_module(name)\n"
        "    for info in app.registered_commands[c:]:\n"
        "        where[info.name or info.callback.__name__.replace('_', '-')] = name\n"
        "    for info in app.registered_groups[g:]:\n"
        "        where[info.name] = name\n"
        "print(json.dumps([where, cli.COMMANDS]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    registered, table = json.loads(out.stdout)
    assert table == registered


def test_one_command_loads_its_own_module_only_and_the_read_model_hook_is_there():
    code = (
        "import sys, json\n"
        "from recorder import cli, hooks\n"
        "cli.load_commands(['--db', 'x.db', '--lang=en', 'board', 'm1', '--at', '3'])\n"
        "print(json.dumps([sorted(m for m in cli.COMMAND_MODULES if m in sys.modules), len(hooks.AFTER_WRITE)]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [["recorder.cli.read"], 1]


def test_a_command_kifu_does_not_have_is_answered_with_every_command(tmp_path):
    out = subprocess.run([sys.executable, "-m", "recorder.cli", "--db", str(tmp_path / "k.db"), "boar", "x"],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.strip() == "kifu: No such command 'boar'. Did you mean 'board'?"


def test_typer_is_offered_the_one_command_run_and_the_app_stays_whole_for_the_next_run():
    code = (
        "import json, sys\n"
        "from recorder import cli\n"
        "from recorder.cli.common import app\n"
        "seen = []\n"
        "for argv in (['board', 'm1'], ['dispute', 'list'], ['--db', 'x.db', 'import', 'f'], ['stats'], None):\n"
        "    cli.load_commands(argv)\n"
        "    seen.append([cli._name_of(c) for c in app.registered_commands] + [g.name for g in app.registered_groups])\n"
        "print(json.dumps(seen))\n"
    )
    fresh = (
        "import json\n"
        "from recorder import cli\n"
        "from recorder.cli.common import app\n"
        "cli.load_commands()\n"
        "print(json.dumps([cli._name_of(c) for c in app.registered_commands] + [g.name for g in app.registered_groups]))\n"
    )
    runs = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    whole = json.loads(subprocess.run([sys.executable, "-c", fresh], capture_output=True, text=True, check=True).stdout)
    assert runs[:4] == [["board"], ["dispute"], ["import"], ["stats"]]
    assert runs[4] == whole  # every command again, in the order a fresh process registers them
    assert set(cli.COMMANDS) == set(whole)
