"""What a person reads of a tournament: the round as the desk sees it (every table not
started, in progress, finished or awaiting a ruling; time used against the round time; byes;
drops; who has not reported), the pairings by table and by name (what is posted on the wall),
and the roster. The terminal and the pages share these rows. Japanese by default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from projections import tournament as T
from projections.replay import _parse_time
from projections.standings import player_key

STATUSES = ("not_started", "in_progress", "awaiting_ruling", "finished", "bye")

LABELS = {
    "ja": {
        "round": "第{n}回戦", "table": "卓", "players": "対戦", "status": "状況", "match": "試合ID",
        "not_started": "未開始", "in_progress": "対戦中", "awaiting_ruling": "裁定待ち", "finished": "終了",
        "bye": "不戦勝（BYE）", "closed": "締切済み", "open": "進行中", "time": "経過 {used} 分 / {limit} 分",
        "not_reported": "未報告", "dropped": "ドロップ", "after_round": "第{n}回戦後", "none": "なし",
        "player": "プレイヤー", "seat": "席", "opponent": "対戦相手", "roster": "参加者",
        "deck": "デッキ", "no_round": "まだ組み合わせがありません", "result": "結果",
        "by_table": "卓順", "by_name": "名前順", "games": "ゲーム",
    },
    "en": {
        "round": "Round {n}", "table": "Table", "players": "Players", "status": "Status", "match": "Match id",
        "not_started": "not started", "in_progress": "in progress", "awaiting_ruling": "awaiting a ruling",
        "finished": "finished", "bye": "bye", "closed": "closed", "open": "open",
        "time": "{used} of {limit} min used", "not_reported": "Not reported", "dropped": "Dropped",
        "after_round": "after round {n}", "none": "none", "player": "Player", "seat": "Seat",
        "opponent": "Opponent", "roster": "Roster", "deck": "Deck", "no_round": "no round paired yet",
        "result": "Result", "by_table": "By table", "by_name": "By name", "games": "Games",
    },
}


def labels(lang: str | None) -> dict[str, str]:
    return LABELS["en" if lang == "en" else "ja"]


def table_status(games: Sequence[Mapping[str, Any]], best_of: int) -> str:
    """A table's status from its games' rows (``steps``, ``finished``, ``winner``, ``open_disputes``)."""
    if any(g.get("open_disputes") or g.get("pending") for g in games):
        return "awaiting_ruling"
    wins: dict[Any, int] = {}
    for g in games:
        if g.get("finished") and g.get("winner_name"):
            wins[g["winner_name"]] = wins.get(g["winner_name"], 0) + 1
    needed = best_of // 2 + 1
    if any(w >= needed for w in wins.values()) or (games and all(g.get("finished") for g in games)):
        return "finished"
    return "in_progress" if any(g.get("steps") for g in games) else "not_started"


def round_view(state: T.Tournament, rnd: T.Round, games: Mapping[str, Sequence[Mapping[str, Any]]],
               now: datetime | None = None) -> dict[str, Any]:
    """The desk's view of one round. ``games``: the match rows of each table, by table label."""
    now = now or datetime.now(UTC)
    tables = []
    for seat in rnd.tables:
        rows = list(games.get(seat.table, ()))
        status = table_status(rows, state.best_of)
        tables.append({"table": seat.table, "players": list(seat.players), "match": seat.match,
                       "games": [dict(g) for g in rows], "status": status})
    start = _parse_time(rnd.paired_at) if rnd.paired_at else None
    end = _parse_time(rnd.closed_at) if rnd.closed_at else now
    used = int((end - start).total_seconds() // 60) if start else None
    counts = {s: sum(1 for t in tables if t["status"] == s) for s in STATUSES[:-1]}
    return {
        "event": state.name, "round": rnd.number, "rounds": state.rounds, "closed": rnd.closed,
        "method": rnd.method, "seed": rnd.seed, "tables": tables, "byes": list(rnd.byes),
        "dropped": [{"player": n, "after_round": a} for n, a in state.dropped().items()],
        "minutes_used": used, "round_minutes": state.round_minutes, "counts": counts,
        "not_reported": [t["table"] for t in tables if t["status"] != "finished"],
        "changes": [dict(c) for c in rnd.changes],
    }


def by_name(rnd: T.Round) -> list[dict[str, Any]]:
    """Every player of the round in name order with their table and opponent (the wall sheet)."""
    rows: list[dict[str, Any]] = []
    for s in rnd.tables:
        for i, p in enumerate(s.players):
            rows.append({"player": p, "table": s.table, "seat": "AB"[i] if i < 2 else str(i + 1),
                         "opponent": " / ".join(o for o in s.players if o != p), "match": s.match})
    for b in rnd.byes:
        rows.append({"player": b, "table": None, "seat": None, "opponent": None, "match": None})
    return sorted(rows, key=lambda r: player_key(r["player"]))


def round_text(view: Mapping[str, Any], lang: str = "ja") -> str:
    t = labels(lang)
    head = f"{view['event']} — {t['round'].format(n=view['round'])}/{view['rounds']}  " \
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
    lines.append(f"{t['not_reported']}: " + (", ".join(f"{t['table']} {x}" for x in view["not_reported"])
                                              or t["none"]))
    return "\n".join(lines)


def pairing_text(state: T.Tournament, rnd: T.Round, lang: str = "ja") -> str:
    t = labels(lang)
    lines = [f"{state.name} — {t['round'].format(n=rnd.number)}", f"[{t['by_table']}]"]
    for s in rnd.tables:
        lines.append(f"  {t['table']} {s.table:>3}  {' vs '.join(s.players)}   {s.match}")
    for b in rnd.byes:
        lines.append(f"  {t['bye']}: {b}")
    lines.append(f"[{t['by_name']}]")
    for r in by_name(rnd):
        where = f"{t['table']} {r['table']}" if r["table"] else t["bye"]
        lines.append(f"  {r['player']}  {where}" + (f"  vs {r['opponent']}" if r["opponent"] else ""))
    return "\n".join(lines)


def roster_text(state: T.Tournament, lang: str = "ja") -> str:
    t = labels(lang)
    lines = [f"{state.name} ({state.game}, {state.format}, {state.rounds} R) — {t['roster']}: {len(state.players)}"]
    for p in state.players.values():
        deck = (p.deck or {}).get("name") or ""
        mark = f"  [{t['dropped']} {t['after_round'].format(n=p.dropped_after)}]" if p.dropped_after is not None else ""
        lines.append(f"  {p.name}" + (f"  {t['deck']}: {deck}" if deck else "") + mark)
    if not state.paired:
        lines.append(t["no_round"])
    return "\n".join(lines)


__all__ = ["LABELS", "STATUSES", "by_name", "labels", "pairing_text", "roster_text", "round_text", "round_view",
           "table_status"]
