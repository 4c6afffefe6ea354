"""`make eval`: recall quality on Cranfield and CISI through the real engine.

Every document is memorized and every query recalled through the engine and
the harness's real SQLite store and vector index, in three modes: the static
vector channel alone, the keyword (BM25) channel alone, and the fused hybrid
recall. ``--target wasm`` runs the built component instead of the native guest
(same numbers, slower). Prints a table; reference rows come from
``../shared/datasets/README.md``. It also checks, on every query, that the keyword channel's pruned
top-k (``guest/text/topk.py``) is exactly exhaustive BM25's: the same documents, order and floats.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from bench import datasets, metrics
from guest.memory.records import Stats
from guest.text import keywords, postings, topk
from host_harness.guests.base import BaseGuest
from host_harness.services import HostServices

MODES = ("vector", "keyword", "hybrid")
STRATEGIES = ("derived", "full", "both", "auto")  # auto_recall query strategies (the hook)
REFERENCE = {
    "all-MiniLM-L6-v2 transformer (reference)": {"cranfield": 0.401, "cisi": 0.427},
    "static model2vec (reference)": {"cranfield": 0.288, "cisi": 0.291},
    "BM25 (reference)": {"cranfield": 0.351, "cisi": 0.332},
    "RRF static+BM25 (reference)": {"cranfield": 0.358, "cisi": 0.318},
}


def make_guest(target: str, services: HostServices, wasm: Path) -> BaseGuest:
    """A native or wasm guest over ``services``."""
    if target == "native":
        from host_harness.guests.native import NativeGuest

        return NativeGuest(services)
    from host_harness.guests.component import WasmGuest
    from host_harness.guests.runtime import Runtime

    return WasmGuest(Runtime.load(wasm), services)


def evaluate(coll: datasets.Collection, target: str, wasm: Path, k: int = 10) -> dict[str, dict[str, float]]:
    """Memorize the collection in a fresh project and score every mode."""
    with tempfile.TemporaryDirectory(prefix=f"rs-learn-eval-{coll.name}-") as tmp:
        services = HostServices(Path(tmp))
        guest = make_guest(target, services, wasm)
        owners: dict[str, list[str]] = {}
        start = time.perf_counter()
        for doc_id, text in coll.docs.items():
            if text.strip():
                data = json.loads(guest.dispatch("memorize", json.dumps({"text": text})))["data"]
                owners.setdefault(data["id"], []).append(doc_id)
        print(
            f"  {coll.name}: memorized {len(coll.docs)} docs in {time.perf_counter() - start:.1f}s",
            file=sys.stderr,
        )
        out: dict[str, dict[str, float]] = {"pruning": pruned_equals_exhaustive(services, coll)}
        runs = [(m, "recall", {"mode": m}) for m in MODES]
        runs += [
            (f"hook:{s}", "auto_recall", {"strategy": s, "gate": False, "budget_tokens": 100_000})
            for s in STRATEGIES
        ]
        for mode, verb, extra in runs:
            rows = []
            for qid, query in coll.queries:
                gains = coll.qrels.get(qid)
                if not gains:
                    continue
                field = "query" if verb == "recall" else "prompt"
                body = json.dumps({field: query, "limit": k, **extra})
                envelope = json.loads(guest.dispatch(verb, body))
                if not envelope["ok"]:
                    raise SystemExit(f"{verb} failed: {envelope['error']}")
                data = envelope["data"]
                hits = data if verb == "recall" else data["hits"]
                ranked = [d for hit in hits for d in owners[hit["id"]]]
                rows.append(
                    (
                        metrics.ndcg(ranked, gains, k),
                        metrics.recall_at(ranked, gains, k),
                        metrics.hit_at(ranked, gains, k),
                    )
                )
            n = len(rows)
            out[mode] = {
                name: sum(r[i] for r in rows) / n for i, name in enumerate(("ndcg", "recall", "hit"))
            }
            out[mode]["queries"] = n
        guest.close()
        services.close()
        return out


def pruned_equals_exhaustive(services: HostServices, coll: datasets.Collection) -> dict[str, float]:
    """On how many queries the pruned keyword top 10 and top 50 equal exhaustive BM25's, exactly."""
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


def main() -> None:
    """Print the quality table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--target", choices=("native", "wasm"), default="native")
    parser.add_argument("--wasm", type=Path, default=Path("dist/rs_learn.wasm"))
    parser.add_argument("--datasets", type=Path, default=datasets.DATASETS_DIR)
    args = parser.parse_args()
    if not datasets.available(args.datasets):
        print(f"skipped: the retrieval datasets are not at {args.datasets}")
        return
    results = {
        c.name: evaluate(c, args.target, args.wasm)
        for c in (datasets.cranfield(args.datasets), datasets.cisi(args.datasets))
    }
    print(f"\nRecall quality ({args.target} target; @10; nDCG / R / hit)\n")
    print("| system | Cranfield nDCG | R | hit | CISI nDCG | R | hit |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    names = {
        "vector": "rs-learn vector channel (static int8)",
        "keyword": "rs-learn keyword channel (BM25+stem)",
        "hybrid": "rs-learn hybrid recall (fused)",
    }
    for mode in MODES:
        cells = []
        for coll in ("cranfield", "cisi"):
            r = results[coll][mode]
            cells += [f"{r['ndcg']:.3f}", f"{r['recall']:.3f}", f"{r['hit']:.3f}"]
        print(f"| {names[mode]} | " + " | ".join(cells) + " |")
    for name, ref in REFERENCE.items():
        print(f"| {name} | {ref['cranfield']:.3f} | | | {ref['cisi']:.3f} | | |")
    print("\nAuto-recall (prompt-submit hook) query strategies, nDCG@10, no relevance gate:\n")
    print("| strategy | Cranfield | CISI |\n|---|---:|---:|")
    labels = {
        "derived": "2-6 word derived query only",
        "full": "full prompt only",
        "both": "derived + full prompt when short (merged)",
        "auto": "full prompt when short (<= 200 words), else derived (default)",
    }
    for strategy in STRATEGIES:
        c, i = (results[x][f"hook:{strategy}"]["ndcg"] for x in ("cranfield", "cisi"))
        print(f"| {labels[strategy]} | {c:.3f} | {i:.3f} |")
    transformer = REFERENCE["all-MiniLM-L6-v2 transformer (reference)"]
    gaps = {c: results[c]["hybrid"]["ndcg"] - transformer[c] for c in ("cranfield", "cisi")}
    print(f"\nhybrid - transformer nDCG@10: Cranfield {gaps['cranfield']:+.3f}, CISI {gaps['cisi']:+.3f}")
    for coll in ("cranfield", "cisi"):
        r = results[coll]
        same, total = int(r["pruning"]["same"]), int(r["pruning"]["queries"])
        print(f"{coll}: pruned keyword top 10 / 50 = exhaustive BM25 on {same} of {total} queries"
              + ("" if same == total else "  <- DIFFERENT"))
        beats = r["hybrid"]["ndcg"] > max(r["vector"]["ndcg"], r["keyword"]["ndcg"])
        print(f"{coll}: hybrid beats both channels alone: {'yes' if beats else 'NO'}")


if __name__ == "__main__":
    main()
