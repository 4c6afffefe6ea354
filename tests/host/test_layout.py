"""The harness, the bench and the guest have no import circles: every module graph is a tree of layers.

An import counts wherever it stands (module top, a function, ``if TYPE_CHECKING``): a circle through a
deferred import is still two modules that each need the other. ``from pkg import mod`` counts as an
import of ``pkg.mod`` when that is a module.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
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


def private_imports(path: Path, importer: str, known: dict[str, Path]) -> list[str]:
    """``module:name`` of each underscore name ``path`` imports from a package it is not inside."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in known):
            continue
        package = node.module if known[node.module].name == "__init__.py" else node.module.rpartition(".")[0]
        for alias in node.names:
            if alias.name.startswith("_") and not importer.startswith(package + "."):
                found.append(f"{node.module}:{alias.name}")
    return found


def test_no_private_name_is_imported_from_outside_its_package():
    """An underscore name is its package's own: ``cli.capture`` may use ``cli.hook._run``, a test may not."""
    known = modules()
    importers = {**known, **{f"tests.{p.stem}": p for p in (ROOT / "tests").rglob("*.py")},
                 **{f"scripts.{p.stem}": p for p in (ROOT / "scripts").rglob("*.py")}}
    found = {name: hits for name, path in importers.items() if (hits := private_imports(path, name, known))}
    assert found == {}, found


def test_the_private_import_finder_finds_one(tmp_path: Path):
    source = tmp_path / "user.py"
    source.write_text("from host_harness.cli.hook import _run, budget\n", encoding="utf-8")
    known = modules()
    assert private_imports(source, "tests.user", known) == ["host_harness.cli.hook:_run"]
    assert private_imports(source, "host_harness.cli.capture", known) == []


