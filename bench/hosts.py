"""The Node reference host next to the Python harness, in one run (issue 12).

Node: loading the jco bindings, compiling + instantiating the component, the first recall, a
re-instantiation with the compiled modules kept (what a trap costs), and warm recall at 1k and 10k
memories -- on the same store and the same queries as the Python harness's wasm target.

    python -m bench --hosts
"""

from __future__ import annotations

import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from types import ModuleType

from host_harness.services import HostServices
from host_harness.targets.component import WasmGuest
from host_harness.targets.runtime import Runtime

NODE_DIR = Path(__file__).resolve().parent.parent / "hosts" / "node"


def node_timings(project: Path, queries: list[str]) -> dict[str, object]:
    """Run ``hosts/node/src/bench.mjs`` on ``project``."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
        json.dump(queries, file)
        file.flush()
        done = subprocess.run([str(NODE_DIR / "node"), str(NODE_DIR / "src" / "bench.mjs"), str(project),
                               file.name], check=True, capture_output=True, text=True, timeout=1800)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def bench_hosts(runtime: Runtime, sizes: list[int], kit: ModuleType) -> None:
    """Node start-up, then warm recall in Node vs the Python harness at each size.

    ``kit`` is ``bench.__main__``: its ``row``, ``sentences``, ``populate``, ``dispatch``, ``timed``
    and ``pct`` make these rows comparable with the rest of the table.
    """
    row, sentences, dispatch, timed, pct = kit.row, kit.sentences, kit.dispatch, kit.timed, kit.pct
    if not (NODE_DIR / "build" / "rs_learn.js").is_file():
        print("node host: hosts/node/build is missing (make node); skipped")
        return
    print("node host (jco, Node >= 22) vs python harness (wasmtime-py): recall on the same store")
    queries = sentences(50, 6, 99)
    for number, size in enumerate(sizes):
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp)
            kit.populate(project, sentences(size, 28, size))
            node = node_timings(project, queries)
            if number == 0:
                row("node: import bindings (jco output)", f"{node['loadMs']:.0f} ms")
                row("node: compile + instantiate", f"{node['instantiateMs']:.0f} ms")
                row(f"node: first recall ({size} memories)", f"{node['firstRecallMs']:.0f} ms")
                row("node: process start -> first recall answered",
                    f"{node['processToFirstRecallMs']:.0f} ms")
                row("node: re-instantiate (compiled modules kept)", f"{node['reinstantiateMs']:.0f} ms")
            samples = node["samples"]
            assert isinstance(samples, list)
            row(f"recall p50 / p95 at {size}, node host", pct(samples))
            services = HostServices(project)
            guest = WasmGuest(runtime, services)
            start = time.perf_counter()
            dispatch(guest, "recall", {"query": "warm up the index"})
            if number == 0:
                row(f"python: first recall ({size} memories, instance new)",
                    f"{(time.perf_counter() - start) * 1000:.0f} ms")
            it = iter(queries)
            ours = timed(lambda g=guest, i=it: dispatch(g, "recall", {"query": next(i)}), len(queries))
            row(f"recall p50 / p95 at {size}, python harness (wasm)", pct(ours))
            ratio = statistics.median(samples) / statistics.median(ours)
            row(f"recall p50 at {size}, node / python", f"{ratio:.2f}")
            guest.close()
            services.close()
