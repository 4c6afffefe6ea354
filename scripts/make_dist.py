"""``make dist``: the published artifact in ``dist/``.

Writes, beside the built ``dist/rs_learn.wasm``: the WIT (``dist/wit/``), the host contract
(``dist/host-contract.md``), a short ``dist/README.md`` (how to load the component from
wasmtime-py, jco/Node and Rust ``bindgen!``; the features it needs) and ``dist/SHA256SUMS``
(``sha256sum -c`` format) over all of them.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WASM_PAGE = 65536


def main_memory_min_mib(wasm: bytes) -> float:
    """The initial linear memory of the component's largest core module, in MiB."""
    best = 0
    i = 8
    while i < len(wasm):  # component sections; core modules are section 1
        section, i = wasm[i], i + 1
        size, i = _leb(wasm, i)
        if section == 1:
            best = max(best, _memory_pages(wasm[i : i + size]))
        i += size
    return best * WASM_PAGE / 2**20


def _memory_pages(module: bytes) -> int:
    i = 8
    while i < len(module):
        section, i = module[i], i + 1
        size, i = _leb(module, i)
        if section == 5:  # memory section: count, then limits of the first memory
            _, j = _leb(module, i)
            flags, j = module[j], j + 1
            pages, _ = _leb(module, j)
            return pages if not flags & 0x04 else 0  # memory64 is not used
        i += size
    return 0


def _leb(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, i


def write_dist(out: Path, wasm_path: Path) -> list[str]:
    """Write the artifact files into ``out``; return the lines of ``SHA256SUMS``."""
    out.mkdir(parents=True, exist_ok=True)
    if wasm_path.resolve() != (out / "rs_learn.wasm").resolve():
        shutil.copyfile(wasm_path, out / "rs_learn.wasm")
    wasm = (out / "rs_learn.wasm").read_bytes()
    shutil.rmtree(out / "wit", ignore_errors=True)
    shutil.copytree(ROOT / "wit", out / "wit")
    shutil.copyfile(ROOT / "docs" / "host-contract.md", out / "host-contract.md")
    wit = (ROOT / "wit" / "rs-learn.wit").read_text(encoding="utf-8")
    wit_version = re.search(r"package rs:learn@([0-9.]+);", wit)
    facts = {
        "version": _pyproject_version(),
        "wit_version": wit_version.group(1) if wit_version else "?",
        "componentize_py": importlib.metadata.version("componentize-py"),
        "size_mib": f"{len(wasm) / 2**20:.1f}",
        "min_mib": f"{main_memory_min_mib(wasm):.1f}",
    }
    readme = (ROOT / "scripts" / "dist_readme.md").read_text(encoding="utf-8")
    for name, value in facts.items():  # @name@ markers: the code samples are full of braces
        readme = readme.replace(f"@{name}@", value)
    (out / "README.md").write_text(readme, encoding="utf-8")
    files = ["README.md", "host-contract.md", "rs_learn.wasm"]
    files += sorted(str(p.relative_to(out)) for p in (out / "wit").rglob("*") if p.is_file())
    lines = [f"{hashlib.sha256((out / name).read_bytes()).hexdigest()}  {name}" for name in files]
    (out / "SHA256SUMS").write_text("\n".join(lines) + "\n", encoding="ascii")
    return lines


def _pyproject_version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^version = "([^"]+)"', text, re.MULTILINE)
    return found.group(1) if found else "?"


def main() -> None:
    """Write ``dist/`` (or ``--out``) from the built component."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--wasm", type=Path, default=ROOT / "dist" / "rs_learn.wasm")
    args = parser.parse_args()
    for line in write_dist(args.out, args.wasm):
        print(line)


if __name__ == "__main__":
    main()
