"""A figure's ratio is the quotient of two measured, finite medians, or none at all: a rate over
a time too short to see is infinite (``measure.rate``), and two of them once made a ratio of NaN
that no check could compare (the quick rebuild command, ``kifu stats --rebuild`` less ``kifu
stats``, on a busy machine: make test, 2026-12-08)."""

from __future__ import annotations

import math

from recorder.tools.bench.measure import Goal, Runs, figure, rate


def _runs(*values: float, cpu: tuple[float, ...] = ()) -> Runs:
    runs = Runs("ev/s", higher_is_better=True)
    for k, v in enumerate(values):
        runs.add(v, cpu[k] if cpu else None)
    return runs


def _ratio(mine: Runs, base: Runs) -> dict:
    results: dict = {"figures": {}}
    return figure(results, "x", section="s", backend="sqlite", what="w", runs=mine, baseline=("b", base))


def test_a_rate_over_no_time_is_infinite_not_an_error():
    assert rate(10, 0) == math.inf and rate(10, -0.2) == math.inf and rate(10, 2) == 5


def test_two_infinite_medians_have_no_ratio_and_no_nan():
    fig = _ratio(_runs(math.inf, math.inf, 4.0, cpu=(math.inf, math.inf, 1.0)),
                 _runs(math.inf, math.inf, 2.0, cpu=(math.inf, math.inf, 1.0)))
    assert fig["median"] == math.inf and fig["baseline"]["median"] == math.inf
    assert fig["ratio"] is None and "cpu_ratio" not in fig


def test_one_infinite_side_has_no_ratio():
    assert _ratio(_runs(math.inf, math.inf, 1.0), _runs(2.0, 2.0, 2.0))["ratio"] is None
    assert _ratio(_runs(2.0, 2.0, 2.0), _runs(math.inf, math.inf, 1.0))["ratio"] is None


def test_finite_medians_have_their_quotient_and_a_zero_baseline_none():
    fig = _ratio(_runs(3.0, 4.0, 5.0, cpu=(1.0, 2.0, 3.0)), _runs(1.0, 2.0, 3.0, cpu=(4.0, 4.0, 4.0)))
    assert fig["ratio"] == 2.0 and fig["cpu_ratio"] == 0.5
    assert _ratio(_runs(1.0, 1.0, 1.0), _runs(0.0, 0.0, 0.0))["ratio"] is None


def test_an_infinite_median_neither_meets_nor_misses_a_goal():
    results: dict = {"figures": {}}
    at_least = Goal("≥ 100,000 ev/s", ">=", 100_000, on="median")
    fig = figure(results, "x", section="s", backend="sqlite", what="w", runs=_runs(math.inf, math.inf, 5.0), goal=at_least)
    assert fig["goal"]["met"] is None
    fig = figure(results, "y", section="s", backend="sqlite", what="w", runs=_runs(2e5, 2e5, 2e5), goal=at_least)
    assert fig["goal"]["met"] is True
