"""Seeded synthetic matches for tests and benchmarks (the only place kifu uses randomness)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from rich.progress import track

from projections.base import Ruleset
from recorder.logformat import export_lines, normalise_header


def generate(ruleset: Ruleset, seed: int, index: int = 0, **options: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rng = random.Random(f"{ruleset.name}:{seed}:{index}")
    header, moves = ruleset.generate(rng, f"gen-{ruleset.name}-{seed}-{index}", **options)
    return normalise_header(header), moves


def write_matches(ruleset: Ruleset, count: int, seed: int, folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    for i in track(range(count), description="generating", transient=True, disable=count < 50):
        header, moves = generate(ruleset, seed, i)
        path = folder / f"{header['match']['id']}.jsonl"
        path.write_text("\n".join(export_lines(header, moves)) + "\n", encoding="utf-8")
    return count
