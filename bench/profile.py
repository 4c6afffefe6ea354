"""Where a recall through the component spends its time: guest work between imports, and the imports.

Each of the six host functions is wrapped to note when it starts and ends (thread CPU time, so a
busy neighbour on a shared machine does not count); the time between two imports is guest work,
named after the import that follows it ("guest before kv_get:memories" is the guest deciding what
to fetch, decoding what came before, scoring ...). Means over the queries, largest first.

    python -m bench.profile                     # 10k realistic memories (the kept bench store)
    python -m bench.profile --size 100000 --target native
    python -m bench.profile --project DIR       # an existing project (built there first if empty)

Runs against whatever ``bench``/``host_harness`` and ``dist/rs_learn.wasm`` it is started from, so
the same file profiles an older checkout: ``PYTHONPATH=<checkout> python <this file> --project ...``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import host_harness
from bench import corpus, scale
from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest
from host_harness.targets.component import WasmGuest
from host_harness.targets.native import NativeGuest
from host_harness.targets.runtime import Runtime
from host_harness.vectors import IndexPolicy

IMPORTS = ("kv_get", "kv_put", "kv_query", "vec_search", "now_ms", "log")
Event = tuple[str, str, float, float]


def timed_services(project: Path, cache: Path, events: list[Event]) -> HostServices:
    """Host services whose imports append ``(name, namespace, start, end)`` to ``events``."""
    services = HostServices(project, index_policy=IndexPolicy(cache))
    for name in IMPORTS:
        call = getattr(services, name)

        def wrapped(*args: Any, _call: Any = call, _name: str = name) -> Any:
            start = time.thread_time()
            result = _call(*args)
            space = args[0].split("/")[0] if args and isinstance(args[0], str) else ""
            events.append((_name, space, start, time.thread_time()))
            return result

        setattr(services, name, wrapped)
    return services


def profile(guest: BaseGuest, queries: list[str], events: list[Event]) -> None:
    """Print the mean time of each phase of ``recall`` over ``queries``."""
    phases: dict[str, list[float]] = defaultdict(list)
    totals, calls = [], []
    for query in queries:
        events.clear()
        start = time.thread_time()
        guest.dispatch("recall", json.dumps({"query": query, "limit": 8}))
        end = time.thread_time()
        totals.append((end - start) * 1000)
        calls.append(len(events))
        spent: dict[str, float] = defaultdict(float)
        previous = start
        for name, space, begun, ended in events:
            label = f"{name}:{space}" if space else name
            spent[f"guest before {label}"] += (begun - previous) * 1000
            spent[f"import {label}"] += (ended - begun) * 1000
            previous = ended
        spent["guest after the last import"] += (end - previous) * 1000
        for label in {*phases, *spent}:
            phases[label].append(spent.get(label, 0.0))
    imports = sum(statistics.mean(v) for k, v in phases.items() if k.startswith("import "))
    print(f"recall p50 {statistics.median(totals):.2f} ms (thread CPU), "
          f"mean {statistics.mean(totals):.2f} ms; imports {imports:.2f} ms; "
          f"{statistics.median(calls):.0f} import calls")
    for label, values in sorted(phases.items(), key=lambda kv: -statistics.mean(kv[1])):
        if statistics.mean(values) >= 0.01:
            print(f"  {label:<44} {statistics.mean(values):7.2f} ms")


def main() -> None:
    """Profile warm recalls on one store."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--project", type=Path, help="default: the kept bench store (bench/stores.py)")
    parser.add_argument("--target", choices=("wasm", "native"), default="wasm")
    parser.add_argument("--queries", type=int, default=40)
    args = parser.parse_args()
    if args.project is None:
        from bench import stores

        project, cache = stores.store(args.size)[0], stores.cache()
    else:
        project, cache = args.project, args.project / "cache"
        if not (project / ".gm").is_dir():
            project.mkdir(parents=True, exist_ok=True)
            print(f"built {args.size} memories in {scale.build(project, args.size):.0f} s")
    events: list[Event] = []
    services = timed_services(project, cache, events)
    wasm = Path(host_harness.__file__).resolve().parent.parent / "dist" / "rs_learn.wasm"
    runtime = Runtime.load(wasm) if args.target == "wasm" else None
    guest: BaseGuest = WasmGuest(runtime, services) if runtime else NativeGuest(services)
    queries = corpus.queries(args.queries + 1, args.size, words=6, seed=99)
    guest.dispatch("recall", json.dumps({"query": queries[0]}))  # warm: index loaded, caches filled
    print(f"{args.target} recall at {args.size} memories ({project}), {args.queries} queries, limit 8")
    profile(guest, queries[1:], events)
    guest.close()
    services.close()
    if runtime:
        runtime.close()


if __name__ == "__main__":
    main()
