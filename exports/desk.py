"""The event desk: every table of every round of one event at a glance, for judges and
organisers (``/events/EVENT`` in the server, ``kifu event EVENT`` in the terminal), with the
standings (projections/standings.py). Japanese by default, English with ``?lang=en``.

The same rows feed the page, the JSON API and the terminal: ``event_rows`` walks the matches
of the event once (replays come from the server's cache, or are folded once for the CLI).
"""

from __future__ import annotations

import csv
import io
import sqlite3
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, UTC
from typing import Any
from urllib.parse import quote

from exports import i18n
from projections import deskrows, standings
from projections.names import name_key
from projections.replay import Replay, _parse_time
from projections.disputes import dispute_states

POLL_MS = 2000

def _words(t: Any) -> dict[str, str]:
    """The desk's words, from the catalog (context "event")."""
    return {
        "desk": t.pgettext("event", "Event desk"), "round": t.pgettext("event", "Round {n}"),
        "table": t.pgettext("event", "Table"), "players": t.pgettext("event", "Players"),
        "status": t.pgettext("event", "Status"), "turn": t.pgettext("event", "Turn"),
        "last": t.pgettext("event", "Last move"), "disputes": t.pgettext("event", "Disputes"),
        "violations": t.pgettext("event", "Violations"), "penalties": t.pgettext("event", "Penalties"),
        "in_progress": t.pgettext("event", "in progress"), "not_started": t.pgettext("event", "not started"),
        "finished": t.pgettext("event", "finished"), "draw": t.pgettext("event", "draw"),
        "winner": t.pgettext("event", "winner"), "viewer": t.pgettext("event", "view"),
        "record": t.pgettext("event", "record"), "standings": t.pgettext("event", "Standings"),
        "rank": t.pgettext("event", "Rank"), "player": t.pgettext("event", "Player"),
        "points": t.pgettext("event", "Points"), "record_wlD": t.pgettext("event", "W-L-D"),
        "mwp": t.pgettext("event", "MW%"), "omw": t.pgettext("event", "OMW%"), "gwp": t.pgettext("event", "GW%"),
        "ogw": t.pgettext("event", "OGW%"), "mwp_name": t.pgettext("event", "match-win percentage"),
        "omw_name": t.pgettext("event", "opponents' match-win percentage"),
        "gwp_name": t.pgettext("event", "game-win percentage"),
        "ogw_name": t.pgettext("event", "opponents' game-win percentage"),
        "notes": t.pgettext("event", "Notes"), "byes": t.pgettext("event", "{n} bye(s)"),
        "dropped": t.pgettext("event", "dropped after round {n}"), "as_of": t.pgettext("standings as of", "after round {n}"),
        "sep": t.pgettext("event", ", "),
        "no_show": t.pgettext("event", "no-show"), "late_losses": t.pgettext("event", "late entry: {n} round(s) lost"),
        "pending": t.pgettext("event", "Matches still playing (not in the standings yet)"),
        "no_matches": t.pgettext("event", "No matches in this event yet"),
        "no_results": t.pgettext("event", "No results yet"),
        "ago_s": t.pgettext("event", "{n}s ago"), "ago_m": t.pgettext("event", "{n} min ago"),
        "ago_h": t.pgettext("event", "{n} h ago"), "never": "—", "open": t.pgettext("event", "open dispute"),
        "none": t.pgettext("event", "none"), "by_player": t.pgettext("event", "Penalties by player"),
        "no_round": t.pgettext("event", "no round"), "tables": t.pgettext("event", "tables"),
        "live": t.pgettext("event", "live"), "matches": t.pgettext("event", "matches"),
        "pending_ruling": t.pgettext("event", "awaiting a ruling"),
        "rulings": t.pgettext("event", "Rulings to make"),
        "pending_result": t.pgettext("event", "decided by a flagged line (KIFU-3)"),
        "seq": t.pgettext("event", "line {seq}"),
    }


labels = i18n.word_table(_words)  # labels(lang): the desk's words in ``lang`` (Japanese unless "en")


def _q(text: Any) -> str:
    return quote(str(text), safe="")


