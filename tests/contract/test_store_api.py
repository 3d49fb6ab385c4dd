"""Nothing outside recorder/store.py reaches into the event store (issue 32): every read and
write of a stream goes through the public ``Store`` API (docs/architecture.md, "The stream
API"), never through the library's application (``store.app``) or the store's privates
(``_state``, ``_safe_db``, ``_batch``). Checked on the source with ``ast``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.contract.imports import ROOT

PRIVATE = {"_state", "_safe_db", "_batch", "_insert_in_batch", "_exists_in_batch"}
FOLDERS = ("recorder", "projections", "exports")


def reaches_in(source: str) -> list[tuple[int, str]]:
    """(line, what) of every ``<x>.app.<y>`` and every ``<x>._state`` (and the other privates
    of the store) in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute):
            continue
        if isinstance(node.value, ast.Attribute) and node.value.attr == "app":
            found.append((node.lineno, f"{ast.unparse(node.value)}.{node.attr}"))
        elif node.attr in PRIVATE:
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def modules() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if ".venv" not in p.parts)


def test_every_folder_is_read():
    names = {p.relative_to(ROOT).as_posix() for p in modules()}
    assert {"recorder/store.py", "recorder/web/stream.py", "recorder/tokens.py", "recorder/tournament_service.py",
            "projections/readmodel.py", "exports/tournament.py", "recorder/tools/bench/store_paths.py"} <= names


def test_nothing_outside_the_store_reaches_into_it():
    problems = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in modules() if path != ROOT / "recorder" / "store.py"
        for line, what in reaches_in(path.read_text(encoding="utf-8"))
    ]
    assert not problems, "use the Store's public API (recorder/store.py):\n" + "\n".join(problems)


def test_the_check_finds_each_way_in():
    """The check can fail: each way into the store is found, and what is not one is not."""
    source = (
        "rows = store.app.recorder.select_events(s)\n"
        "x = self.store.app.mapper\n"
        "state = store._state(data)\n"
        "where = store._safe_db()\n"
        "ok = app.state.cache\n"  # Starlette's app: not a store's
        "self.app(scope, receive, send)\n"  # a middleware's inner app: not reached into
        "st = _state(db, event)\n"  # a function of the module's own
    )
    assert reaches_in(source) == [
        (1, "store.app.recorder"), (2, "self.store.app.mapper"), (3, "store._state"), (4, "store._safe_db"),
    ]


def test_the_store_itself_is_where_the_library_is_reached():
    assert reaches_in((ROOT / "recorder" / "store.py").read_text(encoding="utf-8"))