def wasmtime_private(path: Path) -> list[str]:
    """Each private name of wasmtime-py ``path`` imports or reaches (``wasmtime._ffi``, ``component._types``).

    Any import of a ``wasmtime`` module with an underscore segment, any underscore name imported from
    a ``wasmtime`` module, and any ``wasmtime...._x`` attribute read: a private part is no API, and
    the next release may reshape it without a word (issue 43).
    """
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules_ = [alias.name for alias in node.names]
            found += [m for m in modules_ if m.split(".")[0] == "wasmtime" and _private_segment(m)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            module = node.module
            if module.split(".")[0] != "wasmtime":
                continue
            if _private_segment(module):
                found.append(module)
            found += [f"{module}.{alias.name}" for alias in node.names if alias.name.startswith("_")]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            dotted = ast.unparse(node)
            if dotted.split(".")[0] == "wasmtime":
                found.append(dotted)
    return found


def _private_segment(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def test_no_module_imports_a_private_wasmtime_py_name():
    files = [p for folder in (*PACKAGES, "tests", "scripts") for p in (ROOT / folder).rglob("*.py")]
    found = {str(p.relative_to(ROOT)): hits for p in files if (hits := wasmtime_private(p))}
    assert found == {}, found


def test_the_wasmtime_private_finder_finds_each_form(tmp_path: Path):
    source = tmp_path / "user.py"
    source.write_text("import wasmtime._ffi\nfrom wasmtime import _ffi as ffi, Store\n"
                      "from wasmtime.component._types import ListType\n"
                      "from wasmtime.component import Linker\n"
                      "x = wasmtime.component._linker\n", encoding="utf-8")
    assert wasmtime_private(source) == ["wasmtime._ffi", "wasmtime._ffi", "wasmtime.component._types",
                                        "wasmtime.component._linker"]


STORAGE = ("host_harness.fs", "host_harness.config", "host_harness.store", "host_harness.vectors",
           "host_harness.services")  # each imports only those before it (docs/layout.md)


def test_the_host_storage_packages_are_layers():
    known = modules()

    def layer(name: str) -> int | None:
        return next((i for i, p in enumerate(STORAGE) if name == p or name.startswith(p + ".")), None)

    upward = [(name, dep) for name, path in known.items() if (own := layer(name)) is not None
              for dep in imported(path, known) if (other := layer(dep)) is not None and other > own]
    assert upward == [], upward


# Packages that serve a command or a protocol: no storage package imports them, and the UI, a command's
# pages, never imports the command line (issue 46: ui/library.py -> cli/learn, services/stores.py ->
# spool.replay and store/pg/vectors.py -> vectors were the last ones).
ABOVE_STORAGE = ("host_harness.cli", "host_harness.spool", "host_harness.hooks", "host_harness.mcp",
                 "host_harness.ui", "host_harness.git", "host_harness.capture", "host_harness.integrations")


def test_nothing_below_imports_what_serves_a_command():
    known = modules()

    def within(name: str, packages: tuple[str, ...]) -> bool:
        return any(name == p or name.startswith(p + ".") for p in packages)

    upward = [(name, dep) for name, path in known.items() if within(name, STORAGE)
              for dep in imported(path, known) if within(dep, ABOVE_STORAGE)]
    upward += [(name, dep) for name, path in known.items() if within(name, ("host_harness.ui",))
               for dep in imported(path, known) if within(dep, ("host_harness.cli",))]
    assert upward == [], upward


def test_the_hooks_form_one_package():
    hooks = ROOT / "host_harness" / "hooks"
    assert sorted(p.name for p in hooks.glob("*.py")) == [
        "__init__.py", "background.py", "command_line.py", "in_process.py", "pipeline.py", "plain.py",
        "prompt_ledger.py",
        "prompt_run.py", "protocol.py", "reader.py", "server.py", "sessions.py", "switches.py", "warm.py"]
    for old in ("hook.py", "hookio.py", "warm.py"):
        assert not (ROOT / "host_harness" / old).exists()


# The host learns the guest's limits and fields from the component (``host_harness/contract.json``,
# the ``describe`` verb) and asks it how it reads a name (``names``): only the native target runs
# the guest's code in the host's process (issue 37).
NATIVE_TARGET = {"host_harness.targets.native"}


def guest_imports(path: Path) -> set[str]:
    """Every ``guest`` module ``path`` names in an import, wherever it stands, or by ``importlib``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = ast.unparse(node.func)
            if called.endswith(("import_module", "__import__")) and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return {name for name in found if name == "guest" or name.startswith("guest.")}


def test_the_guest_finder_sees_every_form(tmp_path: Path):
    source = tmp_path / "m.py"
    source.write_text("import guest.engine\nfrom guest import host\ndef f():\n"
                      "    from guest.text import slug\n    importlib.import_module('guest.requests')\n"
                      "import guestbook\n", encoding="utf-8")
    assert guest_imports(source) == {"guest.engine", "guest", "guest.text", "guest.requests"}


def test_only_the_native_target_imports_the_guest():
    users = {name for name, path in modules().items()
             if name.split(".")[0] == "host_harness" and guest_imports(path)}
    assert users == NATIVE_TARGET


def test_the_generated_tables_stand_apart_marked_and_their_scripts_write_them_there():
    generated = ROOT / "guest" / "generated"
    tables = sorted(p for p in generated.glob("*.py") if p.name != "__init__.py")
    assert tables
    for table in tables:
        first = table.read_text(encoding="utf-8").splitlines()[0]
        mark = re.fullmatch(r"# Code generated by (scripts/gen_\w+\.py)\. DO NOT EDIT\.", first)
        assert mark, f"{table.name} does not open with its generator's mark: {first!r}"
        script = (ROOT / mark.group(1)).read_text(encoding="utf-8")
        assert first in script and f'"guest" / "generated" / "{table.name}"' in script, mark.group(1)
    for path in (ROOT / "guest").rglob("*.py"):
        if path.parent != generated:
            assert "(generated: ``scripts/" not in path.read_text(encoding="utf-8")[:300], path


# ---------------------------------------------------------------- the suite and the bench (issue 46 item 3)

SUITE_FOLDERS = {"guest", "host", "process", "parity", "agents", "browser"}


def bench_imports(path: Path) -> list[str]:
    """The ``bench`` modules ``path`` imports, wherever the import stands."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
        found += [name for name in names if name == "bench" or name.startswith("bench.")]
    return found


def suite_reads(path: Path) -> list[str]:
    """Each way ``path`` reaches into ``tests/``: importing ``tests`` or ``conftest``, a path built with
    a ``"tests"`` part (``ROOT / "tests"``, ``Path("tests")``), a string starting ``tests/``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [n for n in names if n.split(".")[0] in {"tests", "conftest"}]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            found += [f"/ {s.value!r}" for s in (node.left, node.right)
                      if isinstance(s, ast.Constant) and s.value == "tests"]
        elif isinstance(node, ast.Call):
            found += [f"call({a.value!r})" for a in node.args
                      if isinstance(a, ast.Constant) and a.value == "tests"]
        elif isinstance(node, ast.Constant) and str(node.value).startswith("tests/"):
            found.append(node.value)
    return found


def test_nothing_in_the_suite_imports_the_bench():
    found = {str(p.relative_to(ROOT)): hits for p in (ROOT / "tests").rglob("*.py")
             if (hits := bench_imports(p))}
    assert found == {}, found


def test_nothing_in_the_bench_reads_the_suite():
    found = {str(p.relative_to(ROOT)): hits for p in (ROOT / "bench").rglob("*.py")
             if (hits := suite_reads(p))}
    assert found == {}, found


def test_the_suite_and_bench_finders_find_each_form(tmp_path: Path):
    source = tmp_path / "mixed.py"
    source.write_text('"""Mentions tests/x.py in prose only."""\nimport bench.corpus\n'
                      'from bench import archive\nfrom conftest import ROOT\nA = ROOT / "tests" / "data"\n'
                      'B = Path("tests")\nC = "tests/data/x"\nD = frozenset({"test", "tests"})\n\n'
                      'def f():\n    from bench.pgsoak import soak\n', encoding="utf-8")
    assert bench_imports(source) == ["bench.corpus", "bench", "bench.pgsoak"]
    assert sorted(suite_reads(source)) == sorted(["conftest", "/ 'tests'", "call('tests')", "tests/data/x"])


def test_every_test_file_sits_in_a_folder_of_what_it_tests():
    """``tests/`` holds conftest.py, helpers/ and data/ beside the six folders; no test file at the top."""
    assert sorted(p.name for p in (ROOT / "tests").glob("test_*.py")) == []
    misplaced = [p for p in (ROOT / "tests").rglob("test_*.py")
                 if p.relative_to(ROOT / "tests").parts[0] not in SUITE_FOLDERS]
    assert misplaced == []
    assert {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and p.name != "__pycache__"} == {
        *SUITE_FOLDERS, "helpers", "data"}
