"""The read-model rebuild as users run it, beside the previous release's, in the same run
(issue 35): ``kifu stats --rebuild`` less ``kifu stats``, each a process of its own.

*The previous release* is the parent of the commit that added the deciding line's rule check
to the fold (KIFU-3): found in this checkout's git history (``git log -S``, the first commit
whose ``projections/replay.py`` names ``FLAGGED_DECISION``), or given as ``KIFU_BENCH_PREVIOUS``
(any commit). Its code is exported with ``git archive`` into the benchmark's temporary folder
and run from there (``PYTHONPATH``), in this same Python and its installed libraries. Without
git or that history (an installed package, a shallow clone) the figure says so and has no
baseline: it never fails the benchmark.

The two releases rebuild the same matches, each under its own newest rules: the previous
release does not know the rules versions the KIFU-3 round added (gandice/2, mushijingi/3,
gurren-lagann/3, variants-war/3), and a rebuild writes an error row for a match whose rules it
does not know, folding nothing (that would be measured as two or three times faster). So its
store holds the same headers and lines with each header's ``rules`` set to that release's
newest version of the game, asked of its own registry; the current release rebuilds the store
as generated (newest rules: flagged deciding lines are pending, so every match's deciding line
is checked). The previous release's read model is then checked for error rows: if it has any,
the figure has no ratio and says how many.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

from recorder.tools.bench import measure as m
from recorder.tools.bench.context import Bench, with_id
from recorder.tools.bench.measure import Goal, Runs, figure, rate

TREE = Path(__file__).resolve().parents[3]  # the checkout this benchmark runs from
MARK = 'FLAGGED_DECISION = "KIFU-3"'  # what the commit that added the deciding-line check put in
MARKED_FILE = "projections/replay.py"
RATIO_GOAL = Goal("≥ 0.95× the previous release, same run (issue 35)", ">=", 0.95)
RATE_GOAL = Goal("≥ 100,000 ev/s (issue 35)", ">=", 100_000, on="median")
# What the previous release's own registry says of each rules version the current store uses:
# kept when it knows it, else its newest version of that game.
ASK_RULES = (
    "import json, sys\n"
    "from projections import registry\n"
    "out = {}\n"
    "for rules in json.loads(sys.argv[1]):\n"
    "    game = rules.partition('/')[0]\n"
    "    try:\n"
    "        registry.get(rules)\n"
    "        out[rules] = rules\n"
    "    except Exception:\n"
    "        out[rules] = f\"{game}/{registry.get(game).version}\"\n"
    "print(json.dumps(out))\n"
)


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(TREE), *args], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise m.BenchError(f"git {' '.join(args[:2])}: {done.stderr.strip()[-300:] or 'failed'}")
    return done.stdout.strip()


def find_previous() -> tuple[str, str]:
    """(commit, how it was found) of the previous release; BenchError when there is none."""
    given = os.environ.get("KIFU_BENCH_PREVIOUS")
    if given:
        return _git("rev-parse", "--verify", f"{given}^{{commit}}"), "KIFU_BENCH_PREVIOUS"
    try:
        added = _git("log", "--reverse", "--format=%H", "-S", MARK, "--", MARKED_FILE).split()
    except (OSError, subprocess.SubprocessError) as exc:
        raise m.BenchError(f"no git here ({exc})") from None
    if not added:
        raise m.BenchError(f"no commit in this checkout's history adds {MARK} to {MARKED_FILE} (a shallow clone?)")
    parent = _git("rev-parse", "--verify", f"{added[0]}^")
    return parent, f"the parent of {added[0][:12]}, the commit that added the deciding line's rule check"


def export(commit: str, into: Path) -> Path:
    """The tree of ``commit``, written under ``into`` (``git archive``): a copy that stays put,
    byte-compiled as this checkout is (``compile_kifu``: an installed release's modules are),
    so that neither release pays for compiling itself in the commands measured."""
    if not (into / "projections" / "replay.py").exists():
        _extract(commit, into)
    from recorder.tools.bench import compile_kifu

    compile_kifu(into)
    return into


def _extract(commit: str, into: Path) -> None:
    data = subprocess.run(["git", "-C", str(TREE), "archive", "--format=tar", commit],
                          capture_output=True, timeout=300)
    if data.returncode != 0:
        raise m.BenchError(f"git archive {commit[:12]}: {data.stderr.decode('utf-8', 'replace').strip()[-300:]}")
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data.stdout)) as tar:
        tar.extractall(into, filter="data")


def _env(tree: Path) -> dict[str, str]:
    env = m.child_env()
    env["PYTHONPATH"] = str(tree)
    return env


def pinned_rules(b: Bench, tree: Path, rules: list[str]) -> dict[str, str]:
    out = m.run_child([sys.executable, "-c", ASK_RULES, json.dumps(rules)], env=_env(tree), cwd=str(b.tmp))
    answer: dict[str, str] = json.loads(out.stdout)
    return answer


def fill(db: str, matches: list[Any], copies: int, prefix: str, rules: dict[str, str] | None = None) -> int:
    """A store of ``copies`` copies of ``matches`` (each header's rules mapped by ``rules``);
    its events."""
    from recorder.store import Store

    store = Store(db)
    try:
        for k in range(copies):
            for header, entries in matches:
                h = with_id(header, f"{prefix}{k}-{header['match']['id']}")
                if rules is not None:
                    h["rules"] = rules.get(h["rules"], h["rules"])
                store.create(h, entries)
        return store.max_notification_id()
    finally:
        store.close()


def _kifu(tree: Path, db: str, *args: str, cwd: str) -> m.Child:
    return m.run_child([sys.executable, "-m", "recorder.cli", "--db", db, *args], env=_env(tree), cwd=cwd)


def _errors(path: str) -> int:
    con = sqlite3.connect(path)
    try:
        return int(con.execute("select count(*) from matches where error is not null").fetchone()[0])
    finally:
        con.close()


def bench_command_rebuild(b: Bench, matches: list[Any], copies: int) -> None:
    """``kifu stats --rebuild`` less ``kifu stats``, this release and the previous one in turn."""
    current_db = b.path("rebuild-command.db")
    events = fill(current_db, matches, copies, "rc")
    previous: tuple[Path, str, str] | None = None  # (tree, its store, what it is)
    why_not = ""
    try:
        commit, how = find_previous()
        tree = export(commit, b.tmp / f"previous-{commit[:12]}")
        rules = sorted({str(h["rules"]) for h, _ in matches})
        pinned = pinned_rules(b, tree, rules)
        previous_db = b.path("rebuild-command-previous.db")
        fill(previous_db, matches, copies, "rc", pinned)
        moved = {k: v for k, v in pinned.items() if k != v}
        label = (f"the previous release ({commit[:12]}: {how}), same command, same matches"
                 + (f" under its newest rules ({', '.join(f'{k} as {v}' for k, v in moved.items())})" if moved else ""))
        previous = (tree, previous_db, label)
    except (m.BenchError, OSError, subprocess.SubprocessError, ValueError, tarfile.TarError) as exc:
        why_not = f"the previous release could not be measured: {exc}"
    ours, theirs = Runs("ev/s", higher_is_better=True), Runs("ev/s", higher_is_better=True)
    sides: list[tuple[Runs, Path, str, str]] = [(ours, TREE, current_db, "cur")]
    if previous is not None:
        sides.append((theirs, previous[0], previous[1], "prev"))
    errors, failed = 0, False
    with b.step(f"kifu stats --rebuild, this release and the previous ({events:,} events)",
                2 * len(sides) * b.runs) as advance:
        for i in range(b.runs):
            for runs, tree, db, tag in (sides if i % 2 == 0 else sides[::-1]):  # each goes first in turn
                if tag == "prev" and failed:
                    advance(2)
                    continue
                model = b.path(f"rebuild-command-{tag}-{i}.readmodel.db")
                try:
                    built = _kifu(tree, db, "stats", "--rebuild", "--readmodel", model, cwd=str(b.tmp))
                    advance()
                    shown = _kifu(tree, db, "stats", "--readmodel", model, cwd=str(b.tmp))
                    advance()
                except m.BenchError as exc:
                    if tag == "cur":
                        raise
                    why_not, failed = f"the previous release's command failed: {exc}", True
                    advance(2)
                    continue
                if tag == "prev":
                    errors = max(errors, _errors(model))
                runs.add(rate(events, built.wall - shown.wall), rate(events, built.cpu - shown.cpu))
    if previous is not None and not why_not and errors:
        why_not = f"the previous release wrote {errors:,} error rows (matches it could not fold): not compared"
    base = None if previous is None or why_not else (previous[2], theirs)
    what = (f"kifu stats --rebuild less kifu stats (subprocesses, one rebuild process per core), "
            f"{len(matches) * copies:,} generated matches of the four games, {events:,} events")
    notes = ("events / (wall of kifu stats --rebuild − wall of kifu stats on the model it built): the rebuild "
             "without the start-up and the report; CPU: the same with each command's and its processes' CPU "
             "time; the two releases in turn, each going first every other run, each rebuild into a new file"
             + (f"; {why_not}" if why_not else ""))
    figure(b.results, "rebuild.sqlite.command", section="rebuild", backend="sqlite", what=what,
           runs=ours, baseline=base, goal=RATE_GOAL, notes=notes)
    figure(b.results, "rebuild.sqlite.command.vs_previous", section="rebuild", backend="sqlite",
           what="the same rebuild beside the previous release's (the ratio is the goal)", runs=ours,
           baseline=base, goal=RATIO_GOAL, notes=notes)
