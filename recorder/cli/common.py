"""What every command module of ``kifu`` shares: the typer app, the common options, and the
small helpers that open the store and print."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import click
import typer

from projections.base import N_, said  # (N_ and said for the commands: a message translated later, filled after)
from projections.errors import LogFormatError

if TYPE_CHECKING:
    from recorder.store import Store

app = typer.Typer(
    name="kifu",
    help="kifu (棋譜): record tabletop matches move by move, replay and check them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

DbOpt = Annotated[
    str | None,
    typer.Option("--db", help="SQLite file or postgresql:// URL (default ./kifu.db, or KIFU_DB)."),
]
ViewOpt = Annotated[str, typer.Option("--view", help="ruled (rulings applied) or recorded.")]
AsOfOpt = Annotated[
    str | None, typer.Option("--as-of", help="Show the record as it stood at this ISO time.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
LangOpt = Annotated[
    str | None,
    typer.Option("--lang", help="Language of what a person reads: ja (default) or en (else KIFU_LANG, LANG)."),
]

_global_db: dict[str, str | None] = {"db": None, "lang": None}


@app.callback()
def _main(db: DbOpt = None, lang: LangOpt = None) -> None:
    """kifu (棋譜): record tabletop matches move by move, replay and check them.

    Example: kifu import examples/gandice-example.jsonl && kifu board gandice-example --at 5
    """
    _global_db["db"] = db
    _global_db["lang"] = lang


def lang_of(option: str | None = None) -> str:
    """The language of human output: ``--lang`` (on the command or before it), else the
    environment (KIFU_LANG, LC_ALL, LC_MESSAGES, LANG), else Japanese."""
    from exports import i18n

    chosen = option or _global_db.get("lang")
    if chosen:
        if i18n.normalise(chosen) is None:
            raise LogFormatError([said(N_("--lang: must be ja or en, not {value!r}"), value=chosen)])
        return i18n.pick(chosen)
    return i18n.from_environment()


# -- the language of this run ---------------------------------------------------------------
#
# One language for everything a run prints (help, messages, errors): ``--lang`` wherever it
# stands on the command line, else the environment, else Japanese. ``main`` sets it before
# typer parses anything, so the help and click's own usage errors are in it too.

_run: dict[str, str | None] = {"lang": None}


def language_of_argv(argv: list[str]) -> str | None:
    """The language ``--lang X`` / ``--lang=X`` asks for anywhere in ``argv`` (the last one
    wins, as typer's does); None when absent or not one kifu speaks (``lang_of`` refuses it)."""
    from exports import i18n

    found: str | None = None
    args = iter(argv)
    for arg in args:
        if arg == "--":
            break
        if arg == "--lang":
            found = next(args, None)
        elif arg.startswith("--lang="):
            found = arg[len("--lang="):]
    return i18n.normalise(found)


def set_run_language(lang: str | None) -> str:
    from exports import i18n

    from recorder import hooks

    chosen = lang or i18n.from_environment()
    _run["lang"] = chosen
    hooks.LANGUAGE = chosen  # the writes' own warnings (a read model not caught up) say it so too
    return chosen


def run_language() -> str:
    """The language of this run (the environment's when ``main`` has not set it)."""
    lang = _run["lang"]
    if lang is None:
        from exports import i18n

        return i18n.from_environment()
    return lang


def _(message: str) -> str:
    """``message`` (English, marked for the catalog) in the language of this run."""
    from exports import i18n

    return i18n.gettext_for(run_language())(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    from exports import i18n

    return i18n.ngettext_for(run_language())(singular, plural, n)


def tr(message: str) -> str:
    """A message built in English elsewhere (a refusal, an error) in the language of this run."""
    from exports import i18n

    return i18n.translate(run_language(), message)




def open_store(db: str | None) -> Store:
    """The store a command works on, closed when the command ends (its connections, and on
    PostgreSQL its pool: left to the interpreter's exit, the library's finaliser ran after the
    modules it needs were gone and printed a traceback)."""
    from recorder.store import Store

    store = Store(db or _global_db["db"])
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.find_root().call_on_close(store.close)
    return store


def out(text: str) -> None:
    typer.echo(text)


def dump_json(obj: Any) -> None:
    out(json.dumps(obj, ensure_ascii=False, indent=2))


def check_view(view: str) -> str:
    if view not in ("ruled", "recorded"):
        raise LogFormatError([said(N_("--view: must be ruled or recorded, not {value!r}"), value=view)])
    return view


def parse_value(text: str, where: str = "value") -> Any:
    """A field value from the command line: JSON where it parses, else the plain string
    (JSON past the log format's limits is refused: recorder.logformat)."""
    from recorder.logformat import loads_or_text

    return loads_or_text(text, where)


def parse_fields(pairs: list[str], option: str) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise LogFormatError([said(N_("{option}: expected KEY=VALUE, got {value!r}"), option=option, value=pair)])
        fields[key.strip()] = parse_value(value, f"{option} {key.strip()}")
    return fields


