"""``kifu backup``, ``kifu restore`` and ``kifu verify``: what an operator does to a store as a
whole (recorder/backup.py, recorder/verify.py). docs/deploy.md says when to use each."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from projections.errors import LogFormatError
from recorder.cli.common import N_, DbOpt, LangOpt, _, _global_db, app, open_store, out, said, tr

ReadModelOpt = Annotated[
    str | None,
    typer.Option("--readmodel", help="The read model file (default X.readmodel.db beside X.db, or KIFU_READMODEL)."),
]
BAR_AFTER = 1.0  # seconds: a bar only for what takes longer


def _existing(db: str | None) -> None:
    """A SQLite store that is not there is said so: these commands never make an empty one."""
    import os

    from projections.errors import NotFoundError
    from recorder.store import resolve_db

    path = resolve_db(db or _global_db["db"])
    if "://" not in path and not os.path.isfile(path):
        raise NotFoundError(said(N_("no store at {db} (give --db or KIFU_DB)"), db=path))


@contextmanager
def _bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr (a terminal only) that shows itself once the work has taken
    more than a second: ``advance(done, total)``."""
    import time

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

    err = Console(stderr=True)
    progress = Progress(TextColumn(label), BarColumn(), TaskProgressColumn(), console=err, transient=True,
                        disable=not err.is_terminal)
    task = progress.add_task("work", total=1)
    started = time.monotonic()
    shown = False

    def advance(done: int, total: int) -> None:
        nonlocal shown
        if not shown and time.monotonic() - started > BAR_AFTER:
            progress.start()
            shown = True
        progress.update(task, completed=done, total=max(total, 1))

    try:
        yield advance
    finally:
        if shown:
            progress.stop()


@app.command()
def backup(
    file: Annotated[str, typer.Argument(help="The backup file to write (a new file; its read model goes beside it).")],
    readmodel_path: ReadModelOpt = None,
    db: DbOpt = None,
    lang: LangOpt = None,
) -> None:
    """A consistent copy of the store while it is in use (SQLite's online backup, never a file
    copy), with its read model beside it (FILE.readmodel.db). On PostgreSQL: pg_dump (docs/deploy.md).

    Restore with kifu restore FILE, or copy both files into place: either opens without a rebuild.

    Example: kifu backup /mnt/usb/kifu-2026-12-07.db
    """
    from recorder.backup import backup as run_backup

    _existing(db)
    store = open_store(db)
    with _bar(_("backup: copying")) as advance:
        done = run_backup(store, file, readmodel_path, on_progress=advance)
    out(_("backed up {events} event(s) to {file}").format(events=done.events, file=done.store))
    if done.readmodel:
        out(_("read model: {file}").format(file=done.readmodel))
    if done.note:
        out(tr(done.note))


@app.command()
def restore(
    file: Annotated[str, typer.Argument(help="The backup file (kifu backup FILE) to put in place of the store.")],
    force: Annotated[bool, typer.Option("--force", help="Replace a store that holds events.")] = False,
    readmodel_path: ReadModelOpt = None,
    db: DbOpt = None,
    lang: LangOpt = None,
) -> None:
    """Put a backup in place of the store (--db), with the read model beside the backup.
    A store that holds events is replaced only with --force. Stop kifu serve first.

    Example: kifu --db kifu.db restore /mnt/usb/kifu-2026-12-07.db
    """
    from recorder.backup import restore as run_restore
    from recorder.store import resolve_db

    target = resolve_db(db or _global_db["db"])
    with _bar(_("restore: copying")) as advance:
        done = run_restore(target, file, force=force, readmodel_path=readmodel_path, on_progress=advance)
    out(_("restored {events} event(s) from {file} to {db}").format(events=done.events, file=file, db=done.store))
    if done.note:
        out(tr(done.note))


@app.command()
def verify(
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    sample: Annotated[int | None, typer.Option("--sample", help="Compare the read model's rows of N matches "
                                                                 "chosen at random (default: all).")] = None,
    readmodel_path: ReadModelOpt = None,
    db: DbOpt = None,
    lang: LangOpt = None,
) -> None:
    """Read the whole store and say what is damaged: each stream's seq from 1 without a gap,
    each event decodes, each match and event folds and replays, the read model's rows equal a
    fresh fold. Exit 0 when whole, 1 with one line per problem. It never repairs.

    Example: kifu verify --sample 200
    """
    from recorder.verify import verify as run_verify

    if sample is not None and sample < 1:
        raise LogFormatError([said(N_("--sample: must be a whole number >= 1, not {value}"), value=sample)])
    _existing(db)
    store = open_store(db)
    with _bar(_("verify: reading events")) as advance:
        report = run_verify(store, readmodel_path, sample, on_progress=advance)
    if as_json:
        data = report.to_json()
        data["notes"] = [tr(n) for n in report.notes]
        for p in data["problems"]:
            p["line"] = tr(p["line"])
        out(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        for p in report.problems:
            typer.echo(f"kifu: {tr(p.line())}", err=True)
        for note in report.notes:
            out(tr(note))
        summary = _("{events} event(s), {matches} match(es), {events_} tournament(s); read model rows compared: "
                    "{compared}").format(events=report.events, matches=report.matches, events_=report.tournaments,
                                         compared=report.compared)
        out(summary)
        out(_("whole") if report.whole else _("{n} problem(s)").format(n=len(report.problems)))
    if not report.whole:
        raise typer.Exit(1)
