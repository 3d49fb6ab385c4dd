"""The ``kifu`` command. A face: it parses, calls inward (recorder, projections, exports), and
prints. Every error a user can cause ends as one line on stderr and a non-zero exit."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import click
import typer

from projections import registry
from projections.errors import KifuError, LogFormatError, NotFoundError
from projections.replay import Replay
from recorder import logformat, service
from recorder.store import Store

app = typer.Typer(
    name="kifu",
    help="kifu (棋譜): record tabletop matches move by move, replay and check them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

DbOpt = Annotated[
    str | None,
    typer.Option("--db", help="SQLite file or postgresql:// URL (default ./kifu.db, or KIFU_DB)."),
]
ViewOpt = Annotated[str, typer.Option("--view", help="ruled (rulings applied) or recorded.")]
AsOfOpt = Annotated[
    str | None, typer.Option("--as-of", help="Show the record as it stood at this ISO time.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]

_global_db: dict[str, str | None] = {"db": None}


@app.callback()
def _main(db: DbOpt = None) -> None:
    """kifu (棋譜): record tabletop matches move by move, replay and check them.

    Example: kifu import examples/gandice-example.jsonl && kifu board gandice-example --at 5
    """
    _global_db["db"] = db


def open_store(db: str | None) -> Store:
    return Store(db or _global_db["db"])


def out(text: str) -> None:
    typer.echo(text)


def dump_json(obj: Any) -> None:
    out(json.dumps(obj, ensure_ascii=False, indent=2))


def check_view(view: str) -> str:
    if view not in ("ruled", "recorded"):
        raise LogFormatError([f"--view: must be ruled or recorded, not {view!r}"])
    return view


def parse_value(text: str) -> Any:
    """A field value from the command line: JSON where it parses, else the plain string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_fields(pairs: list[str], option: str) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise LogFormatError([f"{option}: expected KEY=VALUE, got {pair!r}"])
        fields[key.strip()] = parse_value(value)
    return fields


# -- new / record ------------------------------------------------------------------------------


@app.command()
def new(
    header_file: Annotated[str | None, typer.Argument(help="A header JSON file, or - for stdin.")] = None,
    game: Annotated[str | None, typer.Option(help="gandice, mushijingi, gurren-lagann, variants-war.")] = None,
    match_id: Annotated[str | None, typer.Option("--id", help="Match id (generated if absent).")] = None,
    title: Annotated[str | None, typer.Option()] = None,
    event: Annotated[str | None, typer.Option()] = None,
    round_: Annotated[int | None, typer.Option("--round")] = None,
    table: Annotated[str | None, typer.Option()] = None,
    date: Annotated[str | None, typer.Option(help="YYYY-MM-DD")] = None,
    player: Annotated[list[str], typer.Option(help="ID=NAME, once per player.")] = [],
    deck: Annotated[list[str], typer.Option(help="ID=DECK NAME")] = [],
    archetype: Annotated[list[str], typer.Option(help="ID=ARCHETYPE")] = [],
    cards: Annotated[list[str], typer.Option(help="ID=card1,card2,... (the deck list)")] = [],
    first: Annotated[str | None, typer.Option(help="Player id who goes first.")] = None,
    house_rule: Annotated[list[str], typer.Option(help="NAME=VALUE house-rule option.")] = [],
    db: DbOpt = None,
) -> None:
    """Start a match: from a header file, or from flags.

    Example: kifu new --game gandice --id r1-t3 --player A=山田 --player B=佐藤
    --deck A=闇ダイス組 --cards A=美雅羅,笑童児,... --first A
    """
    if header_file:
        text = sys.stdin.read() if header_file == "-" else _read(header_file)
        try:
            header = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LogFormatError([f"{header_file}:{exc.lineno}: json: {exc.msg}"]) from None
    else:
        if not game:
            raise LogFormatError(["--game: missing (or give a header file)"])
        players: dict[str, dict[str, Any]] = {}
        for pid, name in parse_fields(player, "--player").items():
            players[pid] = {"id": pid, "name": str(name), "deck": {"name": "", "cards": []}}
        for option, key, values in (("--deck", "name", deck), ("--archetype", "archetype", archetype)):
            for pid, value in parse_fields(values, option).items():
                _player(players, pid, option)["deck"][key] = str(value)
        for pair in cards:
            pid, _, listed = pair.partition("=")
            _player(players, pid, "--cards")["deck"]["cards"] = [c.strip() for c in listed.split(",") if c.strip()]
        match: dict[str, Any] = {"house_rules": parse_fields(house_rule, "--house-rule")}
        for key, value in (("id", match_id), ("title", title), ("event", event), ("round", round_), ("table", table), ("date", date)):
            if value is not None:
                match[key] = value
        header = {"kifu": 1, "game": game, "match": match, "players": list(players.values())}
        if first:
            header["first"] = first
    store = open_store(db)
    out(service.create_match(store, header))