def last_time(entries: list[Mapping[str, Any]]) -> str | None:
    for e in reversed(entries):
        if e.get("at"):
            return str(e["at"])
    return None


def ago(at: str | None, now: datetime, lang: str = "ja") -> str:
    t = labels(lang)
    if not at:
        return t["never"]
    try:
        secs = max(0, int((now - _parse_time(at)).total_seconds()))
    except ValueError:
        return t["never"]
    if secs < 60:
        return t["ago_s"].format(n=secs)
    if secs < 3600:
        return t["ago_m"].format(n=secs // 60)
    return t["ago_h"].format(n=secs // 3600)


def match_row(rep: Replay, summary: Mapping[str, Any]) -> dict[str, Any]:
    """What the desk shows of one match (a JSON-ready dict)."""
    entries = rep.entries
    names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
    board = rep.board_json(rep.steps)
    res = summary.get("result")
    if res and res.get("pending"):
        status = "pending_ruling"  # decided by a line that broke a rule (KIFU-3): a judge's to settle
    else:
        status = "finished" if res else ("in_progress" if entries else "not_started")
    disputes = [d.to_json() for d in dispute_states(entries).values() if d.is_open]
    penalties = [
        {"seq": e["seq"], "player": e["player"], "name": names.get(e["player"], e["player"]),
         "penalty": e["penalty"], "infraction": e.get("infraction")}
        for e in entries if e.get("type") == "penalty"
    ]
    mid = summary["id"]
    return {
        "id": mid, "game": summary["game"], "round": summary.get("round"), "table": summary.get("table"),
        "players": summary["players"], "status": status, "result": res,
        "turn": board.get("turn"), "active": board.get("active"),
        "active_name": names.get(board.get("active") or "", board.get("active")),
        "steps": rep.steps, "last_at": last_time(entries),
        "violations": [v.to_json() for v in rep.violations()],
        "disputes": disputes, "penalties": penalties,
        "viewer_url": f"/matches/{_q(mid)}", "record_url": f"/matches/{_q(mid)}/record",
    }


def model_rows(conn: Any, event: str, fold: Callable[[str], Replay]) -> list[dict[str, Any]]:
    """The desk rows of ``event`` from the read model's rows (``projections.deskrows``): what
    ``match_row`` makes by folding, read through the event index. Only a match whose violations
    are not kept for its current lines is folded (``fold(match id)``: its ruled view, checked),
    and what that finds is kept for the next desk, of this server or another."""
    rows = deskrows.event_rows(conn, event)
    found: list[tuple[str, int, list[dict[str, Any]]]] = []
    for r in rows:
        error = r.pop("error")
        r["viewer_url"], r["record_url"] = f"/matches/{_q(r['id'])}", f"/matches/{_q(r['id'])}/record"
        if r["violations"] is not None:
            continue
        if error is not None:  # a game this build cannot fold: no violations to show
            r["violations"] = []
            continue
        rep = fold(r["id"])
        upto = min(r["steps"], rep.steps)
        violations = [v.to_json() for v in rep.violations(upto)]
        r["violations"] = violations
        found.append((r["id"], upto, violations))
    if found:
        try:
            with conn:
                deskrows.save_checked(conn, found)
        except sqlite3.Error:  # locked by a long writer: kept next time
            pass
    return rows


def event_rows(event: str, matches: Iterable[tuple[Replay, Mapping[str, Any]]]) -> dict[str, Any]:
    """The desk of ``event``: rounds of tables, penalties per player and the standings."""
    key = name_key(event)
    return event_desk(event, [match_row(rep, s) for rep, s in matches if name_key(s.get("event")) == key])


def event_desk(event: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The desk of ``event`` from its matches' rows (``match_row``; the server keeps them per
    match and number of lines, so a desk refreshed every few seconds folds only what moved)."""
    rows = list(rows)
    rows.sort(key=lambda r: (r["round"] or 0, standings._table_order(r["table"]), r["id"]))
    rounds: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    tables: dict[tuple[Any, Any, tuple[str, ...]], dict[str, Any]] = {}
    for r in rows:
        # the games played at one table in one round (one organised-play match) share a card
        key = (r["round"], r["table"], tuple(sorted(p["name"] for p in r["players"])))
        if key not in tables:
            tables[key] = {"round": r["round"], "table": r["table"], "players": r["players"], "games": []}
            rounds[r["round"]].append(tables[key])
        tables[key]["games"].append(r)
    for card in tables.values():
        games = card["games"]
        if all(g["status"] == "finished" for g in games):
            card["status"] = "finished"
        elif all(g["status"] in ("finished", "pending_ruling") for g in games):
            card["status"] = "pending_ruling"
        else:
            card["status"] = "in_progress"
        card["disputes"] = sum(len(g["disputes"]) for g in games)
        card["violations"] = sum(len(g["violations"]) for g in games)
    per_player: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        for p in r["penalties"]:
            per_player[p["name"]].append(dict(p, match=r["id"], round=r["round"], table=r["table"]))
    table = standings.from_summaries(event, [_summary_of(r, event) for r in rows])
    return {
        "event": event,
        "rounds": [{"round": k, "tables": v} for k, v in rounds.items()],
        "penalties": dict(sorted(per_player.items())),
        "standings": [s.to_json() for s in table.rows],
        "pending": [{"round": p.round, "table": p.table, "players": list(p.players)} for p in table.pending],
        "rulings": rulings_to_make(rows),
        "counts": {
            "matches": len(rows), "in_progress": sum(r["status"] != "finished" for r in rows),
            "pending_rulings": sum(r["status"] == "pending_ruling" for r in rows),
            "disputes": sum(len(r["disputes"]) for r in rows),
            "violations": sum(len(r["violations"]) for r in rows),
        },
    }


def rulings_to_make(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What the judges have to decide, table by table: every open dispute (``kind``
    ``dispute``) and every match decided by a line that broke a rule (``pending_result``,
    KIFU-3: uphold the line, overturn it, or correct it)."""
    out: list[dict[str, Any]] = []
    for r in rows:
        where = {"match": r["id"], "round": r["round"], "table": r["table"]}
        for d in r["disputes"]:
            out.append(dict(where, kind="dispute", seq=d.get("on"), dispute=d.get("dispute"), rule=d.get("rule")))
        pending = (r["result"] or {}).get("pending")
        if pending:
            out.append(dict(where, kind="pending_result", seq=pending["seq"], rule=pending["rule"],
                            winner=r["result"].get("winner"), reason=r["result"].get("reason")))
    return out


def _summary_of(row: Mapping[str, Any], event: str) -> dict[str, Any]:
    return {"id": row["id"], "event": event, "round": row["round"], "table": row["table"],
            "players": row["players"], "result": row["result"]}


def store_matches(store: Any, event: str) -> list[tuple[Replay, dict[str, Any]]]:
    """The matches of ``event`` from a store, each folded once (the CLI's way in): found
    through the read model's event index, so only the event's own matches are read."""
    from exports.timeline import summary
    from projections.listing import event_matches
    from projections.readmodel import catch_up_store

    rm = catch_up_store(store)
    try:
        ids = event_matches(rm.db.conn, event)
    finally:
        rm.close()
    out = []
    for mid, _ in ids:
        header, entries = store.load(mid)
        rep = Replay(header, entries)
        out.append((rep, summary(header, rep)))
    return out


def events_of(summaries: Iterable[Mapping[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for s in summaries:
        if s.get("event"):
            seen.setdefault(str(s["event"]), None)
    return list(seen)


def standings_table(event: str, matches: Iterable[tuple[Replay, Mapping[str, Any]]]) -> standings.Table:
    return standings.from_summaries(event, [s for _, s in matches])


def standings_csv(table: standings.Table) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rank", "player", "points", "wins", "losses", "draws", "games_won", "games_lost", "games_drawn",
                "mw_pct", "omw_pct", "gw_pct", "ogw_pct", "byes", "dropped_after", "place", "no_show"])
    for s in table.rows:
        w.writerow([s.rank, s.player, s.points, s.wins, s.losses, s.draws, s.games_won, s.games_lost,
                    s.games_drawn, f"{standings.pct(s.mwp):.2f}", f"{standings.pct(s.omw):.2f}",
                    f"{standings.pct(s.gwp):.2f}", f"{standings.pct(s.ogw):.2f}", s.byes,
                    "" if s.dropped_after is None else s.dropped_after, "" if s.place is None else s.place,
                    int(s.no_show)])
    return buf.getvalue()


def width(text: str) -> int:
    """Columns a string takes in a terminal (East Asian wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def pad(text: str, cols: int, right: bool = False) -> str:
    fill = " " * max(0, cols - width(text))
    return fill + text if right else text + fill


def note_parts(row: Mapping[str, Any], lang: str | None = None, t: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """A standings row's marks in words, each ``(kind, text)``: ``byes``, ``no_show`` (never
    checked in), ``dropped`` (after round N) and ``late`` (rounds lost before a late entry);
    ``row`` is a row's JSON (``Standing.to_json``). The desk's notes column and the terminal's
    both read them, so a no-show or a drop reads the same on the page and in ``kifu standings``."""
    t = t or labels(lang)
    parts = []
    if row.get("byes"):
        parts.append(("byes", t["byes"].format(n=row["byes"])))
    if row.get("no_show"):
        parts.append(("no_show", t["no_show"]))
    elif row.get("dropped_after") is not None:
        parts.append(("dropped", t["dropped"].format(n=row["dropped_after"])))
    if row.get("missed"):
        parts.append(("late", t["late_losses"].format(n=row["missed"])))
    return parts


def _notes(s: standings.Standing, t: Mapping[str, str]) -> str:
    """A row's byes and drop, as printed beside it (empty for most rows)."""
    row = {"byes": s.byes, "no_show": s.no_show, "dropped_after": s.dropped_after, "missed": s.missed}
    return t["sep"].join(text for _, text in note_parts(row, t=t))


def standings_text(table: standings.Table, lang: str = "ja") -> str:
    t = labels(lang)
    if not table.rows:
        # no result counted yet: matches may well be paired and playing (they are listed as
        # pending), so this says what is true of the standings, never that there is no match
        lines = [f"{t['standings']} — {table.event}", t["no_results"]]
        if table.pending:
            lines.append(_pending_line(table, t))
        return "\n".join(lines)
    cols = max([width(s.player) for s in table.rows] + [width(t["player"])])
    notes = {s.player: _notes(s, t) for s in table.rows}
    rec = max(7, width(t["record_wlD"]))
    head = [pad("#", 3, True), pad(t["player"], cols), pad(t["points"], 6, True), pad(t["record_wlD"], rec, True),
            pad(t["mwp"], 7, True), pad(t["omw"], 7, True), pad(t["gwp"], 7, True), pad(t["ogw"], 7, True)]
    if any(notes.values()):
        head.append(t["notes"])
    title = f"{t['standings']} — {table.event}"
    if table.upto_round is not None:
        title += f" ({t['as_of'].format(n=table.upto_round)})"
    lines = [title, "  ".join(head)]
    for s in table.rows:
        cells = [
            pad(str(s.place if table.by_place and s.place is not None else s.rank), 3, True), pad(s.player, cols), pad(str(s.points), 6, True), pad(s.record, rec, True),
            f"{standings.pct(s.mwp):>7.2f}", f"{standings.pct(s.omw):>7.2f}", f"{standings.pct(s.gwp):>7.2f}",
            f"{standings.pct(s.ogw):>7.2f}",
        ]
        if notes[s.player]:
            cells.append(notes[s.player])
        lines.append("  ".join(cells))
    if table.pending:
        lines.append(_pending_line(table, t))
    return "\n".join(lines)


def _pending_line(table: standings.Table, t: Mapping[str, str]) -> str:
    return f"{t['pending']}: " + ", ".join(
        f"R{p.round} {t['table']}{p.table} ({' vs '.join(p.players)})" for p in table.pending)


def status_text(row: Mapping[str, Any], lang: str = "ja") -> str:
    t = labels(lang)
    from exports.notation import reason_text

    if row["status"] == "pending_ruling":
        res = row["result"] or {}
        who = res.get("winner_name") or res.get("winner") or t["draw"]
        why = reason_text(res.get("reason"), lang)
        return f"{t['pending_ruling']} ({who}, {why}; #{res['pending']['seq']} {res['pending']['rule']})"
    if row["status"] != "finished":
        return t[row["status"]]
    res = row["result"] or {}
    why = reason_text(res.get("reason"), lang)  # the reason in words, never its code
    if res.get("winner") is None:
        return f"{t['finished']} ({t['draw']}, {why})"
    return f"{t['finished']} ({t['winner']} {res.get('winner_name') or res.get('winner')}, {why})"


def penalty_text(code: Any, lang: str = "ja") -> str:
    """A penalty in words (``game-loss`` -> ゲームの敗北 / game loss); a code no table knows as it is."""
    from exports.notation import PENALTIES

    return i18n.gettext_for(lang)(PENALTIES[code]) if code in PENALTIES else str(code)


def with_penalty_words(desk: dict[str, Any], lang: str = "ja") -> dict[str, Any]:
    """``desk`` (``event_desk``) with each penalty's words beside its code (``penalty_text``)."""
    for rnd in desk["rounds"]:
        for card in rnd["tables"]:
            for r in card["games"]:
                r["penalties"] = [dict(p, penalty_text=penalty_text(p.get("penalty"), lang)) for p in r["penalties"]]
    desk["penalties"] = {name: [dict(p, penalty_text=penalty_text(p.get("penalty"), lang)) for p in ps]
                         for name, ps in desk["penalties"].items()}
    return desk


def desk_text(desk: Mapping[str, Any], now: datetime | None = None, lang: str = "ja") -> str:
    """The desk for the terminal (``kifu event``)."""
    t = labels(lang)
    now = now or datetime.now(UTC)
    out = [f"{t['desk']} — {desk['event']}"]
    if not desk["rounds"]:
        out.append(t["no_matches"])
    for rnd in desk["rounds"]:
        out.append("")
        out.append(t["round"].format(n=rnd["round"]) if rnd["round"] is not None else t["no_round"])
        for card in rnd["tables"]:
            players = " vs ".join(f"{p['name']} ({p['deck'] or '—'})" for p in card["players"])
            out.append(f"  {t['table']}{card['table'] or '?'}  {players}  [{t[card['status']]}]")
            for r in card["games"]:
                turn = f"{t['turn']} {r['turn']} {r['active_name'] or ''}".strip() if r["status"] == "in_progress" else ""
                detail = "  ".join(x for x in (status_text(r, lang), turn, f"{t['last']}: {ago(r['last_at'], now, lang)}") if x)
                out.append(f"      {r['id']}  {detail}")
                if r["disputes"]:
                    out.append(f"        !! {t['disputes']} " + ", ".join(
                        f"#{d['dispute']}→{d['on']} {d.get('claim') or ''}".strip() for d in r["disputes"]))
                if r["violations"]:
                    out.append(f"        ! {t['violations']} " + ", ".join(sorted({v['rule'] for v in r['violations']})))
                if r["penalties"]:
                    out.append(f"        {t['penalties']} " + ", ".join(f"{p['name']}: {penalty_text(p['penalty'], lang)}" for p in r["penalties"]))
    if desk.get("rulings"):
        out.append("")
        out.append(t["rulings"])
        for r in desk["rulings"]:
            what = t["pending_result"] if r["kind"] == "pending_result" else t["disputes"]
            out.append(f"  R{r['round']} {t['table']}{r['table']} {r['match']} #{r['seq']} {r.get('rule') or ''} — {what}")
    if desk["penalties"]:
        out.append("")
        out.append(t["by_player"])
        for name, ps in desk["penalties"].items():
            out.append(f"  {name}: " + ", ".join(f"{penalty_text(p['penalty'], lang)} ({p['infraction']}, R{p['round']} {t['table']}{p['table']})" for p in ps))
    return "\n".join(out)


# -- the server's routes ---------------------------------------------------------------------------


__all__ = ["desk_text", "event_desk", "event_rows", "note_parts", "penalty_text", "standings_csv", "standings_table",
           "standings_text", "store_matches", "with_penalty_words"]
