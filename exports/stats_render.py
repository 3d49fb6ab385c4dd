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
from collections.abc import Callable, Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from rich.console import Console
from rich.table import Table

from exports.i18n import N_

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
    console = console or Console(highlight=False, width=terminal_width())
    if isinstance(report, list):
        _print_sections(report, lang, console, None, "", lambda one, console, _: _print_one(one, console, lang))
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
    from projections import stats

    if hasattr(source, "report"):
        return per_game(source, filters, source.report)
    return per_game(source, filters, lambda f: stats.report(source, f))


def games_present(source: Any) -> list[tuple[str, str]]:
    """(game, its title) of each game of ``source`` (the read model or its match rows)."""
    games = source.games() if hasattr(source, "games") else sorted({str(m["game"]) for m in source if m.get("game")})
    return [(g, _title(g)) for g in games]


def render_html_fragment(
    report: dict[str, Any] | list[tuple[str, str, dict[str, Any]]], form_action: str | None = None,
    lang: str = "ja", games: list[tuple[str, str]] | None = None, filters: Any = None, headings: bool = True,
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
           "legend": (colour(0.0), colour(0.5), colour(1.0)), "headings": headings}
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


# -- metagame, trend and cards (kifu stats --meta / --trend / --cards) ------------------------------
#
# Each view is computed per game (decks and cards of two games never share a table) as a list
# of sections ``[(game, title, data), ...]``; the fragments (``render_*_fragment``) are the
# partials an event's site includes, the pages (``render_view_page``) the stand-alone files.


