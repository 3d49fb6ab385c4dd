"""``kifu migrate``: copy a store to another (typically SQLite to PostgreSQL)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from projections.errors import NotFoundError
from projections.base import said
from recorder.cli.common import N_, app, out, tr


@app.command()
def migrate(
    source: Annotated[str, typer.Option("--from", help="The store to copy (SQLite file or URL).")],
    target: Annotated[str, typer.Option("--to", help="The store to copy into (SQLite file or URL).")],
    only: Annotated[list[str], typer.Option("--only", help="Copy only this match (repeat for more).")] = [],
    skip: Annotated[list[str], typer.Option("--skip", help="Leave this match out (repeat for more).")] = [],
) -> None:
    """Copy every match event for event (same seq, same recorded times) and verify each copy.

    A match the target already holds in another form is a conflict: it is named with the
    first seq where the copies differ, left untouched, and the other matches are copied;
    the run ends with a summary and exit 1.

    Example: kifu migrate --from kifu.db --to postgresql://kifu:secret@db.local:5432/kifu
    Example: kifu migrate --from kifu.db --to other.db --skip wc26-r3-t12
    """
    from recorder.migrate import migrate as run_migration
    from recorder.store import Store

    if "://" not in source and not os.path.isfile(source):
        raise NotFoundError(said(N_("--from: {source} does not exist (or is not a file)"), source=source))
    report = run_migration(Store(source), Store(target), only=set(only), skip=set(skip))
    for conflict in report.conflicts:
        typer.echo(f"kifu: {tr(str(conflict))}", err=True)
    for line in report.failed:
        typer.echo(f"kifu: {tr(str(line))}", err=True)
    out(tr(report.summary()))
    if not report.ok:
        raise typer.Exit(1)
