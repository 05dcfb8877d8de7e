"""The shape of the package, read from every import statement (those inside functions too).

No module imports one that imports it back, however long the loop; an area of the web app never
takes another area's private names; ``core`` imports no area; the engine and the library know
nothing of the web."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "trainer"
AREAS = ("accounts", "drill", "editor", "exams", "home", "lesson", "live", "speed")


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = ["trainer", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> list[tuple[str, str | None, int]]:
    """(module imported, name taken from it or None, line) for every import in the file."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(alias.name, None, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = package
            for _ in range(node.level - 1):
                base = base.rsplit(".", 1)[0]
            source = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in MODULES:
                    out.append((submodule, None, node.lineno))
                else:
                    out.append((source, alias.name, node.lineno))
    return [(m, n, line) for m, n, line in out if m in MODULES]


GRAPH = {name: {m for m, _n, _l in _imports(name, path)} - {name} for name, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _area(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["trainer", "web"] else None


def test_no_module_imports_one_that_imports_it_back():
    assert _cycles(GRAPH) == []


def test_the_cycle_check_finds_a_loop_through_three_modules():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_area_takes_another_areas_private_names():
    wrong = [
        f"{MODULES[name].relative_to(ROOT.parent)}:{line} takes {taken} from {source}"
        for name in MODULES
        for source, taken, line in _imports(name, MODULES[name])
        if taken and taken.startswith("_") and _area(source) and _area(source) != _area(name)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        ("trainer.web.core", tuple(f"trainer.web.{a}" for a in AREAS)),
        ("trainer.engine", ("trainer.web", "trainer.store", "trainer.scenarios", "trainer.library")),
        ("trainer.library", ("trainer.web", "trainer.store")),
        ("trainer.scenarios", ("trainer.web", "trainer.store", "trainer.library")),
        ("trainer.store", ("trainer.web",)),
    ],
)
def test_lower_layers_import_nothing_above_them(layer, forbidden):
    wrong = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if name == layer or name.startswith(layer + ".")
        for target in targets
        if target.startswith(forbidden)
    )
    assert wrong == []
