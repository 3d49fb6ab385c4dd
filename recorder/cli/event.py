"""``kifu event`` and ``kifu standings``: the event desk and the standings in the terminal
(exports/desk.py, projections/standings.py)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from projections.errors import LogFormatError, NotFoundError
from recorder.cli.common import N_, DbOpt, JsonOpt, LangOpt, app, dump_json, lang_of, open_store, out


def _matches(db: str | None, event: str) -> list:
    from exports import desk
    matches = desk.store_matches(open_store(db), event)
    if not matches:
        raise NotFoundError(N_("no match of event {event!r} (kifu matches lists the events)").format(event=event))
    return matches


@app.command("event")
def event_(
    event: Annotated[str, typer.Argument(help="The event's name, as in the match headers.")],
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """The event desk: every table of every round, status, turn, open disputes, penalties.

    Example: kifu event 冬季大会
    """
    from exports import desk
    matches = _matches(db, event)
    rows = desk.event_rows(event, matches)
    if as_json:
        dump_json(rows)
        return
    lang = lang_of(lang)
    out(desk.desk_text(rows, lang=lang))
    out("")
    out(desk.standings_text(desk.standings_table(event, matches), lang))


@app.command("standings")
def standings_(
    event: Annotated[str, typer.Argument(help="The event's name, as in the match headers.")],
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV.")] = False,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """Standings: match points (win 3, draw 1), then OMW%, GW%, OGW% (docs/standings.md).

    Example: kifu standings 冬季大会 --csv
    """
    from exports import desk
    if as_csv and as_json:
        raise LogFormatError([N_("--csv, --json: choose one")])
    table = desk.standings_table(event, _matches(db, event))
    if as_csv:
        typer.echo(desk.standings_csv(table), nl=False)
    elif as_json:
        out(json.dumps({"event": event, "standings": [s.to_json() for s in table.rows],
                        "pending": [{"round": p.round, "table": p.table, "players": list(p.players)}
                                    for p in table.pending]}, ensure_ascii=False, indent=2))
    else:
        out(desk.standings_text(table, lang_of(lang)))
