"""`make mutate`: mutation testing of the core modules with mutmut 3.

    python -m tests.mutate_tool                      # every module in mutation.toml
    python -m tests.mutate_tool --module recorder/logformat.py
    python -m tests.mutate_tool --worktree           # the working tree instead of HEAD

Each module is mutated in its own copy of the tree (``git archive`` of HEAD, so what others
are editing never leaks in and the working tree is never touched), under build/mutate/<name>/,
and run against the tests that mutation.toml names for it; mutmut then runs, for each mutant,
only those of them that execute the mutated function. Surviving mutants that are equivalent
(no test could tell them apart) are listed in mutation.toml with a one-line reason and left out
of the score. The summary per module is printed, and written to build/mutate/summary.json with
every survivor's diff in build/mutate/survivors.txt. To look at one afterwards:
``cd build/mutate/<name> && mutmut show <mutant>``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "mutation.toml"
OUT = ROOT / "build" / "mutate"

# Runs inside a module's copy, with mutmut's own reader of its results: one JSON line per mutant.
COLLECT = r"""
import json
from mutmut.__main__ import walk_mutatable_files, SourceFileMutationData, status_by_exit_code
from mutmut.mutation.diff_apply import get_diff_for_mutant
for path in walk_mutatable_files():
    data = SourceFileMutationData(path=path)
    data.load()
    for name, code in data.exit_code_by_key.items():
        status = status_by_exit_code[code]
        diff = get_diff_for_mutant(name, path=path) if status != "killed" else ""
        print(json.dumps({"name": name, "path": str(path), "status": status, "diff": diff}))
"""


def load_config() -> dict[str, Any]:
    with CONFIG.open("rb") as f:
        return tomllib.load(f)


def pick(config: dict[str, Any], wanted: str | None) -> list[tuple[str, dict[str, Any]]]:
    modules = config["modules"]
    if not wanted:
        return list(modules.items())
    from fnmatch import fnmatch

    wanted = wanted.strip().rstrip("/")
    found = [(k, v) for k, v in modules.items() if k == wanted or any(fnmatch(wanted, g) for g in v["mutate"])]
    if not found:
        raise SystemExit(f"mutate: {wanted}: not a module of mutation.toml (known: {', '.join(modules)})")
    return found


def snapshot(dest: Path, worktree: bool) -> None:
    """A private copy of the tree: HEAD's files, or (--worktree) the working tree's (not ignored)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if worktree:
        files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, check=True).stdout
        for name in filter(None, files.decode().split("\0")):
            src = ROOT / name
            if src.is_file():
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / name)
        return
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dest, filter="data")


def toml_value(value: Any) -> str:
    # JSON strings, numbers, booleans and lists of them are valid TOML as written by json.dumps.
    return json.dumps(value, ensure_ascii=False)


def write_mutmut_config(work: Path, base: dict[str, Any], module: dict[str, Any]) -> None:
    """The copy's pyproject.toml gets one [tool.mutmut] table: the repo's, plus this module."""
    settings = dict(base)
    settings["only_mutate"] = module["mutate"]
    settings["pytest_add_cli_args_test_selection"] = sorted(
        str(f.relative_to(work)) for pattern in module["tests"] for f in work.glob(pattern))
    settings["pytest_add_cli_args"] = [*base.get("pytest_add_cli_args", []), *module.get("pytest_args", [])]
    lines = (work / "pyproject.toml").read_text(encoding="utf-8").splitlines()
    kept, skipping = [], False
    for line in lines:
        if line.startswith("["):
            skipping = line.strip() == "[tool.mutmut]"
        if not skipping:
            kept.append(line)
    kept += ["", "[tool.mutmut]", *(f"{k} = {toml_value(v)}" for k, v in settings.items())]
    (work / "pyproject.toml").write_text("\n".join(kept) + "\n", encoding="utf-8")


def changed_lines(diff: str) -> tuple[str, str]:
    """The removed and added lines of a mutant's diff, stripped (what equivalents are matched on)."""
    body = [x for x in diff.splitlines() if not x.startswith(("---", "+++", "@@"))]
    old = "\n".join(x[1:].strip() for x in body if x.startswith("-"))
    new = "\n".join(x[1:].strip() for x in body if x.startswith("+"))
    return old, new


def function_of(name: str) -> str:
    # recorder.logformat.x_parse_line__mutmut_12 -> parse_line; methods: xǁReplayǁextend__mutmut_3
    tail = name.rsplit(".", 1)[-1].split("__mutmut_")[0]
    return tail[2:].replace("ǁ", ".") if tail.startswith(("x_", "xǁ")) else tail


def is_equivalent(mutant: dict[str, Any], equivalents: list[dict[str, str]]) -> str | None:
    old, new = changed_lines(mutant["diff"])
    for eq in equivalents:
        if eq["function"] == function_of(mutant["name"]) and eq["from"].strip() == old and eq["to"].strip() == new:
            return eq["why"]
    return None


