"""The import graph of kifu's own modules, read with ``ast`` (nothing is imported or run).

An edge ``a -> b`` is an import statement in module ``a`` that loads module ``b`` when ``a`` is
imported: ``import b``, ``from b import x``, or ``from pkg import b`` where ``b`` is a module
of ``pkg``. Statements under ``if TYPE_CHECKING:`` are kept apart: they never run, so they
cannot close a circle at run time, but they still say which layer leans on which.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Module:
    name: str  # dotted, e.g. "projections.gandice.check"
    path: Path
    imports: dict[str, int] = field(default_factory=dict)  # module -> first line, run at import
    typing_only: dict[str, int] = field(default_factory=dict)  # under ``if TYPE_CHECKING:``
    nested: list[int] = field(default_factory=list)  # lines of imports inside a def or class
    deferred: dict[str, int] = field(default_factory=dict)  # module -> first line, inside a def


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(body: list[ast.stmt], typing: bool = False) -> Iterator[tuple[ast.stmt, bool]]:
    """Module-level statements, descending into module-level ``if`` / ``try`` / ``with``
    (those run at import time), never into a function or class."""
    for node in body:
        yield node, typing
        if isinstance(node, ast.If):
            inner = typing or _is_type_checking(node)
            yield from _statements(node.body, inner)
            yield from _statements(node.orelse, typing)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _statements(block, typing)
        elif isinstance(node, ast.With):
            yield from _statements(node.body, typing)


def _targets(node: ast.Import | ast.ImportFrom, here: str, is_package: bool, known: set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    if node.level:  # relative: from . import x / from ..pkg import y
        anchor = here.split(".") if is_package else here.split(".")[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    out = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        out.append(sub if sub in known else base)
    return out


def read_graph(*roots: str) -> dict[str, Module]:
    """Every module under the given top-level folders of the repository, with its imports of
    other modules in the same set."""
    paths = sorted(p for root in roots for p in (ROOT / root).rglob("*.py") if "__pycache__" not in p.parts)
    modules = {module_name(p): Module(module_name(p), p) for p in paths}
    known = set(modules)
    for mod in modules.values():
        tree = ast.parse(mod.path.read_text(encoding="utf-8"), str(mod.path))
        top: set[int] = set()
        for node, typing in _statements(tree.body):
            top.add(id(node))
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                into = mod.typing_only if typing else mod.imports
                for target in _targets(node, mod.name, mod.path.name == "__init__.py", known):
                    if target in known and target != mod.name:
                        into.setdefault(target, node.lineno)
        inner = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in top]
        mod.nested = sorted(n.lineno for n in inner)
        for node in sorted(inner, key=lambda n: n.lineno):
            for target in _targets(node, mod.name, mod.path.name == "__init__.py", known):
                if target in known and target != mod.name:
                    mod.deferred.setdefault(target, node.lineno)
    return modules


def edges(mod: Module, deferred: bool = False) -> dict[str, int]:
    """The imports of ``mod`` that run when it is imported (and, with ``deferred``, those
    inside its functions too)."""
    return {**mod.deferred, **mod.imports} if deferred else mod.imports


def circles(modules: dict[str, Module], deferred: bool = False) -> list[list[str]]:
    """Strongly connected groups of two or more modules (Tarjan), each sorted: every module in
    a group imports, through the others, a module that imports it. With ``deferred``, imports
    inside functions count too: a circle only they close is one an import was moved to dodge."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges(modules[v], deferred):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(modules):
        if v not in index:
            visit(v)
    return found


def cycle_path(modules: dict[str, Module], group: list[str], deferred: bool = False) -> str:
    """One circle through the group, with the lines that close it: ``a:3 → b:7 → a``."""
    members = set(group)
    start = group[0]
    path, seen = [start], {start}
    while True:
        here = path[-1]
        nxt = sorted(w for w in edges(modules[here], deferred) if w in members)
        back = start if start in nxt else None
        step = back or next((w for w in nxt if w not in seen), nxt[0])
        path.append(step)
        if step == start or step in seen:
            break
        seen.add(step)
    return " → ".join(f"{a}:{edges(modules[a], deferred)[b]}" for a, b in itertools.pairwise(path)) + f" → {path[-1]}"
