"""``make run``: import the shipped examples into the database, open a small tournament in
progress (デモ大会: eight players, the three Swiss rounds closed, the top 4 under way, its
bracket on the desk) and show how to step through them; with ``--serve``, write the
semifinals' sheet and start the replay server with a fresh admin token, printing it, the desk,
the standings, the pairings, the bracket and the URL of a recording page that works. Every line it prints follows the reader's language (``--lang``,
else KIFU_LANG / LANG; Japanese by default)."""

from __future__ import annotations

import argparse
import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import quote

from exports import i18n
from exports.desk import pad, width
from exports.notation import reason_text
from projections.errors import KifuError
from projections.replay import Replay
from recorder import roundsheet
from recorder.bulk import import_paths
from recorder.logformat import read_file
from recorder.store import Store

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="kifu.db")
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--lang", default=None, help="ja (default) or en (else KIFU_LANG, LANG)")
    args = parser.parse_args()
    lang = i18n.pick(args.lang) if args.lang else i18n.from_environment()
    _ = i18n.gettext_for(lang)

    def say(text: str) -> str:
        return i18n.translate(lang, text)

    try:
        store = Store(args.db)
    except KifuError as exc:
        print(f"kifu: {say(str(exc))}")
        return 2
    examples = sorted((ROOT / "examples").glob("*.jsonl"))
    print(_("== importing {n} example match(es) into {db}").format(n=len(examples), db=args.db))
    import_paths(store, [str(p) for p in examples], say=say)
    table = demo_event(store)
    print("\n" + _("== matches"))
    first = None
    for header in store.headers():
        if header["match"].get("event") == DEMO_EVENT:
            continue  # the demo event's tables: on its desk (below)
        mid = header["match"]["id"]
        rep = Replay(header, store.load(mid)[1])
        res = rep.result()
        first = first or mid
        if res is None:
            res_text = _("in progress")
        else:
            winner = res.winner or _("draw")
            res_text = _("winner {winner} ({reason})").format(winner=winner, reason=reason_text(res.reason, lang))
        steps = _("{n} steps").format(n=f"{rep.steps:>4}")
        print(f"  {mid:<32} {header['game']:<14} {steps}  {res_text}")
    if first:
        print("\n" + _("== step through a match:"))
        print(f"  .venv/bin/kifu --db {args.db} log {first}")
        print(f"  .venv/bin/kifu --db {args.db} board {first} --at 3")
        print(f"  .venv/bin/kifu --db {args.db} board {first} --at 3 --json")
        print(f"  .venv/bin/kifu --db {args.db} result {first}")
        print(f"  .venv/bin/kifu --db {args.db} export {first} --format jsonl")
    print("\n" + _("== a tournament in progress: {event} (8 players, the 3 Swiss rounds closed, the top 4 "
                    "under way)").format(event=DEMO_EVENT))
    print(f"  .venv/bin/kifu --db {args.db} event {DEMO_EVENT}")
    print(f"  .venv/bin/kifu --db {args.db} standings {DEMO_EVENT}")
    print(f"  .venv/bin/kifu --db {args.db} round show {DEMO_EVENT} {DEMO_CUT_ROUND}")
    print(f"  .venv/bin/kifu --db {args.db} event bracket {DEMO_EVENT}")
    if args.serve:
        try:
            from recorder.web.server import serve
        except ImportError:
            return 0
        token = os.environ.get("KIFU_TOKEN") or "kifu_" + secrets.token_urlsafe(24)
        base = f"http://127.0.0.1:{args.port}"
        event = f"{base}/events/{quote(DEMO_EVENT, safe='')}"
        sheet = Path(args.db).resolve().parent / f"demo-round-{DEMO_CUT_ROUND}.html"
        try:
            roundsheet.write(store, DEMO_EVENT, DEMO_CUT_ROUND, str(sheet), base, lang)
        except KifuError as exc:  # a folder that cannot be written: the rest of the demo still runs
            print(f"kifu: {say(str(exc))}")
        print("\n" + _("== record from a phone or this browser (the token is this run's admin token)"))
        rows = [
            (_("token:"), token),
            (_("recording:"), f"{base}/matches/{quote(table, safe='')}/record#token={token}"),
            (_("desk:"), f"{event}#token={token}"),
            (_("standings:"), f"{event}/standings"),
            (_("pairings:"), f"{event}/rounds/{DEMO_CUT_ROUND}"),
            (_("bracket:"), f"{event}/bracket"),
            (_("round sheet:"), str(sheet)),
            (_("scorekeepers' own tokens:"), f".venv/bin/kifu --db {args.db} token new --match {table}"),
        ]
        cols = max(width(label) for label, _value in rows[:-1])  # display width: a kanji takes two columns
        for label, value in rows[:-1]:
            print(f"  {pad(label, cols)} {value}")
        print(f"  {rows[-1][0]} {rows[-1][1]}")
        print(flush=True)
        serve(args.db, "127.0.0.1", args.port, token, lang=lang)
    return 0


