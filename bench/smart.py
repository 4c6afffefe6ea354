"""Cranfield and CISI through the engine: each channel, the hook's query strategies, every variant.

Every document is memorized (one second apart, from :data:`EPOCH_MS`) and every judged query
recalled through the engine, the harness's real SQLite store and vector index: the static vector
channel alone, the keyword (BM25) channel alone and the fused hybrid recall, then ``auto_recall``
with each query strategy (no relevance gate, an unbounded budget). Each variant of
:mod:`bench.variants` recalls as the hybrid row does, with its changes. A document is ranked
where its memory is (identical documents share a memory and its rank). It also checks, on every
query, that the keyword channel's pruned top-k (``guest/index/topk.py``) is exactly exhaustive
BM25's: the same documents, order and floats.
"""

from __future__ import annotations

from typing import Any

from bench import datasets, metrics
from bench.project import Memory, Project
from bench.runner import K, Store, Targets, opened, p50
from bench.variants import DEFAULT, Variant, applied
from guest.index import keywords, postings, topk
from guest.memory.records import Stats

MODES = ("vector", "keyword", "hybrid")
STRATEGIES = ("derived", "full", "both", "auto")  # auto_recall query strategies (the hook)
EPOCH_MS = 1_700_000_000_000
REFERENCE = {
    "all-MiniLM-L6-v2 transformer (reference)": {"cranfield": 0.401, "cisi": 0.427},
    "static model2vec (reference)": {"cranfield": 0.288, "cisi": 0.291},
    "BM25 (reference)": {"cranfield": 0.351, "cisi": 0.332},
    "RRF static+BM25 (reference)": {"cranfield": 0.358, "cisi": 0.318},
}


def as_project(coll: datasets.Collection) -> Project:
    """The collection's non-empty documents as memories (no prompts: :func:`evaluate` asks)."""
    docs = [(doc_id, text) for doc_id, text in coll.docs.items() if text.strip()]
    return Project(coll.name, [Memory(d, t, EPOCH_MS + i * 1000) for i, (d, t) in enumerate(docs)], [])


def evaluate(
    coll: datasets.Collection, targets: Targets, target: str, variants: list[Variant]
) -> dict[str, Any]:
    """Memorize the collection in a fresh project; score every mode, strategy and variant."""
    out: dict[str, Any] = {"variants": {}}
    shared = [v for v in variants if not v.index]
    groups = [(DEFAULT, shared)] if shared else []
    groups += [(v, [v]) for v in variants if v.index]
    for built_with, asked in groups:
        with opened(as_project(coll), targets, target, built_with) as store:
            if DEFAULT in asked:
                out["pruning"] = pruned_equals_exhaustive(store, coll)
                for mode in MODES:
                    out[mode] = run(store, coll, "recall", {"mode": mode})
                for strategy in STRATEGIES:
                    body = {"strategy": strategy, "gate": False, "budget_tokens": 100_000}
                    out[f"hook:{strategy}"] = run(store, coll, "auto_recall", body)
            for variant in asked:
                if variant is DEFAULT:
                    out["variants"][variant.name] = out["hybrid"]  # the same bodies: asked once
                    continue
                with applied(variant):
                    out["variants"][variant.name] = run(store, coll, "recall", dict(variant.recall))
    return out


def run(store: Store, coll: datasets.Collection, verb: str, extra: dict[str, Any]) -> dict[str, float]:
    """Mean nDCG, R and hit @10 over the judged queries, and the median call time."""
    owners: dict[str, list[str]] = {}
    for doc_id, memory_id in store.ids.items():
        owners.setdefault(memory_id, []).append(doc_id)
    rows, times = [], []
    for qid, query in coll.queries:
        gains = coll.qrels.get(qid)
        if not gains:
            continue
        field = "query" if verb == "recall" else "prompt"
        data, cost = store.ask(verb, {field: query, "limit": K, **extra})
        times.append(cost)
        hits = data if verb == "recall" else data["hits"]
        ranked = [d for hit in hits for d in owners[hit["id"]]]
        rows.append((metrics.ndcg(ranked, gains, K), metrics.recall_at(ranked, gains, K),
                     metrics.hit_at(ranked, gains, K)))
    n = len(rows)
    figures = {name: sum(r[i] for r in rows) / n for i, name in enumerate(("ndcg", "recall", "hit"))}
    return {**figures, "queries": n, "cpu_ms_p50": p50([c.cpu_ms for c in times]),
            "wall_ms_p50": p50([c.wall_ms for c in times])}


def pruned_equals_exhaustive(store: Store, coll: datasets.Collection) -> dict[str, float]:
    """On how many queries the pruned keyword top 10 and top 50 equal exhaustive BM25's, exactly."""
    services = store.services
    services.begin()
    try:
        raw = services.kv_get("meta", "stats")
        stats = Stats.decode(raw)
        trusted = postings.guard_ok(services, "meta", raw)
        same = 0
        for _, query in coll.queries:
            terms = keywords.terms(query)
            every = topk.scores(terms, lambda t: keywords.postings(services, "terms", t),
                                stats.docs, stats.tokens)
            ranked = sorted(every.items(), key=lambda p: (-p[1], p[0]))
            same += all(topk.search(services, "terms", terms, stats.docs, stats.tokens, k, None, trusted)
                        == ranked[:k] for k in (10, 50))
    finally:
        services.rollback()
    return {"same": same, "queries": len(coll.queries)}
