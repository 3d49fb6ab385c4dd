"""How tests/upgrade/prev-09c831a/ was made: run with the PREVIOUS release's code on the path
(main at 09c831a, when issue 35 was filed), never with this build's:

    git worktree add /tmp/prev 09c831a
    cd /tmp/prev && PYTHONPATH=/tmp/prev /path/to/.venv/bin/python \\
        /path/to/tests/upgrade/build_prev_store.py /path/to/tests/upgrade/prev-09c831a

It writes kifu.db (a match of each game, one of them unfinished, and a tournament with round 1
paired and one table's result in) and the read model that release built beside it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")
UNFINISHED = "upgrade-gandice-half"  # the first HALF lines of gandice-example.jsonl
HALF = 12
EVENT = "旧版大会"
PLAYERS = ["山田", "佐藤", "鈴木", "田中"]


def kifu(out: Path, *args: str) -> str:
    env = dict(os.environ, KIFU_DB=str(out / "kifu.db"), KIFU_LANG="ja")
    env.pop("KIFU_READMODEL", None)
    done = subprocess.run([sys.executable, "-m", "recorder.cli", *args], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"kifu {' '.join(args)}: {done.returncode}: {done.stderr}")
    return done.stdout


def main(out_dir: str) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name in ("kifu.db", "kifu.readmodel.db"):
        for suffix in ("", "-wal", "-shm", "-journal"):
            (out / f"{name}{suffix}").unlink(missing_ok=True)
    for game in GAMES:
        kifu(out, "import", str(EXAMPLES / f"{game}-example.jsonl"))
    lines = (EXAMPLES / "gandice-example.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["match"]["id"] = UNFINISHED
    half = out / "half.jsonl"
    half.write_text("\n".join([json.dumps(header, ensure_ascii=False), *lines[1:HALF + 1]]) + "\n", encoding="utf-8")
    kifu(out, "import", str(half))
    half.unlink()
    kifu(out, "event", "new", EVENT, "--game", "mushijingi", "--rounds", "3", "--seed", "7")
    for p in PLAYERS:
        kifu(out, "event", "register", EVENT, "--player", p)
    kifu(out, "round", "pair", EVENT)
    round_one = sorted(m["id"] for m in json.loads(kifu(out, "matches", "--json")) if m.get("event") == EVENT)
    kifu(out, "record", round_one[0], json.dumps({"type": "concede", "by": "B"}))  # table 1 decided
    kifu(out, "stats")  # the read model, as that release built it
    # checkpoint the WAL into the files, so the fixture is two plain files
    import sqlite3

    for name in ("kifu.db", "kifu.readmodel.db"):
        con = sqlite3.connect(out / name)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("PRAGMA journal_mode = DELETE")
        con.close()


if __name__ == "__main__":
    main(sys.argv[1])
