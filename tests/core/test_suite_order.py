"""`make test`'s order of files (tests/conftest.py, issue 38): the longest first, the rest as
pytest-randomly shuffled them."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import LONGEST_FIRST, longest_first

ROOT = Path(__file__).resolve().parents[2]


def test_every_file_named_longest_first_exists_once():
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
    for name in LONGEST_FIRST:
        assert (ROOT / name).is_file(), name


def test_the_longest_files_come_first_and_the_rest_keep_their_order():
    a, b = LONGEST_FIRST[0], LONGEST_FIRST[1]
    ids = ["tests/x/test_z.py::t2", f"{b}::t1", "tests/x/test_a.py::t1", f"{a}::t9", "tests/x/test_z.py::t1",
           f"{b}::t0", f"{a}::t1"]
    got = [ids[i] for i in longest_first(ids)]
    assert got == [f"{a}::t9", f"{a}::t1", f"{b}::t1", f"{b}::t0",
                   "tests/x/test_z.py::t2", "tests/x/test_a.py::t1", "tests/x/test_z.py::t1"]
    assert sorted(longest_first(ids)) == list(range(len(ids)))


def test_then_the_files_that_use_the_browser():
    a = LONGEST_FIRST[0]
    ids = ["tests/x/test_z.py::t1", "tests/x/test_b.py::t2", f"{a}::t1", "tests/x/test_b.py::t1", "tests/x/test_y.py::t1"]
    got = [ids[i] for i in longest_first(ids, frozenset({"tests/x/test_b.py"}))]
    assert got == [f"{a}::t1", "tests/x/test_b.py::t2", "tests/x/test_b.py::t1", "tests/x/test_z.py::t1",
                   "tests/x/test_y.py::t1"]


def test_the_suite_runs_them_first(request):
    """This session's own collection: no file of LONGEST_FIRST after a file not in it."""
    ids = [item.nodeid.split("::", 1)[0] for item in request.session.items]
    flags = [i in LONGEST_FIRST for i in ids]
    assert flags == sorted(flags, reverse=True)
