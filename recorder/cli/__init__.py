"""The ``kifu`` command. A face: it parses, calls inward (recorder, projections, exports), and
prints. Every error a user can cause ends as one line on stderr and a non-zero exit.

One module per command group; ``common`` holds the typer app and the shared options.
"""

from __future__ import annotations

import os
import sys

import click
import typer

from projections.base import said_of
from projections.errors import KifuError, LogFormatError
from recorder.cli.common import _, app, language_of_argv, set_run_language, tr
from recorder.logformat import clip, quote_name

try:  # typer 0.2x carries its own copy of click: its usage errors are not click's classes
    from typer._click.exceptions import ClickException as _TyperClickException
except ImportError:  # pragma: no cover - older typer uses click itself
    _TyperClickException = click.ClickException  # type: ignore[misc,assignment]

__all__ = ["app", "main"]

# Each command group lives in its own module and registers itself on ``app`` when imported.
COMMAND_MODULES = (
    "recorder.cli.record",
    "recorder.cli.read",
    "recorder.cli.rulings",
    "recorder.cli.web",
    "recorder.cli.stats",
    "recorder.cli.migrate",
    "recorder.cli.tools",
    "recorder.cli.tokens",
    "recorder.cli.event",
)


# Which module registers each command (tests/core/test_startup.py holds this to what the modules
# register). A run of one command loads that module only (the read model is kept current by the
# writes themselves, recorder/hooks.py): typer builds the parameters of every registered command
# at each start, and that was a third of the start-up of `kifu board`.
COMMANDS = {
    "new": "recorder.cli.record", "record": "recorder.cli.record", "import": "recorder.cli.record",
    "export": "recorder.cli.record",
    "matches": "recorder.cli.read", "log": "recorder.cli.read", "board": "recorder.cli.read",
    "result": "recorder.cli.read", "check": "recorder.cli.read",
    "annotate": "recorder.cli.rulings", "retract": "recorder.cli.rulings", "correct": "recorder.cli.rulings",
    "penalty": "recorder.cli.rulings", "penalties": "recorder.cli.rulings", "diff": "recorder.cli.rulings",
    "dispute": "recorder.cli.rulings",
    "report": "recorder.cli.web", "serve": "recorder.cli.web",
    "stats": "recorder.cli.stats",
    "migrate": "recorder.cli.migrate",
    "gen": "recorder.cli.tools", "bench": "recorder.cli.tools",
    "token": "recorder.cli.tokens",
    "event": "recorder.cli.event", "standings": "recorder.cli.event", "round": "recorder.cli.event",
}
GLOBAL_OPTIONS_WITH_VALUE = ("--db", "--lang")


def load_commands(argv: list[str] | None = None) -> None:
    """Register the commands: all of them, or, when ``argv`` names a known command, only the
    module that has it."""
    import importlib

    wanted = _command_of(argv) if argv is not None else None
    names = (COMMANDS[wanted],) if wanted in COMMANDS else COMMAND_MODULES
    for name in names:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    # Typer builds every registered command's parameters at each start (their annotations
    # evaluated, their signatures read): the run of one command offers typer that one only. The
    # app stays whole for the next run in the same process (the tests run many).
    _COMMANDS_SEEN.extend(c for c in app.registered_commands if not any(c is k for k in _COMMANDS_SEEN))
    _GROUPS_SEEN.extend(g for g in app.registered_groups if not any(g is k for k in _GROUPS_SEEN))
    _COMMANDS_SEEN.sort(key=_module_rank)  # as a fresh process registers them, whatever ran first here
    _GROUPS_SEEN.sort(key=_module_rank)
    if wanted in COMMANDS:
        app.registered_commands[:] = [c for c in _COMMANDS_SEEN if _name_of(c) == wanted]
        app.registered_groups[:] = [g for g in _GROUPS_SEEN if g.name == wanted]
    else:
        app.registered_commands[:] = _COMMANDS_SEEN
        app.registered_groups[:] = _GROUPS_SEEN


_COMMANDS_SEEN: list[typer.models.CommandInfo] = []
_GROUPS_SEEN: list[typer.models.TyperInfo] = []


def _name_of(command: typer.models.CommandInfo) -> str:
    """The name a registered command is run by (typer's rule: the function's, with dashes)."""
    if command.name:
        return command.name
    return getattr(command.callback, "__name__", "").replace("_", "-")


def _module_rank(info: typer.models.CommandInfo | typer.models.TyperInfo) -> int:
    """Where the module that registered a command (or a group's commands) stands in
    COMMAND_MODULES."""
    if isinstance(info, typer.models.CommandInfo):
        callback = info.callback
    else:
        commands = info.typer_instance.registered_commands if info.typer_instance else []
        callback = commands[0].callback if commands else None
    module = getattr(callback, "__module__", None)
    return COMMAND_MODULES.index(module) if module in COMMAND_MODULES else len(COMMAND_MODULES)


