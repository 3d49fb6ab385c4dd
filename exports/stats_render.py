"""Renderers of the statistics report (``projections.stats.report``): a terminal table (rich),
CSV, JSON and HTML (a heatmap coloured by win rate, with n and the Wilson interval in each
cell). The HTML body is one partial, ``stats_templates/_stats.html``, that the stand-alone
file and the replay server's stats page share: ``render_html_fragment(report,
form_action="/stats")`` gives the body with a filter form for the server to put in its page.
"""

from __future__ import annotations

import csv
import io
import json
import os
from functools import cache, partial
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from rich.console import Console
from rich.table import Table

TEMPLATES = Path(__file__).with_name("stats_templates")
CSV_COLUMNS = ("section", "name", "opponent", "games", "wins", "losses", "draws",
               "win_rate", "low", "high", "avg_turns")


# -- formatting helpers shared by every renderer ---------------------------------------------------


def pct(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.0f}%"


def ci(rec: dict[str, Any]) -> str:
    if rec.get("low") is None:
        return "–"
    return f"{rec['low'] * 100:.0f}–{rec['high'] * 100:.0f}%"


def colour(rate: float | None) -> str:
    """Red (0%) through white (50%) to green (100%), as a CSS colour."""
    if rate is None:
        return "#fafafa"
    rate = min(1.0, max(0.0, rate))
    if rate < 0.5:
        t = rate / 0.5
        r, g, b = 230, int(110 + (255 - 110) * t), int(100 + (255 - 100) * t)
    else:
        t = (rate - 0.5) / 0.5
        r, g, b = int(255 - (255 - 90) * t), int(255 - (255 - 190) * t), int(255 - (255 - 110) * t)
    return f"#{r:02x}{g:02x}{b:02x}"


def cell_lookup(report: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(c["deck"], c["opponent"]): c for c in report["matrix"]}


# -- JSON / CSV ----------------------------------------------------------------------------------


