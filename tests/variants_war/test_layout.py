"""The package has the one layout of every game (issue 12): the same files, in layers with no
import circle and no import hidden inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "projections" / "variants_war"
LAYERS = ["catalog", "board", "header", "moves", "apply", "check", "render", "generate", "ruleset"]


def modules() -> dict[str, Path]:
    return {p.relative_to(PKG).with_suffix("").as_posix().replace("/", "."): p
            for p in PKG.rglob("*.py") if p.name != "__init__.py" or p.parent != PKG}


def layer(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def imports(path: Path) -> list[tuple[str, bool]]:
    """(imported module of this package, imported at module level)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = set(map(id, tree.body))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("projections.variants_war"):
            names = [node.module] if node.module != "projections.variants_war" else \
                [f"projections.variants_war.{a.name}" for a in node.names]
            out += [(n.removeprefix("projections.variants_war."), id(node) in top) for n in names]
    return out


def test_the_files_of_every_game() -> None:
    top = sorted(p.stem for p in PKG.glob("*.py") if p.stem != "__init__") + sorted(
        p.name for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert sorted(top) == sorted([*LAYERS]), top


def test_layers_have_no_circle_and_no_hidden_import() -> None:
    for name, path in modules().items():
        for target, at_top in imports(path):
            assert at_top, f"{name} imports {target} inside a function"
            if target.split(".")[0] == name.split(".")[0]:
                continue  # within a subpackage (check/): checked below
            assert layer(target) < layer(name), f"{name} (layer {layer(name)}) imports {target} (layer {layer(target)})"


def test_check_subpackage_modules_stand_in_order() -> None:
    order = ["check.common", "check.moving", "check.flow", "check.fighting", "check.cards", "check.effects", "check.__init__"]
    for name, path in modules().items():
        if not name.startswith("check."):
            continue
        for target, _ in imports(path):
            if target.startswith("check"):
                assert order.index(target) < order.index(name), f"{name} imports {target}"


def test_ruleset_is_only_wiring() -> None:
    tree = ast.parse((PKG / "ruleset.py").read_text(encoding="utf-8"))
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    bases = [[b.id for b in c.bases if isinstance(b, ast.Name)] for c in classes]
    assert bases[0] == ["PackageRuleset"] and all(b == [classes[0].name] for b in bases[1:])  # older versions
    assert all(isinstance(n, (ast.Assign, ast.Expr)) for c in classes for n in c.body)
    assert not any(isinstance(n, ast.FunctionDef) for n in ast.walk(tree))