def _command_of(argv: list[str]) -> str | None:
    """The command an argument list runs (the first word after the global options), if any."""
    args = iter(argv)
    for arg in args:
        if arg in GLOBAL_OPTIONS_WITH_VALUE:
            next(args, None)
        elif not arg.startswith("-"):
            return arg
        elif not arg.startswith(tuple(f"{o}=" for o in GLOBAL_OPTIONS_WITH_VALUE)):
            return None  # --help, or an option kifu does not have: typer answers with all of them
    return None


def speak(lang: str) -> None:
    """Click's and typer's own words (usage, option headings, usage errors) in ``lang``: they
    call ``gettext`` through a module-level ``_``; kifu's catalog holds their messages
    (recorder/cli/clicktext.py)."""
    import click.core
    import click.decorators
    import click.exceptions
    import click.formatting
    import click.parser
    import click.types
    import typer.core

    from recorder.cli import common

    click.formatting.term_len = display_width  # type: ignore[assignment]  # the help's columns line up
    for module in (click.core, click.decorators, click.exceptions, click.formatting, click.parser, click.types,
                   typer.core):
        if hasattr(module, "_"):
            module._ = common._  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = common.ngettext  # type: ignore[attr-defined]


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: a kanji or kana takes two (click counts characters)."""
    from unicodedata import east_asian_width

    from click._compat import strip_ansi

    plain = strip_ansi(text)
    if plain.isascii():
        return len(plain)
    return sum(2 if east_asian_width(c) in "WF" else 1 for c in plain)


def said_in(command: click.Command, lang: str) -> click.Command:
    """The command tree with every help text (docstrings, ``help=``) in ``lang``."""
    if lang == "en":
        return command
    from exports.i18n import gettext_for

    _ = gettext_for(lang)
    stack = [command]
    while stack:
        cmd = stack.pop()
        for attr in ("help", "short_help", "epilog"):
            text = getattr(cmd, attr, None)
            if text:
                setattr(cmd, attr, _(text))
        for param in cmd.params:
            text = getattr(param, "help", None)
            if text:
                param.help = _(text)  # type: ignore[attr-defined]
            # an option's value named by its type (TEXT, INTEGER: recorder/cli/clicktext.py)
            if isinstance(param, click.Option) and param.metavar is None and not param.is_flag \
                    and param.type.name in ("text", "integer"):
                param.metavar = _(param.type.name.upper())
        if isinstance(cmd, click.Group):
            stack.extend(cmd.commands.values())
    return command


def main() -> None:
    """Entry point: every KifuError becomes one line and an exit code, never a traceback."""
    lang = set_run_language(language_of_argv(sys.argv[1:]))
    load_commands(sys.argv[1:])
    for i, arg in enumerate(sys.argv[1:], start=1):  # kifu stores UTF-8 text only
        if "\x00" in arg:  # no OS passes one in argv; main() called in-process can (a file name cannot hold one)
            typer.echo("kifu: " + _("argument {i} ({arg}): holds a NUL character").format(i=i, arg=ascii(arg)[:60]),
                       err=True)
            sys.exit(2)
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            typer.echo("kifu: " + _("argument {i} ({arg}): not valid UTF-8").format(i=i, arg=ascii(arg)[:60]),
                       err=True)
            sys.exit(2)
    speak(lang)
    try:
        code = said_in(typer.main.get_command(app), lang)(standalone_mode=False)
    except KifuError as exc:
        problems = exc.problems if isinstance(exc, LogFormatError) else [said_of(exc)]
        for problem in problems:  # one line each, cut short: an id may be 100,000 characters
            typer.echo(f"kifu: {clip(tr(problem), 500)}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except (click.exceptions.Abort, typer.Abort):
        typer.echo("kifu: " + _("aborted"), err=True)
        sys.exit(130)
    except (click.ClickException, _TyperClickException) as exc:
        message = exc.format_message()
        hint = message.find(" Did you mean")
        if hint >= 0 and message.count(" Did you mean") > 1:  # typer and click each add the hint
            message = message[: message.index(" Did you mean", hint + 1)]
        typer.echo(f"kifu: {clip(tr(message), 500)}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        typer.echo("kifu: " + _("interrupted"), err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as exc:  # a file kifu was asked to write or read: name too long, no space, no permission
        where = clip(quote_name(str(exc.filename)), 200) + ": " if exc.filename else ""
        typer.echo(f"kifu: {where}{exc.strerror or exc}", err=True)
        sys.exit(74)
    except Exception as exc:  # a bug: still one line, with the way to see more
        if os.environ.get("KIFU_DEBUG"):
            raise
        said = _("internal error: {error} (set KIFU_DEBUG=1 for details)").format(error=f"{type(exc).__name__}: {exc}")
        typer.echo(f"kifu: {said}", err=True)
        sys.exit(70)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
