"""Whole-event import: many logs at once, each all or nothing, with a progress bar.

A directory import never stops halfway: every file is tried, whatever the one before it did
(a malformed file, a file that is not a regular file, a bug in a ruleset's validation);
each problem is one line naming the file, and the run ends with one summary line. Ctrl-C
stops after the file being stored (which is all or nothing), and the read model is brought
up to date with what was imported before the summary is printed.

Files are stored many to a transaction (``import_batch``: a savepoint per file, so a file that
fails still rolls back alone; one durable commit per ``COMMIT_LINES`` events instead of one
per file), and the read model is fed the stored matches every ``FEED_LINES`` events, after
their commit. What needs no database (reading and checking a file, building its stored
events, folding its read-model rows) is done beforehand, for a folder in worker processes
while this one writes (recorder/bulkprep.py): the writer only inserts, commits and writes
the rows it is handed.
"""

from __future__ import annotations

import fnmatch
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from projections.errors import DuplicateMatchError, KifuError
from projections.readmodel import Folded
from recorder import hooks, logformat
from recorder.bulkprep import Prepared, Preparer, internal_error, prepare
from recorder.store import Store


PATTERN = "*.jsonl"
FEED_LINES = 50_000  # the read model catches up every this many imported lines (memory bound)
COMMIT_LINES = 20_000  # events stored in one transaction (one savepoint per file)


@dataclass
class ImportReport:
    """What one ``kifu import`` did, file by file."""

    files: int = 0
    imported: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # one entry per file that failed
    problems: list[str] = field(default_factory=list)  # the lines printed for them
    interrupted: bool = False
    # Matches stored but not yet handed to the read model, with their rows (folded by a
    # worker) or their parsed lines, and where their events are: the read model does not read
    # them back from the store.
    fresh: dict[str, Folded | tuple[dict[str, Any], list[dict[str, Any]]]] = field(default_factory=dict)
    fresh_lines: int = 0
    spans: list[tuple[int, int, Any, int]] = field(default_factory=list)

    @property
    def tried(self) -> int:
        return len(self.imported) + len(self.duplicates) + len(self.failed)

    def summary(self) -> str:
        line = (f"imported {len(self.imported)}, skipped {len(self.duplicates)} duplicate(s), "
                f"failed {len(self.failed)}")
        if self.interrupted:
            line = f"interrupted: {line}, not tried {self.files - self.tried}"
        return line


def collect(paths: list[str]) -> tuple[list[str], list[str]]:
    """The files to import, and problem lines for what cannot be one (a FIFO, a socket, a
    folder that cannot be read). A named path is always tried, so its problem names it."""
    files: list[str] = []
    refused: list[str] = []
    for name in paths:
        if not os.path.isdir(name):
            files.append(name)
            continue

        def unreadable(exc: OSError) -> None:
            refused.append(f"{logformat.quote_name(str(exc.filename))}:0: folder: {exc.strerror}")

        for root, dirs, names in os.walk(name, onerror=unreadable):  # never follows symlinked folders
            dirs.sort()
            for base in sorted(names):
                if not fnmatch.fnmatch(base, PATTERN):
                    continue
                # a FIFO or a socket named *.jsonl is kept: read_file refuses it by name
                # (without opening it, which would block) and it counts as failed
                files.append(os.path.join(root, base))
    return files, refused


def store_one(store: Store, prepared: Prepared, report: ImportReport) -> int:
    """Store one prepared file, all or nothing, and note the outcome: the events stored (0
    when it was not). Raises only KeyboardInterrupt."""
    path = prepared.path
    if prepared.match_id is None:  # refused while it was read and checked
        report.failed.append(path)
        report.problems.extend(prepared.problems)
        return 0
    mid = prepared.match_id
    try:
        store.create_prepared(mid, prepared.stream, prepared.events)
        lines = len(prepared.events)
        prepared.events = []  # stored: not held until the next file
        report.imported.append(mid)
        report.fresh[mid] = prepared.fresh
        report.fresh_lines += lines
        if store.written is not None:
            report.spans.append(store.written)
        return lines
    except DuplicateMatchError as exc:
        report.duplicates.append(f"{logformat.quote_name(path)}: {exc}")
    except KifuError as exc:
        report.failed.append(path)
        report.problems.append(logformat.clip(f"{logformat.quote_name(path)}: {exc}"))
    except KeyboardInterrupt:
        # a match is stored all or nothing (one transaction, or a savepoint of the batch)
        if mid not in report.imported and _exists(store, mid):
            report.imported.append(mid)
            report.fresh[mid] = prepared.fresh
        raise
    except Exception as exc:  # a bug fails one file, not the run
        report.failed.append(path)
        report.problems.append(internal_error(path, exc))
        if os.environ.get("KIFU_DEBUG"):
            raise
    return 0


def import_one(store: Store, path: str, report: ImportReport) -> int:
    """Import one file, all or nothing (``store_one`` of ``prepare``)."""
    return store_one(store, prepare(store, path), report)


