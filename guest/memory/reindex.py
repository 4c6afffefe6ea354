"""reindex: re-embed a store whose vectors came from another embedder.

Every vector is stored under ``vectors/<embedder id>`` and the store's stats name
the embedder that wrote them. When the model changes (a new ``models/`` build
has a new id), recall notices the mismatch, logs it and recalls by keywords
only; ``reindex`` re-embeds every memory with the current embedder, rewrites
the records' ``embedder`` field, deletes the old vectors and updates the stats.
One export call, so one transaction: a failure leaves the store as it was.

``reindex {rebuild: true}`` first rebuilds the keyword side from the ``memories`` bucket
(:func:`rebuild`): doc numbers, postings and stats. A git merge needs it (two branches
number their documents independently), and it repairs a store whose index was damaged.
"""

from __future__ import annotations

from guest.host import INFO, Host, bucket
from guest.memory.records import Memory, Stats
from guest.text import keywords
from guest.text.embed import StaticEmbedder, pack


def reindex(host: Host, embedder: StaticEmbedder, namespace: str) -> dict[str, object]:
    """Re-embed every memory of ``namespace``'s store; report what changed."""
    meta = bucket(namespace, "meta")
    stats = Stats.decode(host.kv_get(meta, "stats"))
    memories = host.kv_query(bucket(namespace, "memories"), "", 0)
    target = bucket(namespace, f"vectors/{embedder.id}")
    stale: set[str] = set()
    rewritten = 0
    for key, raw in memories:
        memory = Memory.decode(raw)
        if memory.embedder != embedder.id or host.kv_get(target, key) is None:
            stale.add(memory.embedder)
            host.kv_put(target, key, pack(embedder.embed(memory.text)))
            memory.embedder = embedder.id
            host.kv_put(bucket(namespace, "memories"), key, memory.encode())
            rewritten += 1
    for old in sorted(stale | ({stats.embedder} if stats.embedder else set())):
        if old != embedder.id:
            for key, _ in host.kv_query(bucket(namespace, f"vectors/{old}"), "", 0):
                host.kv_put(bucket(namespace, f"vectors/{old}"), key, b"")
    previous = stats.embedder or None
    if memories and stats.embedder != embedder.id:
        stats.embedder = embedder.id
        host.kv_put(meta, "stats", stats.encode())
    host.log(INFO, f"reindex {namespace}: {rewritten} of {len(memories)} memories re-embedded")
    return {
        "namespace": namespace,
        "memories": len(memories),
        "reembedded": rewritten,
        "previous_embedder": previous,
        "embedder": embedder.id,
    }


def rebuild(host: Host, namespace: str) -> dict[str, int]:
    """Renumber the memories densely (in their current doc order, then by id) and rebuild the index.

    Writes the ``doc`` of each record that moves, the ``docs`` map, the ``terms`` postings (through
    :func:`guest.text.keywords.rebuild`) and the stats; on a consistent store it writes nothing.
    Vectors are :func:`reindex`'s business.
    """
    records_ns, docs_ns, meta = (bucket(namespace, name) for name in ("memories", "docs", "meta"))
    memories = sorted(
        (Memory.decode(raw) for _, raw in host.kv_query(records_ns, "", 0)), key=lambda m: (m.doc, m.id)
    )
    wanted = {f"{doc:010d}": memory.id for doc, memory in enumerate(memories)}
    for key, _ in host.kv_query(docs_ns, "", 0):
        if key not in wanted:
            host.kv_put(docs_ns, key, b"")
    documents: list[tuple[int, list[str]]] = []
    for doc, memory in enumerate(memories):
        if memory.doc != doc:
            memory.doc = doc
            host.kv_put(records_ns, memory.id, memory.encode())
        host.kv_put(docs_ns, f"{doc:010d}", memory.id.encode("utf-8"))
        documents.append((doc, keywords.terms(memory.text)))
    terms = keywords.rebuild(host, bucket(namespace, "terms"), documents)
    raw = host.kv_get(meta, "stats")
    stats = Stats.decode(raw)
    stats.docs, stats.tokens = len(memories), sum(len(words) for _, words in documents)
    if memories:
        stats.embedder = stats.embedder or memories[0].embedder
    if raw is not None or memories:
        host.kv_put(meta, "stats", stats.encode())
    return {"memories": len(memories), "terms": terms}
