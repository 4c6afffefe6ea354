"""Structured-memory latency at 1k and 10k records: ``query_records``, ``retrieve_memory``, ``create_todo``.

Also one full ``memory_retention`` and ``reconcile_index`` pass (the store is current, so they
write nothing). Records are half todos, 30 % session notes, 20 % checklists of three items, all in one trusted
scope; the store is populated natively in batched transactions (500 creates per commit, the same
layout the component writes), then each target answers warm queries, one transaction per call.
Numbers are wall-clock on whatever machine runs this: compare ratios within one run.

    python -m bench.structured             # sizes 1k and 10k
    python -m bench.structured --sizes 1000
"""

from __future__ import annotations

import random
from pathlib import Path

from bench.common import dispatch, filled, pct, sentences, sized_main, timed
from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest
from host_harness.targets.component import WasmGuest
from host_harness.targets.native import NativeGuest
from host_harness.targets.runtime import Runtime

SCOPE = {"projectId": "bench", "actorId": "bench-agent"}
QUERIES = 40
ROWS: list[tuple[str, str]] = []


def row(name: str, value: str) -> None:
    """Record and print one result line."""
    ROWS.append((name, value))
    print(f"  {name:<52} {value:>22}", flush=True)


def bodies(n: int, seed: int) -> list[tuple[str, dict[str, object]]]:
    """``n`` create requests (deterministic)."""
    rnd = random.Random(seed)
    texts = sentences(n, 12, seed)
    tags = ["ci", "auth", "release", "docs", "infra", "ui", "perf", "db"]
    out: list[tuple[str, dict[str, object]]] = []
    for i, text in enumerate(texts):
        tag = [rnd.choice(tags)]
        if i % 10 < 5:
            out.append(("create_todo", {"title": text[:200], "priority": rnd.randint(0, 5), "tags": tag}))
        elif i % 10 < 8:
            out.append(("create_session_note", {"content": text, "importance": 0.5, "tags": tag}))
        else:
            words = text.split()
            items = [{"title": " ".join(words[k : k + 4])} for k in (0, 4, 8)]
            out.append(("create_checklist", {"title": " ".join(words[:6]), "items": items, "tags": tag}))
    return out


def populate(project: Path, n: int) -> None:
    """Create ``n`` records natively, 500 per transaction."""
    services = HostServices(project, scope=SCOPE)
    guest = NativeGuest(services)
    requests = bodies(n, seed=n)
    for start in range(0, n, 500):
        services.begin()
        for verb, body in requests[start : start + 500]:
            guest.engine.verbs[verb].handler(body)
        services.commit()
    guest.close()
    services.close()


def measure(runtime: Runtime, sizes: list[int]) -> None:
    """p50 / p95 of query_records and retrieve_memory per size and target."""
    queries = [" ".join(s.split()[:3]) for s in sentences(QUERIES, 12, seed=4242)]
    for size in sizes:
        with filled(size, populate, "records") as project:
            for target in ("native", "wasm"):
                services = HostServices(project, scope=SCOPE)
                guest: BaseGuest = (
                    NativeGuest(services) if target == "native" else WasmGuest(runtime, services)
                )
                dispatch(guest, "query_records", {"query": "warm up"})
                for verb in ("query_records", "retrieve_memory"):
                    it = iter(queries)
                    samples = timed(lambda g=guest, v=verb, i=it: dispatch(g, v, {"query": next(i)}), QUERIES)
                    row(f"{verb} p50 / p95 at {size}, {target}", pct(samples))
                listing = timed(lambda g=guest: dispatch(g, "query_records", {"kinds": ["todo"]}), 5)
                row(f"query_records, no query (listing) at {size}, {target}", pct(listing))
                same = {"title": "Fix the flaky login test"}  # one title: every later create needs a suffix
                creates = timed(lambda g=guest, b=same: dispatch(g, "create_todo", b), QUERIES)
                row(f"create_todo (same title) p50 / p95 at {size}, {target}", pct(creates))
                for verb in ("memory_retention", "reconcile_index"):  # full passes; nothing to change here
                    once = timed(lambda g=guest, v=verb: dispatch(g, v, {}), 1)
                    row(f"{verb} (one full pass) at {size}, {target}", f"{once[0]:.0f} ms")
                guest.close()
                services.close()


def main() -> None:
    """Run the structured-memory benchmark and print a table."""
    sized_main(__doc__ or "", "structured-memory", "p50 / p95", measure, ROWS, [1000, 10000])


if __name__ == "__main__":
    main()