def import_batch(store: Store, files: Iterator[Prepared], report: ImportReport, advance: Callable[[], None]) -> bool:
    """Store prepared files from ``files`` in ONE transaction, each in a savepoint of its own
    (a bad file rolls back alone and is reported as ever), until about ``COMMIT_LINES`` events
    are stored; then commit once. True when ``files`` is exhausted. A transaction that cannot
    be committed stores none of its files: each is then reported as failed. Ctrl-C commits the
    files stored before the one it interrupted (rolled back: all or nothing), then is raised."""
    first = len(report.imported)
    spans = len(report.spans)
    paths: list[str] = []  # the file of each match imported in this batch
    stored, exhausted, interrupted = 0, True, False
    start = next(files, None)
    if start is None:
        return True
    try:
        with store.batch():
            prepared: Prepared | None = start
            while prepared is not None:
                try:
                    stored += store_one(store, prepared, report)
                except KeyboardInterrupt:
                    interrupted = True
                    paths += [prepared.path] * (len(report.imported) - first - len(paths))
                    break
                paths += [prepared.path] * (len(report.imported) - first - len(paths))
                advance()
                if stored >= COMMIT_LINES:
                    exhausted = False
                    break
                try:
                    prepared = next(files, None)
                except KeyboardInterrupt:  # while the next file was read: nothing of it stored
                    interrupted = True
                    break
    except KifuError as exc:  # the commit failed (a locked or full database): none of them is stored
        for path, mid in zip(paths, report.imported[first:]):
            report.failed.append(path)
            report.problems.append(logformat.clip(f"{logformat.quote_name(path)}: {exc}"))
            entry = report.fresh.pop(mid, None)
            if entry is not None:
                report.fresh_lines -= (entry.steps if isinstance(entry, Folded) else len(entry[1])) + 1
        del report.imported[first:]
        del report.spans[spans:]
    if interrupted:
        raise KeyboardInterrupt
    return exhausted


def _exists(store: Store, match_id: str) -> bool:
    try:
        return store.exists(match_id)
    except Exception:
        return False


def _feed(store: Store, report: ImportReport) -> None:
    """Bring the read model up to date, handing it the matches just stored (their rows, or
    their lines) and where their events are (``store.written``: one span per
    match, so nothing is read back)."""
    from projections.replay import Replay

    # rows folded by a worker as they are; lines parsed here folded now (without rule checks:
    # a row needs the result, not the violations), not read back from the store
    known = {mid: fresh if isinstance(fresh, Folded) else Replay(*fresh, checks=False)
             for mid, fresh in report.fresh.items()}
    report.fresh.clear()
    report.fresh_lines = 0
    store.written = list(report.spans)  # type: ignore[assignment]
    report.spans.clear()
    hooks.after_write(store, known)


def _read_model_problem(report: ImportReport, exc: Exception) -> None:
    """Once per run: the matches are imported; the read model catches up at the next write."""
    if os.environ.get("KIFU_DEBUG") and not isinstance(exc, KifuError):
        raise exc
    if not any(p.startswith("read model") for p in report.problems):
        what = str(exc) if isinstance(exc, KifuError) else f"internal error: {type(exc).__name__}: {exc}"
        report.problems.append(logformat.clip(f"read model not brought up to date: {what}"))


def run_import(store: Store, paths: list[str], show_progress: bool = True) -> ImportReport:
    files, refused = collect(paths)
    report = ImportReport(files=len(files) + len(refused))
    report.failed.extend(refused)
    report.problems.extend(refused)
    err = Console(stderr=True, highlight=False)
    try:
        with Preparer(store, files) as preparer, Progress(  # the workers fork before the bar's thread starts
            TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            console=err, transient=True, disable=not show_progress or len(files) < 2,
        ) as progress:
            task = progress.add_task("import", total=len(files))
            pending = iter(preparer)
            exhausted = False
            while not exhausted:
                exhausted = import_batch(store, pending, report, lambda: progress.advance(task))
                if report.fresh_lines >= FEED_LINES:
                    try:
                        _feed(store, report)
                    except Exception as exc:  # the import goes on; the read model catches up later
                        _read_model_problem(report, exc)
    except KeyboardInterrupt:
        report.interrupted = True
    if report.imported:
        try:
            _feed(store, report)  # the read model counts what was imported, even after Ctrl-C
        except Exception as exc:
            _read_model_problem(report, exc)
        except KeyboardInterrupt:
            report.interrupted = True
            report.problems.append("read model not brought up to date (interrupted): it catches up at the next write")
    return report


def import_paths(store: Store, paths: list[str], say: Callable[[str], str] = str) -> int:
    """Import every file; print one line per problem and a summary. Exit code 1 if any file
    failed, 130 if interrupted. ``say``: a printed line in the reader's language (the CLI's
    ``tr``; the lines are built in English)."""
    report = run_import(store, paths)
    if not report.files:
        print(logformat.clip("kifu: " + say(f"no match logs ({PATTERN}) in {' '.join(logformat.quote_name(p) for p in paths)}"), 500), file=sys.stderr)
        return 1
    for line in report.problems:
        print(logformat.clip(f"kifu: {say(line)}", 500), file=sys.stderr)
    for line in report.duplicates[:10]:
        print(logformat.clip("kifu: " + say(f"skipped: {line}"), 500), file=sys.stderr)
    if len(report.duplicates) > 10:
        print("kifu: " + say(f"skipped {len(report.duplicates) - 10} more already-recorded match(es)"), file=sys.stderr)
    if report.files == 1 and report.imported and not report.failed:
        print(report.imported[0])
    else:
        print(say(report.summary()))
    if report.interrupted:
        return 130
    return 1 if report.failed or (report.files == 1 and report.duplicates) else 0


__all__ = ["ImportReport", "collect", "import_batch", "import_one", "import_paths", "run_import", "store_one"]
