"""``kifu token new|list|revoke``: scoped write tokens for the replay server (recorder/tokens.py)."""

from __future__ import annotations

from typing import Annotated

import typer

from recorder.cli.common import DbOpt, JsonOpt, _, app, dump_json, open_store, out

token_app = typer.Typer(help="Write tokens for the replay server: one per scorekeeper's phone or judge.",
                        no_args_is_help=True)
app.add_typer(token_app, name="token")


@token_app.command("new")
def new(
    match: Annotated[str | None, typer.Option("--match", help="The one match a scorekeeper's token writes to.")] = None,
    event: Annotated[str | None, typer.Option("--event", help="The event (with --table, or for a judge).")] = None,
    table: Annotated[str | None, typer.Option("--table", help="The table of --event a scorekeeper keeps (every round).")] = None,
    role: Annotated[str, typer.Option("--role", help="scorekeeper, judge (rulings and penalties across --event), admin, or player (with --player).")] = "scorekeeper",
    name: Annotated[str | None, typer.Option("--name", help="The name written lines carry (default: from the scope).")] = None,
    player: Annotated[str | None, typer.Option("--player", help="A player's token (with --event): their own page and reports.")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Issue a token. The secret is printed once; only its SHA-256 digest is stored.

    Example: kifu token new --event 冬季大会 --table 3
    Example: kifu token new --event 冬季大会 --player 山田
    """
    from recorder import tokens
    if player is not None and role == "scorekeeper":
        role = "player"
    if role == "player" and event is not None and player is not None and match is None and table is None:
        from recorder import reports
        secret, info = reports.issue_player_token(open_store(db), event, player, name)
    else:
        secret, info = tokens.issue(open_store(db), role, match, event, table, name, player=player)
    if as_json:
        dump_json(dict(info.to_json(), token=secret))
        return
    out(secret)
    said = _("token {name!r} ({role}, {scope}); shown once, keep it").format(name=info.name, role=info.role, scope=info.scope)
    typer.echo(f"kifu: {said}", err=True)
    if info.match_id is not None:
        from urllib.parse import quote

        url = f"http://HOST:PORT/matches/{quote(info.match_id, safe='')}/record#token={secret}"
        typer.echo("kifu: " + _("on the phone, open {url}").format(url=url), err=True)
    if info.role == "player" and info.event is not None:
        from urllib.parse import quote

        url = f"http://HOST:PORT/events/{quote(info.event, safe='')}/me#token={secret}"
        typer.echo("kifu: " + _("on the phone, open {url}").format(url=url), err=True)


@token_app.command("list")
def list_(
    all_: Annotated[bool, typer.Option("--all", help="Include revoked tokens.")] = False,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """List issued tokens by name, role and scope (never the secrets).

    Example: kifu token list --all
    """
    from recorder import tokens
    rows = tokens.list_tokens(open_store(db), include_revoked=all_)
    if as_json:
        dump_json([t.to_json() for t in rows])
        return
    if not rows:
        out(_("no tokens"))
        return
    width = max(len(t.name) for t in rows)
    for t in rows:
        state = "  " + _("revoked {time}").format(time=t.revoked) if t.revoked else ""
        created = _("(created {time})").format(time=t.created)
        out(f"{t.name:<{width}}  {t.role:<11}  {t.scope}  {created}{state}")


@token_app.command("revoke")
def revoke(
    name: Annotated[str, typer.Argument(help="The token's name (kifu token list).")],
    db: DbOpt = None,
) -> None:
    """Revoke a token: its next write is refused with 403.

    Example: kifu token revoke 冬季大会-table-3
    """
    from recorder import tokens
    info = tokens.revoke(open_store(db), name)
    out(_("revoked {name} ({scope}) at {time}").format(name=info.name, scope=info.scope, time=info.revoked))
