"""Whole-event import: many logs at once, each all or nothing, with a progress bar."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from projections.errors import DuplicateMatchError, KifuError, LogFormatError
from recorder import hooks, logformat
from recorder.store import Store


def collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.jsonl") if p.is_file()))
        else:
            files.append(path)
    return files


def import_paths(store: Store, paths: list[str]) -> int:
    """Import every file; print one line per failure and a summary. Exit code 1 if any failed."""
    files = collect(paths)
    if not files:
        print(f"kifu: no match logs (*.jsonl) in {' '.join(paths)}", file=sys.stderr)
        return 1
    err = Console(stderr=True, highlight=False)
    imported: list[str] = []
    duplicates: list[str] = []
    failed: list[str] = []
    with Progress(
        TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=err, transient=True, disable=len(files) < 2,
    ) as progress:
        task = progress.add_task("import", total=len(files))
        for path in files:
            try:
                header, entries = logformat.read_file(str(path))
                imported.append(store.create(header, entries))
            except DuplicateMatchError as exc:
                duplicates.append(f"{path}: {exc}")
            except LogFormatError as exc:
                failed.extend(exc.problems)
            except KifuError as exc:
                failed.append(f"{path}: {exc}")
            progress.advance(task)
    if imported:
        hooks.after_write(store)
    for line in failed:
        print(f"kifu: {line}", file=sys.stderr)
    for line in duplicates[:10]:
        print(f"kifu: skipped: {line}", file=sys.stderr)
    if len(duplicates) > 10:
        print(f"kifu: skipped {len(duplicates) - 10} more already-recorded match(es)", file=sys.stderr)
    if len(files) == 1 and imported and not failed:
        print(imported[0])
    else:
        print(f"imported {len(imported)}, skipped {len(duplicates)} duplicate(s), failed {len(files) - len(imported) - len(duplicates)}")
    return 1 if failed or (len(files) == 1 and duplicates) else 0
