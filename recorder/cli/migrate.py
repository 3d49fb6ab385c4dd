"""``kifu migrate``: copy a store to another (typically SQLite to PostgreSQL)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from projections.errors import NotFoundError
from recorder.cli.common import app, out


@app.command()
def migrate(
    source: Annotated[str, typer.Option("--from", help="The store to copy (SQLite file or URL).")],
    target: Annotated[str, typer.Option("--to", help="The store to copy into (SQLite file or URL).")],
) -> None:
    """Copy every match event for event (same seq, same recorded times) and verify each copy.

    Example: kifu migrate --from kifu.db --to postgresql://kifu:secret@db.local:5432/kifu
    """
    from recorder.migrate import migrate as run_migration
    from recorder.store import Store
    if "://" not in source and not os.path.exists(source):
        raise NotFoundError(f"--from: {source} does not exist")
    report = run_migration(Store(source), Store(target))
    out(f"copied {len(report.copied)} match(es), {report.events} events; "
        f"{len(report.already)} already present and verified")
