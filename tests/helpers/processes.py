"""Which tests start a process (``process`` mark) or load the component (``wasm``): read from the source.

A test starts one when its function, a fixture it uses, or a function either calls -- in its own
module or in a helper module of ``tests/helpers/`` (``hostprocs.py``, ``cli.py``...) -- names
``sys.executable``, ``HOST`` (``python -m host_harness``, as ``hostprocs.host`` runs it),
``Popen`` or the Node host, or calls ``subprocess`` for any command but ``git`` (a ``git init`` is
a few milliseconds): ``make check``, the in-process tier, leaves those tests out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
SPAWN = "<subprocess>"
STARTERS = {"executable", "HOST", "Popen", "NODE_HOST", "node_host", SPAWN}
# the component loaded other than through the ``target`` fixture: conftest's own helpers are left
# out of this reading (``target`` and ``make_guest`` load it only for the wasm case, marked by it)
COMPONENT = {"WASM", "WasmGuest", "Runtime", "wasm_path", "wasm_runtime", "RS_LEARN_WASM"}
KINDS = {"process": STARTERS, "wasm": COMPONENT}


def _names(node: ast.AST) -> set[str]:
    """The names, attribute names and argument names ``node`` mentions."""
    mentioned: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            mentioned.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            mentioned.add(sub.attr)
        elif isinstance(sub, ast.arg):
            mentioned.add(sub.arg)  # a fixture taken as an argument
        if _spawns(sub):
            mentioned.add(SPAWN)
    return mentioned


def _spawns(node: ast.AST) -> bool:
    """``subprocess.<anything>(...)`` of any command but git (``git init``, ``git add``...)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "subprocess"):
        return False
    first = node.args[0] if node.args else None
    head = first.elts[0] if isinstance(first, ast.List | ast.Tuple) and first.elts else None
    return not (isinstance(head, ast.Constant) and head.value == "git")


def _local(module: str) -> Path | None:
    """The file of a test-suite module imported by name: ``conftest``, ``helpers.cli``, or a helper
    imported by its own name (``hostprocs``: ``tests/helpers/`` is on the path, pyproject.toml)."""
    relative = module.replace(".", "/") + ".py"
    return next((path for path in (TESTS / relative, TESTS / "helpers" / relative) if path.is_file()), None)


@cache
def starters(path: Path, kind: str = "process") -> frozenset[str]:
    """The functions of the module at ``path`` that start a process (``kind`` ``wasm``: load the
    component), directly or through another."""
    names = KINDS[kind]
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return frozenset()
    imported: dict[str, frozenset[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            local = _local(node.module)
            if local is not None and not (kind == "wasm" and local.name == "conftest.py"):
                imported.update({a.asname or a.name: starters(local, kind) for a in node.names})
    uses: dict[str, set[str]] = {}
    found: set[str] = {name for name, theirs in imported.items() if name in theirs}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            uses[node.name] = mentioned = _names(node)
            if mentioned & names:
                found.add(node.name)
    grew = True
    while grew:  # a function that uses one that starts a process starts one
        more = {name for name, mentioned in uses.items() if mentioned & found} - found
        found |= more
        grew = bool(more)
    return frozenset(found)


def starts_a_process(path: Path, function: str, fixtures: Iterable[str]) -> bool:
    """Whether the test ``function`` of the module at ``path``, with those fixtures, starts a process."""
    found = starters(path) | starters(TESTS / "conftest.py")
    return function in found or any(name in found or name in STARTERS for name in fixtures)


def loads_the_component(path: Path, function: str, fixtures: Iterable[str]) -> bool:
    """Whether the test ``function`` (module ``path``, those fixtures) loads the component itself."""
    found = starters(path, "wasm")
    return function in found or any(name in found or name in COMPONENT for name in fixtures)
