"""What the benchmarks share: the component's path, synthetic texts, timing, filling a store."""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest
from host_harness.targets.native import NativeGuest
from host_harness.targets.runtime import Runtime, artifact_is_intact, cache_file_name, default_cache_dir

ROOT = Path(__file__).resolve().parent.parent
WASM = ROOT / "dist" / "rs_learn.wasm"


@contextmanager
def filled(size: int, fill: Callable[[Path, int], None], what: str) -> Iterator[Path]:
    """A temporary folder filled by ``fill(folder, size)``; says how long filling took."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        fill(Path(tmp), size)
        print(f"    (built {size} {what} in {time.perf_counter() - start:.1f} s)", flush=True)
        yield Path(tmp)


def sized_main(
    doc: str, title: str, column: str, measure: Callable[[Runtime, list[int]], None],
    rows: list[tuple[str, str]], sizes: list[int],
) -> None:
    """``main`` of a benchmark over store sizes (``--sizes``): run ``measure``, print ``rows`` as a table."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=sizes)
    args = parser.parse_args()
    print(f"rs-learn {title} bench: python {sys.version.split()[0]}, {os.cpu_count()} cpus")
    runtime = Runtime.load(WASM)
    measure(runtime, args.sizes)
    runtime.close()
    print(f"\n| measure | {column} |\n|---|---:|")
    for name, value in rows:
        print(f"| {name.strip()} | {value} |")


def words() -> list[str]:
    """Whole-word vocabulary entries, roughly frequency ordered."""
    vocab = (ROOT / "models" / "vocab.txt").read_text(encoding="utf-8").split("\n")
    return [w for w in vocab[1000:12000] if w.isalpha() and w.isascii() and len(w) > 2]


def sentences(n: int, length: int, seed: int) -> list[str]:
    """``n`` synthetic sentences of ``length`` words (deterministic)."""
    rnd = random.Random(seed)
    pool = words()
    return [" ".join(rnd.choice(pool) for _ in range(length)) + "." for _ in range(n)]


def timed(call: Callable[[], object], n: int) -> list[float]:
    """Milliseconds of ``n`` calls."""
    out = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def pct(samples: list[float]) -> str:
    """``p50 / p95`` in ms."""
    ordered = sorted(samples)
    return f"{statistics.median(ordered):.2f} / {ordered[int(0.95 * (len(ordered) - 1))]:.2f} ms"


def dispatch(guest: BaseGuest, verb: str, body: object) -> object:
    """One verb, raising on an error envelope."""
    envelope = json.loads(guest.dispatch(verb, json.dumps(body)))
    if not envelope["ok"]:
        raise SystemExit(f"{verb} failed: {envelope['error']}")
    return envelope["data"]


def populate(project: Path, texts: list[str]) -> None:
    """Fill a store fast: the native engine, 500 memories per transaction (same layout as wasm)."""
    services = HostServices(project)
    guest = NativeGuest(services)
    for start in range(0, len(texts), 500):
        services.begin()
        for text in texts[start : start + 500]:
            guest.engine.memorize_text(text, "default")
        services.commit()
    guest.close()
    services.close()


ROWS: list[tuple[str, str, str]] = []


def row(name: str, value: str, target: str = "") -> None:
    """Record and print one result line."""
    ROWS.append((name, value, target))
    print(f"  {name:<48} {value:>22}  {target}", flush=True)


def private_cache(cache: Path) -> Path:
    """A cache folder for the bench (persisted indexes, the hook's stamp) holding the compiled component."""
    cache.mkdir(parents=True, exist_ok=True)
    name = cache_file_name(WASM.read_bytes())
    shared = default_cache_dir() / name
    if artifact_is_intact(shared):
        for path in (shared, shared.with_name(name + ".sha256")):
            shutil.copyfile(path, cache / path.name)
    Runtime.load(WASM, cache).close()  # compiles only when the shared cache had nothing
    return cache
