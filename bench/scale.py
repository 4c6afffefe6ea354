"""Issue 13 rows: memory that outgrows one process, measured on the realistic corpus (``bench.corpus``).

* cold hook and cold one-shot ``recall`` CLI at 1k / 10k / 100k memories (new processes, median of
  :data:`COLD_RUNS`), with the persisted vector index, and at the largest size also scanning SQLite;
* warm recall p50 / p95 at the largest size through the component: scan, persisted exact,
  persisted approximate;
* recall@10 of the approximate vector search against exact (what ``host-vec-search`` returns for the
  guest's pool of 50), and the top-8 agreement of hybrid ``recall``;
* the exact/approximate crossover: one vector search at 5k ... 100k rows;
* import rate: ``rs-learn-host import`` of 10k lines with and without vectors, component and native.

Stores are built once per run, through the ``import`` verb (native guest: the same code, faster).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bench import corpus
from host_harness.services import HostServices
from host_harness.store.digest import EMPTY
from host_harness.targets.base import BaseGuest
from host_harness.targets.component import WasmGuest
from host_harness.targets.native import NativeGuest
from host_harness.targets.runtime import Runtime
from host_harness.vectors import Base, IndexPolicy, Snapshot, VectorIndex

COLD_RUNS = 9
BATCH = 2000
Row = Callable[..., None]


def build(project: Path, count: int) -> float:
    """Import the first ``count`` corpus memories into ``project``; seconds taken."""
    services = HostServices(project, index_policy=IndexPolicy(None))
    guest = NativeGuest(services)
    paragraphs = corpus.base()
    start = time.perf_counter()
    for first in range(0, count, BATCH):  # texts made batch by batch: a million are ~1 GB of strings
        items = [{"text": corpus.memory(i, paragraphs)} for i in range(first, min(first + BATCH, count))]
        envelope = json.loads(guest.dispatch("import", json.dumps({"memories": items})))
        if not envelope["ok"]:
            raise SystemExit(f"import failed: {envelope['error']}")
    elapsed = time.perf_counter() - start
    guest.close()
    services.close()
    return elapsed


def environment(cache: Path, mode: str, project: Path | None = None) -> dict[str, str]:
    """The environment of a measured process: private cache, index mode."""
    env = {**os.environ, "RS_LEARN_CACHE_DIR": str(cache), "RS_LEARN_VECTOR_INDEX": mode}
    if project is not None:
        env["RS_LEARN_PROJECT"] = str(project)
    return env


def cold_once(project: Path, env: dict[str, str], prompt: str) -> tuple[float, float, bool]:
    """One new hook process and one new ``recall`` process: milliseconds each, whether the hook injected."""
    event = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(project), "prompt": prompt})
    start = time.perf_counter()
    hook_cmd = [sys.executable, "-m", "host_harness", "hook", "prompt-submit"]
    done = subprocess.run(hook_cmd, input=event.encode(), env=env, capture_output=True, check=True)
    hook = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "host_harness", "-p", str(project), "recall", "--limit", "8", "--",
                    " ".join(prompt.split()[:6])], env=env, capture_output=True, check=True)
    return hook, (time.perf_counter() - start) * 1000, bool(done.stdout.strip())


def bench_cold(row: Row, stores: dict[int, Path], cache: Path) -> None:
    """The hook and the CLI as Claude Code and users run them: one new process per call.

    Sizes (and, at the largest, the scan of SQLite) take turns within each round, so a burst of
    load on a shared machine hits them alike; the first round (page cache, index builds) is not counted.
    """
    print(f"cold processes (realistic corpus; new process per call; sizes in turn; median of {COLD_RUNS}, "
          "min in brackets)")
    largest, smallest = max(stores), min(stores)
    cases = [(size, "auto") for size in sorted(stores)] + [(largest, "scan")]
    prompts = {size: corpus.queries(COLD_RUNS + 1, size, words=12, seed=17) for size in stores}
    hooks: dict[tuple[int, str], list[float]] = {case: [] for case in cases}
    recalls: dict[tuple[int, str], list[float]] = {case: [] for case in cases}
    injected: dict[tuple[int, str], bool] = dict.fromkeys(cases, False)
    for round_ in range(COLD_RUNS + 1):
        for size, mode in cases:
            hook, recall, said = cold_once(stores[size], environment(cache, mode), prompts[size][round_])
            if round_:
                hooks[(size, mode)].append(hook)
                recalls[(size, mode)].append(recall)
                injected[(size, mode)] |= said
    for size, mode in cases:
        label = "persisted index" if mode == "auto" else "scanning SQLite (before)"
        hook, recall = hooks[(size, mode)], recalls[(size, mode)]
        note = "" if injected[(size, mode)] else "injected nothing"
        row(f"cold hook at {size // 1000}k, {label}",
            f"{statistics.median(hook):.0f} ms ({min(hook):.0f})", note)
        row(f"cold recall CLI at {size // 1000}k, {label}",
            f"{statistics.median(recall):.0f} ms ({min(recall):.0f})")
    big, small = hooks[(largest, "auto")], hooks[(smallest, "auto")]
    row(f"cold hook {largest // 1000}k / {smallest // 1000}k, persisted index",
        f"{statistics.median(big) / statistics.median(small):.2f}x (mins {min(big) / min(small):.2f}x)",
        "<= 1.2x")


def pct(samples: list[float]) -> str:
    """``p50 / p95`` in ms."""
    ordered = sorted(samples)
    return f"{statistics.median(ordered):.1f} / {ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms"


def policies(cache: Path) -> dict[str, IndexPolicy]:
    """The three ways to search vectors, by name (exact bases get a cache folder of their own)."""
    return {
        "scan": IndexPolicy(None),
        "persisted exact": IndexPolicy(cache / "exact", approx_min=None),
        "persisted approximate": IndexPolicy(cache),
    }


def index_of(services: HostServices) -> VectorIndex:
    """The vector index of the project store (opened by a search)."""
    return services.stores[services.project.db_path][1]


def bench_warm(row: Row, runtime: Runtime, project: Path, size: int, cache: Path) -> None:
    """Warm ``recall`` through the component, by vector index."""
    print(f"warm recall through the component at {size // 1000}k (50 queries, limit 8)")
    queries = corpus.queries(51, size, words=6, seed=23)
    for name, policy in policies(cache).items():
        services = HostServices(project, index_policy=policy)
        guest: BaseGuest = WasmGuest(runtime, services)
        guest.dispatch("recall", json.dumps({"query": queries[0]}))
        samples = []
        for query in queries[1:]:
            start = time.perf_counter()
            guest.dispatch("recall", json.dumps({"query": query}))
            samples.append((time.perf_counter() - start) * 1000)
        row(f"warm recall p50 / p95 at {size // 1000}k, {name}", pct(samples))
        guest.close()
        services.close()


def bench_recall_at_10(row: Row, project: Path, size: int, cache: Path) -> None:
    """How much the approximate paths lose against exact search."""
    from guest.text.embed import EMBEDDER

    print(f"approximate vs exact at {size // 1000}k (200 vector queries, 100 hybrid recalls; "
          f"approximate from {IndexPolicy().approx_min:,} vectors)")
    queries = corpus.queries(200, size, words=8, seed=29)
    vectors = [EMBEDDER.embed(q) for q in queries]
    services = {name: HostServices(project, index_policy=p) for name, p in policies(cache).items()}
    ns = f"vectors/{EMBEDDER.id}"
    found: dict[str, list[list[str]]] = {}
    for name in ("persisted exact", "persisted approximate"):
        found[name] = [[key for key, _ in services[name].vec_search(ns, v, 50)] for v in vectors]
    exact, approx = found["persisted exact"], found["persisted approximate"]
    at10 = statistics.mean(len(set(a[:10]) & set(e[:10])) / 10 for a, e in zip(approx, exact, strict=True))
    at50 = statistics.mean(len(set(a) & set(e)) / 50 for a, e in zip(approx, exact, strict=True))
    row("vector recall@10 approximate vs exact", f"{at10:.4f}", ">= 0.98")
    row("vector recall@50 approximate vs exact", f"{at50:.4f}")
    hits = {}
    for name in ("persisted exact", "persisted approximate"):
        guest = NativeGuest(services[name])
        answers = [json.loads(guest.dispatch("recall", json.dumps({"query": q})))["data"]
                   for q in queries[:100]]
        hits[name] = [[hit["id"] for hit in answer] for answer in answers]
    pairs = zip(hits["persisted approximate"], hits["persisted exact"], strict=True)
    agree = statistics.mean(len(set(a) & set(e)) / max(len(e), 1) for a, e in pairs)
    row("hybrid recall top-8 agreement approximate vs exact", f"{agree:.4f}")
    for host in services.values():
        host.close()


def bench_crossover(row: Row, project: Path, cache: Path) -> None:
    """One vector search over n rows, exact vs approximate, to place the threshold."""
    from guest.text.embed import EMBEDDER

    print("vector search alone (host, warm, 50 queries, k = 50): exact vs sign-bit prefilter")
    services = HostServices(project, index_policy=policies(cache)["persisted exact"])
    queries = [np.asarray(EMBEDDER.embed(q), dtype=np.float32) for q in corpus.queries(50, 100_000, seed=31)]
    services.vec_search(f"vectors/{EMBEDDER.id}", queries[0].tolist(), 1)
    full = next(iter(index_of(services).snapshots.values())).base
    services.close()
    for n in (5_000, 10_000, 20_000, 50_000, 100_000):
        if n > full.size:
            break
        base = Base.make([full.key(i) for i in range(n)], np.asarray(full.rows[:n]), True)
        snap = Snapshot(EMPTY, base, base.rows.shape[1], {})
        timings: dict[str, list[float]] = {"exact": [], "approximate": []}
        results: dict[str, list[list[str]]] = {"exact": [], "approximate": []}
        for q in queries:
            for name, candidates in (("exact", None), ("approximate", 1000)):
                start = time.perf_counter()
                hits = snap.search(q, 50, {}, candidates)
                timings[name].append((time.perf_counter() - start) * 1000)
                results[name].append([key for key, _ in hits[:10]])
        at10 = statistics.mean(len(set(a) & set(e)) / 10
                               for a, e in zip(results["approximate"], results["exact"], strict=True))
        row(f"vector search at {n // 1000}k: exact / approximate",
            f"{statistics.median(timings['exact']):.2f} / {statistics.median(timings['approximate']):.2f} ms",
            f"recall@10 {at10:.3f}")


def bench_import(row: Row, project: Path, tmp: Path, cache: Path) -> None:
    """``rs-learn-host import`` rates: 10k lines, with and without vectors, component and native."""
    print("import (rs-learn-host import of the 10k store's export; new project each)")
    env = environment(cache, "auto", project)
    dump = tmp / "export.jsonl"
    with open(dump, "wb") as out:
        command = [sys.executable, "-m", "host_harness", "export", "--vectors"]
        subprocess.run(command, env=env, stdout=out, check=True)
    texts = tmp / "texts.jsonl"
    with open(dump, "rb") as source, open(texts, "w", encoding="utf-8") as out:
        for line in source:
            out.write(json.dumps({"text": json.loads(line)["text"]}) + "\n")
    lines = sum(1 for _ in open(dump, "rb"))
    for label, path in (("with vectors", dump), ("text only (embeds)", texts)):
        for target in ("component", "native"):
            fresh = tmp / f"import-{target}-{path.stem}"
            fresh.mkdir()
            flags = ["--native"] if target == "native" else []
            cmd = [sys.executable, "-m", "host_harness", *flags, "-p", str(fresh), "import", "--json",
                   str(path)]
            start = time.perf_counter()
            done = subprocess.run(cmd, env=env, capture_output=True, check=True, text=True)
            elapsed = time.perf_counter() - start
            counted = json.loads(done.stdout)
            row(f"import {lines // 1000}k lines {label}, {target}",
                f"{counted['imported'] / elapsed:,.0f} /s", ">= 2,000/s" if target == "component" else "")