def _player(players: dict[str, dict[str, Any]], pid: str, option: str) -> dict[str, Any]:
    if pid not in players:
        raise LogFormatError([f"{option}: unknown player {pid!r} (declare it with --player {pid}=NAME)"])
    return players[pid]


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogFormatError([f"{path}:0: file: {exc.strerror}"]) from None


@app.command()
def record(
    match: Annotated[str, typer.Argument(help="Match id.")],
    move: Annotated[str | None, typer.Argument(help="The move as a JSON object (no seq).")] = None,
    type_: Annotated[str | None, typer.Option("--type", "-t", help="Move type.")] = None,
    by: Annotated[str | None, typer.Option(help="Player id (or judge name for meta events).")] = None,
    field: Annotated[list[str], typer.Option("--field", "-f", help="KEY=VALUE (VALUE parsed as JSON if it can be).")] = [],
    strict: Annotated[bool, typer.Option(help="Refuse an illegal move instead of flagging it.")] = False,
    interactive: Annotated[bool, typer.Option("--interactive", "-i", help="Live logging at the table.")] = False,
    db: DbOpt = None,
) -> None:
    """Append one move (or any log line) to a match.

    Example: kifu record r1-t3 --type attack --by A -f die=美雅羅 -f target=ボクサー
    Example: kifu record r1-t3 '{"type": "summon", "by": "A", ...}'
    Example: kifu record r1-t3 -i     (live logging: prompts move by move)
    """
    store = open_store(db)
    if interactive:
        from recorder.live import live_session

        raise typer.Exit(live_session(store, match, strict))
    if move:
        try:
            line = json.loads(move)
        except json.JSONDecodeError as exc:
            raise LogFormatError([f"move: not JSON ({exc.msg})"]) from None
        if not isinstance(line, dict):
            raise LogFormatError(["move: must be a JSON object"])
    else:
        line = {}
    if type_:
        line["type"] = type_
    if by:
        line["by"] = by
    line.update(parse_fields(field, "--field"))
    line.pop("seq", None)
    seq, found = service.record(store, match, line, strict=strict)
    out(f"recorded {match} seq {seq}")
    for v in found:
        out(f"  ✗ {v.rule}: {v.message}")


# -- import / export -------------------------------------------------------------------------


@app.command("import")
def import_(
    paths: Annotated[list[str], typer.Argument(help="Log files or directories of *.jsonl.")],
    db: DbOpt = None,
) -> None:
    """Import match logs, each file all or nothing; carry on past bad files.

    Example: kifu import examples/            (every *.jsonl in the folder)
    """
    from recorder.bulk import import_paths

    raise typer.Exit(import_paths(open_store(db), paths))


@app.command()
def export(
    match: Annotated[str, typer.Argument(help="Match id.")],
    format_: Annotated[str, typer.Option("--format", help="jsonl (the match log), md or json.")] = "jsonl",
    output: Annotated[str | None, typer.Option("-o", "--output", help="File to write (default stdout).")] = None,
    db: DbOpt = None,
) -> None:
    """Write a match out.

    Example: kifu export r1-t3 --format jsonl -o r1-t3.jsonl
    """
    store = open_store(db)
    header, entries = store.load(match)
    if format_ == "jsonl":
        text = "\n".join(logformat.export_lines(header, entries)) + "\n"
    else:
        try:
            from exports import formats
        except ImportError:
            raise LogFormatError([f"--format: {format_!r} is not available (jsonl)"]) from None
        text = formats.render(format_, header, entries)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


# -- reading ---------------------------------------------------------------------------------


