"""Run a command to its end and measure the peak memory of ALL its processes at once.

A rebuild in parts forks one process per core: ``ru_maxrss`` (``wait4``, ``RUSAGE_CHILDREN``)
gives only the largest single process. This samples ``/proc`` every ``--every`` seconds and
keeps the largest sum of the resident sets of the command and every descendant it has then
(the figure a machine's memory must hold), beside the largest single process from ``wait4``.

Run as a script (``python -S treerss.py [--every S] -- ARGV...``), standard library only, so
its own size and the benchmark's never count: one JSON object on stdout
``{"wall", "cpu", "peak_tree_rss", "max_rss", "code", "stderr"}`` (bytes, seconds).
"""

import json
import os
import subprocess
import sys
import tempfile
import time

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _children(pid: int) -> list[int]:
    """The children of ``pid``: from ``/proc/PID/task/TID/children`` (cheap), else from a scan
    of every process's parent."""
    try:
        kids: list[int] = []
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                kids += [int(x) for x in f.read().split()]
        return kids
    except FileNotFoundError:
        return []  # gone meanwhile
    except OSError:
        pass
    kids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                if int(f.read().rpartition(") ")[2].split()[1]) == pid:
                    kids.append(int(name))
        except (OSError, IndexError, ValueError):
            continue
    return kids


def tree_rss(root: int) -> int:
    """Bytes resident in ``root`` and all its descendants now (0 for processes gone meanwhile)."""
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/statm", encoding="ascii") as f:
                total += int(f.read().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
        todo += _children(pid)
    return total


def run(argv: list[str], every: float = 0.05, env: dict[str, str] | None = None, cwd: str | None = None) -> dict:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env, cwd=cwd)
        peak = 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            peak = max(peak, tree_rss(proc.pid))
            time.sleep(every)
        wall = time.perf_counter() - start
        err.seek(0)
        return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_tree_rss": peak,
                "max_rss": usage.ru_maxrss * 1024, "code": os.waitstatus_to_exitcode(status),
                "stderr": err.read().decode("utf-8", "replace")[-2000:]}


def main() -> None:
    args = sys.argv[1:]
    every = 0.05
    if args[:1] == ["--every"]:
        every, args = float(args[1]), args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    sys.stdout.write(json.dumps(run(args, every)) + "\n")


if __name__ == "__main__":
    main()