def per_game(source: Any, filters: Any, compute: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """``compute(filters with one game)`` for each game present in ``source`` (the read model
    or its match rows), or only ``filters.game``: (game, title, what it computed)."""
    from dataclasses import replace

    titles = dict(games_present(source))
    if filters.game:
        titles = {filters.game: titles.get(filters.game) or _title(filters.game)}
    return [(g, title, compute(replace(filters, game=g))) for g, title in titles.items()]


def _title(game: str) -> str:
    from projections import registry

    try:
        return str(registry.get(game).title)
    except Exception:
        return game


def view_sections(rm: Any, filters: Any, kind: str, period: str | None = None,
                  min_sample: int = 0, cut: tuple[str, int, Sequence[str]] | None = None,
                  ) -> list[tuple[str, str, dict[str, Any]]]:
    """The sections of one view (``metagame``, ``trend`` with ``period``, ``cards``), per game.
    ``cut`` (game, Swiss rounds, the top cut's players) of an event (``filters.event``) adds
    that game's ``conversion`` into the cut to its metagame (``metagame.event_conversion``)."""
    from projections import metagame

    con = rm.db.conn
    if kind == "metagame":
        def meta(f: Any) -> dict[str, Any]:
            m = metagame.metagame(con, f)
            if cut is not None and f.game == cut[0] and m["archetypes"]:
                m["conversion"] = metagame.event_conversion(con, f, cut[1], cut[2])
            return m

        return per_game(rm, filters, meta)
    if kind == "trend":
        return per_game(rm, filters, lambda f: metagame.trend(con, f, str(period)))
    return per_game(rm, filters, lambda f: rm.card_report(f, min_sample))


def view_body(rm: Any, filters: Any, kind: str, sections: list[tuple[str, str, dict[str, Any]]], lang: str = "ja",
              period: str | None = None) -> tuple[str, str]:
    """(title, HTML body) of a view: what ``kifu stats --meta|--trend|--cards --html`` writes
    inside its page, and what an event's site can put in its own. The metagame's body has each
    game's share and tables followed by its matchup matrix and records as ``kifu stats`` draws them."""
    from exports.i18n import N_, gettext_for

    t = gettext_for(lang)
    if kind == "metagame":
        matrices = {g: one for g, _t, one in by_game(rm, filters)}
        body = "".join(render_metagame_fragment([s], lang) + render_html_fragment(
            [(s[0], s[1], matrices[s[0]])], None, lang, headings=False) for s in sections)
        return t(N_("Metagame")), body
    if kind == "trend":
        title = t(N_("Metagame by week")) if period == "week" else t(N_("Metagame by month"))
        return title, render_trend_fragment(sections, lang)
    return t(N_("Card statistics")), render_cards_fragment(sections, lang)


def view_json(kind: str, sections: list[tuple[str, str, dict[str, Any]]]) -> str:
    """``{"view": kind, "games": [data, ...]}`` with each game's title; names as they are."""
    return json.dumps({"view": kind, "games": [dict(data, title=title) for _g, title, data in sections]},
                      ensure_ascii=False, indent=2) + "\n"


META_CSV = ("game", "section", "name", "archetype", "players", "share", "matches", "games", "wins", "losses",
            "draws", "win_rate", "low", "high", "cut", "conversion", "cut_share")
TREND_CSV = ("game", "period", "since", "until", "period_matches", "period_field", "name", "players", "share",
             "matches", "games", "wins", "losses", "draws", "win_rate", "low", "high")
CARDS_CSV = ("game", "card", "kind", "decks", "lists", "wins", "losses", "draws", "win_rate", "low", "high",
             "played", "plays", "played_wins", "played_losses", "played_draws", "played_win_rate", "played_low",
             "played_high")


def meta_csv(sections: list[tuple[str, str, dict[str, Any]]]) -> str:
    """One row per archetype (``section`` archetype) and per deck (``deck``) of each game; with
    an event's top cut, one row per archetype (deck) of its ``conversion``: ``players`` its
    entries, ``cut`` how many made the cut, ``conversion`` the rate, ``low``/``high`` the rate's
    Wilson interval, ``cut_share`` its share of the cut."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(META_CSV)
    for game, _t, m in sections:
        for section, key in (("archetype", "archetypes"), ("deck", "decks")):
            for g in m[key]:
                w.writerow([game, section, g["name"], g.get("archetype", ""),
                            *(_num(g.get(c)) for c in META_CSV[4:14]), "", "", ""])
        for g in (m.get("conversion") or {}).get("groups", []):
            w.writerow([game, "conversion", g["name"], "", g["players"], *[""] * 7, _num(g["low"]), _num(g["high"]),
                        g["cut"], _num(g["rate"]), _num(g["cut_share"])])
    return buf.getvalue()


def trend_csv(sections: list[tuple[str, str, dict[str, Any]]]) -> str:
    """One row per archetype per period; ``period_matches`` and ``period_field`` are the
    period's sample sizes (finished matches, entries in the field)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(TREND_CSV)
    for game, _t, t in sections:
        for p in t["periods"]:
            for a in p["archetypes"]:
                w.writerow([game, p["period"], p["since"], p["until"], p["matches"], p["field"], a["name"],
                            *(_num(a.get(c)) for c in TREND_CSV[7:])])
    return buf.getvalue()


def cards_csv(sections: list[tuple[str, str, dict[str, Any]]]) -> str:
    """One row per card: ``lists`` the players' matches whose list has it, ``decks`` how many
    different decks; ``played`` the players' matches in which it was played, ``plays`` how often."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CARDS_CSV)
    for game, _t, r in sections:
        for c in r["cards"]:
            i, p = c["included"], c["played"]
            w.writerow([game, c["card"], c["kind"], len(c["decks"]), i["games"], i["wins"], i["losses"], i["draws"],
                        _num(i["win_rate"]), _num(i["low"]), _num(i["high"]), p["games"], p["plays"], p["wins"],
                        p["losses"], p["draws"], _num(p["win_rate"]), _num(p["low"]), _num(p["high"])])
    return buf.getvalue()


def trend_cells(t: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(p["period"], a["name"]): a for p in t["periods"] for a in p["archetypes"]}


def _meta_env(lang: str) -> Environment:
    return environment(lang)


def render_metagame_fragment(sections: list[tuple[str, str, dict[str, Any]]], lang: str = "ja") -> str:
    """The metagame body of each game (share chart and tables); a game's ``conversion``
    (``view_sections`` with ``cut``) adds the top cut's table."""
    from exports import chart
    from exports.i18n import gettext_for

    _ = gettext_for(lang)
    ctx = []
    for game, title, m in sections:
        desc = "; ".join(f"{a['name']} {pct(a['share'])} ({a['players']})" for a in m["archetypes"])
        ctx.append({"game": game, "title": title, "meta": m, "conversion": m.get("conversion"),
                    "chart": chart.share_bars(m["archetypes"], f"share-chart-{game}",
                                              _("Share of the field by archetype") + (f" — {title}" if title else ""),
                                              desc, lang)})
    return _meta_env(lang).get_template("_metagame.html").render(sections=ctx)


def render_trend_fragment(sections: list[tuple[str, str, dict[str, Any]]], lang: str = "ja") -> str:
    """Share and win rate per archetype over the periods of each game: two charts, two tables."""
    from exports import chart
    from exports.i18n import gettext_for

    _ = gettext_for(lang)
    ctx = []
    for game, title, t in sections:
        cells = trend_cells(t)
        labels = [p["period"] for p in t["periods"]]
        names = t["archetypes"]
        share = {n: [((cells[(p["period"], n)]["share"] if (p["period"], n) in cells else (0.0 if p["field"] else None)),
                      cells[(p["period"], n)]["players"] if (p["period"], n) in cells else 0) for p in t["periods"]]
                 for n in names}
        rate = {n: [((cells[(p["period"], n)]["win_rate"]) if (p["period"], n) in cells else None,
                     cells[(p["period"], n)]["games"] if (p["period"], n) in cells else 0) for p in t["periods"]]
                for n in names}

        def desc(series: dict[str, list[tuple[float | None, int]]], labels: list[str] = labels) -> str:
            return "; ".join(f"{n}: " + ", ".join(f"{labels[i]} {pct(v)}" for i, (v, _n) in enumerate(pts))
                             for n, pts in series.items())

        suffix = f" — {title}" if title else ""
        ctx.append({
            "game": game, "title": title, "trend": t, "cell": _Cells(cells), "legend": chart.legend(names),
            "share_chart": chart.trend_lines(labels, [p["field"] for p in t["periods"]], share, f"trend-share-chart-{game}",
                                             _("Share of the field by archetype") + suffix, desc(share), lang),
            "rate_chart": chart.trend_lines(labels, [p["matches"] for p in t["periods"]], rate, f"trend-rate-chart-{game}",
                                            _("Win rate by archetype") + suffix, desc(rate), lang),
        })
    return _meta_env(lang).get_template("_trend.html").render(sections=ctx)


class _Cells(dict):  # type: ignore[type-arg]
    """A period's archetype figures, None where the archetype did not play that period."""

    def __missing__(self, key: Any) -> None:
        return None


def render_cards_fragment(sections: list[tuple[str, str, dict[str, Any]]], lang: str = "ja") -> str:
    """The card table of each game."""
    return _meta_env(lang).get_template("_cards.html").render(
        sections=[{"game": g, "title": t, "cards": r} for g, t, r in sections])


def render_view_page(body: str, title: str, flt: dict[str, Any], lang: str = "ja") -> str:
    """A self-contained file around a fragment (no script, nothing fetched)."""
    from markupsafe import Markup

    return environment(lang).get_template("stats_page.html").render(title=title, body=Markup(body), flt=flt)


Sections = list[tuple[str, str, dict[str, Any]]]


def _print_sections(sections: Sections, lang: str, console: Console | None, key: str | None, empty: str,
                    draw: Callable[[dict[str, Any], Console, Callable[[str], str]], None]) -> None:
    """Each game's rule and ``draw(data, console, _)`` for a terminal, one game after another;
    ``empty`` (a message id) instead where the game's ``data[key]`` is empty (``key`` None:
    ``draw`` says it)."""
    from exports.i18n import gettext_for

    _ = gettext_for(lang)
    console = console or Console(highlight=False, width=terminal_width())
    if not sections:
        console.print(_("No finished matches match these filters."))
    for i, (_g, title, data) in enumerate(sections):
        if i:
            console.print()
        console.rule(f"[bold]{title}[/]")
        if key is None or data[key]:
            draw(data, console, _)
        else:
            console.print(_(empty))


def _table(columns: Sequence[str], title: str | None = None, text: Sequence[int] = (0,),
           no_wrap_first: bool = False) -> Table:
    """A terminal table: the columns in ``text`` left-aligned, the figures right-aligned."""
    table = Table(title=title)
    for j, col in enumerate(columns):
        table.add_column(col, justify="left" if j in text else "right", overflow="fold", no_wrap=no_wrap_first and j == 0)
    return table


def print_metagame(sections: Sections, lang: str = "ja", console: Console | None = None) -> None:
    def draw(m: dict[str, Any], console: Console, _: Callable[[str], str]) -> None:
        for key, head in (("archetypes", _("archetype")), ("decks", _("deck"))):
            table = _table((head, _("players"), _("share"), _("games"), _("W-L-D"), _("win rate"), "95%"),
                           _("Share of the field by archetype") if key == "archetypes" else _("Decks"))
            for g in m[key]:
                table.add_row(g["name"], str(g["players"]), pct(g["share"]), str(g["games"]),
                              f"{g['wins']}-{g['losses']}-{g['draws']}", pct(g["win_rate"]), ci(g))
            console.print(table)
        conv = m.get("conversion")
        if conv:
            table = _table((_("archetype") if conv["by"] == "archetype" else _("deck"), _("players"), _("in the cut"),
                            _("conversion"), "95%", _("share of the cut")), _("Conversion into the top cut"))
            for g in conv["groups"]:
                table.add_row(g["name"], str(g["players"]), str(g["cut"]), pct(g["rate"]), ci(g), pct(g["cut_share"]))
            console.print(table)

    _print_sections(sections, lang, console, "archetypes", N_("No finished matches match these filters."), draw)


def print_trend(sections: Sections, lang: str = "ja", console: Console | None = None) -> None:
    def draw(t: dict[str, Any], console: Console, _: Callable[[str], str]) -> None:
        table = _table((_("period"), "n", _("archetype"), _("share"), _("players"), _("win rate"), _("games"), "95%"),
                       _("Share of the field and win rate by archetype"), text=(0, 2))
        for p in t["periods"]:
            if not p["archetypes"]:
                table.add_row(p["period"], str(p["matches"]), "–", "", "", "", "", "")
            for j, a in enumerate(p["archetypes"]):
                table.add_row(p["period"] if j == 0 else "", str(p["matches"]) if j == 0 else "", a["name"],
                              pct(a["share"]), str(a["players"]), pct(a["win_rate"]), str(a["games"]), ci(a))
        console.print(table)

    _print_sections(sections, lang, console, "periods", N_("No finished matches with a date match these filters."), draw)


def print_cards(sections: Sections, lang: str = "ja", console: Console | None = None) -> None:
    def draw(r: dict[str, Any], console: Console, _: Callable[[str], str]) -> None:
        # a card's name is never cut or folded (an 80-column terminal shrinks the figures instead)
        table = _table((_("card"), _("decks"), _("games"), _("win rate"), "95%", _("played"), _("times"),
                        _("win rate"), "95%"), no_wrap_first=True)
        for c in r["cards"]:
            inc, pl = c["included"], c["played"]
            table.add_row(c["card"], str(len(c["decks"])), str(inc["games"]), pct(inc["win_rate"]), ci(inc),
                          str(pl["games"]), str(pl["plays"]), pct(pl["win_rate"]), ci(pl))
        console.print(table)
        if r["hidden_cards"]:
            console.print(_("Left out by min. sample (%(n)s): %(k)s cards") % {"n": r["min_sample"], "k": len(r["hidden_cards"])})

    _print_sections(sections, lang, console, "cards", N_("No cards in the deck lists of these matches."), draw)
