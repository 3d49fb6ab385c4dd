"""``kifu matches``, ``log``, ``board``, ``result`` and ``check``: reading the record."""

from __future__ import annotations

import json
import os
from typing import Annotated, Any

import typer

from projections.errors import NotFoundError
from projections import registry
from projections.base import said
from recorder.cli.common import (
    AsOfOpt,
    DbOpt,
    JsonOpt,
    LangOpt,
    N_,
    ViewOpt,
    _,
    tr,
    app,
    check_view,
    dump_json,
    lang_of,
    open_store,
    out,
)


# -- reading ---------------------------------------------------------------------------------


def match_rows(store: Any, q: dict[str, str] | None = None, limit: int | None = None,
               offset: int = 0) -> list[dict[str, Any]]:
    """The matches the filters ``q`` keep (those of the list page, ``projections.listing``),
    in creation order, ``limit`` of them after ``offset``: filtered and paged in SQL on the
    read model (caught up first), so a page reads its own rows. A match the read model could
    not fold (its game missing from this build, say) is replayed here so its own error shows."""
    from projections import listing, readmodel
    from projections.replay import Replay

    rm = readmodel.catch_up_store(store)
    try:
        found, _ = listing.page(rm.db.conn, q or {}, limit, offset, order="created", count=False)
    finally:
        rm.close()
    rows = []
    for row in found:
        steps, result = row["steps"], row["result"]
        if row["error"]:
            header, entries = store.load(row["id"])
            rep = Replay(header, entries)
            steps = rep.steps
            got = rep.result()
            result = got.to_json() if got else None
        elif result is not None:
            result = {"winner": result["winner"], "reason": result["reason"]}
        rows.append({
            "id": row["id"], "game": row["game"], "event": row["event"], "round": row["round"],
            "table": row["table"], "date": row["date"],
            "players": [{"id": p["id"], "name": p["name"], "deck": p["deck"] or None} for p in row["players"]],
            "steps": steps, "result": result,
        })
    return rows


