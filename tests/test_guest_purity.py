"""The guest is standard library only, and never prints, reads clocks or draws random numbers."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

GUEST = Path(__file__).resolve().parent.parent / "guest"
FILES = sorted(GUEST.glob("*.py"))
ALLOWED = {
    "__future__",
    "array",
    "bisect",
    "collections",
    "dataclasses",
    "functools",
    "heapq",
    "itertools",
    "json",
    "math",
    "operator",
    "pathlib",
    "re",
    "struct",
    "typing",
    "enum",
    "abc",
    "guest",
    "collections.abc",
}
ONLY_IN_APP = {"wit_world", "componentize_py_types"}
FORBIDDEN_CALLS = {"print", "input", "open", "exec", "eval"}
FORBIDDEN_MODULES = {"time", "random", "uuid", "datetime", "os", "socket", "subprocess", "secrets"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_imports_are_allowlisted(path):
    found = imports(path)
    allowed = ALLOWED | (ONLY_IN_APP if path.name == "app.py" else set())
    assert found <= allowed, f"{path.name} imports {sorted(found - allowed)}"
    assert not found & FORBIDDEN_MODULES
    for name in found - {"guest", "wit_world", "componentize_py_types"}:
        assert name in sys.stdlib_module_names, name


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_no_forbidden_calls(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}"


def test_only_app_imports_wit_world():
    users = [p.name for p in FILES if imports(p) & ONLY_IN_APP]
    assert users == ["app.py"]
