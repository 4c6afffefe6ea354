"""Where a call's time goes: recall and memorize through the component vs the native guest, paired.

For each store size, the same calls alternate between the native guest and the component (one
call each, in turn) over the same store, so machine load hits both alike. Every host import is
counted on the way (:class:`Counted`): crossings per call, payload bytes per call (keys, values,
queries and answers; what the host code receives and returns) and the time spent in the host's own
services. The guest's share is the native call minus its host time (CPython running the guest); the
component's own share (its interpreter and the boundary) is the wasm call minus its host time minus
that guest time. Crossings are counted on the host's side: one per import call (a ``host-kv-get`` of
many keys is one).

    python -m bench.boundary            # 1k and 10k
    python -m bench.boundary 10000      # one size
    RS_LEARN_BENCH_WASM=old.wasm python -m bench.boundary   # another build of the component
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import wasmtime  # noqa: F401  (the version is printed)

from bench import corpus, stores
from bench.common import WASM, dispatch, sentences
from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest
from host_harness.targets.component import WasmGuest
from host_harness.targets.native import NativeGuest
from host_harness.targets.runtime import WASMTIME_VERSION, Runtime
from host_harness.vectors import IndexPolicy


class Counted(HostServices):
    """The host's services, counting each import's calls, payload bytes and time."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls = 0
        self.bytes = 0
        self.seconds = 0.0
        self.batch = False  # inside a call of many keys: counted once, by its own method

    def reset(self) -> None:
        """Start counting afresh."""
        self.calls, self.bytes, self.seconds = 0, 0, 0.0

    def _count(self, started: float, size: int) -> None:
        if self.batch:
            return
        self.calls += 1
        self.bytes += size
        self.seconds += time.perf_counter() - started

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """Counted ``host-kv-get``."""
        started = time.perf_counter()
        value = super().kv_get(ns, key)
        self._count(started, len(ns) + len(key) + len(value or b""))
        return value

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """Counted ``host-kv-put``."""
        started = time.perf_counter()
        super().kv_put(ns, key, value)
        self._count(started, len(ns) + len(key) + len(value))

    def kv_get_many(self, ns: str, keys: Sequence[str]) -> list[bytes | None]:
        """Counted ``host-kv-get`` of many keys: one crossing."""
        started, self.batch = time.perf_counter(), True
        try:
            values = self.read_many(ns, keys)
        finally:
            self.batch = False
        self._count(started, len(ns) + sum(len(k) for k in keys) + sum(len(v or b"") for v in values))
        return values

    def kv_put_many(self, ns: str, items: Sequence[tuple[str, bytes]]) -> None:
        """Counted ``host-kv-put`` of many entries: one crossing."""
        started, self.batch = time.perf_counter(), True
        try:
            super().kv_put_many(ns, items)
        finally:
            self.batch = False
        self._count(started, len(ns) + sum(len(k) + len(v) for k, v in items))

    def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """Counted ``host-kv-query``."""
        started = time.perf_counter()
        entries = super().kv_query(ns, q, limit)
        self._count(started, len(ns) + len(q) + sum(len(k) + len(v) for k, v in entries))
        return entries

    def vec_search(self, ns: str, query: list[float], k: int) -> list[tuple[str, float]]:
        """Counted ``host-vec-search``."""
        started = time.perf_counter()
        hits = super().vec_search(ns, query, k)
        self._count(started, len(ns) + 4 * len(query) + sum(len(key) + 4 for key, _ in hits))
        return hits

    def log(self, level: int, msg: str) -> None:
        """Counted ``host-log``."""
        started = time.perf_counter()
        super().log(level, msg)
        self._count(started, len(msg))

    def now_ms(self) -> int:
        """Counted ``host-now-ms``."""
        started = time.perf_counter()
        now = super().now_ms()
        self._count(started, 8)
        return now


class Side:
    """One target's samples: call ms, crossings, bytes and host ms per call."""

    def __init__(self) -> None:
        self.ms: list[float] = []
        self.calls: list[int] = []
        self.bytes: list[int] = []
        self.host_ms: list[float] = []

    def add(self, services: Counted, ms: float) -> None:
        """Record one call."""
        self.ms.append(ms)
        self.calls.append(services.calls)
        self.bytes.append(services.bytes)
        self.host_ms.append(services.seconds * 1000)

    def median(self, what: str) -> float:
        """The median of one series."""
        return float(statistics.median(getattr(self, what)))


def paired(guests: dict[str, tuple[BaseGuest, Counted]], verb: str, bodies: list[dict[str, Any]],
           own: bool = False) -> dict[str, Side]:
    """Each body to each target in turn (``own``: a body per target, ``{target: body}``); the samples."""
    sides = {target: Side() for target in guests}
    for body in bodies:
        for target, (guest, services) in guests.items():
            services.reset()
            started = time.perf_counter()
            dispatch(guest, verb, body[target] if own else body)
            sides[target].add(services, (time.perf_counter() - started) * 1000)
    return sides


def report(label: str, sides: dict[str, Side]) -> None:
    """Print one verb's rows: medians, the ratio, crossings and bytes, the shares of the component call."""
    native, wasm = sides["native"], sides["wasm"]
    guest_ms = max(0.0, native.median("ms") - native.median("host_ms"))
    wasm_ms, host_ms = wasm.median("ms"), wasm.median("host_ms")
    rest_ms = max(0.0, wasm_ms - host_ms - guest_ms)
    print(f"  {label}: native {native.median('ms'):.2f} ms, wasm {wasm_ms:.2f} ms, "
          f"wasm/native {wasm_ms / native.median('ms'):.2f}x")
    print(f"    per call: {wasm.median('calls'):.0f} crossings, {wasm.median('bytes') / 1024:.1f} KiB; "
          f"host {host_ms:.2f} ms ({host_ms / wasm_ms:.0%}), guest as native {guest_ms:.2f} ms "
          f"({guest_ms / wasm_ms:.0%}), the component's own (its interpreter and the boundary) "
          f"{rest_ms:.2f} ms ({rest_ms / wasm_ms:.0%})", flush=True)


def main() -> None:
    """Measure recall and memorize at each size."""
    sizes = [int(arg) for arg in sys.argv[1:]] or [1000, 10000]
    print(f"boundary: wasmtime-py {WASMTIME_VERSION}")
    runtime = Runtime.load(os.environ.get("RS_LEARN_BENCH_WASM") or WASM)
    cache = stores.cache()
    for size in sizes:
        project, _ = stores.store(size)
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "project"
            shutil.copytree(project, copy)
            services = Counted(copy, index_policy=IndexPolicy(cache))
            guests = {"native": (NativeGuest(services), services),
                      "wasm": (WasmGuest(runtime, services), services)}
            queries = corpus.queries(40, size, words=6, seed=99)
            paired(guests, "recall", [{"query": "warm up the index"}] * 2)
            report(f"recall at {size}", paired(guests, "recall", [{"query": q} for q in queries]))
            texts = iter(sentences(160, 28, seed=size))
            bodies = [{target: {"text": next(texts)} for target in guests} for _ in range(80)]
            report(f"memorize into {size}", paired(guests, "memorize", bodies, own=True))
            for guest, _ in guests.values():
                guest.close()
            services.close()
    runtime.close()


if __name__ == "__main__":
    main()
