"""``make run``: import the shipped examples into the database and show how to step through
them (and, with ``--serve``, start the replay server with a fresh admin token, printing it
and the URL of a recording page that works)."""

from __future__ import annotations

import argparse
import json
import os
import secrets
from pathlib import Path
from urllib.parse import quote

from exports import i18n
from exports.notation import reason_text
from projections.errors import KifuError
from projections.replay import Replay
from recorder import service
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
    table = demo_table(store)
    print("\n" + _("== matches"))
    first = None
    for header in store.headers():
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
    if args.serve:
        try:
            from recorder.web.server import serve
        except ImportError:
            return 0
        token = os.environ.get("KIFU_TOKEN") or "kifu_" + secrets.token_urlsafe(24)
        base = f"http://127.0.0.1:{args.port}"
        print("\n" + _("== record from a phone or this browser (the token is this run's admin token)"))
        rows = [
            (_("token:"), token),
            (_("recording:"), f"{base}/matches/{quote(table, safe='')}/record#token={token}"),
            (_("desk:"), f"{base}/events/{quote(DEMO_EVENT, safe='')}"),
            (_("scorekeepers' own tokens:"), f".venv/bin/kifu --db {args.db} token new --match {table}"),
        ]
        width = max(len(label) for label, _value in rows[:3])
        for label, value in rows[:3]:
            print(f"  {label:<{width}} {value}")
        print(f"  {rows[3][0]} {rows[3][1]}")
        print(flush=True)
        serve(args.db, "127.0.0.1", args.port, token)
    return 0


DEMO_EVENT = "デモ大会"


def demo_table(store: Store) -> str:
    """An empty match to record into (the shipped examples are finished): the Gandice
    example's players and decks at table 1 of a demo event, created once."""
    match_id = "demo-gandice-table-1"
    if not store.exists(match_id):
        header, _ = read_file(str(ROOT / "examples" / "gandice-example.jsonl"))
        header = json.loads(json.dumps(header))
        header["match"].update(id=match_id, title="デモ: ここから記録できます", event=DEMO_EVENT, round=1, table="1")
        service.create_match(store, header)
    return match_id


if __name__ == "__main__":
    raise SystemExit(main())
