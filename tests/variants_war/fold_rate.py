"""The fold rate of ヴァリアンツ＝ウォー (issue 13): generated matches replayed with ``apply`` only.

    .venv/bin/python -m tests.variants_war.fold_rate [--matches 20] [--cpu]

Prints moves/s as the median of 3 runs with the spread (min–max); ``--cpu`` times CPU rather than
wall clock, which holds still on a loaded machine. Not a test: timings flake.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from projections.variants_war import RULESET as RS


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    matches = [RS.generate(random.Random(seed), f"rate-{seed}") for seed in range(args.matches)]
    total = sum(len(moves) for _, moves in matches)
    rates = []
    for _ in range(3):
        start = clock()
        for head, moves in matches:
            board = RS.initial_board(head)
            for move in moves:
                board = RS.apply(board, move)
        rates.append(total / (clock() - start))
    print(f"{total} moves: median {statistics.median(rates):,.0f} moves/s "
          f"(min {min(rates):,.0f}, max {max(rates):,.0f}, {'cpu' if args.cpu else 'wall'} time)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
