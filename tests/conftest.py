from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from projections import registry  # noqa: E402
from tests.toy import TOY  # noqa: E402

registry.register("toy", {1: TOY}, aliases=("t",))

# A page's state is waited for, never a time: Playwright's `expect` polls until it holds. Its
# default bound (5 s) is a speed check in disguise on a machine kept busy (`make soak`: busy loops
# beside twice as many workers as cores), so every expect of the suite waits up to 20 s; a test
# that passes is not slowed by it.
try:
    from playwright.sync_api import expect as _expect
except ImportError:  # pragma: no cover - the test extra installs it
    pass
else:
    _expect.set_options(timeout=20_000)

KIFU = str(Path(sys.executable).parent / "kifu")

# The files that take longest, longest first (issue 38). `make test` hands whole files to its
# workers in the order collected (--dist loadfile --no-loadscope-reorder; xdist's own reorder,
# by number of tests, put these few-test files last: minutes of one worker alone at the end).
# Started first, they run beside the short files, which then even out the end. Every other file
# keeps pytest-randomly's order, and every file its tests' shuffled order. tests/core/test_suite_order.py
# checks each still exists. Wall seconds of a loaded run (main, 2026-12-08), roughly.
LONGEST_FIRST = (
    "tests/table/test_publish.py",  # 290
    "tests/core/test_bench_scale.py",  # 190
    "tests/web/test_axe.py",  # 190
    "tests/core/test_bench_paths.py",  # 155
    "tests/table/test_two_writers.py",  # 150
    "tests/backends/test_parallel_rebuild.py",  # 150
    "tests/table/test_name_filters.py",  # 130
    "tests/backends/test_backends.py",  # 125
    "tests/hardening/test_hostile_property.py",  # 120
    "tests/stats/test_meta_browser.py",  # 115
    "tests/web/test_recording_taps.py",  # 110
    "tests/table/test_closed_lists.py",  # 110
    "tests/contract/test_rulesets.py",  # 105
    "tests/web/test_recording_taps_more.py",  # 105
    "tests/table/test_tournament_words.py",  # 75
    "tests/table/test_record_page.py",  # 70
    "tests/web/test_viewer.py",  # 70
    "tests/web/test_workers.py",  # 70
    "tests/backends/test_incremental_property.py",  # 60
    "tests/web/test_zoom.py",  # 60
    "tests/table/test_player_pages.py",  # 55
    "tests/backends/test_server_backends.py",  # 55
    "tests/core/test_bench_recording.py",  # 55
    "tests/store/test_verify.py",  # 55
    "tests/table/test_round_sheet.py",  # 50
    "tests/core/test_bench_views.py",  # 50
)


def longest_first(nodeids: list[str], browser_files: frozenset[str] = frozenset()) -> list[int]:
    """The order (indexes into ``nodeids``) that puts LONGEST_FIRST's files first, in its order,
    then the other files that use the browser (one after another, a worker keeps its chromium:
    SharedChromium), then the rest; a stable sort: each group keeps the order it had."""
    rank = {f: i for i, f in enumerate(LONGEST_FIRST)}

    def key(i: int) -> int:
        f = nodeids[i].split("::", 1)[0]
        return rank.get(f, len(rank) + (0 if f in browser_files else 1))

    return sorted(range(len(nodeids)), key=key)


def pytest_collection_modifyitems(config, items):
    """After pytest-randomly's shuffle (its hook wraps this one): the longest files first, then
    the browser's."""
    browser_files = frozenset(item.nodeid.split("::", 1)[0] for item in items if uses_browser(item))
    BROWSER_FILES.update(browser_files)
    order = longest_first([item.nodeid for item in items], browser_files)
    items[:] = [items[i] for i in order]


class SharedChromium:
    """One Playwright driver and one Debian chromium a test process, kept from one browser module
    to the next (tests/web/conftest.py's ``browser`` hands it to each module with no context
    open and closes what the module left open). A launch costs ~0.9-2 s of CPU (the driver, the
    browser's processes), once a module in some 25 modules before (issue 38). Playwright's
    sync API marks its loop as running in this thread while it is started, so it is stopped
    before any module that does not use ``browser`` (its own Playwright, ``asyncio.run``): such a
    module runs with none started, as before. Launched again if a test left it closed."""

    playwright = None
    browser = None

    @classmethod
    def get(cls):
        from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS

        if not os.path.exists(CHROMIUM):
            pytest.fail(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium) first")
        if cls.playwright is None:
            from playwright.sync_api import sync_playwright

            cls.playwright = sync_playwright().start()
        if cls.browser is None or not cls.browser.is_connected():
            cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        return cls.browser

    @classmethod
    def stop(cls):
        browser, playwright, cls.browser, cls.playwright = cls.browser, cls.playwright, None, None
        try:
            if browser is not None and browser.is_connected():
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


def uses_browser(item) -> bool:
    return "browser" in getattr(item, "fixturenames", ())


BROWSER_FILES: set[str] = set()  # the files of this session with a test that uses ``browser``


@pytest.fixture(scope="module", autouse=True)
def _no_shared_chromium_unless_asked(request):
    """Before a module none of whose tests uses ``browser``: the shared chromium stopped."""
    if SharedChromium.playwright is not None and request.node.nodeid not in BROWSER_FILES:
        SharedChromium.stop()
    yield


@pytest.fixture(scope="session")
def chromium_of_the_worker():
    """SharedChromium.get, stopped when the session ends."""
    yield SharedChromium.get
    SharedChromium.stop()


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "kifu.db")


@pytest.fixture
def store(db):
    from recorder.store import Store

    s = Store(db)
    yield s
    s.close()


@pytest.fixture(autouse=True)
def _no_env_db(monkeypatch):
    monkeypatch.delenv("KIFU_DB", raising=False)
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    # The tests read kifu's messages in English (its source language); what a person reads by
    # default is Japanese, and tests/core/test_cli_lang.py and tests/web/test_i18n*.py say so.
    monkeypatch.setenv("KIFU_LANG", "en")


@pytest.fixture
def kifu(db, capsys, monkeypatch):
    """Run the kifu command in process (the toy game is registered here): (exit code, out, err)."""
    from recorder import cli

    monkeypatch.delenv("KIFU_READMODEL", raising=False)

    def run(*args):
        monkeypatch.setattr(sys, "argv", ["kifu", "--db", db, *args])
        code = 0
        try:
            cli.main()
        except SystemExit as exc:
            code = exc.code or 0
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run