def to_json(report: dict[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2) + "\n"


def to_csv(report: dict[str, Any]) -> str:
    """One long table; ``section`` says what a row is: ``matchup`` (name vs opponent),
    ``deck`` / ``deck-first`` / ``deck-second`` (a deck's record), ``seat`` (turn order),
    ``reason`` (games = how many matches ended that way), ``all`` (every match)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)

    def row(section: str, name: str, opponent: str, rec: dict[str, Any], avg: Any = None) -> None:
        w.writerow([section, name, opponent, rec.get("games"), rec.get("wins"), rec.get("losses"),
                    rec.get("draws"), _num(rec.get("win_rate")), _num(rec.get("low")),
                    _num(rec.get("high")), _num(avg)])

    w.writerow(["all", "", "", report["matches"], "", "", "", "", "", "", _num(report["avg_turns"])])
    for c in report["matrix"]:
        row("mirror" if c["mirror"] else "matchup", c["deck"], c["opponent"], c)
    for d in report["decks"]:
        row("deck", d["name"], "", d, d["avg_turns"])
        row("deck-first", d["name"], "", d["first"])
        row("deck-second", d["name"], "", d["second"])
    for s in report["seats"]:
        row("seat", s["label"], "", s)
    for r in report["reasons"]:
        w.writerow(["reason", r["reason"], "", r["count"], "", "", "", "", "", "", ""])
    return buf.getvalue()


def _num(x: Any) -> Any:
    return "" if x is None else x


# -- terminal ------------------------------------------------------------------------------------


def terminal_width() -> int | None:
    """``COLUMNS`` when set, the terminal's own width on a terminal, else 120."""
    cols = os.environ.get("COLUMNS", "")
    if cols.isdigit() and int(cols) > 20:
        return int(cols)
    return None if _is_tty() else 120


def print_terminal(
    report: dict[str, Any] | list[tuple[str, str, dict[str, Any]]], console: Console | None = None, lang: str = "ja"
) -> None:
    """The statistics for a terminal, one set of tables per game (``by_game``'s list), within
    the terminal's width: rich wraps deck names in the matrix rather than widen it."""
    from exports.i18n import gettext_for

    _ = gettext_for(lang)
    console = console or Console(highlight=False, width=terminal_width())
    if isinstance(report, list):
        if not report:
            console.print(_("No finished matches match these filters."))
        for i, (_game, title, one) in enumerate(report):
            if i:
                console.print()
            console.rule(f"[bold]{title}[/]")
            _print_one(one, console, lang)
        return
    _print_one(report, console, lang)


def _print_one(report: dict[str, Any], console: Console, lang: str = "ja") -> None:
    from exports import notation
    from exports.i18n import gettext_for, ngettext_for

    _ = gettext_for(lang)
    by_word = _("deck") if report["by"] == "deck" else _("archetype")
    f = {k: v for k, v in report["filters"].items() if v and k != "by"}
    head = ngettext_for(lang)("%(num)s finished match", "%(num)s finished matches", report["matches"]) % {
        "num": report["matches"]}
    if report["unfinished"]:
        head += _(", %(n)s left out (in progress or not replayable)") % {"n": report["unfinished"]}
    if report["avg_turns"] is not None:
        head += _("; average length %(n)s turns") % {"n": report["avg_turns"]}
    if f:
        head += "  [" + ", ".join(f"{k}={v}" for k, v in f.items()) + "]"
    console.print(head)
    if not report["decks"]:
        console.print(_("No finished matches match these filters."))
        return
    w_mirror, w_matches, w_wld, w_rate = _("mirror"), _("matches"), _("W-L-D"), _("win rate")
    w_first, w_second, w_turns, w_reason = _("going first"), _("going second"), _("avg. turns"), _("reason")
    cells = cell_lookup(report)
    names = [d["name"] for d in report["decks"]]
    matrix = Table(title=_("Matchups (row against column): win rate, n, Wilson 95%%") % {}, show_lines=True)
    matrix.add_column(by_word, overflow="fold")
    for n in names:
        matrix.add_column(n, justify="center", overflow="fold", min_width=6)
    for r in names:
        out = []
        for c in names:
            cell = cells.get((r, c))
            if cell is None:
                out.append("–")
            elif cell["mirror"]:
                out.append(f"{w_mirror}\nn={cell['games']}")
            else:
                out.append(f"[{_style(cell['win_rate'])}]{pct(cell['win_rate'])}[/] n={cell['games']}\n{ci(cell)}")
        matrix.add_row(r, *out)
    console.print(matrix)
    decks = Table(title=_("Overall (mirrors left out; a draw is half a win)"))
    for i, col in enumerate((by_word, w_matches, w_wld, w_rate, "95%", w_first, w_second, w_turns)):
        decks.add_column(col, justify="left" if i == 0 else "right")
    for d in report["decks"]:
        decks.add_row(d["name"], str(d["matches"]), f"{d['wins']}-{d['losses']}-{d['draws']}",
                      pct(d["win_rate"]), ci(d), f"{pct(d['first']['win_rate'])} n={d['first']['games']}",
                      f"{pct(d['second']['win_rate'])} n={d['second']['games']}",
                      "–" if d["avg_turns"] is None else str(d["avg_turns"]))
    console.print(decks)
    if report["hidden_decks"]:
        console.print(_("Left out by min. matches (%(n)s):") % {"n": report["filters"]["min_games"]} + " "
                      + ", ".join(report["hidden_decks"]))
    seats = Table(title=_("Turn order"))
    seat_words = {1: w_first, 2: w_second, 3: _("third seat"), 4: _("fourth seat")}
    for i, col in enumerate((_("seat"), w_matches, w_wld, w_rate, "95%")):
        seats.add_column(col, justify="left" if i == 0 else "right")
    for st in report["seats"]:
        seats.add_row(seat_words.get(st["seat"], st["label"]), str(st["games"]), f"{st['wins']}-{st['losses']}-{st['draws']}",
                      pct(st["win_rate"]), ci(st))
    console.print(seats)
    reasons = Table(title=_("Result reasons"))
    reasons.add_column(w_reason)
    reasons.add_column(w_matches, justify="right")
    for r in report["reasons"][:10]:
        reasons.add_row(notation.reason_text(r["reason"], lang), str(r["count"]))
    console.print(reasons)


def _style(rate: float | None) -> str:
    if rate is None:
        return "dim"
    return "green" if rate > 0.55 else "red" if rate < 0.45 else "default"


def _is_tty() -> bool:
    return Console().is_terminal


# -- HTML ----------------------------------------------------------------------------------------


@cache
def environment(lang: str = "ja") -> Environment:
    from exports import i18n, notation, security

    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, undefined=StrictUndefined,
                      extensions=["jinja2.ext.i18n"])
    env.install_gettext_translations(i18n.translations(i18n.pick(lang)), newstyle=True)  # type: ignore[attr-defined]
    env.filters["pct"] = pct
    security.install(env)  # csp_nonce() for the inline <style> (exports/security.py)
    env.filters["ci"] = ci
    env.globals["lang"] = i18n.pick(lang)
    env.filters["reason"] = partial(notation.reason_text, lang=i18n.pick(lang))
    return env