def run_module(name: str, module: dict[str, Any], base: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    work = OUT / name.replace("/", "_").replace(".py", "")
    env = dict(os.environ, PYTHONPATH=str(work / "mutants"), MUTANT_UNDER_TEST="")
    env.pop("KIFU_DB", None)
    log = work / "mutmut.log"
    rc = 0
    if not args.report:
        print(f"== {name}: copying the tree to {work.relative_to(ROOT)}", flush=True)
        snapshot(work, args.worktree)
        write_mutmut_config(work, base, module)
        cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.jobs)]
        for _ in range(2):
            with log.open("w", encoding="utf-8") as out:
                rc = subprocess.run(cmd, cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
            # mutmut 3.8's first run in a fresh copy can fail its stats run with pytest's usage
            # error (exit 4) right after generating the mutants; the same run again goes through.
            if rc == 0 or "BadTestExecutionCommandsException" not in log.read_text(errors="replace"):
                break
    elif not (work / "mutants").is_dir():
        return {"module": name, "error": f"no run in {work} yet"}
    collected = subprocess.run([sys.executable, "-c", COLLECT], cwd=work, env=env, capture_output=True, text=True)
    mutants = [json.loads(x) for x in collected.stdout.splitlines() if x.startswith("{")]
    if rc != 0 or not mutants:
        text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
        tail = [x for x in text.replace("\r", "\n").splitlines() if x.strip()][-15:]
        return {"module": name, "error": f"mutmut exited {rc}; see {log}", "log_tail": tail}
    equivalents = [e for e in module.get("equivalent", [])]
    counts: dict[str, int] = {}
    survivors, equivalent = [], []
    for m in mutants:
        status = m["status"]
        if status == "survived":
            why = is_equivalent(m, equivalents)
            if why is not None:
                status = "equivalent"
                equivalent.append({"name": m["name"], "why": why})
            else:
                survivors.append(m)
        counts[status] = counts.get(status, 0) + 1
    killed = counts.get("killed", 0) + counts.get("timeout", 0) + counts.get("caught by type check", 0)
    scored = killed + counts.get("survived", 0) + counts.get("no tests", 0) + counts.get("suspicious", 0)
    return {
        "module": name,
        "mutants": len(mutants),
        "counts": counts,
        "killed": killed,
        "score": round(100 * killed / scored, 1) if scored else None,
        "equivalent": equivalent,
        "survivors": [{"name": m["name"], "diff": m["diff"]} for m in survivors],
    }


def report(results: list[dict[str, Any]]) -> str:
    lines = [f"{'module':40} {'mutants':>7} {'killed':>6} {'survived':>8} {'no tests':>8} {'equiv':>5} {'score':>6}"]
    for r in results:
        if "error" in r:
            lines.append(f"{r['module']:40} error: {r['error']}")
            continue
        c = r["counts"]
        lines.append(f"{r['module']:40} {r['mutants']:7} {r['killed']:6} {c.get('survived', 0):8} "
                     f"{c.get('no tests', 0):8} {c.get('equivalent', 0):5} {r['score']:5}%")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make mutate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", help="one module (a key of mutation.toml or a file it mutates)")
    parser.add_argument("--worktree", action="store_true", help="mutate the working tree's files, not HEAD's")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("MUTATE_JOBS") or os.cpu_count() or 2),
                        help="mutmut's --max-children (default: MUTATE_JOBS, else the CPU count)")
    parser.add_argument("--report", action="store_true",
                        help="only summarise the last run again (after adding equivalents to mutation.toml)")
    args = parser.parse_args(argv)
    config = load_config()
    base = load_base_settings()
    results = []
    for name, module in pick(config, args.module):
        result = run_module(name, module, base, args)
        results.append(result)
        print(report([result]).splitlines()[1], flush=True)
        for line in result.get("log_tail", []):
            print("   ", line)
    OUT.mkdir(parents=True, exist_ok=True)
    # One module's run replaces that module's entry; the other modules' last results are kept,
    # so the summary is always the whole picture (in mutation.toml's order).
    summary_path = OUT / "summary.json"
    kept: dict[str, Any] = {}
    if summary_path.exists():
        try:
            kept = {r["module"]: r for r in json.loads(summary_path.read_text(encoding="utf-8"))}
        except (ValueError, KeyError, TypeError):
            kept = {}
    kept.update({r["module"]: r for r in results})
    whole = [kept[name] for name in config["modules"] if name in kept]
    summary_path.write_text(json.dumps(whole, ensure_ascii=False, indent=1), encoding="utf-8")
    with (OUT / "survivors.txt").open("w", encoding="utf-8") as f:
        for r in whole:
            for s in r.get("survivors", []):
                f.write(f"# {r['module']}: {s['name']}\n{s['diff']}\n\n")
    print()
    print(report(whole))
    print(f"\nsurvivors with their diffs: {(OUT / 'survivors.txt').relative_to(ROOT)}")
    return 1 if any("error" in r for r in results) else 0


def load_base_settings() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return dict(tomllib.load(f).get("tool", {}).get("mutmut", {}))


if __name__ == "__main__":
    sys.exit(main())
