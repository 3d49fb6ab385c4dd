"""``kifu new``, ``record``, ``import`` and ``export``: what writes a match and what copies it out."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from projections.errors import LogFormatError
from projections.base import said
from recorder.cli.common import (
    DbOpt,
    LangOpt,
    N_,
    _,
    tr,
    app,
    lang_of,
    open_store,
    out,
    parse_fields,
)


# -- new / record ------------------------------------------------------------------------------


# The deck keys a header may give each player, each with its option of ``kifu new`` and what a
# value of it looks like (DECK_REQUIRED of a game says which it must have).
DECK_OPTIONS = {"name": ("--deck", "DECK"), "archetype": ("--archetype", "ARCHETYPE"), "cards": ("--cards", "CARD,…"),
                "stock": ("--stock", "FIGURE,…"), "evolution": ("--evolution", "DIE,…"), "kofuda": ("--kofuda", "CARD,…"),
                "dice": ("--dice", "[{…}]")}


@app.command()
def new(
    header_file: Annotated[str | None, typer.Argument(help="A header JSON file, or - for stdin.")] = None,
    game: Annotated[str | None, typer.Option(help="gandice, mushijingi, gurren-lagann, variants-war.")] = None,
    rules: Annotated[str | None, typer.Option(help="A rules version, e.g. gurren-lagann/2 (the newest if absent).")] = None,
    match_id: Annotated[str | None, typer.Option("--id", help="Match id (generated if absent).")] = None,
    title: Annotated[str | None, typer.Option()] = None,
    event: Annotated[str | None, typer.Option()] = None,
    round_: Annotated[int | None, typer.Option("--round")] = None,
    table: Annotated[str | None, typer.Option()] = None,
    date: Annotated[str | None, typer.Option(help="YYYY-MM-DD")] = None,
    player: Annotated[list[str], typer.Option(help="ID=NAME, once per player.")] = [],
    deck: Annotated[list[str], typer.Option(help="ID=DECK NAME")] = [],
    archetype: Annotated[list[str], typer.Option(help="ID=ARCHETYPE (variants-war: the faction)")] = [],
    cards: Annotated[list[str], typer.Option(help="ID=card1,card2,... (the deck list)")] = [],
    stock: Annotated[list[str], typer.Option(help="ID=figure1,figure2,... (gurren-lagann: the stock deck)")] = [],
    evolution: Annotated[list[str], typer.Option(help="ID=die1,die2,... (gandice: the evolution dice)")] = [],
    kofuda: Annotated[list[str], typer.Option(help="ID=card1,card2,... (gandice: the 小札絵 cards)")] = [],
    dice: Annotated[list[str], typer.Option(help="ID=JSON list of the deck's own die objects (gandice)")] = [],
    catalog: Annotated[str | None, typer.Option(help="A card catalog file (mushijingi; the shipped one if absent).")] = None,
    first: Annotated[str | None, typer.Option(help="Player id who goes first.")] = None,
    house_rule: Annotated[list[str], typer.Option(help="NAME=VALUE house-rule option.")] = [],
    db: DbOpt = None,
) -> None:
    """Start a match: from a header file, or from options, one for each field of the header.

    What a game's header needs and is not given is named in one line, and nothing is written.

    Example: kifu new --game gurren-lagann --id r1-t3 --player A=シモン --player B=ヴィラル
    --cards A=グレン,ラガン,... --stock A=グレン,ラガン,... --cards B=... --stock B=... --first A
    """
    from recorder import logformat, service
    if header_file:
        name = "<stdin>" if header_file == "-" else logformat.quote_name(header_file)
        text = _decode(sys.stdin.buffer.read() if header_file == "-" else _read(header_file), name)
        header = logformat.loads(text, f"{name}:1")
    else:
        if not game and not rules:
            raise LogFormatError([N_("--game: missing (or give a header file)")])
        import contextlib

        from projections import registry
        from projections.errors import UnknownGameError

        # the game's own name in the header (``蟲神器`` and ``mj`` are mushijingi's names); an
        # unknown one is left for the header's check, which names the games kifu knows
        game = game or str(rules).partition("/")[0]
        with contextlib.suppress(UnknownGameError):
            game = registry.canonical(game)
        players: dict[str, dict[str, Any]] = {}
        for pid, name in parse_fields(player, "--player").items():
            players[pid] = {"id": pid, "name": str(name), "deck": {"name": ""}}
        for option, key, values in (("--deck", "name", deck), ("--archetype", "archetype", archetype)):
            for pid, value in parse_fields(values, option).items():
                _player(players, pid, option)["deck"][key] = str(value)
        for option, key, values in (("--cards", "cards", cards), ("--stock", "stock", stock),
                                    ("--evolution", "evolution", evolution), ("--kofuda", "kofuda", kofuda)):
            for pair in values:
                pid, _sep, listed = pair.partition("=")
                _player(players, pid, option)["deck"][key] = [c.strip() for c in listed.split(",") if c.strip()]
        for pid, value in parse_fields(dice, "--dice").items():
            _player(players, pid, "--dice")["deck"]["dice"] = value
        for p in players.values():
            p["deck"].setdefault("cards", [])
        match: dict[str, Any] = {"house_rules": parse_fields(house_rule, "--house-rule")}
        for key, value in (("id", match_id), ("title", title), ("event", event), ("round", round_), ("table", table),
                           ("date", date), ("catalog", catalog)):
            if value is not None:
                match[key] = value
        header = {"kifu": 1, "game": game, "match": match, "players": list(players.values())}
        if rules:
            header["rules"] = rules
        if first:
            header["first"] = first
        _missing(header, given={key: {pid for pid, p in players.items() if key in p["deck"] and (p["deck"][key] or key == "name")}
                                for key in DECK_OPTIONS})
    store = open_store(db)
    out(service.create_match(store, header))


def _missing(header: dict[str, Any], given: dict[str, set[str]]) -> None:
    """One line naming every option a game's header needs and was not given (its players, each
    player's deck lists), before anything is written."""
    from projections import registry

    from projections.errors import UnknownGameError

    try:
        ruleset = registry.get(header.get("rules") or header["game"])
    except UnknownGameError:
        return  # the header's check names the games kifu knows
    pids = [p["id"] for p in header["players"]]
    wanted = ["--player ID=NAME"] * max(ruleset.min_players - len(pids), 0)
    for pid in pids:
        for keys in getattr(ruleset, "deck_required", ()):  # a ruleset outside the packages may say nothing
            if not any(pid in given.get(k, set()) for k in keys):
                wanted.append(" / ".join(f"{DECK_OPTIONS[k][0]} {pid}={DECK_OPTIONS[k][1]}" for k in keys))
    if wanted:
        raise LogFormatError([said(N_("missing {options} (a {game} header needs them)"), options=", ".join(wanted),
                                   game=ruleset.name)])


