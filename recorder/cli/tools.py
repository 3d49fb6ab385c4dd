"""``kifu gen`` and ``kifu bench``: synthetic matches and the benchmark (recorder/tools/)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from projections import registry
from recorder.cli.common import (
    app,
    out,
)


# -- tools -----------------------------------------------------------------------------------


@app.command()
def gen(
    game: Annotated[str, typer.Argument(help="Game to generate.")],
    matches_: Annotated[int, typer.Option("--matches", help="How many matches.")] = 1,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same matches).")] = 1,
    output: Annotated[str, typer.Option("-o", "--output", help="Directory for the .jsonl files.")] = "generated",
) -> None:
    """Write seeded synthetic legal matches as match logs.

    Example: kifu gen gandice --matches 100 --seed 7 -o /tmp/gen
    """
    from recorder.tools.synth import write_matches

    count = write_matches(registry.get(game), matches_, seed, Path(output))
    out(f"wrote {count} matches to {output}")


@app.command()
def bench(
    output: Annotated[str, typer.Option("-o", "--output", help="JSON file for the figures.")] = "bench/results.json",
    quick: Annotated[bool, typer.Option(help="Smaller sizes (a smoke run).")] = False,
    pg: Annotated[str | None, typer.Option(help="A PostgreSQL server URL to measure beside SQLite.")] = None,
) -> None:
    """Measure the store and the replay engine on this machine; print one table.

    Example: kifu bench -o bench/results.json
    """
    from recorder.tools.benchmark import run

    run(Path(output), quick=quick, pg=pg)


