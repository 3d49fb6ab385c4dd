"""``make run``: import the shipped examples into the database and show how to step through
them (and, with ``--serve``, start the replay server)."""

from __future__ import annotations

import argparse
from pathlib import Path

from projections.errors import KifuError
from projections.replay import Replay
from recorder.bulk import import_paths
from recorder.store import Store

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="kifu.db")
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    try:
        store = Store(args.db)
    except KifuError as exc:
        print(f"kifu: {exc}")
        return 2
    examples = sorted((ROOT / "examples").glob("*.jsonl"))
    print(f"== importing {len(examples)} example match(es) into {args.db}")
    import_paths(store, [str(p) for p in examples])
    print("\n== matches")
    first = None
    for header in store.headers():
        mid = header["match"]["id"]
        rep = Replay(header, store.load(mid)[1])
        res = rep.result()
        first = first or mid
        res_text = "in progress" if res is None else f"winner {res.winner or 'draw'} ({res.reason})"
        print(f"  {mid:<32} {header['game']:<14} {rep.steps:>4} steps  {res_text}")
    if first:
        print("\n== step through a match:")
        print(f"  .venv/bin/kifu --db {args.db} log {first}")
        print(f"  .venv/bin/kifu --db {args.db} board {first} --at 3")
        print(f"  .venv/bin/kifu --db {args.db} board {first} --at 3 --json")
        print(f"  .venv/bin/kifu --db {args.db} result {first}")
        print(f"  .venv/bin/kifu --db {args.db} export {first} --format jsonl")
    if args.serve:
        try:
            from exports.server import serve
        except ImportError:
            return 0
        serve(args.db, "127.0.0.1", args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
