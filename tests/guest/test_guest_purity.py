"""The guest is standard library only, and never prints, reads clocks or draws random numbers."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

GUEST = Path(__file__).resolve().parents[2] / "guest"
FILES = sorted(GUEST.rglob("*.py"))
IDS = [str(p.relative_to(GUEST)) for p in FILES]
ALLOWED = {
    "__future__",
    "array",
    "base64",
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
    "zlib",  # crc32 of postings chunks (deterministic; built into the component's CPython)
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


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_imports_are_allowlisted(path):
    found = imports(path)
    allowed = ALLOWED | (ONLY_IN_APP if path == GUEST / "app.py" else set())
    assert found <= allowed, f"{path.name} imports {sorted(found - allowed)}"
    assert not found & FORBIDDEN_MODULES
    for name in found - {"guest", "wit_world", "componentize_py_types"}:
        assert name in sys.stdlib_module_names, name


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_forbidden_calls(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}"


def test_only_app_imports_wit_world():
    users = [str(p.relative_to(GUEST)) for p in FILES if imports(p) & ONLY_IN_APP]
    assert users == ["app.py"]


# Layering: imports only go down -- engine -> capabilities -> the text layer (index -> text -> generated,
# strings -> generated, screening -> generated) -> kernel. A capability reaches a sibling only where it
# truly needs it (learn stores its lesson through memory).
KERNEL = {"host", "errors", "requests", "verbs"}
CAPABILITIES = {"memory", "structured", "archive", "learn", "git", "quarantine", "capture"}
# The text layer: each package with the text packages it may import. The keyword index stems and pins
# its terms with text's code; text, strings and screening (its secret catalogue) read the generated tables.
TEXT = {"index": {"text"}, "text": {"generated"}, "strings": {"generated"}, "screening": {"generated"},
        "generated": set()}
# git merges and renders every capability's buckets with that capability's own code; quarantine lists
# and approves what memory and archive stored quarantined; capture stores its rules and lessons as
# memories (its blocks and notes go through the archive's and structured memory's verbs, by name).
SIBLINGS = {"learn": {"memory"}, "git": {"memory", "archive", "structured"},
            "quarantine": {"memory", "archive"}, "capture": {"memory"}}


def guest_targets(path: Path) -> set[str]:
    """The top-level guest names ``path`` imports: kernel modules and packages (``host``, ``text``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            parts = node.module.split(".")
            if parts[0] == "guest":
                found.update(parts[1:2] or [a.name for a in node.names])
    return found


def allowed_targets(rel: Path) -> set[str] | None:
    """The top-level guest names (kernel modules, packages) a module may import; ``None``: any."""
    top = rel.parts[0].removesuffix(".py")
    if top in ("engine", "app", "contract", "spec"):  # contract, spec: describe reads every verb's limits
        return None
    if top in KERNEL or top == "__init__":
        return KERNEL
    if top in TEXT:
        return KERNEL | {top} | TEXT[top]
    return KERNEL | set(TEXT) | {top} | SIBLINGS.get(top, set())


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_imports_only_go_down(path):
    allowed = allowed_targets(path.relative_to(GUEST))
    if allowed is None:
        return
    upward = guest_targets(path) - allowed
    assert not upward, f"{path.relative_to(GUEST)} imports guest.{sorted(upward)}"


def test_no_prefix_named_modules_at_the_top():
    tops = sorted(p.stem for p in GUEST.glob("*.py"))
    assert tops == ["__init__", "app", "contract", "engine", "errors", "host", "requests", "spec", "verbs"]
    packages = {p.name for p in GUEST.iterdir() if (p / "__init__.py").exists()}
    assert packages == CAPABILITIES | set(TEXT)
