"""Issue 12: the gandice package has the one layout every game shares, in layers, no circle."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "projections" / "gandice"
LAYERS = ["catalog", "board", "header", "moves", "apply", "check", "render", "generate", "ruleset"]
ROLES = set(LAYERS) | {"__init__"}


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).with_suffix("")
        out[rel.parts[0] if rel.parts[0] in ROLES else "/".join(rel.parts)] = path
    return out


def gandice_imports(path: Path) -> tuple[set[str], list[int]]:
    """Roles this file imports from the package, and lines of imports inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roles: set[str] = set()
    nested: list[int] = []
    top = {id(n) for n in tree.body}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if id(node) not in top:
            nested.append(node.lineno)
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            if node.module == "projections.gandice":
                names += [f"projections.gandice.{a.name}" for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["projections", "gandice"] and len(parts) > 2:
                roles.add(parts[2])
    return roles, nested


def test_exactly_the_shared_role_files():
    names = {
        p.name
        for p in PACKAGE.iterdir()
        if p.suffix == ".py" or (p.is_dir() and p.name != "__pycache__" and p.name != "data")
    }
    assert names == {f"{r}.py" for r in ROLES}, names
    assert (PACKAGE / "data").is_dir()


def test_layers_without_circles_or_function_level_imports():
    for role, path in modules().items():
        imported, nested = gandice_imports(path)
        assert nested == [], f"{path.name}: imports inside functions at lines {nested}"
        if role == "__init__":
            assert imported == {"ruleset"}
            continue
        level = LAYERS.index(role)
        for other in imported:
            assert LAYERS.index(other) < level, f"{role} imports {other}, a higher layer"
    # render and generate stand side by side: neither imports the other
    assert "generate" not in gandice_imports(PACKAGE / "render.py")[0]
    assert "render" not in gandice_imports(PACKAGE / "generate.py")[0]


def test_ruleset_is_only_the_wiring():
    tree = ast.parse((PACKAGE / "ruleset.py").read_text(encoding="utf-8"))
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    assert [d.name for d in defs] == ["GandiceRuleset", "GandiceRulesetV1"]
    assert [b.id for b in defs[0].bases if isinstance(b, ast.Name)] == ["PackageRuleset"]
    assert [b.id for b in defs[1].bases if isinstance(b, ast.Name)] == ["GandiceRuleset"]
    for cls in defs:
        assert not any(isinstance(n, ast.FunctionDef) for n in cls.body)


def test_protocol_functions_are_where_the_layout_says():
    from projections.gandice import apply, check, generate, header, moves, render

    for mod, names in [
        (header, ["HOUSE_RULES", "validate_header", "initial_board"]),
        (moves, ["MOVE_TYPES", "validate_move"]),
        (apply, ["apply"]),
        (check, ["check", "result"]),
        (render, ["board_json", "render_text", "vocabulary", "describe"]),
        (generate, ["legal_moves", "generate"]),
    ]:
        for name in names:
            assert hasattr(mod, name), (mod.__name__, name)