@app.command()
def matches(
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
    event: Annotated[str | None, typer.Option(help="Only events whose name contains this.")] = None,
    round_: Annotated[int | None, typer.Option("--round", help="Only this round.")] = None,
    player: Annotated[str | None, typer.Option(help="Only matches of a player whose name contains this (or this id).")] = None,
    deck: Annotated[str | None, typer.Option(help="Only matches with a deck or archetype whose name contains this.")] = None,
    result: Annotated[str | None, typer.Option(help="in-progress, decided, draw, a reason code, or the winner's id or name.")] = None,
    search: Annotated[str | None, typer.Option(help="Names containing this: the match id, its title, its event, a player.")] = None,
    limit: Annotated[int | None, typer.Option(min=0, help="At most this many matches.")] = None,
    offset: Annotated[int, typer.Option(min=0, help="Skip this many matches first.")] = 0,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """List recorded matches, oldest first (the filters are the match list page's).

    Example: kifu matches --event 冬季大会 --round 2 --limit 25 --json
    """
    if game:
        game = registry.canonical(game)  # an unknown game is an error, not an empty list
    q = {"game": game or "", "event": event or "", "round": "" if round_ is None else str(round_),
         "player": player or "", "deck": deck or "", "result": result or "", "q": search or ""}
    store = open_store(db)
    rows = match_rows(store, q, limit, offset)
    if as_json:
        dump_json(rows)
        return
    from exports.i18n import gettext_for
    from exports.notation import result_text

    lang = lang_of(lang)
    _ = gettext_for(lang)
    if not rows:
        out(_("No matches yet."))
        return
    for row in rows:
        players = " vs ".join(f"{p['name'] or p['id']} ({p['deck'] or '-'})" for p in row["players"])
        names = {p["id"]: p["name"] or p["id"] for p in row["players"]}
        res = row["result"]
        res_text = _("in progress") if res is None else result_text(res["winner"], res["reason"], names, lang)
        lines = _("{n} lines").format(n=row["steps"])
        out(f"{row['id']}  {row['game']}  {players}  {lines}  {res_text}")


@app.command()
def log(
    match: Annotated[str, typer.Argument(help="Match id.")],
    view: ViewOpt = "ruled",
    as_of: AsOfOpt = None,
    raw: Annotated[bool, typer.Option("--raw", help="Each line's fields as recorded instead of notation.")] = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """A numbered move list in words (notation), with violations, annotations and rulings.

    Example: kifu log r1-t3 --view recorded   (--raw: the fields as recorded; --lang en: English)
    """
    from recorder import service
    from exports.text import format_log

    rep = service.replay(open_store(db), match, check_view(view), as_of)
    out(format_log(rep, lang_of(lang), raw))


@app.command()
def board(
    match: Annotated[str, typer.Argument(help="Match id.")],
    at: Annotated[int | None, typer.Option("--at", help="Step (default: the last).")] = None,
    as_json: JsonOpt = False,
    view: ViewOpt = "ruled",
    as_of: AsOfOpt = None,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """The board at a step.

    Example: kifu board r1-t3 --at 12 --json
    """
    from recorder import service
    from exports.text import format_board

    rep = service.replay(open_store(db), match, check_view(view), as_of)
    step = rep.steps if at is None else at
    if not 0 <= step <= rep.steps:
        raise NotFoundError(said(N_("{match}: step {step} is out of range 0..{last}"), match=match, step=step, last=rep.steps))
    if as_json:
        dump_json(rep.board_json(step))
    else:
        out(format_board(rep, step, lang_of(lang)))


@app.command()
def result(
    match: Annotated[str, typer.Argument(help="Match id.")],
    as_json: JsonOpt = False,
    view: ViewOpt = "ruled",
    as_of: AsOfOpt = None,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """The match result (or that it is still in progress).

    Example: kifu result r1-t3 --json
    """
    from recorder import service
    rep = service.replay(open_store(db), match, check_view(view), as_of)
    res = rep.result()
    if as_json:
        dump_json(res.to_json() if res else None)
        return
    from exports.i18n import gettext_for

    _ = gettext_for(lang_of(lang))
    if res is None:
        out(_("{match}: in progress after {n} lines").format(match=match, n=rep.steps))
    else:
        names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
        who = f"{names.get(res.winner, res.winner)} ({res.winner})"
        winner = _("{name} wins").format(name=who) if res.winner else _("draw")
        from exports.notation import reason_text

        # a result pending a ruling (KIFU-3) names the flagged line and its rule
        pending = f" (KIFU-3: #{res.pending.seq} {res.pending.rule})" if res.pending else ""
        out(f"{match}: {winner} — {reason_text(res.reason, lang_of(lang))}{pending}")


@app.command()
def check(
    target: Annotated[str, typer.Argument(help="A log file, or a match id in the database.")],
    view: ViewOpt = "ruled",
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """List every rule violation with its rule id; exit 1 if any.

    Example: kifu check examples/gandice-example.jsonl
    """
    from projections.replay import Replay
    from recorder import logformat, service
    if os.path.isfile(target):
        header, entries = logformat.read_file(target)
        rep = Replay(header, entries, check_view(view))
    else:
        rep = service.replay(open_store(db), target, check_view(view))
    found = rep.violations()
    if as_json:
        dump_json([v.to_json() for v in found])
    else:
        for v in found:
            line = f"seq {v.seq}: {v.rule}: {tr(v.message)}"
            if v.expected:
                said = json.dumps(dict(v.expected), ensure_ascii=False)
                line += " " + _("(expected: {value})").format(value=said)
            if v.suggest:
                said = json.dumps([dict(m) for m in v.suggest], ensure_ascii=False)
                line += " " + _("(suggest: {value})").format(value=said)
            out(line)
        out(_("{n} violation(s) in {steps} steps").format(n=len(found), steps=rep.steps))
    if found:
        raise typer.Exit(1)


