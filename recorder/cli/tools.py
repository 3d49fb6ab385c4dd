"""``kifu gen`` and ``kifu bench``: synthetic matches and the benchmark (recorder/tools/)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from projections import registry
from projections.base import said
from recorder.cli.common import (
    N_,
    _,
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
    out(_("wrote {n} matches to {dir}").format(n=count, dir=output))


@app.command()
def bench(
    output: Annotated[str, typer.Option("-o", "--output", help="JSON file for the figures.")] = "bench/results.json",
    quick: Annotated[bool, typer.Option(help="Small sizes (a smoke run: the figures mean little).")] = False,
    pg: Annotated[str | None, typer.Option(help="A PostgreSQL server URL: measure the store paths there too.")] = None,
    only: Annotated[list[str], typer.Option("--only", help="Only these sections (repeat, or comma-separated).")] = [],
    readme: Annotated[bool, typer.Option("--readme", help="Then write the README's benchmark table from the figures.")] = False,
    readme_only: Annotated[bool, typer.Option("--readme-only", help="Measure nothing: regenerate the README's table from OUTPUT.")] = False,
) -> None:
    """Measure the paths users hit (import, record, seek, stats, pages, start-up), each beside
    its baseline; print one table and write every figure as JSON.

    Example: kifu bench -o bench/results.json --readme
    """
    import json

    from projections.errors import LogFormatError
    from recorder.tools.bench import SECTIONS, readme as readme_table, run

    readme_path = Path(__file__).resolve().parents[2] / "README.md"
    if readme_only:
        try:
            results = json.loads(Path(output).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LogFormatError([said(N_("{name}:0: file: {strerror}"), name=output, strerror=getattr(exc, 'strerror', None) or exc)]) from None
        readme_table.write(results, readme_path)
        out(_("wrote the benchmark table of {readme} from {file}").format(readme=readme_path, file=output))
        return
    sections = [name.strip() for item in only for name in item.split(",") if name.strip()]
    unknown = [name for name in sections if name not in SECTIONS]
    if unknown:
        raise LogFormatError([said(N_("--only: unknown section {name!r} (known: {known})"), name=name, known=", ".join(SECTIONS)) for name in unknown])
    results = run(Path(output), quick=quick, pg=pg, only=sections or None)
    if readme:
        readme_table.write(results, readme_path)
        out(_("wrote the benchmark table of {readme}").format(readme=readme_path))
