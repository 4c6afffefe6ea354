"""The harness, the bench and the guest have no import circles: every module graph is a tree of layers.

An import counts wherever it stands (module top, a function, ``if TYPE_CHECKING``): a circle through a
deferred import is still two modules that each need the other. ``from pkg import mod`` counts as an
import of ``pkg.mod`` when that is a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("guest", "host_harness", "bench")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def imported(path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``path`` imports (a package's ``__init__`` only when imported by name)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                found.add(name if name in known else node.module)
    return {name for name in found if name in known}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
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


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circles(package: str):
    known = modules()
    graph = {name: imported(path, known) - {name} for name, path in known.items()}
    inside = [c for c in circles(graph) if any(m == package or m.startswith(package + ".") for m in c)]
    assert inside == [], inside


def test_the_hooks_form_one_package():
    hooks = ROOT / "host_harness" / "hooks"
    assert sorted(p.name for p in hooks.glob("*.py")) == [
        "__init__.py", "background.py", "command_line.py", "in_process.py", "pipeline.py", "prompt_ledger.py",
        "prompt_run.py", "protocol.py", "reader.py", "server.py", "sessions.py", "switches.py", "warm.py"]
    for old in ("hook.py", "hookio.py", "warm.py"):
        assert not (ROOT / "host_harness" / old).exists()
