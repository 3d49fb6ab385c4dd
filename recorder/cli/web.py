"""``kifu report`` and ``kifu serve``: the two faces that show a match in a browser."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from projections.errors import LogFormatError, NotFoundError
from projections.base import said
from recorder.cli.common import N_, DbOpt, LangOpt, ViewOpt, _, _global_db, app, check_view, lang_of, open_store, out


@app.command()
def report(
    match: Annotated[str, typer.Argument(help="Match id.")],
    output: Annotated[str | None, typer.Option("-o", "--output", help="HTML file to write (default MATCH.html).")] = None,
    view: ViewOpt = "ruled",
    at: Annotated[int | None, typer.Option("--at", help="Step the report opens at (default: the start of a finished match, so the ending is not given away; else the last).")] = None,
    lang: LangOpt = None,
    overlay: Annotated[bool, typer.Option("--overlay", help="The broadcast view: a big board, no chrome, for a streaming browser source.")] = False,
    background: Annotated[str, typer.Option("--background", help="Overlay background: transparent, green, magenta, blue or dark.")] = "transparent",
    db: DbOpt = None,
) -> None:
    """Write a self-contained HTML report (no network needed) that steps through a match.

    Example: kifu report r1-t3 -o r1-t3.html
    """
    from exports.report import report_html

    header, entries = open_store(db).load(match)
    if at is not None and not 0 <= at <= len(entries):
        raise NotFoundError(said(N_("{match}: step {step} is out of range 0..{last}"), match=match, step=at, last=len(entries)))
    html = report_html(header, entries, check_view(view), at, lang=lang_of(lang), overlay=overlay, background=background)
    path = Path(output or f"{match}.html")
    try:
        path.write_text(html, encoding="utf-8")
    except OSError as exc:
        raise LogFormatError([said(N_("{name}:0: file: {strerror}"), name=path, strerror=exc.strerror)]) from None
    out(_("wrote {file} ({size} KiB, {n} steps)").format(file=path, size=len(html.encode("utf-8")) // 1024, n=len(entries)))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    token: Annotated[str | None, typer.Option(help="Bearer token that writes need (or KIFU_TOKEN); without one the server is read-only.")] = None,
    workers: Annotated[int | None, typer.Option("--workers", min=1, max=64, help="Server processes sharing the port and the store (default: one per core).")] = None,
    db: DbOpt = None,
) -> None:
    """Run the replay server: match list, step-through pages, live follow, JSON API.

    Example: kifu serve --port 8000 --token s3cret --workers 2
    """
    from recorder.web.server import default_workers
    from recorder.web.server import serve as run

    run(db or _global_db["db"], host, port, token or os.environ.get("KIFU_TOKEN"),
        workers=workers if workers is not None else default_workers())
