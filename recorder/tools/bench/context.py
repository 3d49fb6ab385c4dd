"""What every benchmark section shares: sizes, the temporary folder, progress, the matches."""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rich.progress import Progress

from projections import registry
from recorder.logformat import export_lines
from recorder.tools.bench.measure import Runs, child_env, kifu_argv, run_child
from recorder.tools.synth import generate

LONG_SEED = 11  # gandice seed 11 with min_events=10,000: the 10,041-event log of issue 13


@dataclass
class Bench:
    results: dict[str, Any]
    tmp: Path
    quick: bool
    pg: str | None
    progress: Progress
    runs: int = 3
    shared: dict[str, Runs] = field(default_factory=dict)  # figures other sections compare with

    def size(self, full: int, quick: int) -> int:
        return quick if self.quick else full

    @property
    def kifu(self) -> list[str]:
        return kifu_argv()

    def backends(self) -> list[str]:
        return ["sqlite", "postgres"] if self.pg else ["sqlite"]

    def path(self, name: str) -> str:
        return str(self.tmp / name)

    @contextmanager
    def step(self, description: str, total: int) -> Iterator[Any]:
        task = self.progress.add_task(description, total=total)
        try:
            yield lambda n=1: self.progress.advance(task, n)
        finally:
            self.progress.update(task, completed=total, visible=False)

    def kifu_child(self, *args: str, db: str, extra_env: dict[str, str] | None = None) -> Any:
        """Run ``kifu --db DB ARGS`` as a user would; a PostgreSQL store keeps its side files
        (read model, board snapshots) in the temporary folder, never in the working directory."""
        env = child_env(extra_env or self.side_files(db))
        return run_child([*self.kifu, "--db", db, *args], env=env, cwd=str(self.tmp))

    def side_files(self, db: str) -> dict[str, str]:
        if "://" not in db:
            return {}
        key = str(abs(hash(db)))
        return {"KIFU_READMODEL": self.path(f"pg-{key}.readmodel.db"), "KIFU_BOARD_CACHE": self.path(f"pg-{key}.boards.db")}

    @contextmanager
    def in_process_side_files(self, db: str) -> Iterator[None]:
        """The same for in-process work on a PostgreSQL store (environment restored after)."""
        saved = {k: os.environ.get(k) for k in ("KIFU_READMODEL", "KIFU_BOARD_CACHE")}
        os.environ.update(self.side_files(db))
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    def store_url(self, backend: str, name: str) -> str:
        if backend == "postgres":
            from recorder.tools.bench.measure import pg_database

            assert self.pg
            return pg_database(self.pg)
        return self.path(f"{name}.db")


def with_id(header: dict[str, Any], match_id: str) -> dict[str, Any]:
    h = copy.deepcopy(header)
    h["match"]["id"] = match_id
    return h


def line_of(entry: dict[str, Any]) -> dict[str, Any]:
    """A recorded line as a face sends it: no seq, no recorded time."""
    return {k: v for k, v in entry.items() if k not in ("seq", "at")}


@cache
def long_match(min_events: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The long gandice match (seed 11: 10,041 lines at min_events=10,000)."""
    return generate(registry.get("gandice"), LONG_SEED, 0, min_events=min_events)


def write_log(path: Path, header: dict[str, Any], entries: list[dict[str, Any]]) -> int:
    text = "\n".join(export_lines(header, entries)) + "\n"
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


DISTINCT = {"gandice": 300, "mushijingi": 150, "gurren-lagann": 60, "variants-war": 60}


@cache
def distinct_matches(quick: bool) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Generated matches of all four games (a few hundred, as a season of an event)."""
    out = []
    for game, count in DISTINCT.items():
        ruleset = registry.get(game)
        out += [generate(ruleset, 7, i) for i in range(max(4, count // 15) if quick else count)]
    return out
