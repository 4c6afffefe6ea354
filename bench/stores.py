"""Bench stores of the realistic corpus, built once and kept under ``build/bench/``.

A million memories take minutes to import (embedding every text natively), so ``make bench``
builds each size once and keeps it, with the persisted vector indexes of those stores, in
``build/bench/<key>/``: ``store-<size>/`` projects and a ``cache/`` for their indexes. The key
names what the stores depend on -- the corpus (:func:`bench.corpus.digest` of the first 1,000
memories and the corpus size) and the sources that decide the stored bytes (the memory package and the
text layer of the guest, the embedder manifest) -- so a change to any of them builds afresh, and
older keys are deleted then (a 1M store is ~2.7 GB). Benches only read these stores; anything
that writes makes its own project. ``make clean`` removes them.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from pathlib import Path

from bench import corpus, scale

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = ROOT / "build" / "bench"
SOURCES = ("guest/memory", "guest/text", "guest/index", "guest/screening", "guest/strings", "guest/generated",
           "models/manifest.json")
DONE = "built.txt"


def key() -> str:
    """What the stored bytes depend on, as 16 hex digits."""
    h = hashlib.sha256(f"{corpus.digest(1000)} {len(corpus.base())}".encode())
    for name in SOURCES:
        path = ROOT / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            h.update(file.relative_to(ROOT).as_posix().encode() + b"\0" + file.read_bytes())
    return h.hexdigest()[:16]


def home() -> Path:
    """This key's folder (older keys' folders are removed)."""
    folder = BENCH_DIR / key()
    if BENCH_DIR.is_dir():
        for other in BENCH_DIR.iterdir():
            if other != folder:
                shutil.rmtree(other, ignore_errors=True)
    (folder / "cache").mkdir(parents=True, exist_ok=True)
    return folder


def store(size: int) -> tuple[Path, float | None]:
    """The project of ``size`` memories, and how long building it took (``None``: it was kept)."""
    project = home() / f"store-{size}"
    if (project / DONE).is_file():
        return project, None
    shutil.rmtree(project, ignore_errors=True)
    project.mkdir(parents=True)
    start = time.perf_counter()
    scale.build(project, size)
    seconds = time.perf_counter() - start
    (project / DONE).write_text(f"{size} memories in {seconds:.0f} s\n", encoding="utf-8")
    return project, seconds


def cache() -> Path:
    """Where the persisted vector indexes of the kept stores live."""
    return home() / "cache"


if __name__ == "__main__":
    import sys

    for size in [int(arg) for arg in sys.argv[1:]] or [1000]:
        path, took = store(size)
        print(f"{path}: {'kept' if took is None else f'built in {took:.0f} s'}")
