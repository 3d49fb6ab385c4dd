"""``kifu event …``, ``kifu round …`` and ``kifu standings``: the tournament (recorder/tournament_service.py)
in the terminal — open it, register and drop players, pair and close rounds, post the pairings
and the round sheet, and the standings (projections/standings.py, Appendix C of the Magic
Tournament Rules). ``kifu event E`` alone is the desk, as before.

An event recorded before kifu had tournaments (matches that only name it in their headers) still
has its desk and standings from those headers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from projections.base import at, said
from projections.errors import LogFormatError, NotFoundError
from recorder.cli.common import N_, AsOfOpt, DbOpt, JsonOpt, LangOpt, _, app, dump_json, lang_of, open_store, out

EventArg = Annotated[str, typer.Argument(help="The event's name.")]


class _EventGroup(TyperGroup):
    """``kifu event NAME`` (no subcommand) is ``kifu event show NAME``: the desk, as before."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            args = ["show", *args]
        return super().parse_args(ctx, args)


event_app = typer.Typer(cls=_EventGroup, no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                        help="The tournament: open it, register and drop players, and its desk.")
round_app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                        help="Rounds of a tournament: pair the next, change a pairing, close, post, sheet.")
app.add_typer(event_app, name="event")
app.add_typer(round_app, name="round")


def _moment(as_of: str | None) -> Any:
    if as_of is None:
        return None
    from recorder.service import parse_moment
    return parse_moment(as_of)


def _state(db: str | None, event: str, as_of: str | None = None) -> Any:
    from recorder import tournament_service
    return tournament_service.state(open_store(db), event, _moment(as_of))


# -- kifu event ---------------------------------------------------------------------------------


