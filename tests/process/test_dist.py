"""The published artifact (`make dist`): its files, checksums, identity, links, conformance kit and the
loading examples of its README."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from host_harness.targets.artifact import Metadata, initial_memory_mib, read_metadata, with_metadata
from host_harness.targets.component import EXPORTS, IMPORTS
from host_harness.targets.runtime import Runtime

pytestmark = pytest.mark.packaging  # the published artifact (make dist)

TRACES = sorted(p.name for p in (ROOT / "conformance" / "traces").glob("*.json"))


def make_dist(out: Path, wasm: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "make_dist.py"), "--out", str(out),
                           "--wasm", str(wasm)], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory, wasm_path: Path) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = make_dist(out, wasm_path)
    assert done.returncode == 0, done.stderr
    return out


def code_block(readme: str, language: str) -> str:
    (block,) = re.findall(rf"```{language}\n(.*?)```", readme, flags=re.DOTALL)
    return block


def test_make_dist_writes_the_files_and_their_checksums(dist: Path, wasm_path: Path):
    files = ["README.md", "SHA256SUMS", "conformance/README.md", *(f"conformance/traces/{n}" for n in TRACES),
             "host-contract.md", "rs_learn.wasm", "wit/rs-learn.wit"]
    assert sorted(str(p.relative_to(dist)) for p in dist.rglob("*") if p.is_file()) == sorted(files)
    assert (dist / "rs_learn.wasm").read_bytes() == wasm_path.read_bytes()
    assert (dist / "wit" / "rs-learn.wit").read_bytes() == (ROOT / "wit" / "rs-learn.wit").read_bytes()
    for name in TRACES:
        assert (dist / "conformance" / "traces" / name).read_bytes() == \
            (ROOT / "conformance" / "traces" / name).read_bytes()
    checked = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=dist, capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout.count(": OK") == len(files) - 1, checked.stdout
    line = f"{hashlib.sha256(wasm_path.read_bytes()).hexdigest()}  rs_learn.wasm"
    assert line in (dist / "SHA256SUMS").read_text(encoding="ascii").splitlines()
    readme = (dist / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"@[a-z_]+@", readme), "every fact was filled in"
    assert "world `rs:learn/rs-learn@0.2.0`" in readme and "extended-const" in readme
    assert "host-contract.md" in readme and "bindgen!" in readme and "Node >= 22" in readme
    assert "npx -y @bytecodealliance/jco" in readme and "npx @" not in readme, "npx must not prompt"
    assert f"and {len(TRACES)} traces in `traces/`" in readme


def heading_slugs(markdown: str) -> set[str]:
    """The anchors GitHub makes of a page's headings."""
    slugs = set()
    for title in re.findall(r"^#+ (.+)$", markdown, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", title.strip().lower().replace("`", ""))
        slugs.add(slug.replace(" ", "-"))
    return slugs


def test_every_link_in_dist_resolves_inside_dist(dist: Path):
    pages = sorted(dist.rglob("*.md"))
    names = {str(p.relative_to(dist)) for p in pages}
    assert names == {"README.md", "host-contract.md", "conformance/README.md"}
    checked = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+:", link):
                continue
            target, _, anchor = link.partition("#")
            file = (page.parent / target).resolve() if target else page
            assert file.is_file() and dist.resolve() in file.parents, f"{page.name}: {link}"
            if anchor:
                assert anchor in heading_slugs(file.read_text(encoding="utf-8")), f"{page.name}: {link}"
            checked += 1
    assert checked > 20  # the contract's table of contents, its cross-references, the kit's links


def test_the_kit_in_dist_checks_a_host_on_its_own(dist: Path):
    """The shipped traces and the component are all a runner needs: the reference runner passes them."""
    traces = sorted(str(p.relative_to(dist)) for p in (dist / "conformance" / "traces").glob("*.json"))
    runner = [sys.executable, "-m", "host_harness.conformance", "--wasm", "rs_learn.wasm"]
    done = subprocess.run([*runner, *traces], cwd=dist, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [line.split()[:2] for line in done.stdout.splitlines()] == [["ok", name] for name in TRACES]
    contract = (dist / "host-contract.md").read_text(encoding="utf-8")
    for hook in ("**Seeded stores**", "**A fault hook**", "**A settable clock**", "**Required keys.**"):
        assert hook in contract


def test_the_component_names_itself(wasm_path: Path, node_host: Path):
    meta = read_metadata(wasm_path.read_bytes())
    assert (meta.name, meta.version) == ("rs:learn@0.2.0", "0.2.0")
    assert meta.description is not None and "World rs:learn/rs-learn@0.2.0." in meta.description
    assert meta.licenses == "Apache-2.0"
    assert ("componentize-py", "0.25.1") in meta.producers["sdk"]
    assert meta.producers["processed-by"][0][0] == "wit-component", "the build tools' entries are kept"
    jco = ROOT / "hosts" / "node" / "node_modules" / ".bin" / "jco"
    shown = subprocess.run([str(ROOT / "hosts" / "node" / "node"), str(jco), "metadata-show", "--json",
                            str(wasm_path)], capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)[0]["name"] == "rs:learn@0.2.0"  # what another tool reads


def test_make_dist_refuses_a_component_that_does_not_name_itself(wasm_path: Path, tmp_path: Path):
    unnamed = tmp_path / "unnamed.wasm"
    unnamed.write_bytes(with_metadata(wasm_path.read_bytes(), Metadata()))
    assert read_metadata(unnamed.read_bytes()).name is None
    done = make_dist(tmp_path / "dist", unnamed)
    assert done.returncode == 1
    assert "names itself None (version None), not rs:learn@0.2.0" in done.stderr
    assert not (tmp_path / "dist" / "SHA256SUMS").exists()


def test_the_docs_state_the_built_components_size_and_memory(dist: Path, wasm_path: Path):
    wasm = wasm_path.read_bytes()
    size, memory = len(wasm) / 2**20, initial_memory_mib(wasm)
    readme = (dist / "README.md").read_text(encoding="utf-8")
    assert f"the component ({size:.1f} MiB)" in readme and f"starts at {memory:.1f} MiB" in readme
    contract = (ROOT / "docs" / "host-contract.md").read_text(encoding="utf-8")
    stated_size = re.search(r"\*\*Size\*\*: about (\d+) MiB", contract)
    stated_memory = re.search(r"starts at about (\d+) MiB of linear memory", contract)
    assert stated_size and stated_memory, "the contract states both figures"
    assert abs(int(stated_size.group(1)) - size) < 1, f"the component is {size:.1f} MiB: fix the contract"
    assert abs(int(stated_memory.group(1)) - memory) < 1, f"it starts at {memory:.1f} MiB: fix the contract"
    assert not re.search(r"\d+ pages \(", contract), "no page count that drifts"


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
