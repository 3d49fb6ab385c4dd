"""docs/adding-a-game.md stays true: its code, file by file, is assembled into a game package in
a temporary folder, registered, and run through the same contract as every shipped game."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import shutil
import sys

import pytest

from projections import registry
from tests.contract import rulesets, test_rulesets
from tests.contract.imports import ROOT
from tests.contract.test_layers import LAYER

DOC = ROOT / "docs" / "adding-a-game.md"
# What the page leaves out of each block to keep it short.
PREAMBLE = "from __future__ import annotations\n\nimport random\nfrom collections.abc import Mapping\nfrom typing import Any\n\n"
PACKAGE = "docgame"
NAME = "doc-toy"


def blocks() -> dict[str, str]:
    """File name → the page's code for it (the first ``python`` block under ``### <file>.py``;
    the ``__init__.py`` block names itself in a comment)."""
    text = DOC.read_text(encoding="utf-8")
    out: dict[str, str] = {}
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        name = section.split(maxsplit=1)[0]
        section = re.split(r"^## ", section, flags=re.M)[0]  # up to the next chapter
        code = re.findall(r"```python\n(.*?)```", section, re.S)
        for block in code:
            own = re.match(r"# projections/toy/(\w+\.py)\n", block)
            out[own.group(1) if own else name] = block
    return out


def test_the_page_shows_every_file_of_the_layout():
    assert set(blocks()) == {f"{role or '__init__'}.py" for role in LAYER}


@pytest.fixture
def doc_game(tmp_path, monkeypatch):
    """The page's package, importable as ``docgame`` and registered as ``doc-toy``."""
    package = tmp_path / PACKAGE
    package.mkdir()
    for name, code in blocks().items():
        code = code.replace("projections.toy", PACKAGE).replace('name = "toy"', f'name = "{NAME}"')
        (package / name).write_text(PREAMBLE + code, encoding="utf-8")
    shutil.copy(ROOT / "tests" / "toy.md", package / "ruleset.md")  # its rules page, beside it
    monkeypatch.syspath_prepend(str(tmp_path))
    for mod in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        monkeypatch.delitem(sys.modules, mod)
    rs = importlib.import_module(PACKAGE).RULESETS[1]
    monkeypatch.setitem(registry.GAMES, NAME, f"<plugin {NAME}>")
    monkeypatch.setitem(registry._PLUGINS, NAME, {1: rs})
    monkeypatch.setitem(rulesets.RULESETS, f"{NAME}/1", rs)
    rulesets.played.cache_clear()
    yield rs, package
    rulesets.played.cache_clear()


def test_the_page_s_files_stand_in_layers(doc_game):
    _, package = doc_game
    for path in package.glob("*.py"):
        here = LAYER["" if path.stem == "__init__" else path.stem]
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE):
                names = [node.module.split(".")[1]] if "." in node.module else [a.name for a in node.names]
                assert all(LAYER[n] < here for n in names), f"{path.name} imports {names}"


CONTRACT = [
    fn
    for name, fn in inspect.getmembers(test_rulesets, inspect.isfunction)
    if name.startswith("test_") and "rs" in inspect.signature(fn).parameters
]


@pytest.mark.parametrize("check", CONTRACT, ids=lambda fn: fn.__name__)
def test_the_page_s_game_keeps_the_contract(doc_game, check, tmp_path):
    rs, _ = doc_game
    assert rs.name == NAME and registry.get(NAME) is rs
    kwargs = {"rs": rs, "seed": 0, "tmp_path": tmp_path / "store"}
    (tmp_path / "store").mkdir()
    check(**{k: v for k, v in kwargs.items() if k in inspect.signature(check).parameters})
