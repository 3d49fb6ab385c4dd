"""A small process that starts the benchmark's children and reports what each cost.

Why it exists: a child's peak RSS (``ru_maxrss``) counts the memory of the process it was
forked from, as it stood at the fork, even after ``exec``. The benchmark holds large matches
in memory, so ``kifu --help`` forked from it would "peak" at the benchmark's size. Forked
from this process instead (standard library only, a few MB), a child's peak is its own.

Protocol: one JSON object a line on stdin ``{"argv": [...], "env": {...}, "cwd": "..."}``;
one JSON object a line on stdout ``{"wall", "cpu", "max_rss", "code", "stdout", "stderr"}``.
Run as a script (``python -S spawner.py``): it imports nothing of kifu.
"""

import json
import os
import subprocess
import sys
import tempfile
import time


def run_one(request):
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(request["argv"], stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                env=request.get("env"), cwd=request.get("cwd"))
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "max_rss": usage.ru_maxrss * 1024,
                "code": proc.returncode, "stdout": out.read().decode("utf-8", "replace"),
                "stderr": err.read().decode("utf-8", "replace")}


def main():
    for line in sys.stdin:
        try:
            answer = run_one(json.loads(line))
        except Exception as exc:  # reported to the benchmark, which raises it there
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
