"""The published artifact (`make dist`): its files, checksums, and the loading examples of its README."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from host_harness.guests.component import EXPORTS, IMPORTS
from host_harness.guests.runtime import Runtime


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory, wasm_path: Path) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_dist.py"), "--out", str(out),
                    "--wasm", str(wasm_path)], check=True, capture_output=True, timeout=120)
    return out


def code_block(readme: str, language: str) -> str:
    (block,) = re.findall(rf"```{language}\n(.*?)```", readme, flags=re.DOTALL)
    return block


def test_make_dist_writes_the_files_and_their_checksums(dist: Path, wasm_path: Path):
    assert sorted(str(p.relative_to(dist)) for p in dist.rglob("*") if p.is_file()) == [
        "README.md", "SHA256SUMS", "host-contract.md", "rs_learn.wasm", "wit/rs-learn.wit"]
    assert (dist / "rs_learn.wasm").read_bytes() == wasm_path.read_bytes()
    assert (dist / "wit" / "rs-learn.wit").read_bytes() == (ROOT / "wit" / "rs-learn.wit").read_bytes()
    checked = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=dist, capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout.count(": OK") == 4, checked.stdout
    line = f"{hashlib.sha256(wasm_path.read_bytes()).hexdigest()}  rs_learn.wasm"
    assert line in (dist / "SHA256SUMS").read_text(encoding="ascii").splitlines()
    readme = (dist / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"@[a-z_]+@", readme), "every fact was filled in"
    assert "world `rs:learn/rs-learn@0.1.0`" in readme and "extended-const" in readme
    assert "host-contract.md" in readme and "bindgen!" in readme and "Node >= 22" in readme


def test_the_wasmtime_py_example_of_the_readme_runs(dist: Path):
    script = code_block((dist / "README.md").read_text(encoding="utf-8"), "python")
    done = subprocess.run([sys.executable, "-c", script], cwd=dist, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    memorized, recalled = map(json.loads, done.stdout.splitlines())
    assert memorized["ok"] and memorized["data"]["deduped"] is False
    assert recalled["ok"] and recalled["data"][0]["id"] == memorized["data"]["id"]


def test_the_jco_example_of_the_readme_runs(dist: Path, node_host: Path, tmp_path: Path):
    script = code_block((dist / "README.md").read_text(encoding="utf-8"), "js")
    (tmp_path / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (tmp_path / "example.js").write_text(script, encoding="utf-8")
    (tmp_path / "rs_learn").symlink_to(ROOT / "hosts" / "node" / "build")  # what the transpile line makes
    done = subprocess.run([str(ROOT / "hosts" / "node" / "node"), "example.js"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    memorized, recalled = map(json.loads, done.stdout.splitlines())
    assert memorized["ok"] and recalled["data"][0]["id"] == memorized["data"]["id"]


def test_the_component_exports_the_four_functions_and_componentize_pys_init(wasm_runtime: Runtime):
    """`exports` (componentize-py's `init`) cannot be hidden in 0.25: hosts must never call it."""
    engine = wasm_runtime.engine
    assert sorted(wasm_runtime.component.type.exports(engine)) == sorted([*EXPORTS, "exports"])
    assert sorted(wasm_runtime.component.type.imports(engine)) == sorted(IMPORTS)


def test_the_build_does_not_embed_the_checkout_or_its_staging_path(wasm_path: Path):
    wasm = wasm_path.read_bytes()
    assert b"build/pkg-" not in wasm
    assert str(ROOT).encode() not in wasm
