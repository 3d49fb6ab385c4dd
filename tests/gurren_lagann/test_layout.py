"""The package has the one layout of every game (issue 12): the same files, standing in layers
with no import circle and no import hidden inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "projections" / "gurren_lagann"
PREFIX = "projections.gurren_lagann"

# A module may import only modules of a lower rank.
RANK = {
    "catalog": 0,
    "board": 1,
    "header": 2,
    "moves": 2,
    "apply": 3,
    "check.common": 4.0,
    "check.ending": 4.0,
    "check.turn": 4.1,
    "check.cards": 4.1,
    "check.skills": 4.1,
    "check.field": 4.1,
    "check": 4.9,
    "render": 5,
    "generate": 5,
    "ruleset": 6,
    "": 7,  # the package's __init__
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _top_level(tree: ast.Module) -> list[ast.stmt]:
    """The module's statements, with those of a module-level ``if TYPE_CHECKING:`` / ``else:``."""
    out: list[ast.stmt] = []
    for node in tree.body:
        out.append(node)
        if isinstance(node, ast.If):
            out += [*node.body, *node.orelse]
    return out


def _imports(tree: ast.Module) -> list[str]:
    names = []
    for node in _top_level(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PREFIX):
            base = node.module[len(PREFIX) :].lstrip(".")
            if base:
                names.append(base)
            else:  # from projections.gurren_lagann import apply, check, ...
                names += [a.name for a in node.names]
    return names


def test_the_files_of_every_game():
    assert set(_modules()) == set(RANK)


def test_layers_without_circles_or_hidden_imports():
    for name, path in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for imported in _imports(tree):
            assert RANK[imported] < RANK[name], f"{name} imports {imported}, a higher layer"
        top = set(map(id, _top_level(tree)))
        nested = [
            n.lineno
            for n in ast.walk(tree)
            if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in top
        ]
        assert nested == [], f"{name}: imports inside a function, class or loop at lines {nested}"


def test_ruleset_module_is_only_the_wiring():
    tree = ast.parse((PACKAGE / "ruleset.py").read_text(encoding="utf-8"))
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    assert [d.name for d in defs] == ["GurrenLagannRuleset", "GurrenLagannRulesetV1", "GurrenLagannRulesetV2"]
    for cls in defs:
        assert isinstance(cls, ast.ClassDef)
        assert not [n for n in cls.body if isinstance(n, ast.FunctionDef)]
