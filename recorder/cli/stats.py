"""``kifu stats``: deck-versus-deck statistics from the read model (docs/stats.md).

The read model is kept current by the writes themselves (recorder/hooks.py runs
``projections.readmodel.after_write`` after every write), not by this module.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from projections.errors import LogFormatError
from recorder.cli.common import N_, DbOpt, LangOpt, _, app, lang_of, ngettext, open_store, out

if TYPE_CHECKING:
    from projections import readmodel

ReadModelOpt = Annotated[
    str | None,
    typer.Option("--readmodel", help="The read model file (default X.readmodel.db beside X.db, or KIFU_READMODEL)."),
]
PROGRESS_FROM = 5000  # notifications: below this a catch-up is quick, no bar


def _catch_up(store: Any, path: str | None, rebuild: bool) -> readmodel.ReadModel:
    """Open (or rebuild) the read model, with a progress bar when there is a lot to read."""
    from projections import readmodel
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    if rebuild:
        todo = store.max_notification_id()
    else:
        with readmodel.open_readmodel(store, path) as rm:
            todo = store.max_notification_id() - rm.last_id()
    err = Console(stderr=True)
    with Progress(
        TextColumn(_("stats: reading events")), BarColumn(), MofNCompleteColumn(),
        console=err, transient=True, disable=todo < PROGRESS_FROM or not err.is_terminal,
    ) as progress:
        task = progress.add_task("catch-up", total=max(todo, 1))

        def advance(n: int) -> None:
            progress.advance(task, n)

        if rebuild:
            return readmodel.rebuild(store, path, on_page=advance)
        return readmodel.catch_up_store(store, path, on_page=advance)


@app.command("stats")
def stats_(
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
    event: Annotated[str | None, typer.Option(help="Only this event (its name as in the headers).")] = None,
    since: Annotated[str | None, typer.Option(help="Matches on or after this date (YYYY-MM-DD).")] = None,
    until: Annotated[str | None, typer.Option(help="Matches on or before this date (YYYY-MM-DD).")] = None,
    player: Annotated[str | None, typer.Option(help="Only matches this player (by name) took part in.")] = None,
    by: Annotated[str, typer.Option(help="Group by deck or archetype.")] = "deck",
    min_games: Annotated[int, typer.Option("--min-games", help="Hide decks with fewer matches than this.")] = 0,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV (one long table).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    html: Annotated[str | None, typer.Option("--html", help="Write a self-contained HTML heatmap to FILE.")] = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Rebuild the read model from the event store first.")] = False,
    readmodel_path: ReadModelOpt = None,
    db: DbOpt = None,
    lang: LangOpt = None,
) -> None:
    """Deck-versus-deck statistics: matchup matrix with Wilson intervals (95%), records, turn order.

    Example: kifu stats --game gandice --event 秋の大会 --by archetype --min-games 5 --html stats.html
    """
    from projections import stats
    from exports import stats_render

    if as_csv and as_json:
        raise LogFormatError([N_("--csv, --json: choose one")])
    filters = stats.make_filters(game, event, since, until, player, by, min_games)
    store = open_store(db)
    try:
        rm = _catch_up(store, readmodel_path, rebuild)
    finally:
        store.close()
    try:  # computed in SQL over the read model (GROUP BY), not row by row in Python
        # the combined report only where it is printed (--json, --csv, the --html summary line)
        report = rm.report(filters) if as_json or as_csv or html else None
        # never decks of two games in one matrix; the terminal and --html need one per game
        per_game = stats_render.by_game(rm, filters) if html or not (as_json or as_csv) else []
    finally:
        rm.close()
    if html:
        try:
            Path(html).write_text(stats_render.render_html_page(per_game, lang=lang_of(lang)), encoding="utf-8")
        except OSError as exc:
            raise LogFormatError([f"--html: {html}: {exc.strerror}"]) from None
    if as_json and report is not None:
        sys.stdout.write(stats_render.to_json(report))
    elif as_csv and report is not None:
        sys.stdout.write(stats_render.to_csv(report))
    elif html and report is not None:
        groups = ngettext("{n} deck", "{n} decks", len(report["decks"])) if by == "deck" else ngettext(
            "{n} archetype", "{n} archetypes", len(report["decks"]))
        out(_("wrote {file} ({matches} matches, {groups})").format(
            file=html, matches=report["matches"], groups=groups.format(n=len(report["decks"]))))
    else:
        stats_render.print_terminal(per_game, lang=lang_of(lang))
