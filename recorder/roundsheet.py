"""The round sheet (``kifu round sheet E N -o FILE``): one block per table of an open round with
its pairing and a QR code for its recording page, whose address carries a token scoped to
that table and that round (``tokens.issue_for_round``; revoked when the round closes). The
secret is written on the sheet only: the command prints the tokens' names, never the secrets.

HTML always; PDF through Playwright and chromium (the browser the browser tests use) when both
are installed: the HTML printed by chromium is the sheet, with the same fonts and QR codes.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from exports import event_pages
from projections.base import N_, at, said
from projections.errors import LogFormatError, NotFoundError
from recorder import logformat, tokens, tournament_service
from recorder.store import Store

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
FORMATS = (".html", ".pdf")


def check_base_url(url: str) -> str:
    """``http(s)://HOST[:PORT][/prefix]`` without query or fragment, trailing ``/`` dropped."""
    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or 0 < parts.port < 65536
    except ValueError:
        port_ok = False
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok or parts.query or parts.fragment \
            or any(c.isspace() for c in url):
        raise LogFormatError([at("--base-url", said(N_("http://HOST:PORT where the phones reach kifu serve, got {value!r}"), value=url))])
    return url.rstrip("/")


def output_kind(path: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        problem = said(N_("a sheet is .html or .pdf, got {value!r}"), value=suffix) if suffix else \
            N_("a sheet is .html or .pdf, got a name without a suffix")
        raise LogFormatError([at(f"-o: {logformat.quote_name(path)}", problem)])
    return suffix[1:]


def chromium() -> str | None:
    """The chromium to print with: ``KIFU_CHROMIUM``, else the system's."""
    return os.environ.get("KIFU_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def pdf_missing() -> str | None:
    """Why a PDF cannot be printed here (one line), or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return at("-o", N_("a PDF sheet needs Playwright (pip install playwright) and chromium; write .html and print it "
                           "from a browser"))
    if chromium() is None:
        return at("-o", N_("a PDF sheet needs chromium (apt-get install chromium, or KIFU_CHROMIUM=PATH); write .html and "
                           "print it from a browser"))
    return None


def sheet_tables(store: Store, event: str, round_no: int, base_url: str,
                 per_seat: bool = False) -> tuple[Any, Any, list[dict[str, Any]]]:
    """Issue one token per table of an open round (``per_seat``: one player's token per seat,
    for the player's own page) and return (state, round, the blocks)."""
    st = tournament_service.state(store, event)
    rnd = st.round(round_no)
    if rnd is None:
        raise NotFoundError(said(N_("{event!r} has no round {n} (kifu round show {name} lists the last one)"), event=event, n=round_no, name=event))
    if rnd.closed:
        raise LogFormatError([said(N_("round {n} of {event!r} is closed: its tables' tokens are revoked, no sheet is printed"), n=round_no, event=event)])
    blocks = []
    for seat in rnd.tables:
        games = event_pages.game_ids(st, seat, rnd.number)
        if per_seat:
            blocks += _seat_blocks(store, st, seat, games, base_url)
            continue
        secret, info = tokens.issue_for_round(store, st.name, rnd.number, seat.table)
        blocks.append({"table": seat.table, "players": list(seat.players), "games": games, "token": info.name,
                       "url": event_pages.record_url(base_url, games[0], secret)})
    return st, rnd, blocks


def _seat_blocks(store: Store, st: Any, seat: Any, games: list[str], base_url: str) -> list[dict[str, Any]]:
    """One block per player of a table: a player's token (for the whole event: their own page,
    their reports) and the address of their page (issue 33)."""
    from urllib.parse import quote

    from recorder import reports

    out = []
    for player in seat.players:
        secret, info = reports.issue_player_token(store, st.name, player)
        out.append({"table": seat.table, "players": list(seat.players), "player": player, "games": games,
                    "token": info.name,
                    "url": f"{base_url.rstrip('/')}/events/{quote(st.name, safe='')}/me#token={quote(secret, safe='')}"})
    return out


def write(store: Store, event: str, round_no: int, output: str, base_url: str = DEFAULT_BASE_URL,
          lang: str = "ja", per_seat: bool = False) -> list[dict[str, Any]]:
    """Write the sheet to ``output`` (.html or .pdf); returns the blocks without their URLs."""
    kind = output_kind(output)
    if not Path(output).resolve().parent.is_dir():
        raise LogFormatError([at(f"-o: {logformat.quote_name(output)}", N_("no such folder"))])
    base_url = check_base_url(base_url)
    if kind == "pdf" and (why := pdf_missing()):
        raise LogFormatError([why])
    st, rnd, blocks = sheet_tables(store, event, round_no, base_url, per_seat)
    html = event_pages.render_sheet(st, rnd, blocks, lang, per_seat)
    try:
        if kind == "html":
            Path(output).write_text(html, encoding="utf-8")
        else:
            print_pdf(html, output)
    except OSError as exc:
        tokens_issued = ", ".join(b["token"] for b in blocks)
        raise LogFormatError([at(f"-o: {logformat.quote_name(output)}", said(N_(
            "{error} (tokens issued and left unused: {tokens}; kifu token revoke NAME)"), error=exc.strerror or exc, tokens=tokens_issued))]) from None
    return [{k: v for k, v in b.items() if k != "url"} for b in blocks]


def print_pdf(html: str, output: str) -> None:
    from playwright.sync_api import Error, sync_playwright

    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page()
                page.set_content(html, wait_until="load")
                page.pdf(path=output, format="A4", print_background=True, prefer_css_page_size=True)
            finally:
                browser.close()
    except Error as exc:
        raise OSError(said(N_("chromium could not print the sheet: {error}"), error=logformat.clip(str(exc).splitlines()[0], 200))) from None


__all__ = ["DEFAULT_BASE_URL", "check_base_url", "output_kind", "pdf_missing", "sheet_tables", "write"]