@app.command()
def matches(
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """List recorded matches.

    Example: kifu matches --game gandice --json
    """
    store = open_store(db)
    wanted = registry.canonical(game) if game else None
    rows = []
    for header in store.headers():
        if wanted and header["game"] != wanted:
            continue
        mid = header["match"]["id"]
        _, entries = store.load(mid)
        rep = Replay(header, entries)
        result = rep.result()
        rows.append({
            "id": mid,
            "game": header["game"],
            "event": header["match"].get("event"),
            "round": header["match"].get("round"),
            "table": header["match"].get("table"),
            "date": header["match"].get("date"),
            "players": [{"id": p["id"], "name": p.get("name"), "deck": (p.get("deck") or {}).get("name")} for p in header["players"]],
            "steps": rep.steps,
            "result": result.to_json() if result else None,
        })
    if as_json:
        dump_json(rows)
        return
    if not rows:
        out("no matches")
        return
    for row in rows:
        players = " vs ".join(f"{p['name'] or p['id']} ({p['deck'] or '-'})" for p in row["players"])
        res = row["result"]
        res_text = "in progress" if res is None else f"{res['winner'] or 'draw'} ({res['reason']})"
        out(f"{row['id']}  {row['game']}  {players}  {row['steps']} steps  {res_text}")


@app.command()
def log(
    match: Annotated[str, typer.Argument(help="Match id.")],
    view: ViewOpt = "ruled",
    as_of: AsOfOpt = None,
    db: DbOpt = None,
) -> None:
    """A numbered move list with violations, annotations and rulings marked.

    Example: kifu log r1-t3 --view recorded
    """
    from exports.text import format_log

    rep = service.replay(open_store(db), match, check_view(view), as_of)
    out(format_log(rep))


@app.command()
def board(
    match: Annotated[str, typer.Argument(help="Match id.")],
    at: Annotated[int | None, typer.Option("--at", help="Step (default: the last).")] = None,
    as_json: JsonOpt = False,
    view: ViewOpt = "ruled",
    as_of: AsOfOpt = None,
    db: DbOpt = None,
) -> None:
    """The board at a step.

    Example: kifu board r1-t3 --at 12 --json
    """
    from exports.text import format_board

    rep = service.replay(open_store(db), match, check_view(view), as_of)
    step = rep.steps if at is None else at
    if not 0 <= step <= rep.steps:
        raise NotFoundError(f"{match}: step {step} is out of range 0..{rep.steps}")
    if as_json:
        dump_json(rep.board_json(step))
    else:
        out(format_board(rep, step))


@app.command()
def result(
    match: Annotated[str, typer.Argument(help="Match id.")],
    as_json: JsonOpt = False,
    view: ViewOpt = "ruled",
    as_of: AsOfOpt = None,
    db: DbOpt = None,
) -> None:
    """The match result (or that it is still in progress).

    Example: kifu result r1-t3 --json
    """
    rep = service.replay(open_store(db), match, check_view(view), as_of)
    res = rep.result()
    if as_json:
        dump_json(res.to_json() if res else None)
    elif res is None:
        out(f"{match}: in progress after {rep.steps} steps")
    else:
        names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
        winner = f"{names.get(res.winner, res.winner)} ({res.winner}) wins" if res.winner else "draw"
        out(f"{match}: {winner} — {res.reason}")


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
            line = f"seq {v.seq}: {v.rule}: {v.message}"
            if v.expected:
                line += f" (expected: {json.dumps(dict(v.expected), ensure_ascii=False)})"
            if v.suggest:
                line += f" (suggest: {json.dumps([dict(m) for m in v.suggest], ensure_ascii=False)})"
            out(line)
        out(f"{len(found)} violation(s) in {rep.steps} steps")
    if found:
        raise typer.Exit(1)


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
    from recorder.synth import write_matches

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
    from recorder.benchmark import run

    run(Path(output), quick=quick, pg=pg)


# Command groups that live in their own modules register themselves on ``app`` when imported.
PLUGIN_MODULES = ("recorder.cli_rulings", "recorder.cli_show", "recorder.cli_stats", "recorder.cli_migrate")


def _load_plugins() -> None:
    import importlib

    for name in PLUGIN_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def main() -> None:
    """Entry point: every KifuError becomes one line and an exit code, never a traceback."""
    _load_plugins()
    try:
        code = app(standalone_mode=False)
    except KifuError as exc:
        problems = exc.problems if isinstance(exc, LogFormatError) else [str(exc)]
        for problem in problems:
            typer.echo(f"kifu: {problem}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        typer.echo("kifu: aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        typer.echo(f"kifu: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        typer.echo("kifu: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:  # a bug: still one line, with the way to see more
        if os.environ.get("KIFU_DEBUG"):
            raise
        typer.echo(f"kifu: internal error: {type(exc).__name__}: {exc} (set KIFU_DEBUG=1 for details)", err=True)
        sys.exit(70)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
