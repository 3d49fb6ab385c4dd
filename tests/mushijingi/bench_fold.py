"""Fold rate of 蟲神器 (issue 13.2): generated matches replayed with ``apply`` only.

    .venv/bin/python -m tests.mushijingi.bench_fold [matches] [runs]

Prints moves per second of CPU time (``process_time``, steadier than wall time on a shared
machine): the median of ``runs`` passes over the same matches, with the slowest and fastest.
Not a test: timings are asserted nowhere.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from projections.mushijingi import RULESET as R


def main(matches: int = 200, runs: int = 5) -> None:
    games = [R.generate(random.Random(seed), f"bench-{seed}") for seed in range(matches)]
    total = sum(len(moves) for _, moves in games)

    def one_pass() -> float:
        start = time.process_time()
        for header, moves in games:
            board = R.initial_board(header)
            for move in moves:
                board = R.apply(board, move)
        return total / (time.process_time() - start)

    rates = [one_pass() for _ in range(runs)]
    print(
        f"mushijingi fold: {total} moves in {matches} matches, median {statistics.median(rates):,.0f} "
        f"moves/s (min {min(rates):,.0f}, max {max(rates):,.0f}, {runs} runs)"
    )


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
