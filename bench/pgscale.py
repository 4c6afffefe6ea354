"""Issue 13b rows: the PostgreSQL + pgvector store beside the SQLite one, on the realistic corpus.

* the cold hook and ``recall`` CLI (new processes) at the largest size on PostgreSQL;
* warm recall p50 / p95 through the component at the largest size, on PostgreSQL (HNSW above
  ``APPROX_MIN`` vectors, and exact), to put beside the SQLite rows of ``bench/scale.py``;
* one vector search alone (k = 50, what the guest asks for), exact and HNSW, at 10k and the
  largest size, with recall@10 / @50 of HNSW against exact;
* ``rs-learn-host import`` of 10k lines with vectors into PostgreSQL.

The PostgreSQL stores are the SQLite stores of the same run copied row for row (``COPY``; the HNSW
index built once after loading, as ``CREATE INDEX`` on a loaded table does): the same memories,
postings and vectors. A throwaway server from ``pgserver`` (``host_harness/store/pg/cluster.py``), durable
settings (fsync on).

    python -m bench --postgresql     # only these rows (builds the 10k and 100k stores first)
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import subprocess
import sys
import time
import uuid
from contextlib import closing
from pathlib import Path

import numpy as np

from bench import corpus
from bench.scale import COLD_RUNS, Row, cold_once, environment, pct
from host_harness.config import StoreChoice
from host_harness.services import HostServices
from host_harness.store import tracked
from host_harness.store.pg import schema
from host_harness.store.pg.connect import connect
from host_harness.store.pg.kv import PgKV, PgSession, vector_columns
from host_harness.store.pg.vectors import APPROX_MIN, PgSearchPolicy, PgVectorIndex
from host_harness.targets.component import WasmGuest
from host_harness.targets.runtime import Runtime
from host_harness.vectors import IndexPolicy


def replicate(source: Path, url: str, target: Path) -> StoreChoice:
    """Copy ``source``'s SQLite project store into a new PostgreSQL project; ``target`` is its checkout."""
    project_id = f"bench-{uuid.uuid4().hex[:8]}"
    target.mkdir()
    (target / ".gm").mkdir()
    (target / ".gm" / "config.json").write_text(json.dumps({"store": url, "project": project_id}))
    conn = connect(url)
    hnsw = next(s for s in schema.MIGRATIONS[0] if "USING hnsw" in s)
    conn.execute(f"DROP INDEX IF EXISTS rs_learn_kv_hnsw_{schema.HNSW_DIM}")
    counts: dict[str, int] = {}
    with closing(sqlite3.connect(source / ".gm" / "rs-learn.db")) as db, conn.cursor() as cursor:
        columns = "project, discipline, ns, key, value, dim, vec"
        with cursor.copy(f"COPY rs_learn_kv ({columns}) FROM STDIN") as copy:
            for ns, key, value in db.execute("SELECT ns, key, value FROM kv"):
                dim, vec = vector_columns(ns, bytes(value))
                copy.write_row((project_id, "", ns, key, bytes(value), dim, vec))
                if tracked(ns):
                    counts[ns] = counts.get(ns, 0) + 1
    for ns, entries in counts.items():
        conn.execute("INSERT INTO rs_learn_vector_counts VALUES (%s, '', %s, %s)", (project_id, ns, entries))
    conn.execute("INSERT INTO rs_learn_stores VALUES (%s, '')", (project_id,))
    conn.execute("INSERT INTO rs_learn_projects VALUES (%s, 1)", (project_id,))
    # The HNSW build is fast only while its graph fits in maintenance_work_mem (~2.5 KB a vector here);
    # past that it slowed from ~50k to ~6k rows a minute at 1M.
    vectors = sum(counts.values())
    conn.execute(f"SET maintenance_work_mem = '{max(1, -(-vectors * 4 // 1_000_000))}GB'")
    conn.execute(hnsw)
    conn.execute("ANALYZE rs_learn_kv")
    conn.close()
    return StoreChoice(url, project_id)


def bench_pg_warm(row: Row, runtime: Runtime, checkout: Path, size: int) -> None:
    """Warm ``recall`` through the component on PostgreSQL, HNSW and exact."""
    print(f"warm recall through the component at {size // 1000}k on PostgreSQL (50 queries, limit 8)")
    queries = corpus.queries(51, size, words=6, seed=23)
    for name, policy in (("HNSW", IndexPolicy(None)), ("exact", IndexPolicy(None, approx_min=None))):
        services = HostServices(checkout, index_policy=policy)
        guest = WasmGuest(runtime, services)
        guest.dispatch("recall", json.dumps({"query": queries[0]}))
        samples = []
        for query in queries[1:]:
            start = time.perf_counter()
            envelope = json.loads(guest.dispatch("recall", json.dumps({"query": query})))
            samples.append((time.perf_counter() - start) * 1000)
            assert envelope["ok"], envelope
        row(f"warm recall p50 / p95 at {size // 1000}k, PostgreSQL {name}", pct(samples),
            f"approximate from {APPROX_MIN // 1000}k vectors" if name == "HNSW" else "")
        guest.close()
        services.close()


