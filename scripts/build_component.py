"""Build ``dist/rs_learn.wasm`` from ``guest/``, ``models/`` and ``wit/``.

The guest package and the model assets are staged in a fresh ``build/pkg-*/pkg`` so that
componentize-py sees exactly the guest (no tests, no virtualenv) and reads the
model at build time, baking it into the heap snapshot. ``--stub-wasi`` replaces
every WASI import with a trapping stub: the component imports only the six
``host-*`` functions.

The component then names itself (``host_harness/targets/artifact.py``): its name is the WIT package
and version (``rs:learn@0.1.0``; the version must equal the engine's ``VERSION``, ``guest/engine.py``),
also in its ``version`` section, and its description names the world (``rs:learn/rs-learn@0.1.0``).

It also writes ``host_harness/contract.json`` and ``verbs.json`` (``host_harness/contract.py``): the
``describe`` answer of the staged guest, the very sources it compiles, so the host's schemas and bounds
are the component's.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from host_harness.contract import files
from host_harness.targets.artifact import Metadata, with_metadata

ROOT = Path(__file__).resolve().parent.parent
MODEL_FILES = ("manifest.json", "vocab.txt", "embeddings.bin", "normalizer.json")
WORLD = "rs-learn"


def wit_package() -> tuple[str, str]:
    """The WIT package's name and version (``rs:learn``, ``0.1.0``) from ``wit/rs-learn.wit``."""
    wit = (ROOT / "wit" / "rs-learn.wit").read_text(encoding="utf-8")
    found = re.search(r"^package ([a-z][a-z0-9-]*:[a-z][a-z0-9-]*)@([0-9A-Za-z.+-]+);", wit, re.MULTILINE)
    if found is None:
        raise SystemExit("wit/rs-learn.wit declares no versioned package")
    return found.group(1), found.group(2)


def metadata() -> Metadata:
    """What the built component says about itself; the engine's version must be the package's."""
    name, version = wit_package()
    engine = re.search(r'^VERSION = "([^"]+)"', (ROOT / "guest" / "engine.py").read_text(encoding="utf-8"),
                       re.MULTILINE)
    if engine is None or engine.group(1) != version:
        raise SystemExit(f"guest/engine.py VERSION {engine and engine.group(1)!r} is not the WIT package's "
                         f"version {version!r}: bump both")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    license = project.get("license")
    return Metadata(
        name=f"{name}@{version}",
        version=version,
        description=f"{project['description']} World {name}/{WORLD}@{version}.",
        licenses=license.get("text") if isinstance(license, dict) else license,
        producers={"language": [("Python", "")],
                   "sdk": [("componentize-py", importlib.metadata.version("componentize-py"))]},
    )


def stage(pkg: Path) -> None:
    """Copy the guest sources and model assets into ``pkg``."""
    if pkg.exists():
        shutil.rmtree(pkg)
    (pkg / "models").mkdir(parents=True)
    for src in sorted((ROOT / "guest").rglob("*.py")):  # the kernel and every capability package
        dest = pkg / src.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest)
    for name in MODEL_FILES:
        if (ROOT / "models" / name).exists():
            shutil.copy2(ROOT / "models" / name, pkg / "models" / name)


def contract(pkg: Path) -> dict[Path, str]:
    """The text of ``contract.json`` and ``verbs.json``: ``describe`` run by the guest staged in ``pkg``."""
    code = "import json, sys; from guest.contract import describe; json.dump(describe({}), sys.stdout)"
    env = {**os.environ, "PYTHONPATH": str(pkg), "PYTHONDONTWRITEBYTECODE": "1"}  # no .pyc to compile
    done = subprocess.run([sys.executable, "-c", code], cwd=pkg, env=env, check=True, capture_output=True,
                          text=True)
    return files(json.loads(done.stdout))


def write_contract(texts: dict[Path, str]) -> None:
    """Replace each file whose text differs (a build of unchanged sources writes nothing)."""
    for path, text in texts.items():
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        print(f"wrote {path.relative_to(ROOT)}")


def main() -> None:
    """Stage and run componentize-py."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="dist/rs_learn.wasm")
    args = parser.parse_args()
    (ROOT / "build").mkdir(exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="pkg-", dir=ROOT / "build"))  # concurrent builds don't collide
    pkg = staging / "pkg"
    stage(pkg)
    out = ROOT / args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = staging / "rs_learn.wasm"
    cmd = [
        str(Path(sys.executable).with_name("componentize-py")),
        "-d",
        str(ROOT / "wit"),
        "-w",
        WORLD,
        "componentize",
        "--stub-wasi",
        "-p",
        str(pkg),
        "-o",
        str(tmp),
        "guest.app",
    ]
    try:
        described = contract(pkg)  # before componentize-py, which may leave files in pkg
        subprocess.run(cmd, check=True, cwd=ROOT)
        named = staging / "named.wasm"
        named.write_bytes(with_metadata(tmp.read_bytes(), metadata()))
        named.replace(out)
        write_contract(described)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


if __name__ == "__main__":
    main()