DEMO_EVENT = "デモ大会"
DEMO_ROUNDS = 3  # the Swiss rounds, all closed
DEMO_CUT_ROUND = DEMO_ROUNDS + 1  # the top 4's semifinals (best of three), under way
# Eight players with the readings their names are sorted by (五十音順), each with one of the
# Gandice example's two decks.
DEMO_PLAYERS = (("中村", "なかむら"), ("伊藤", "いとう"), ("佐藤", "さとう"), ("小林", "こばやし"),
                ("山田", "やまだ"), ("高橋", "たかはし"), ("渡辺", "わたなべ"), ("鈴木", "すずき"))
# The opening summon of each example deck, as the example records it (the demo's table in
# progress opens with it; a newcomer's first move at the recording page can be the same).
OPENINGS = {"闇ダイスデッキ": {"ギダン": "special", "美雅羅": "normal", "爪牙": "side"},
            "イスルギデッキ": {"紅蓮のイスルギ": "stand", "青嵐のイスルギ": "normal", "イスルギ": "side"}}


def opening_move(header: dict[str, Any], seat: str = "A") -> dict[str, Any]:
    """The opening summon of the player in ``seat`` of a demo match, with that player's deck."""
    deck = next(p["deck"]["name"] for p in header["players"] if p["id"] == seat)
    return {"type": "summon", "by": seat, "rolls": dict(OPENINGS[deck])}


def demo_event(store: Store) -> str:
    """デモ大会, a small tournament in progress, opened once: eight players of Gandice, the three
    Swiss rounds played (every table decided by a concession) and closed, then the top 4 (best
    of three) paired, its bracket on the desk: semifinal table 1 has its first game won and its
    second under way, table 2 has not started. Returns the match id of the first playoff game
    not started (the recording page make run prints). The rest of the day is played with kifu
    round …"""
    from projections import tournament_rows
    from recorder import service, topcut, tournament_service

    if not tournament_service.exists(store, DEMO_EVENT):
        header, _ = read_file(str(ROOT / "examples" / "gandice-example.jsonl"))
        decks = [p["deck"] for p in header["players"]]
        tournament_service.open_event(store, DEMO_EVENT, "gandice", DEMO_ROUNDS, seed=2026, date="2026-12-06")
        for i, (name, reading) in enumerate(DEMO_PLAYERS):
            tournament_service.register(store, DEMO_EVENT, name, decks[i % 2], reading=reading)
        for _n in range(DEMO_ROUNDS):
            paired = tournament_service.pair(store, DEMO_EVENT, tournament_rows.event_games(store, DEMO_EVENT))
            for i, t in enumerate(paired["tables"]):
                service.record(store, t["match"], {"type": "concede", "by": "AB"[i % 2]})
            tournament_service.close(store, DEMO_EVENT)
        topcut.cut(store, DEMO_EVENT, 4, tournament_rows.event_games(store, DEMO_EVENT))
        won, playing = f"{DEMO_EVENT}-r{DEMO_CUT_ROUND}-t1-g1", f"{DEMO_EVENT}-r{DEMO_CUT_ROUND}-t1-g2"
        service.record(store, won, {"type": "concede", "by": "B"})
        service.record(store, playing, opening_move(store.load(playing)[0]))
        service.record(store, playing, opening_move(store.load(playing)[0], "B"))
    semis = tournament_service.state(store, DEMO_EVENT).round(DEMO_CUT_ROUND)
    assert semis is not None
    # a semifinal's first game not started (every one started on an earlier run: the last table's)
    return next((s.match for s in semis.tables if store.last_seq(s.match) == 0), semis.tables[-1].match)


if __name__ == "__main__":
    raise SystemExit(main())
