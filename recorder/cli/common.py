"""What every command module of ``kifu`` shares: the typer app, the common options, and the
small helpers that open the store and print."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import click
import typer

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
            raise LogFormatError([f"--lang: must be ja or en, not {chosen!r}"])
        return i18n.pick(chosen)
    return i18n.from_environment()


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
        raise LogFormatError([f"--view: must be ruled or recorded, not {view!r}"])
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
            raise LogFormatError([f"{option}: expected KEY=VALUE, got {pair!r}"])
        fields[key.strip()] = parse_value(value, f"{option} {key.strip()}")
    return fields


