"""``kifu stats``: deck-versus-deck statistics from the read model (docs/stats.md).

The read model is kept current by the writes themselves (recorder/hooks.py runs
``projections.readmodel.after_write`` after every write), not by this module.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from projections.base import at, said
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
    by: Annotated[str | None, typer.Option(help="Group by deck (the default) or archetype.")] = None,
    min_games: Annotated[int, typer.Option("--min-games", help="Hide decks with fewer matches than this.")] = 0,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV (one long table).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    html: Annotated[str | None, typer.Option("--html", help="Write a self-contained HTML heatmap to FILE.")] = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Rebuild the read model from the event store first.")] = False,
    meta: Annotated[bool, typer.Option("--meta", help="The metagame: share of the field and win rate per archetype and deck.")] = False,
    trend: Annotated[str | None, typer.Option("--trend", help="Share and win rate per archetype for each week or month.")] = None,
    cards: Annotated[bool, typer.Option("--cards", help="Card statistics: win rate when in the list, and when played.")] = False,
    min_sample: Annotated[int, typer.Option("--min-sample", help="With --cards: hide cards with fewer matches than this.")] = 0,
    readmodel_path: ReadModelOpt = None,
    db: DbOpt = None,
    lang: LangOpt = None,
) -> None:
    """Deck-versus-deck statistics: matchup matrix with Wilson intervals (95%), records, turn order;
    the metagame (--meta), its trend over a season (--trend week|month), card statistics (--cards).

    Example: kifu stats --game gandice --event 秋の大会 --by archetype --min-games 5 --html stats.html
    """
    from projections import stats
    from exports import stats_render

    if as_csv and as_json:
        raise LogFormatError([N_("--csv, --json: choose one")])
    views = [name for name, on in (("--meta", meta), ("--trend", trend is not None), ("--cards", cards)) if on]
    if len(views) > 1:
        raise LogFormatError([at(", ".join(views), N_("choose one"))])
    if trend is not None and trend not in ("week", "month"):
        raise LogFormatError([said(N_("--trend: must be week or month, not {period!r}"), period=trend)])
    if min_sample < 0:
        raise LogFormatError([said(N_("--min-sample: must be a whole number >= 0, not {min_sample}"), min_sample=min_sample)])
    if min_sample and not cards:
        raise LogFormatError([N_("--min-sample: only with --cards")])
    filters = stats.make_filters(game, event, since, until, player, by or ("archetype" if views else "deck"), min_games)
    store = open_store(db)
    try:
        cut = cut_of(store, filters.event) if meta else None
        rm = _catch_up(store, readmodel_path, rebuild)
    finally:
        store.close()
    if views:
        try:
            _view(rm, filters, views[0], trend, min_sample, as_json, as_csv, html, lang_of(lang), cut)
        finally:
            rm.close()
        return
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
            raise LogFormatError([said(N_("--html: {html}: {strerror}"), html=html, strerror=exc.strerror)]) from None
    if as_json and report is not None:
        sys.stdout.write(stats_render.to_json(report))
    elif as_csv and report is not None:
        sys.stdout.write(stats_render.to_csv(report))
    elif html and report is not None:
        groups = ngettext("{n} deck", "{n} decks", len(report["decks"])) if filters.by == "deck" else ngettext(
            "{n} archetype", "{n} archetypes", len(report["decks"]))
        out(_("wrote {file} ({matches} matches, {groups})").format(
            file=html, matches=report["matches"], groups=groups.format(n=len(report["decks"]))))
    else:
        stats_render.print_terminal(per_game, lang=lang_of(lang))


def cut_of(store: Any, event: str | None) -> tuple[str, int, tuple[str, ...]] | None:
    """(game, Swiss rounds, the top cut's players) of the tournament ``event`` when it has a
    top cut (``kifu round cut``), else None: what the metagame's conversion counts."""
    from recorder import tournament_service

    if not event or not tournament_service.exists(store, event):
        return None
    st = tournament_service.state(store, event)
    return (st.game, st.rounds, tuple(st.cut)) if st.cut else None


def _view(rm: Any, filters: Any, view: str, period: str | None, min_sample: int, as_json: bool, as_csv: bool,
          html: str | None, lang: str, cut: tuple[str, int, tuple[str, ...]] | None = None) -> None:
    """``kifu stats --meta``, ``--trend`` or ``--cards``: computed per game, then printed as
    text, JSON or CSV, or written as an HTML file. ``cut``: an event's top cut (``cut_of``), for
    the metagame's conversion."""
    from exports import stats_render

    kind = {"--meta": "metagame", "--trend": "trend", "--cards": "cards"}[view]
    sections = stats_render.view_sections(rm, filters, kind, period, min_sample, cut)
    if html:
        title, body = stats_render.view_body(rm, filters, kind, sections, lang, period)
        flt = dict(filters.to_json(), **{view.lstrip("-"): period or True})
        page = stats_render.render_view_page(body, "kifu — " + title, flt, lang)
        try:
            Path(html).write_text(page, encoding="utf-8")
        except OSError as exc:
            raise LogFormatError([said(N_("--html: {html}: {strerror}"), html=html, strerror=exc.strerror)]) from None
        out(_("wrote {file}").format(file=html))
    elif as_json:
        sys.stdout.write(stats_render.view_json(kind, sections))
    elif as_csv:
        writer = {"metagame": stats_render.meta_csv, "trend": stats_render.trend_csv, "cards": stats_render.cards_csv}
        sys.stdout.write(writer[kind](sections))
    else:
        printer = {"metagame": stats_render.print_metagame, "trend": stats_render.print_trend,
                   "cards": stats_render.print_cards}
        printer[kind](sections, lang)
