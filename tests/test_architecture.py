"""The layers hold: engine ← scoring ← tournaments ← api, and no circle between modules.

Read from the source with ``ast`` (only the engine's list of public names is imported): every import of the project's own code,
the module it names, and where it stands. An import inside a function does not dodge the check:
it is refused, because it is how a cycle hides.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[1]
APPS = ("engine", "scoring", "tournaments", "api", "config")
# What each app may import, of the project's apps and of the frameworks.
ALLOWED = {
    "engine": set(),
    "scoring": {"engine"},
    "tournaments": {"engine", "scoring", "tournaments", "config"},
    "api": {"engine", "scoring", "tournaments", "api", "config"},
    "config": {"tournaments", "api", "config"},
}
FRAMEWORKS = ("django", "rest_framework", "celery", "drf_spectacular")
PURE = ("engine", "scoring")


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _target(name: str) -> str | None:
    """The project module an import names (the longest prefix that is one)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in MODULES:
            return candidate
        parts.pop()
    return None


def _imports(module: str) -> list[tuple[str, int, bool]]:
    """(imported name, line, at module level?) for every import of ``module``."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    top = {id(node) for node in tree.body}
    # An optional import (``try: from engine import _solver / except ImportError``) at module
    # level is still at module level.
    for node in tree.body:
        if isinstance(node, ast.Try):
            top |= {id(inner) for inner in node.body}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            names = [f"{base}.{alias.name}" for alias in node.names] or [base]
            names.append(base)
        else:
            continue
        for name in names:
            out.append((name, node.lineno, id(node) in top))
    return out


def test_the_modules_are_found():
    assert {"engine.rules", "scoring.standings", "tournaments.policy", "api.views"} <= set(MODULES)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_app_imports_only_the_layers_below_it(module):
    app = module.split(".")[0]
    wrong = []
    for name, line, _top in _imports(module):
        head = name.split(".")[0]
        if head in APPS and head != app and head not in ALLOWED[app]:
            wrong.append((name, line))
        if app in PURE and head in FRAMEWORKS:
            wrong.append((name, line))
    assert not wrong, f"{module} imports {wrong}"


ADAPTER = "tournaments.play"  # the one module of the Django side that reads the engine's modules


@pytest.mark.parametrize(
    "module", sorted(m for m in MODULES if m.split(".")[0] != "engine" and m != ADAPTER)
)
def test_only_the_adapter_imports_the_engines_modules(module):
    """Issue 16: the Django side and scoring use the engine's public API (``engine`` and its
    ``__all__``); only the adapter reads its modules (``engine.solver``, ``engine.analysis``…)."""
    wrong = [
        (name, line)
        for name, line, _top in _imports(module)
        if name.startswith("engine.")
        and (_target(name) != "engine" or name.split(".")[1] not in engine.__all__)
    ]
    assert not wrong, f"{module} reads the engine's modules: {wrong}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_project_import_hides_inside_a_function(module):
    hidden = [
        (name, line)
        for name, line, top in _imports(module)
        if not top and name.split(".")[0] in APPS
    ]
    assert not hidden, f"{module} imports inside a function: {hidden}"


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module in MODULES:
        for name, _line, _top in _imports(module):
            target = _target(name)
            if target is not None and target != module:
                graph[module].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_circle_between_modules():
    graph = _graph()
    # A package's __init__ that re-exports its modules (engine's public API) is not a cycle.
    for package in ("engine",):
        for module in list(graph):
            graph[module].discard(package) if module.startswith(f"{package}.") else None
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
