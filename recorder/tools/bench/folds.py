"""The fold rate per game: ``ruleset.apply`` alone, and ``check`` + ``apply`` (what recording
a move costs the rules), on generated matches, in moves per second."""

from __future__ import annotations

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


def bench_folds(b: Bench) -> None:
    games = registry.available()
    count = b.size(20, 3)
    with b.step("fold rate per game", len(games) * 2 * b.runs) as advance:
        for game in games:
            matches = [generate(registry.get(game), 21, i) for i in range(count)]
            ruleset = registry.for_header(matches[0][0])
            apply_only = Runs("moves/s", higher_is_better=True)
            with_check = Runs("moves/s", higher_is_better=True)
            for _ in range(b.runs):
                wall, cpu, n = m.timed(partial(_fold, ruleset, matches, False))
                apply_only.add(rate(n, wall), rate(n, cpu))
                advance()
                wall, cpu, n = m.timed(partial(_fold, ruleset, matches, True))
                with_check.add(rate(n, wall), rate(n, cpu))
                advance()
            moves = sum(len(e) for _, e in matches)
            figure(b.results, f"fold.{game}.apply", section="folds", what=f"{game}: apply (fold), {count} generated matches, {moves:,} moves",
                   runs=apply_only, notes="in-process; no baseline: the rules' own cost")
            figure(b.results, f"fold.{game}.check_apply", section="folds", what=f"{game}: check + apply",
                   runs=with_check, notes="what the rules cost when a move is recorded")