def _player(players: dict[str, dict[str, Any]], pid: str, option: str) -> dict[str, Any]:
    if pid not in players:
        raise LogFormatError([said(N_("{option}: unknown player {pid!r} (declare it with --player {id}=NAME)"), option=option, pid=pid, id=pid)])
    return players[pid]


def _read(path: str) -> bytes:
    from recorder import logformat
    name = logformat.quote_name(path)
    try:
        if not Path(path).is_file():
            raise LogFormatError([said(N_("{name}:0: file: not a regular file (or missing)"), name=name)])
        return Path(path).read_bytes()
    except OSError as exc:
        raise LogFormatError([said(N_("{name}:0: file: {strerror}"), name=name, strerror=exc.strerror)]) from None


def _decode(data: bytes, name: str) -> str:
    """UTF-8 text, or one problem naming the line the bad byte is on."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise LogFormatError([said(N_("{name}:{line}: encoding: not UTF-8 (byte {byte})"), name=name, line=line, byte=f"0x{data[exc.start]:02x}")]) from None


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
    from recorder import logformat, service
    store = open_store(db)
    if interactive:
        from recorder.live import live_session

        raise typer.Exit(live_session(store, match, strict, lang_of()))
    if move:
        line = logformat.loads_object(move, "move")
    else:
        line = {}
    if type_:
        line["type"] = type_
    if by:
        line["by"] = by
    line.update(parse_fields(field, "--field"))
    line.pop("seq", None)
    seq, found = service.record(store, match, line, strict=strict)
    out(_("recorded {match} seq {seq}").format(match=match, seq=seq))
    for v in found:
        out(f"  ✗ {v.rule}: {tr(v.message)}")


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

    raise typer.Exit(import_paths(open_store(db), paths, say=tr))


@app.command()
def export(
    match: Annotated[str, typer.Argument(help="Match id.")],
    format_: Annotated[str, typer.Option("--format", help="jsonl (the match log), md or json.")] = "jsonl",
    output: Annotated[str | None, typer.Option("-o", "--output", help="File to write (default stdout).")] = None,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """Write a match out (md and json carry every line in words, in --lang).

    Example: kifu export r1-t3 --format jsonl -o r1-t3.jsonl
    """
    from recorder import logformat
    store = open_store(db)
    header, entries = store.load(match)
    if format_ == "jsonl":
        text = "\n".join(logformat.export_lines(header, entries)) + "\n"
    else:
        try:
            from exports import formats
        except ImportError:
            raise LogFormatError([said(N_("--format: {value!r} is not available (jsonl)"), value=format_)]) from None
        text = formats.render(format_, header, entries, lang_of(lang))
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


