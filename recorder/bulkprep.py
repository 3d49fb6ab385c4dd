"""A folder import's work that needs no database, file by file: read and check the log, build
its stored events, fold its read-model rows (``prepare``). ``Prepared`` hands them, in file
order, to the process that writes (recorder/bulk.py), which only inserts and commits.

From ``PARALLEL_FROM`` files on, this runs in worker processes (forked, one per core), which
fold the read-model rows too: each takes every n-th chunk of ``CHUNK`` files and sends back
what it made, and the writer reads
the chunks in file order, so the matches are stored in the same order, with the same events,
as one file at a time in one process. A file that is refused or whose check fails with a bug
is refused in the worker exactly as it would be here (the same lines, built by the same
code), and nothing of it reaches the store. A worker that dies leaves its files to the
writer, which prepares them itself. Workers ignore Ctrl-C: the writer stops them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from projections.errors import KifuError, LogFormatError
from recorder import logformat
from recorder.store import Store

PARALLEL_FROM = 64  # files: below this, starting the workers costs more than they save
CHUNK = 16  # files a worker sends back at once


@dataclass
class Prepared:
    """One file, ready to store (``stream`` and ``events`` set) or refused (``problems``)."""

    path: str
    match_id: str | None = None
    stream: Any = None
    events: list[Any] = field(default_factory=list)  # StoredEvents (tuples while in a pipe)
    # For the read model: its rows (a readmodel.Folded, made by a worker), or the parsed
    # (header, lines), folded after their commit (in this process, where the lines are at hand)
    fresh: Any = None
    problems: list[str] = field(default_factory=list)


def prepare(store: Store, path: str, fold: bool = False) -> Prepared:
    """Read, check and build one file (all of it or nothing); ``fold``: its read-model rows
    too (in a worker). Raises only KeyboardInterrupt (and, with KIFU_DEBUG set, the error of a
    bug, for its traceback)."""
    from projections import readmodel
    from projections.replay import Replay

    try:
        header, entries = logformat.read_file(path)
        stream, events = store.prepare(header, entries)
        mid = header["match"]["id"]
        if not fold:
            return Prepared(path, mid, stream, events, (header, entries))
        # The rows the read model would make of it after its commit (``catch_up`` with the
        # writer's fold), made here so that the writing process does not fold.
        rep = Replay(header, entries, checks=False)
        row, results = readmodel.match_rows(mid, str(stream), rep.header, rep.entries, rep)
        return Prepared(path, mid, stream, events, readmodel.Folded(rep.steps, row, results))
    except LogFormatError as exc:
        return Prepared(path, problems=list(exc.problems))
    except KifuError as exc:
        return Prepared(path, problems=[logformat.clip(f"{logformat.quote_name(path)}: {exc}")])
    except Exception as exc:  # a bug (in a ruleset's validation, say) fails one file, not the run
        if os.environ.get("KIFU_DEBUG"):
            raise
        return Prepared(path, problems=[internal_error(path, exc)])


def internal_error(path: str, exc: BaseException) -> str:
    return logformat.clip(
        f"{logformat.quote_name(path)}: internal error: {type(exc).__name__}: {exc} "
        f"(nothing imported from this file; set KIFU_DEBUG=1 and import it alone for details)")


def workers_for(files: int) -> int:
    """How many worker processes prepare ``files`` files: none for a few files, under
    KIFU_DEBUG (a bug's traceback is printed where it happens) or on one core."""
    if files < PARALLEL_FROM or os.environ.get("KIFU_DEBUG"):
        return 0
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return cores if cores > 1 else 0


def _packed(p: Prepared) -> Prepared:
    """As sent through a pipe: each event a (version, topic, state) tuple (the stream once)."""
    p.events = [(e.originator_version, e.topic, e.state) for e in p.events]
    return p


def _unpacked(p: Prepared) -> Prepared:
    from eventsourcing.persistence import StoredEvent

    stream = p.stream
    p.events = [StoredEvent(stream, version, topic, state) for version, topic, state in p.events]
    return p


def _work(store: Store, files: list[str], me: int, workers: int, conn: Any) -> None:
    """A worker: chunks me, me + workers, … of ``files``, each sent as one list."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the writer's to handle
    with contextlib.suppress(BrokenPipeError, EOFError, OSError):  # the writer stopped: so do we
        for start in range(me * CHUNK, len(files), workers * CHUNK):
            conn.send([_packed(prepare(store, path, fold=True)) for path in files[start:start + CHUNK]])
    conn.close()


class Preparer:
    """The prepared files, in file order (iterate once); ``close`` stops the workers. Start it
    before any thread (a progress bar's) exists: the workers are forked."""

    def __init__(self, store: Store, files: list[str], workers: int | None = None):
        self.store = store
        self.files = files
        self.workers = workers_for(len(files)) if workers is None else workers
        self._children: list[tuple[Any, Any]] = []
        if self.workers:
            ctx = multiprocessing.get_context("fork")
            for me in range(self.workers):
                mine, theirs = ctx.Pipe(duplex=False)
                child = ctx.Process(target=_work, args=(store, files, me, self.workers, theirs), daemon=True)
                child.start()
                theirs.close()
                self._children.append((child, mine))

    def __iter__(self) -> Iterator[Prepared]:
        if not self._children:
            for path in self.files:
                yield prepare(self.store, path)
            return
        alive = [True] * len(self._children)
        for n, start in enumerate(range(0, len(self.files), CHUNK)):
            me = n % len(self._children)
            chunk: list[Prepared] | None = None
            if alive[me]:
                try:
                    chunk = [_unpacked(p) for p in self._children[me][1].recv()]
                except (EOFError, OSError):  # the worker died (killed, out of memory): we do its share
                    alive[me] = False
            if chunk is None:
                chunk = [prepare(self.store, path) for path in self.files[start:start + CHUNK]]
            yield from chunk

    def close(self) -> None:
        for child, conn in self._children:
            conn.close()
            if child.is_alive():
                child.terminate()
            child.join()
        self._children = []

    def __enter__(self) -> Preparer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


__all__ = ["CHUNK", "PARALLEL_FROM", "Prepared", "Preparer", "internal_error", "prepare", "workers_for"]
