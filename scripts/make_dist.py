"""``make dist``: the published artifact in ``dist/``.

Writes, beside the built ``dist/rs_learn.wasm``: the WIT (``dist/wit/``), the host contract
(``dist/host-contract.md``), the conformance kit (``dist/conformance/``: its README and traces, so a
new host can be checked from ``dist/`` alone), a short ``dist/README.md`` (how to load the component
from wasmtime-py, jco/Node and Rust ``bindgen!``; the features it needs; its exact size and initial
memory) and ``dist/SHA256SUMS`` (``sha256sum -c`` format) over all of them.

It refuses a component that does not name itself as the WIT package (``rs:learn@<version>``, see
``host_harness/targets/artifact.py``: a stale build), and a relative link of a shipped Markdown page
whose target is not shipped (links are rewritten from the source tree's layout to ``dist/``'s).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import posixpath
import re
import shutil
from pathlib import Path

from build_component import wit_package  # a sibling script: run this one as `python scripts/make_dist.py`

from host_harness.targets.artifact import initial_memory_mib, read_metadata

ROOT = Path(__file__).resolve().parent.parent

# Markdown pages shipped, by their place in the source tree -> their place in dist/.
PAGES = {"docs/host-contract.md": "host-contract.md", "conformance/README.md": "conformance/README.md"}
LINK_RE = re.compile(r"\]\(([^)\s]+)\)")


class DistError(Exception):
    """The artifact cannot be written as it is (a stale component, a broken link)."""


def shipped() -> dict[str, str]:
    """Every file of the source tree that ``dist/`` ships (source path -> dist path), pages included."""
    files = dict(PAGES)
    files |= {f"wit/{p.name}": f"wit/{p.name}" for p in sorted((ROOT / "wit").glob("*.wit"))}
    traces = sorted((ROOT / "conformance" / "traces").glob("*.json"))
    files |= {f"conformance/traces/{p.name}": f"conformance/traces/{p.name}" for p in traces}
    return files


def relink(text: str, source: str, files: dict[str, str]) -> str:
    """``text`` (the page ``source`` of the tree) with its relative links pointing into ``dist/``."""
    here, there = posixpath.dirname(source), posixpath.dirname(files[source])

    def move(match: re.Match[str]) -> str:
        target, _, anchor = match.group(1).partition("#")
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):  # an anchor, or a URL
            return match.group(0)
        resolved = posixpath.normpath(posixpath.join(here, target))
        if resolved not in files:
            raise DistError(f"{source} links to {target}, which dist/ does not ship")
        moved = posixpath.relpath(files[resolved], there or ".")
        return f"]({moved}{'#' + anchor if anchor else ''})"

    return LINK_RE.sub(move, text)


def check_identity(wasm: bytes) -> str:
    """The component's name (``rs:learn@0.1.0``); a :class:`DistError` unless it is the WIT package's."""
    package, version = wit_package()
    meta = read_metadata(wasm)
    if meta.name != f"{package}@{version}" or meta.version != version:
        raise DistError(f"the component names itself {meta.name!r} (version {meta.version!r}), not "
                        f"{package}@{version} as wit/rs-learn.wit says: rebuild it (`make wasm`)")
    return meta.name


def write_dist(out: Path, wasm_path: Path) -> list[str]:
    """Write the artifact files into ``out``; return the lines of ``SHA256SUMS``."""
    wasm = wasm_path.read_bytes()
    name = check_identity(wasm)
    out.mkdir(parents=True, exist_ok=True)
    if wasm_path.resolve() != (out / "rs_learn.wasm").resolve():
        shutil.copyfile(wasm_path, out / "rs_learn.wasm")
    for folder in ("wit", "conformance"):
        shutil.rmtree(out / folder, ignore_errors=True)
    files = shipped()
    for source, target in files.items():
        (out / target).parent.mkdir(parents=True, exist_ok=True)
        if source in PAGES:
            text = (ROOT / source).read_text(encoding="utf-8")
            (out / target).write_text(relink(text, source, files), encoding="utf-8")
        else:
            shutil.copyfile(ROOT / source, out / target)
    facts = {
        "version": _pyproject_version(),
        "wit_version": wit_package()[1],
        "name": name,
        "componentize_py": importlib.metadata.version("componentize-py"),
        "size_mib": f"{len(wasm) / 2**20:.1f}",
        "min_mib": f"{initial_memory_mib(wasm):.1f}",
        "traces": str(sum(1 for source in files if source.startswith("conformance/traces/"))),
    }
    readme = (ROOT / "scripts" / "dist_readme.md").read_text(encoding="utf-8")
    for key, value in facts.items():  # @name@ markers: the code samples are full of braces
        readme = readme.replace(f"@{key}@", value)
    (out / "README.md").write_text(readme, encoding="utf-8")
    names = ["README.md", "rs_learn.wasm", *sorted(files.values())]
    lines = [f"{hashlib.sha256((out / n).read_bytes()).hexdigest()}  {n}" for n in sorted(names)]
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
    try:
        lines = write_dist(args.out, args.wasm)
    except DistError as error:
        raise SystemExit(f"make dist: {error}") from None
    for line in lines:
        print(line)
    wasm = args.wasm.read_bytes()
    print(f"{read_metadata(wasm).name}: {len(wasm) / 2**20:.1f} MiB, initial memory "
          f"{initial_memory_mib(wasm):.1f} MiB")


if __name__ == "__main__":
    main()
