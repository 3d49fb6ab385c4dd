"""The fold rate per game, on generated matches, in moves per second: the working fold a
replay runs (``Replay(checks=False)`` to the end: what a read model, an import and a rebuild
pay), beside the same replay with ``evolve`` copying every object it changes, as every fold did
before working boards; the pure ``ruleset.apply`` one move at a time; and ``check`` + ``apply``
(what recording a move costs the rules)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from functools import partial
from typing import Any

from projections import registry
from projections.base import META_TYPES
from recorder.tools.bench import measure as m
from recorder.tools.bench.context import Bench
from recorder.tools.bench.measure import Runs, figure, rate
from recorder.tools.synth import generate


def _fold(ruleset: Any, matches: list[tuple[dict[str, Any], list[dict[str, Any]]]], check: bool) -> int:
    moves = 0
    for header, entries in matches:
        board = ruleset.initial_board(header)
        for entry in entries:
            if entry["type"] in META_TYPES:
                continue
            if check:
                ruleset.check(board, entry)
            board = ruleset.apply(board, entry)
            moves += 1
    return moves


@contextlib.contextmanager
def _copying() -> Iterator[None]:
    """Folds as they were before working boards: ``evolve`` always copies."""
    from projections import package

    def evolve(obj: Any, **changes: Any) -> Any:
        new = object.__new__(type(obj))
        new.__dict__.update(obj.__dict__)
        new.__dict__.update(changes)
        return new

    working = package.evolve
    modules = [m for name, m in sys.modules.items()
               if name.startswith("projections.") and getattr(m, "evolve", None) is working]
    for module in modules:
        module.evolve = evolve  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module in modules:  # projections.package among them: put back what was there
            module.evolve = working  # type: ignore[attr-defined]


def _replay(matches: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> int:
    from projections.replay import Replay

    moves = 0
    for header, entries in matches:
        rep = Replay(header, entries, checks=False)
        rep.board(rep.steps)
        moves += sum(len(m) for m in rep.moves_by_step)
    return moves


def bench_folds(b: Bench) -> None:
    games = registry.available()
    count = b.size(20, 3)
    with b.step("fold rate per game", len(games) * 4 * b.runs) as advance:
        for game in games:
            matches = [generate(registry.get(game), 21, i) for i in range(count)]
            ruleset = registry.for_header(matches[0][0])
            apply_only = Runs("moves/s", higher_is_better=True)
            with_check = Runs("moves/s", higher_is_better=True)
            working = Runs("moves/s", higher_is_better=True)
            copying = Runs("moves/s", higher_is_better=True)
            for _ in range(b.runs):  # interleaved: the machine's drift hits both alike
                wall, cpu, n = m.timed(partial(_replay, matches))
                working.add(rate(n, wall), rate(n, cpu))
                advance()
                with _copying():
                    wall, cpu, n = m.timed(partial(_replay, matches))
                copying.add(rate(n, wall), rate(n, cpu))
                advance()
                wall, cpu, n = m.timed(partial(_fold, ruleset, matches, False))
                apply_only.add(rate(n, wall), rate(n, cpu))
                advance()
                wall, cpu, n = m.timed(partial(_fold, ruleset, matches, True))
                with_check.add(rate(n, wall), rate(n, cpu))
                advance()
            moves = sum(len(e) for _, e in matches)
            figure(b.results, f"fold.{game}.working", section="folds",
                   what=f"{game}: the working fold of a replay, {count} generated matches, {moves:,} moves",
                   runs=working, baseline=("the same replay copying every object it changes (evolve before "
                                           "working boards)", copying),
                   notes="in-process, the two interleaved; Replay(checks=False) to the last step: boards "
                         "changed in place between checkpoints, against copied at every change")
            figure(b.results, f"fold.{game}.apply", section="folds", what=f"{game}: the pure apply, move by move",
                   runs=apply_only, notes="in-process; no baseline: the rules' own cost")
            figure(b.results, f"fold.{game}.check_apply", section="folds", what=f"{game}: check + apply",
                   runs=with_check, notes="what the rules cost when a move is recorded")
