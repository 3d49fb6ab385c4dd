"""A zygote for racing ``kifu`` commands: imports the CLI once, then, for each line read on
stdin (a JSON object: ``argv``, the command's arguments after ``kifu``, and ``outs``, one pair of
file names a racer), forks one process a racer at once; each runs ``kifu ARGV`` as
``python -m recorder.cli`` does (``recorder.cli.main()``, its stdout and stderr written to its
own files) and exits with the command's code. When all have exited, it writes one JSON line:
their exit codes, in the order of ``outs``.

tests/table/test_two_writers.py races two real processes twenty times a backend: each racer
is a process of its own with its own connection to the store, started at the same moment; only
the interpreter's start-up and kifu's imports are paid once instead of forty times.

Run by path: ``python tests/table/zygote.py`` (its environment and working directory are the
racers')."""

from __future__ import annotations

import contextlib
import json
import os
import sys


def racer(argv: list[str], out: str, err: str) -> None:
    """In the forked child: ``kifu ARGV`` with its output in files; never returns."""
    code = 1
    try:
        for fd, path in ((1, out), (2, err)):
            f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(f, fd)
            os.close(f)
        sys.argv = ["kifu", *argv]
        from recorder import cli

        try:
            cli.main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # a traceback is the test's failure to show, in the racer's stderr
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def main() -> None:
    from recorder import cli

    cli.load_commands(sys.argv[1:])  # the racers' command module (``round pair``), imported once here
    import recorder.store  # what every racer opens (no store is opened here)
    import recorder.tournament_service  # noqa: F401
    import projections.swiss  # noqa: F401 - the pairing's matching (networkx), imported when a round is paired
    import sqlite_utils  # noqa: F401 - the read model's, and what else a run imports on its way
    import zoneinfo  # noqa: F401
    import dateutil  # noqa: F401
    import ctypes  # noqa: F401
    import secrets  # noqa: F401

    for line in sys.stdin:
        job = json.loads(line)
        pids = []
        for out, err in job["outs"]:
            pid = os.fork()
            if pid == 0:
                racer(job["argv"], out, err)
            pids.append(pid)
        codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids]
        sys.stdout.write(json.dumps(codes) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
