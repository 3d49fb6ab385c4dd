"""What a person reads of a tournament, and its CSV in and out: the round as the desk sees it (every table not
started, in progress, finished or awaiting a ruling; time used against the round time; byes;
drops; who has not reported), the pairings by table and by name (what is posted on the wall),
and the roster. The terminal and the pages share these rows. Japanese by default, English with
``lang="en"``: every word from the gettext catalog (exports/locale).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from typing import Any

from exports import i18n, player_words
from projections import tournament as T
from projections.base import at, said
from projections.base import N_
from projections.errors import KifuError, LogFormatError
from projections.replay import _parse_time

STATUSES = ("not_started", "in_progress", "awaiting_ruling", "finished", "bye")


def labels(lang: str | None) -> dict[str, str]:
    """The words of the round view, in ``lang`` (Japanese unless "en"), from the catalog
    (exports/locale: the context "event" keeps a tournament's words apart from the pages' own)."""
    return dict(_labels(i18n.pick(lang or "ja")))


@cache
def _labels(lang: str) -> tuple[tuple[str, str], ...]:
    t = i18n.translations(lang)
    return tuple({
        "round": t.pgettext("event", "Round {n}"), "table": t.pgettext("event", "Table"),
        "players": t.pgettext("event", "Players"), "status": t.pgettext("event", "Status"),
        "match": t.pgettext("event", "Match id"),
        "not_started": t.pgettext("event", "not started"), "in_progress": t.pgettext("event", "in progress"),
        "awaiting_ruling": t.pgettext("event", "awaiting a ruling"), "finished": t.pgettext("event", "finished"),
        "bye": t.pgettext("event", "bye"), "closed": t.pgettext("event", "closed"), "open": t.pgettext("event", "open"),
        "time": t.pgettext("event", "{used} of {limit} min used"), "not_reported": t.pgettext("event", "Not reported"),
        "dropped": t.pgettext("event", "Dropped"), "after_round": t.pgettext("event", "after round {n}"),
        "none": t.pgettext("event", "none"), "player": t.pgettext("event", "Player"), "seat": t.pgettext("event", "Seat"),
        "opponent": t.pgettext("event", "Opponent"), "roster": t.pgettext("event", "Roster"),
        "deck": t.pgettext("event", "Deck"), "no_round": t.pgettext("event", "no round paired yet"),
        "result": t.pgettext("event", "Result"), "by_table": t.pgettext("event", "By table"),
        "by_name": t.pgettext("event", "By name"), "games": t.pgettext("event", "Games"),
        "rounds_of": t.pgettext("event", "{n} rounds"), "bo1": t.pgettext("event", "best of one"),
        "bo3": t.pgettext("event", "best of three"), "bo5": t.pgettext("event", "best of five"),
        "counted_draw": t.pgettext("event", "no result: counted as a draw"),
        "counted_double-loss": t.pgettext("event", "no result: a loss for both (double loss)"),
        "counted_exclude": t.pgettext("event", "no result: not counted"),
        "no_show": t.pgettext("event", "no-show"), "no_shows": t.pgettext("event", "No-shows"),
        "late": t.pgettext("event", "late entry: a loss for round(s) {rounds}"),
        "late_n": t.pgettext("event", "late entry: {n} round(s) lost"),
        "checked_in": t.pgettext("event", "checked in"), "not_checked_in": t.pgettext("event", "not checked in"),
        "checkin": t.pgettext("event", "Check in"), "checkin_open": t.pgettext("event", "Check-in: {n} of {total}"),
        "reading": t.pgettext("event", "Reading"), "top_cut": t.pgettext("event", "Top cut"),
    }.items())


def table_status(games: Sequence[Mapping[str, Any]], best_of: int) -> str:
    """A table's status from its games' rows (``steps``, ``finished``, ``winner``, ``open_disputes``)."""
    if any(g.get("open_disputes") or g.get("pending") for g in games):
        return "awaiting_ruling"
    if any(g.get("finished") and not g.get("winner_name") and g.get("reason") == "time" for g in games):
        return "finished"  # a judge's result for time: the match ended there (projections/standings.py)
    wins: dict[Any, int] = {}
    for g in games:
        if g.get("finished") and g.get("winner_name"):
            wins[g["winner_name"]] = wins.get(g["winner_name"], 0) + 1
    needed = best_of // 2 + 1
    if any(w >= needed for w in wins.values()) or (games and all(g.get("finished") for g in games)):
        return "finished"
    return "in_progress" if any(g.get("steps") for g in games) else "not_started"


def closed_card(card: Mapping[str, Any], best_of: int, how: str) -> str:
    """The status of a desk card (exports/desk.py: one table's games, each with ``status`` and
    ``result``) in a closed round: ``finished`` when its match was decided, else how the close
    counted it (``counted_draw``, ``counted_double-loss``, ``counted_exclude``), so a closed
    round never reads "in progress" on the desk."""
    if card.get("status") in ("finished", "pending_ruling"):
        return str(card["status"])
    wins: dict[Any, int] = {}
    for g in card.get("games", ()):
        res = g.get("result") or {}
        if g.get("status") == "finished" and res.get("winner"):
            wins[res["winner"]] = wins.get(res["winner"], 0) + 1
        if g.get("status") == "finished" and not res.get("winner") and res.get("reason") == "time":
            return "finished"
    if any(w >= best_of // 2 + 1 for w in wins.values()):
        return "finished"
    return "counted_" + how


def round_view(state: T.Tournament, rnd: T.Round, games: Mapping[str, Sequence[Mapping[str, Any]]],
               now: datetime | None = None) -> dict[str, Any]:
    """The desk's view of one round. ``games``: the match rows of each table, by table label."""
    now = now or datetime.now(UTC)
    tables = []
    for seat in rnd.tables:
        rows = list(games.get(seat.table, ()))
        status = table_status(rows, state.best_of_in(rnd.number))
        if rnd.closed and status in ("not_started", "in_progress"):  # the close said how it counts
            status = "counted_" + (rnd.unreported or state.unfinished)
        tables.append({"table": seat.table, "players": list(seat.players), "match": seat.match,
                       "games": [dict(g) for g in rows], "status": status})
    start = _parse_time(rnd.paired_at) if rnd.paired_at else None
    end = _parse_time(rnd.closed_at) if rnd.closed_at else now
    used = int((end - start).total_seconds() // 60) if start else None
    counts = {s: sum(1 for t in tables if t["status"] == s) for s in STATUSES[:-1]}
    return _players_facts(state, rnd, now, {
        "event": state.name, "round": rnd.number, "rounds": state.rounds, "closed": rnd.closed,
        "method": rnd.method, "seed": rnd.seed, "tables": tables, "byes": list(rnd.byes),
        "dropped": [{"player": n, "after_round": a} for n, a in state.dropped().items() if n not in state.no_shows()],
        "no_shows": state.no_shows(),
        "minutes_used": used, "round_minutes": state.round_minutes, "counts": counts,
        "not_reported": [t["table"] for t in tables if t["status"] != "finished" and not str(t["status"]).startswith("counted_")],
        "unreported": rnd.unreported, "playoff": rnd.playoff,
        "changes": [dict(c) for c in rnd.changes],
    })


def _players_facts(state: T.Tournament, rnd: T.Round, now: datetime, out: dict[str, Any]) -> dict[str, Any]:
    """The round view with what the players reported and the judges extended (issue 33): each
    table's ``reports`` status, the ``disputes`` (reports that disagree, no recorded result),
    the ``extended`` tables with their own end, and the tables ``over_time``."""
    from projections import reports as R

    finished = {t["table"] for t in out["tables"] if t["status"] == "finished"}
    trs = {tr.table: tr for tr in R.round_reports(rnd)}
    for t in out["tables"]:
        tr = trs.get(t["table"])
        t["reports"] = tr.to_json() if tr is not None and tr.latest else None
    end = R.round_end(state, rnd)
    out["ends_at"] = R.iso(end)
    out["disputes"] = [tr.to_json() for tr in trs.values() if tr.status == "dispute" and tr.table not in finished]
    out["extended"] = [{"table": tb, "minutes": m, "ends_at": R.iso(R.round_end(state, rnd, tb)),
                        "reasons": [str(x.get("reason")) for x in rnd.extensions if str(x.get("table")) == tb]}
                       for tb, m in R.extra_minutes(rnd).items()]
    out["over_time"] = R.over_time(state, rnd, now, finished)
    return out


def by_name(rnd: T.Round, state: T.Tournament | None = None) -> list[dict[str, Any]]:
    """Every player of the round in name order with their table and opponent (the wall sheet):
    in reading order (五十音順, projections/reading.py) where ``state`` gives the readings, a
    name without one by code point after them; each row with its ``reading`` (None: none given)."""
    from projections.reading import sort_key

    def reading(name: str) -> str | None:
        return state.reading_of(name) if state is not None else None

    rows: list[dict[str, Any]] = []
    for s in rnd.tables:
        for i, p in enumerate(s.players):
            rows.append({"player": p, "table": s.table, "seat": "AB"[i] if i < 2 else str(i + 1),
                         "opponent": " / ".join(o for o in s.players if o != p), "match": s.match})
    for b in rnd.byes:
        rows.append({"player": b, "table": None, "seat": None, "opponent": None, "match": None})
    for r in rows:
        r["reading"] = reading(r["player"])
    return sorted(rows, key=lambda r: sort_key(r["player"], r["reading"]))


def round_text(view: Mapping[str, Any], lang: str = "ja") -> str:
    t = labels(lang)
    # a Swiss round is "N/rounds"; a playoff round, numbered after them, is the top cut's
    of = f"/{view['rounds']}" if view["round"] <= view["rounds"] else f" ({t['top_cut']})"
    head = f"{view['event']} — {t['round'].format(n=view['round'])}{of}  " \
           f"[{t['closed'] if view['closed'] else t['open']}]"
    if view["minutes_used"] is not None:
        head += "  " + t["time"].format(used=view["minutes_used"], limit=view["round_minutes"])
    lines = [head]
    for tb in view["tables"]:
        lines.append(f"  {t['table']} {tb['table']:>3}  {' vs '.join(tb['players'])}  {t[tb['status']]}  "
                     f"{tb['match']}")
    for b in view["byes"]:
        lines.append(f"  {t['bye']}: {b}")
    if view["dropped"]:
        lines.append(f"{t['dropped']}: " + ", ".join(
            f"{d['player']} ({t['after_round'].format(n=d['after_round'])})" for d in view["dropped"]))
    if view.get("no_shows"):
        lines.append(f"{t['no_shows']}: " + ", ".join(view["no_shows"]))
    lines.append(f"{t['not_reported']}: " + (", ".join(f"{t['table']} {x}" for x in view["not_reported"])
                                              or t["none"]))
    lines += _players_text(view, lang)
    return "\n".join(lines)


def _players_text(view: Mapping[str, Any], lang: str) -> list[str]:
    """The desk's lines of the players' reports and the judges' extensions (issue 33)."""
    t = {**labels(lang), **player_words.labels(lang)}
    out = []
    for d in view.get("disputes") or ():
        said = "; ".join(f"{r['player']}: {t[r['result']]} {r['games']}" for r in d["reports"])
        out.append(f"{t['disputes']}: {t['table']} {d['table']} ({said})")
    for e in view.get("extended") or ():
        out.append(f"{t['extended_tables']}: {t['table_plus'].format(table=e['table'], m=e['minutes'])} "
                   f"({' / '.join(e['reasons'])})")
    if view.get("over_time"):
        out.append(f"{t['over_time']}: " + ", ".join(f"{t['table']} {o['table']} (+{o['over_s'] // 60}:{o['over_s'] % 60:02d})"
                                                   for o in view["over_time"]))
    return out


def pairing_text(state: T.Tournament, rnd: T.Round, lang: str = "ja") -> str:
    t = labels(lang)
    lines = [f"{state.name} — {t['round'].format(n=rnd.number)}", f"[{t['by_table']}]"]
    for s in rnd.tables:
        lines.append(f"  {t['table']} {s.table:>3}  {' vs '.join(s.players)}   {s.match}")
    for b in rnd.byes:
        lines.append(f"  {t['bye']}: {b}")
    if rnd.number == 1 and state.no_shows():
        lines.append(f"  {t['no_shows']}: " + ", ".join(state.no_shows()))
    lines.append(f"[{t['by_name']}]")
    for r in by_name(rnd, state):
        where = f"{t['table']} {r['table']}" if r["table"] else t["bye"]
        lines.append(f"  {r['player']}  {where}" + (f"  vs {r['opponent']}" if r["opponent"] else ""))
    return "\n".join(lines)


def roster_text(state: T.Tournament, lang: str = "ja") -> str:
    t = labels(lang)
    from projections import registry

    try:
        game = registry.get(state.game).title  # the game's own name, as it is sold
    except KifuError:  # a game this build does not have: its code
        game = state.game
    lines = [f"{state.name} ({game}, {t.get(state.format, state.format)}, {t['rounds_of'].format(n=state.rounds)})"
             f" — {t['roster']}: {len(state.players)}"]
    for p in state.by_reading():
        deck = (p.deck or {}).get("name") or ""
        lines.append(f"  {p.name}" + (f" ({p.reading})" if p.reading else "") + (f"  {t['deck']}: {deck}" if deck else "")
                     + _marks(state, p, t))
    if not state.paired:
        if state.checkin:
            lines.append(t["checkin_open"].format(n=sum(1 for p in state.players.values() if p.checked_in),
                                                  total=len(state.players)))
        lines.append(t["no_round"])
    return "\n".join(lines)


def _marks(state: T.Tournament, p: T.Registration, t: Mapping[str, str]) -> str:
    """A roster line's marks: no-show, drop, late entry, check-in (before round 1)."""
    marks = []
    if p.no_show:
        marks.append(t["no_show"])
    elif p.dropped_after is not None:
        marks.append(f"{t['dropped']} {t['after_round'].format(n=p.dropped_after)}")
    if p.missed:
        marks.append(t["late"].format(rounds=", ".join(str(n) for n in p.missed)))
    if state.checkin and not state.paired:
        marks.append(t["checked_in"] if p.checked_in else t["not_checked_in"])
    return "".join(f"  [{m}]" for m in marks)


# -- CSV in and out (a pairing made in other software; the pairing posted as a file) ---------------


def read_pairings(path: str, name: str | None = None) -> tuple[int | None, list[dict[str, Any]], list[str]]:
    """A pairing made in other software: ``table,player1,player2`` rows (a header row is
    optional; ``round`` as a first column is allowed and must name the round being paired; a
    bye is a row with ``BYE`` as the table or a blank second player). ``name``: the file as a
    problem line shows it (default: its path). Every problem is one line naming the file, the
    row and the field."""
    name = name or path
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.reader(fh))
    except (OSError, UnicodeDecodeError) as exc:
        raise LogFormatError([said(N_("{name}:0: file: {strerror}"), name=name, strerror=getattr(exc, "strerror", None) or exc)]) from None
    round_no: int | None = None
    tables: list[dict[str, Any]] = []
    byes: list[str] = []
    has_round = bool(rows) and rows[0] and rows[0][0].strip().lower() == "round"
    for i, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if i == 1 and cells[0].lower() in ("table", "round", "卓"):
            continue
        if has_round:
            if not cells[0].isdigit():
                raise LogFormatError([at(f"{name}:{i}: round", said(N_("a number, got {value!r}"), value=cells[0]))])
            if round_no is not None and int(cells[0]) != round_no:
                raise LogFormatError([at(f"{name}:{i}: round", said(N_("every row names the same round ({n}), got {value}"), n=round_no, value=cells[0]))])
            round_no = int(cells[0])
            cells = cells[1:]
        if len(cells) < 2:
            raise LogFormatError([at(f"{name}:{i}: player1", N_("missing (expected table,player1,player2)"))])
        label, p1, p2 = cells[0], cells[1], cells[2] if len(cells) > 2 else ""
        if label.upper() == "BYE" or not p2 or p2.upper() == "BYE":
            byes.append(p1)
            continue
        if not label or len(label) > 20:
            raise LogFormatError([at(f"{name}:{i}: table", said(N_("1-20 characters, got {value!r}"), value=label))])
        tables.append({"table": label, "players": [p1, p2]})
    if not tables and not byes:
        raise LogFormatError([at(f"{name}:0: file", N_("no pairing rows"))])
    return round_no, tables, byes


def pairing_csv(rnd: T.Round) -> str:
    """A round's pairing as CSV (``round,table,player1,player2,match``; a bye as ``BYE``): what
    ``read_pairings`` reads back."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["round", "table", "player1", "player2", "match"])
    for s in rnd.tables:
        w.writerow([rnd.number, s.table, *s.players, s.match])
    for b in rnd.byes:
        w.writerow([rnd.number, "BYE", b, "", ""])
    return buf.getvalue()


__all__ = ["STATUSES", "by_name", "closed_card", "labels", "pairing_csv", "pairing_text", "read_pairings", "roster_text",
           "round_text", "round_view", "table_status"]
