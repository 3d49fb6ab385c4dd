"""The package has the one layout of every game (issue 12), in layers with no import circle:
catalog → board → header → moves → apply → check → render / generate → ruleset."""

from __future__ import annotations

import ast

from tests.mushijingi.helpers import ROOT

PACKAGE = ROOT / "projections" / "mushijingi"
LAYERS = ["catalog", "board", "header", "moves", "apply", "check", "render", "generate", "ruleset"]
SAME_LAYER = {"render": {"generate"}, "generate": {"render"}}


def _imports(module: str) -> tuple[set[str], list[int]]:
    """(sibling modules imported at module level, lines of imports inside functions)."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    top: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "projections.mushijingi":
                top.update(a.name for a in node.names)
            elif node.module.startswith("projections.mushijingi."):
                top.add(node.module.split(".")[2])
    nested = [
        inner.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(node)
        if isinstance(inner, ast.Import | ast.ImportFrom)
    ]
    return top, nested


def test_the_package_has_exactly_the_shared_files():
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert modules == set(LAYERS)
    assert (PACKAGE / "data" / "catalog.json").exists()


def test_each_module_imports_only_lower_layers_and_never_inside_a_function():
    for module in LAYERS:
        imported, nested = _imports(module)
        below = set(LAYERS[: LAYERS.index(module)])
        assert imported <= below, (module, imported - below)
        assert not nested, (module, nested)
        assert not imported & SAME_LAYER.get(module, set())


def test_ruleset_is_only_the_wiring():
    tree = ast.parse((PACKAGE / "ruleset.py").read_text(encoding="utf-8"))
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert [c.name for c in classes] == ["MushijingiRuleset", "MushijingiRulesetV1", "MushijingiRulesetV2"]
    assert not functions
    assert [b.id for b in classes[0].bases if isinstance(b, ast.Name)] == ["PackageRuleset"]
    for old in classes[1:]:
        assert [b.id for b in old.bases if isinstance(b, ast.Name)] == ["MushijingiRuleset"]
    for cls in classes:  # class attributes only: the behaviour is in the modules
        assert not [n for n in cls.body if isinstance(n, ast.FunctionDef)]
