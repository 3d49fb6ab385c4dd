"""The messages of click and typer a kifu user can read (the help's headings, usage errors),
marked here so that ``make i18n`` puts them in kifu's catalog: ``recorder.cli.speak`` has click
and typer look them up there. Never imported at run time; tests/core/test_cli_lang.py checks
that each is still a message of the installed click or typer."""

from __future__ import annotations

from recorder.cli.common import N_

MESSAGES = (
    # the help
    N_("Usage:"),
    N_("Options"),
    N_("Arguments"),
    N_("Commands"),
    N_("Show this message and exit."),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
    N_("(dynamic)"),
    # an option's value, named by its type (click's own metavars: recorder.cli.said_in)
    N_("TEXT"),
    N_("INTEGER"),
    # usage errors
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    # click builds "Missing argument 'X'." from "Missing argument" and the name: kifu's main
    # says the whole line (exports.i18n.translate), so the pieces stay English
    N_("Missing argument {param_hint}."),
    N_("Missing option {param_hint}."),
    N_("Missing parameter {param_hint}."),
    N_("Missing command."),
    N_("Missing {param_type}"),
    N_("Missing parameter: {param_name}"),
    N_("No such command {name!r}."),
    N_("No such option {name!r}."),
    N_("Did you mean {possibility}?"),
    N_("(Did you mean one of: {possibilities}?)"),
    N_("Option {name!r} does not take a value."),
    N_("Option {name!r} requires an argument."),
    N_("Option {name!r} requires {nargs} arguments."),
    N_("Got unexpected extra argument ({args})"),
    N_("Got unexpected extra arguments ({args})"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Invalid value: {message}"),
    # said whole (kifu's main): "{number_type}" would be click's English type name
    N_("{value!r} is not a valid integer."),
    N_("{value!r} is not a valid float."),
    N_("{value} is not in the range {range}."),
    N_("{value!r} is not one of {choices}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("Aborted!"),
    # typer's hint after "No such command" (typer/core.py writes it without gettext: kifu's
    # main translates the whole line with this template)
    N_("{message}. Did you mean {suggestions}?"),
)
