"""Build ``dist/rs_learn.wasm`` from ``guest/``, ``models/`` and ``wit/``.

The guest package and the model assets are staged in a fresh ``build/pkg-*/pkg`` so that
componentize-py sees exactly the guest (no tests, no virtualenv) and reads the
model at build time, baking it into the heap snapshot. ``--stub-wasi`` replaces
every WASI import with a trapping stub: the component imports only the six
``host-*`` functions.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODEL_FILES = ("manifest.json", "vocab.txt", "embeddings.bin", "normalizer.json")


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
        "rs-learn",
        "componentize",
        "--stub-wasi",
        "-p",
        str(pkg),
        "-o",
        str(tmp),
        "guest.app",
    ]
    try:
        subprocess.run(cmd, check=True, cwd=ROOT)
        tmp.replace(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


if __name__ == "__main__":
    main()