def _context(report: dict[str, Any]) -> dict[str, Any]:
    cells = {}
    for key, c in cell_lookup(report).items():
        cells[key] = dict(c, colour=colour(c["win_rate"]), pct=pct(c["win_rate"]), ci=ci(c))
    return {"report": report, "cells": cells}


def by_game(source: Any, filters: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """One report per game present (or only ``filters.game``): decks of different games
    never share a matrix. ``[(game, title, report), ...]``. ``source`` is the read model
    (the reports are computed in SQL) or a list of its match rows."""
    from dataclasses import replace

    from projections import registry, stats

    if hasattr(source, "report"):
        present = source.games()
        compute = source.report
    else:
        present = sorted({str(m["game"]) for m in source if m.get("game")})

        def compute(f: Any) -> dict[str, Any]:
            return stats.report(source, f)

    games = [filters.game] if filters.game else present
    out = []
    for g in games:
        try:
            title = registry.get(g).title
        except Exception:
            title = g
        out.append((g, title, compute(replace(filters, game=g))))
    return out


def games_present(source: Any) -> list[tuple[str, str]]:
    from projections import registry

    out = []
    games = source.games() if hasattr(source, "games") else sorted({str(m["game"]) for m in source if m.get("game")})
    for g in games:
        try:
            out.append((g, registry.get(g).title))
        except Exception:
            out.append((g, g))
    return out


def render_html_fragment(
    report: dict[str, Any] | list[tuple[str, str, dict[str, Any]]], form_action: str | None = None,
    lang: str = "ja", games: list[tuple[str, str]] | None = None, filters: Any = None,
) -> str:
    """The statistics body (per game: heatmap, records, turn order, reasons) with its own
    scoped style. ``report`` is one report or ``by_game``'s list. With ``form_action`` it starts
    with a GET form of the same filters as ``kifu stats`` (a select of ``games``, event, since,
    until, player, by, min_games) — what the replay server's stats page mounts; parse the query
    with ``projections.stats.make_filters``."""
    sections = report if isinstance(report, list) else [(report["filters"].get("game") or "", "", report)]
    first = sections[0][2] if sections else {"filters": (filters.to_json() if filters else {}), "by": "deck"}
    ctx = {"sections": [dict(game=g, title=t, **_context(r)) for g, t, r in sections], "form_action": form_action,
           "games": games or [], "f": first["filters"] if not filters else filters.to_json(), "by": first["by"],
           "legend": (colour(0.0), colour(0.5), colour(1.0))}
    return environment(lang).get_template("_stats.html").render(**ctx)


def render_html_page(report: dict[str, Any] | list[Any], title: str | None = None, lang: str = "ja") -> str:
    """A self-contained HTML file (no external assets)."""
    from exports.i18n import gettext_for

    title = title or "kifu — " + gettext_for(lang)("Deck statistics")
    body = render_html_fragment(report, None, lang)
    first = report[0][2] if isinstance(report, list) and report else report
    flt = first["filters"] if isinstance(first, dict) else {}
    from markupsafe import Markup

    return environment(lang).get_template("stats_page.html").render(title=title, body=Markup(body), flt=flt)


def fragment_for_query(store: Any, query: Any, form_action: str = "/stats", readmodel_path: str | None = None,
                       lang: str = "ja") -> str:
    """The stats body for a web request: ``query`` is any mapping of the form's fields
    (``request.query_params``). Catches the store's read model up first. A bad filter raises a
    ``KifuError`` with one line naming the field (answer 400 with it)."""
    from projections import stats
    from projections.readmodel import catch_up_store

    def get(name: str) -> Any:
        value = query.get(name)
        return value if value not in ("",) else None

    filters = stats.make_filters(get("game"), get("event"), get("since"), get("until"), get("player"),
                                 get("by") or "deck", get("min_games") or 0)
    rm = catch_up_store(store, readmodel_path)
    try:
        return render_html_fragment(by_game(rm, filters), form_action, lang, games_present(rm), filters)
    finally:
        rm.close()