def bench_pg_cold(row: Row, checkout: Path, size: int, cache: Path) -> None:
    """The prompt-submit hook and the ``recall`` CLI as new processes on the PostgreSQL store."""
    print(f"cold processes at {size // 1000}k on PostgreSQL (new process per call, median of {COLD_RUNS})")
    prompts = corpus.queries(COLD_RUNS + 1, size, words=12, seed=17)
    hooks, recalls, injected = [], [], False
    for round_, prompt in enumerate(prompts):
        hook, recall, said = cold_once(checkout, environment(cache, "auto"), prompt)
        if round_:
            hooks.append(hook)
            recalls.append(recall)
            injected |= said
    row(f"cold hook at {size // 1000}k, PostgreSQL", f"{statistics.median(hooks):.0f} ms ({min(hooks):.0f})",
        "" if injected else "injected nothing")
    row(f"cold recall CLI at {size // 1000}k, PostgreSQL",
        f"{statistics.median(recalls):.0f} ms ({min(recalls):.0f})")


def bench_pg_vectors(row: Row, choice: StoreChoice, size: int) -> None:
    """One vector search (k = 50) alone: exact vs HNSW, and HNSW's recall against exact."""
    from guest.text.embed import EMBEDDER

    assert choice.url is not None and choice.project_id is not None
    print(f"vector search alone on PostgreSQL at {size // 1000}k (200 queries, k = 50): exact vs HNSW")
    session = PgSession(choice.url, choice.project_id)
    store = PgKV(session, "")
    ns = f"vectors/{EMBEDDER.id}"
    indexes = {"exact": PgVectorIndex(store, PgSearchPolicy(approx_min=None)),
               "HNSW": PgVectorIndex(store, PgSearchPolicy(approx_min=0))}
    vectors = [EMBEDDER.embed(q) for q in corpus.queries(200, size, words=8, seed=29)]
    found: dict[str, list[list[str]]] = {name: [] for name in indexes}
    timings: dict[str, list[float]] = {name: [] for name in indexes}
    for vector in vectors:
        for name, index in indexes.items():
            start = time.perf_counter()
            hits = index.search(ns, vector, 50)
            timings[name].append((time.perf_counter() - start) * 1000)
            found[name].append([key for key, _ in hits])
            store.rollback()  # one transaction per search, as in a call
    exact, approx = found["exact"], found["HNSW"]
    at10 = statistics.mean(len(set(a[:10]) & set(e[:10])) / 10 for a, e in zip(approx, exact, strict=True))
    at50 = statistics.mean(len(set(a) & set(e)) / 50 for a, e in zip(approx, exact, strict=True))
    row(f"PostgreSQL vector search at {size // 1000}k: exact / HNSW",
        f"{statistics.median(timings['exact']):.2f} / {statistics.median(timings['HNSW']):.2f} ms",
        f"HNSW recall@10 {at10:.4f}, @50 {at50:.4f} (>= 0.98)")
    session.close()


def bench_pg_import(row: Row, source: Path, url: str, tmp: Path, cache: Path) -> None:
    """``rs-learn-host import`` of a 10k store's export (with vectors) into a new PostgreSQL project."""
    env = environment(cache, "auto", source)
    dump = tmp / "pg-export.jsonl"
    with open(dump, "wb") as out:
        subprocess.run([sys.executable, "-m", "host_harness", "export", "--vectors"], env=env, stdout=out,
                       check=True)
    lines = sum(1 for _ in open(dump, "rb"))
    target = tmp / "pg-import"
    target.mkdir()
    (target / ".gm").mkdir()
    config = {"store": url, "project": f"imp-{uuid.uuid4().hex[:8]}"}
    (target / ".gm" / "config.json").write_text(json.dumps(config))
    command = [sys.executable, "-m", "host_harness", "-p", str(target), "import", "--json", str(dump)]
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, check=True, text=True)
    elapsed = time.perf_counter() - start
    row(f"import {lines // 1000}k lines with vectors into PostgreSQL, component",
        f"{json.loads(done.stdout)['imported'] / elapsed:,.0f} /s", ">= 2,000/s")


def bench_postgresql(row: Row, runtime: Runtime, stores: dict[int, Path], tmp: Path, cache: Path) -> None:
    """Every PostgreSQL row (a throwaway server for the run)."""
    from host_harness.store.pg.cluster import Cluster

    largest = max(stores)
    with Cluster(durable=True) as cluster:
        url = cluster.create_database("rs_learn_bench")
        copies = {}
        for size in sorted(stores):
            if size < 10_000:
                continue
            start = time.perf_counter()
            copies[size] = (tmp / f"pg-{size}", replicate(stores[size], url, tmp / f"pg-{size}"))
            took = time.perf_counter() - start
            print(f"    (copied the {size // 1000}k store into PostgreSQL in {took:.0f} s)")
        bench_pg_cold(row, copies[largest][0], largest, cache)
        bench_pg_warm(row, runtime, copies[largest][0], largest)
        for size, (_, choice) in sorted(copies.items()):
            bench_pg_vectors(row, choice, size)
        if 10_000 in stores:
            bench_pg_import(row, stores[10_000], url, tmp, cache)
    print(f"(PostgreSQL: approximate from {APPROX_MIN:,} vectors; numpy {np.__version__})")