@event_app.command("new")
def event_new(
    event: EventArg,
    game: Annotated[str, typer.Option(help="gandice, mushijingi, gurren-lagann, variants-war.")],
    rounds: Annotated[int, typer.Option(help="Number of Swiss rounds.")],
    format_: Annotated[str, typer.Option("--format", help="bo1, bo3 or bo5 (a match is best of one, three or five games).")] = "bo1",
    round_minutes: Annotated[int, typer.Option(help="Round time in minutes.")] = 50,
    tiebreaks: Annotated[str, typer.Option(help="Tiebreak order after match points: omw, gw, ogw, oomw.")] = "omw,gw,ogw",
    unfinished: Annotated[str, typer.Option(
        help="A game unfinished at time: draw (Tournament Rules), exclude, or double-loss (両者敗北).")] = "draw",
    cut_format: Annotated[str, typer.Option(help="The top cut's matches: bo1, bo3 or bo5.")] = "bo3",
    seed: Annotated[int | None, typer.Option(help="Seed of the random pairings (recorded; random if absent).")] = None,
    date: Annotated[str | None, typer.Option(help="YYYY-MM-DD")] = None,
    lists: Annotated[str, typer.Option(help="closed (deck lists secret until kifu event publish-lists) or open.")] = "closed",
    checkin: Annotated[bool, typer.Option("--checkin", help="Check-in required: round 1 pairs only the players "
                                                             "checked in (kifu event checkin); the others are no-shows.")] = False,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Open a tournament.

    Example: kifu event new 冬季大会 --game gandice --rounds 3 --format bo3
    """
    from recorder import tournament_service
    st = tournament_service.open_event(open_store(db), event, game, rounds, format=format_, round_minutes=round_minutes,
                               tiebreaks=tiebreaks.split(","), unfinished=unfinished, seed=seed, date=date,
                               lists=lists, checkin=checkin, cut_format=cut_format)
    if as_json:
        dump_json(st.header_json())
    else:
        out(_("{event}: {game}, {rounds} rounds, {format} ({rules}), seed {seed}").format(
            event=st.name, game=st.game, rounds=st.rounds, format=st.format, rules=st.rules, seed=st.seed))


def _deck(deck: str | None, archetype: str | None, cards: str | None, deck_file: str | None) -> dict[str, Any] | None:
    if deck_file:
        from recorder import logformat
        try:
            text = Path(deck_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise LogFormatError([said(N_("{name}:0: file: {strerror}"), name=logformat.quote_name(deck_file), strerror=getattr(exc, 'strerror', None) or exc)]) from None
        return logformat.loads_object(text, f"{logformat.quote_name(deck_file)}:1", N_("a deck object"))
    if deck is None and archetype is None and cards is None:
        return None
    out_: dict[str, Any] = {"name": deck or ""}
    if archetype:
        out_["archetype"] = archetype
    out_["cards"] = [c.strip() for c in (cards or "").split(",") if c.strip()]
    return out_


def recorded(line: dict[str, Any], as_json: bool, said_: str, **values: Any) -> None:
    """What a command that appended one line prints: the line (``--json``), else ``said_`` (its
    words, already in the reader's language) filled with ``values``."""
    if as_json:
        dump_json(line)
    else:
        out(said_.format(**values))


@event_app.command("register")
def event_register(
    event: EventArg,
    player: Annotated[str, typer.Option(help="The player's name, as it will be printed.")],
    deck: Annotated[str | None, typer.Option(help="Deck name.")] = None,
    archetype: Annotated[str | None, typer.Option()] = None,
    cards: Annotated[str | None, typer.Option(help="card1,card2,… (the deck list, checked against the game's deck rules)")] = None,
    deck_file: Annotated[str | None, typer.Option(help="The deck as a JSON object (name, archetype, cards, …).")] = None,
    reading: Annotated[str | None, typer.Option(help="The name's reading in kana (やまだ): by-name lists follow it (五十音順).")] = None,
    late: Annotated[bool, typer.Option("--late", help="After round 1 is paired: enter with a match loss for each round "
                                                       "paired so far.")] = False,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Register a player with the deck list as registered.

    Example: kifu event register 冬季大会 --player 山田 --reading やまだ --deck 闇ダイス組 --cards ギダン,美雅羅,爪牙
    """
    from recorder import tournament_service
    line = tournament_service.register(open_store(db), event, player, _deck(deck, archetype, cards, deck_file),
                                       reading=reading, late=late)
    if as_json:
        dump_json(line)
    elif line.get("late"):
        out(_("{event}: {player} registered late (line {seq}): a match loss for round(s) {rounds}").format(
            event=event, player=line["player"], seq=line["seq"], rounds=", ".join(str(n) for n in line["missed"])))
    else:
        out(_("{event}: {player} registered (line {seq})").format(event=event, player=line["player"], seq=line["seq"]))


@event_app.command("checkin")
def event_checkin(
    event: EventArg,
    player: Annotated[str, typer.Option(help="The player who is here.")],
    by: Annotated[str | None, typer.Option(help="Who checked them in.")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Check a player in (an event opened with --checkin): round 1 pairs only the players checked
    in, the others are listed as no-shows.

    Example: kifu event checkin 冬季大会 --player 山田
    """
    from recorder import tournament_service
    line = tournament_service.checkin(open_store(db), event, player, by)
    recorded(line, as_json, _("{event}: {player} checked in (line {seq})"), event=event, player=line["player"],
             seq=line["seq"])


@event_app.command("drop")
def event_drop(
    event: EventArg,
    player: Annotated[str, typer.Option(help="The player who drops.")],
    after: Annotated[int | None, typer.Option(help="After this round (default: the last paired).")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Drop a player: never paired again, still ranked in the standings.

    Example: kifu event drop 冬季大会 --player 山田
    """
    from recorder import tournament_service
    line = tournament_service.drop(open_store(db), event, player, after)
    recorded(line, as_json, _("{event}: {player} dropped after round {n}"), event=event, player=line["player"],
             n=line["after_round"])


@event_app.command("reinstate")
def event_reinstate(
    event: EventArg,
    player: Annotated[str, typer.Option()],
    reason: Annotated[str, typer.Option(help="The judge's reason.")],
    by: Annotated[str | None, typer.Option(help="The judge.")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Undo a drop (a judge's correction: a new line, the drop stays in the history).

    Example: kifu event reinstate 冬季大会 --player 田中 --reason "誤ってドロップを記録"
    """
    from recorder import tournament_service
    line = tournament_service.reinstate(open_store(db), event, player, reason, by)
    recorded(line, as_json, _("{event}: {player} reinstated"), event=event, player=line["player"])


@event_app.command("publish-lists")
def event_publish_lists(
    event: EventArg,
    by: Annotated[str | None, typer.Option(help="Who publishes (the organiser or the head judge).")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Publish the closed deck lists: from now on every reader of the pages sees their cards.

    Example: kifu event publish-lists 冬季大会 --by 主催
    """
    from recorder import tournament_service
    line = tournament_service.publish_lists(open_store(db), event, by)
    recorded(line, as_json, _("{event}: deck lists published"), event=event)


@event_app.command("show")
def event_show(
    event: EventArg,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """The desk: the roster, the round (tables not started, in progress, finished, awaiting a
    ruling; time used; byes; drops; who has not reported), every table, disputes, penalties.

    Example: kifu event 冬季大会
    """
    from projections import tournament_rows
    from recorder import tournament_service
    store = open_store(db)
    if not tournament_service.exists(store, event):
        return _legacy_desk(store, event, as_json, lang_of(lang))
    from exports import tournament as view
    st = tournament_service.state(store, event, _moment(as_of))
    rounds = [view.round_view(st, r, tournament_rows.round_games(store, st, r)) for r in st.paired]
    if as_json:
        dump_json({**st.to_json(), "rounds": rounds})
        return
    out(view.roster_text(st, lang_of(lang)))
    if rounds:
        out("")
        out(view.round_text(rounds[-1], lang_of(lang)))


def _legacy_desk(store: Any, event: str, as_json: bool, lang: str) -> None:
    from exports import desk
    from projections import standings
    from projections.readmodel import catch_up_store
    from projections.replay import Replay

    rm = catch_up_store(store)  # the desk's rows from the read model: only matches not checked yet are folded
    try:
        found = desk.model_rows(rm.db.conn, event, lambda mid: Replay(*store.load(mid)))
    finally:
        rm.close()
    if not found:
        raise NotFoundError(said(N_("no event {event!r} and no match of it (kifu matches lists the events)"), event=event))
    rows = desk.event_desk(event, found)
    if as_json:
        dump_json(rows)
        return
    lang = lang_of(lang)
    out(desk.desk_text(rows, lang=lang))
    out("")
    out(desk.standings_text(standings.from_summaries(event, [desk._summary_of(r, event) for r in found]), lang))


@event_app.command("export")
def event_export(
    event: EventArg,
    output: Annotated[str | None, typer.Option("-o", "--output", help="File to write (default: stdout).")] = None,
    db: DbOpt = None,
) -> None:
    """Export the event's own log (JSON Lines: the header, then one line per registration, drop,
    pairing, change and close). Its matches export with kifu export.

    Example: kifu event export 冬季大会 -o 冬季大会.event.jsonl
    """
    from recorder import tournament_service
    text = "\n".join(tournament_service.export_lines(open_store(db), event)) + "\n"
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        typer.echo(text, nl=False)


@event_app.command("import")
def event_import(
    path: Annotated[str, typer.Argument(help="An event log written by kifu event export.")],
    db: DbOpt = None,
) -> None:
    """Import an event's log, all or nothing (its matches import with kifu import).

    Example: kifu event import 冬季大会.event.jsonl
    """
    from recorder import tournament_service
    name = tournament_service.import_log(open_store(db), path)
    out(_("imported event {event}").format(event=name))


# -- kifu round ---------------------------------------------------------------------------------


def _print_round(st: Any, number: int, as_json: bool, lang: str) -> None:
    from exports import tournament as view
    rnd = st.round(number)
    if as_json:
        dump_json({"event": st.name, **rnd.to_json(), "by_name": view.by_name(rnd, st)})
    else:
        out(view.pairing_text(st, rnd, lang))


@round_app.command("pair")
def round_pair(
    event: EventArg,
    import_: Annotated[str | None, typer.Option("--import", help="Pairings made elsewhere: CSV of table,player1,player2.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for this round (default: from the event's seed).")] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """Pair the next round (Swiss by match points; round 1 at random), create its matches and
    print them with their match ids.

    Example: kifu round pair 冬季大会
    """
    from projections import tournament_rows
    from recorder import tournament_service
    store = open_store(db)
    if import_:
        line = tournament_service.import_pairing(store, event, import_)
    else:
        line = tournament_service.pair(store, event, tournament_rows.event_games(store, event), seed)
    _print_round(tournament_service.state(store, event), line["round"], as_json, lang_of(lang))


@round_app.command("show")
def round_show(
    event: EventArg,
    number: Annotated[int | None, typer.Argument(help="The round (default: the last paired).")] = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV (round,table,player1,player2,match).")] = False,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """A round's pairings, by table and by name (what is posted on the wall).

    Example: kifu round show 冬季大会 2 --csv
    """
    from exports import tournament as view
    st = _state(db, event, as_of)
    number = number if number is not None else (st.current.number if st.current else 0)
    rnd = st.round(number)
    if rnd is None:
        raise NotFoundError(said(N_("{event!r} has no round {n}"), event=event, n=number))
    if as_csv:
        typer.echo(view.pairing_csv(rnd), nl=False)
    else:
        _print_round(st, number, as_json, lang_of(lang))


@round_app.command("change")
def round_change(
    event: EventArg,
    table: Annotated[list[str], typer.Option(help="LABEL=PLAYER1,PLAYER2 — every table of the new pairing.")],
    reason: Annotated[str, typer.Option(help="The judge's reason.")],
    bye: Annotated[list[str], typer.Option(help="A player with the bye.")] = [],
    number: Annotated[int | None, typer.Option("--round", help="The round (default: the open one).")] = None,
    by: Annotated[str | None, typer.Option(help="The judge.")] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """A judge changes the pairing of the open round (the whole new pairing, with the reason).

    Example: kifu round change 冬季大会 --table 1=山田,佐藤 --table 2=鈴木,田中 --reason "同じ店舗の再戦"
    """
    from recorder import tournament_service
    tables = []
    for spec in table:
        label, sep, names = spec.partition("=")
        players = [n.strip() for n in names.split(",") if n.strip()]
        if not sep or not label.strip():
            raise LogFormatError([at("--table", said(N_("expected LABEL=PLAYER1,PLAYER2, got {value!r}"), value=spec))])
        tables.append({"table": label.strip(), "players": players})
    store = open_store(db)
    line = tournament_service.change(store, event, number, tables, list(bye), reason, by)
    _print_round(tournament_service.state(store, event), line["round"], as_json, lang_of(lang))


@round_app.command("close")
def round_close(
    event: EventArg,
    unreported: Annotated[str | None, typer.Option(
        help="How the tables with no result count: draw or double-loss (両者敗北). Without it, such tables are refused.")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Close the open round: its results stand, its table tokens are revoked. Refused, naming
    each table, while a table has no result (unless --unreported says how they count).

    Example: kifu round close 冬季大会 --unreported double-loss
    """
    from recorder import tournament_service
    line = tournament_service.close(open_store(db), event, unreported)
    recorded(line, as_json, _("{event}: round {n} closed"), event=event, n=line["round"])


@round_app.command("sheet")
def round_sheet(
    event: EventArg,
    number: Annotated[int, typer.Argument(help="The round (open: a closed round's tokens are revoked).")],
    output: Annotated[str, typer.Option("-o", "--output", help="FILE.html, or FILE.pdf (needs Playwright and chromium).")],
    base_url: Annotated[str, typer.Option(help="Where the phones reach kifu serve.")] = "http://127.0.0.1:8000",
    per_seat: Annotated[bool, typer.Option("--per-seat", help="One QR code per seat: each player's own page (a player's token).")] = False,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """The round sheet: each table's pairing and a QR code of its recording page, with a token
    for that table and round only (shown on the sheet only; revoked when the round closes).

    Example: kifu round sheet 冬季大会 2 -o 第2回戦.html --base-url http://192.168.1.10:8000
    """
    from recorder import roundsheet
    blocks = roundsheet.write(open_store(db), event, number, output, base_url, lang_of(lang), per_seat)
    if as_json:
        dump_json({"event": event, "round": number, "output": output, "tables": blocks})
    else:
        out(_("{output}: {n} table(s), tokens {tokens}").format(
            output=output, n=len(blocks), tokens=", ".join(b["token"] for b in blocks) or "-"))


@round_app.command("cut")
def round_cut(
    event: EventArg,
    top: Annotated[int, typer.Option(help="The cut's size: 2, 4, 8 or another power of two.")],
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """The top cut: after the last Swiss round is closed, seed the top N of the final standings
    and pair the first playoff round (1 v 8, 4 v 5, 2 v 7, 3 v 6; byes to the top seeds when
    fewer players remain). The higher seed sits first and chooses who plays first.

    Example: kifu round cut 冬季大会 --top 8
    """
    from projections import tournament_rows
    from recorder import topcut, tournament_service
    store = open_store(db)
    line = topcut.cut(store, event, top, tournament_rows.event_games(store, event))
    _print_round(tournament_service.state(store, event), line["round"], as_json, lang_of(lang))


@round_app.command("game")
def round_game(
    event: EventArg,
    table: Annotated[str, typer.Option(help="The table that plays another game.")],
    number: Annotated[int | None, typer.Option("--round", help="The round (default: the last paired).")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Another game at a table of the open round: a playoff match has no draw and goes on until
    a player wins; a best of N whose games were drawn plays its decider.

    Example: kifu round game 冬季大会 --table 1
    """
    from recorder import topcut
    header = topcut.add_game(open_store(db), event, table, number)
    if as_json:
        dump_json(header)
    else:
        out(_("{event}: table {table}: game {match} added").format(event=event, table=table, match=header["match"]["id"]))


@event_app.command("bracket")
def event_bracket(
    event: EventArg,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """The top cut's bracket: seeds, each playoff round's tables (games won, winner), the champion.

    Example: kifu event bracket 冬季大会
    """
    from exports import bracket_view
    from projections import bracket, tournament_rows
    store = open_store(db)
    st = _state(db, event, as_of)
    view = bracket.bracket(st, tournament_rows.event_games(store, event))
    if as_json:
        dump_json(view)
    else:
        out(bracket_view.bracket_text(view, lang_of(lang)))


# -- kifu standings -----------------------------------------------------------------------------


@app.command("standings")
def standings_(
    event: Annotated[str, typer.Argument(help="The event's name.")],
    round_: Annotated[int | None, typer.Option("--round", help="The standings as of this round.")] = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV.")] = False,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """Standings: match points (win 3, draw 1; a bye is a 2–0 win), then the event's tiebreaks
    (OMW%, GW%, OGW%, each opponent floored at 33%), as the Tournament Rules' Appendix C says
    (docs/standings.md).

    Example: kifu standings 冬季大会 --round 2 --csv
    """
    from exports import desk
    from projections import tournament_rows
    from recorder import tournament_service
    if as_csv and as_json:
        raise LogFormatError([N_("--csv, --json: choose one")])
    store = open_store(db)
    if tournament_service.exists(store, event):
        from projections import tournament as T
        st = tournament_service.state(store, event, _moment(as_of))
        if round_ is not None and not 0 <= round_ <= (st.current.number if st.current else 0):
            raise LogFormatError([at("--round", said(N_("{event!r} has paired {n} round(s)"), event=event, n=st.current.number if st.current else 0))])
        from projections import bracket
        games = tournament_rows.event_games(store, event)
        table = bracket.placed(st, T.event_standings(st, games, upto=round_), games, upto=round_)
    else:  # results from the read model's rows, found through its event index: nothing folded
        from projections import standings
        games = tournament_rows.event_games(store, event)
        if round_ is not None:
            table = standings.standings(event, [g for g in games if g.round is not None and g.round <= round_])
        else:
            if not games:
                raise NotFoundError(said(N_("no event {event!r} and no match of it (kifu matches lists the events)"), event=event))
            table = standings.standings(event, games)
    if as_csv:
        typer.echo(desk.standings_csv(table), nl=False)
    elif as_json:
        out(json.dumps({"event": event, "round": round_, "standings": [s.to_json() for s in table.rows],
                        "pending": [{"round": p.round, "table": p.table, "players": list(p.players)}
                                    for p in table.pending]}, ensure_ascii=False, indent=2))
    else:
        out(desk.standings_text(table, lang_of(lang)))


# -- players' reports and time extensions (issue 33, recorder/reports.py) ------------------------


@event_app.command("report")
def event_report(
    event: EventArg,
    player: Annotated[str, typer.Option(help="The player who reports (their own table).")],
    result: Annotated[str, typer.Option(help="win, loss or draw, from the player's side.")],
    games: Annotated[str | None, typer.Option(help="The games from the player's side: 2-1 (or 1-1-1 with a draw).")] = None,
    key: Annotated[str | None, typer.Option(help="An idempotency key: the same key again is the same report.")] = None,
    by: Annotated[str | None, typer.Option(help="Who entered it (default: the player).")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """A player reports their table's result; when both players' reports agree, it stands.

    Example: kifu event report 冬季大会 --player 山田 --result win --games 2-1
    """
    from recorder import reports
    done = reports.report(open_store(db), event, player, result, games, by=by or player, key=key)
    if as_json:
        dump_json(done)
        return
    line = done["line"]
    word = {"agreed": N_("both reports agree: the result stands"), "dispute": N_("the reports disagree: a judge rules"),
            "waiting": N_("waiting for the opponent's report")}.get(done["status"], "")
    out(_("{event}: round {n} table {table}: {player} reported {result} {games}").format(
        event=event, n=line["round"], table=line["table"], player=line["player"], result=line["result"],
        games=line["games"]) + (f" — {_(word)}" if word else "") + (f" ({_('already recorded')})" if done["repeated"] else ""))


@round_app.command("extend")
def round_extend(
    event: EventArg,
    table: Annotated[str, typer.Option(help="The table of the open round.")],
    minutes: Annotated[int, typer.Option(help="Extra minutes for that table.")],
    reason: Annotated[str, typer.Option(help="The judge's reason (a long ruling, a deck check).")],
    by: Annotated[str | None, typer.Option(help="The judge.")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """A judge's time extension for one table of the open round, with the reason.

    Example: kifu round extend 冬季大会 --table 3 --minutes 5 --reason "デッキチェック"
    """
    from recorder import reports
    line = reports.extend(open_store(db), event, table, minutes, reason, by)
    recorded(line, as_json, _("{event}: round {n} table {table}: +{minutes} min ({reason})"), event=event,
             n=line["round"], table=line["table"], minutes=line["minutes"], reason=line["reason"])


# -- kifu event publish -------------------------------------------------------------------------


@event_app.command("publish")
def event_publish(
    event: EventArg,
    output: Annotated[str, typer.Option("-o", "--output", help="The site's folder (created; updated in place).")],
    db: DbOpt = None,
) -> None:
    """Write the event as a static site in a folder: standings, rounds, players, every match's
    replay, the metagame and card statistics; Japanese, English in en/. Running it again writes
    only the files that changed (docs/tournament.md "Publishing").

    Example: kifu event publish 冬季大会 -o site/
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from exports import site, stats_render
    from projections import stats, tournament_rows
    from recorder import tournament_service
    from recorder.cli.stats import _catch_up

    store = open_store(db)
    if not tournament_service.exists(store, event):
        raise NotFoundError(said(N_("no event {event!r} with a roster and rounds (kifu event new {event2} …)"), event=event, event2=event))
    folder = Path(output)
    if folder.exists() and not folder.is_dir():
        raise LogFormatError([said(N_("-o: {name}: not a folder"), name=str(folder))])
    st = tournament_service.state(store, event)
    games = tournament_rows.event_games(store, event)

    def load(mid: str) -> Any:
        try:
            return store.load(mid)
        except NotFoundError:
            return None

    rm = _catch_up(store, None, False)
    try:
        filters = stats.make_filters(st.game, event, None, None, None, "archetype", 0)
        every_list = all(site.list_visible(st, p.name) for p in st.players.values())

        cut = (st.game, st.rounds, tuple(st.cut)) if st.cut else None

        def views(lang: str) -> tuple[str, str]:
            meta = stats_render.view_sections(rm, filters, "metagame", cut=cut)
            body = stats_render.view_body(rm, filters, "metagame", meta, lang)[1] if meta else ""
            cards = ""
            if every_list:  # a closed list's cards would show in the card table
                sections = stats_render.view_sections(rm, filters, "cards")
                if any(r.get("cards") for _g, _t, r in sections):
                    cards = stats_render.view_body(rm, filters, "cards", sections, lang)[1]
            return body, cards

        files = site.build(st, games, load, views, site.reuse_from(folder))
    finally:
        rm.close()
    err = Console(stderr=True)
    try:
        with Progress(TextColumn(_("publish: writing")), BarColumn(), MofNCompleteColumn(), console=err,
                      transient=True, disable=not err.is_terminal) as progress:
            task = progress.add_task("write", total=len(files))
            written, unchanged = site.write(files, folder, lambda: progress.advance(task))
    except OSError as exc:
        raise LogFormatError([said(N_("-o: {name}: {strerror}"), name=str(exc.filename or folder), strerror=exc.strerror)]) from None
    out(_("published {event} in {folder}: {written} written, {unchanged} unchanged").format(
        event=event, folder=folder, written=written, unchanged=unchanged))


__all__ = ["event_app", "round_app"]
