"""reindex: re-embed a store whose vectors came from another embedder.

Every vector is stored under ``vectors/<embedder id>`` and the store's stats name
the embedder that wrote them. When the model changes (a new ``models/`` build
has a new id), recall notices the mismatch, logs it and recalls by keywords
only; ``reindex`` re-embeds every memory with the current embedder, rewrites
the records' ``embedder`` field, deletes the old vectors and updates the stats.
One export call, so one transaction: a failure leaves the store as it was.

``reindex {rebuild: true}`` first rebuilds the keyword side from the ``memories`` bucket
(:func:`rebuild`): doc numbers, postings and stats; it repairs a store whose index was damaged,
and moves a store of an older terms version to the current one (:mod:`guest.memory.rules`).
:func:`remove` deletes memories and keeps that index exact without rebuilding it (a git merge
honours a deletion made on another branch with it).
"""

from __future__ import annotations

from guest.host import INFO, Host, bucket
from guest.index import keywords
from guest.index.postings import length
from guest.memory import cites, rules, timeline
from guest.memory.records import Memory, Stats, write_stats
from guest.text.embed import StaticEmbedder, pack


def reindex(host: Host, embedder: StaticEmbedder, namespace: str) -> dict[str, object]:
    """Re-embed every memory of ``namespace``'s store; report what changed."""
    meta = bucket(namespace, "meta")
    before = host.kv_get(meta, "stats")
    stats = Stats.decode(before)
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
        write_stats(host, namespace, before, stats)
    host.log(INFO, f"reindex {namespace}: {rewritten} of {len(memories)} memories re-embedded")
    return {
        "namespace": namespace,
        "memories": len(memories),
        "reembedded": rewritten,
        "previous_embedder": previous,
        "embedder": embedder.id,
    }


def rebuild(host: Host, namespace: str, upgrade: bool = False) -> dict[str, int]:
    """Renumber the memories densely (in their current doc order, then by id) and rebuild the index.

    Writes the ``doc`` of each record that moves, the ``docs`` map, the ``terms`` postings (through
    :func:`guest.index.keywords.rebuild`; the newest documents stay in the pending list if it holds
    them and is not stale) and the stats; on a consistent store it writes nothing. The terms follow
    the store's terms version, or the current one with ``upgrade``. Vectors are :func:`reindex`'s
    business.
    """
    records_ns, docs_ns, meta = (bucket(namespace, name) for name in ("memories", "docs", "meta"))
    memories = sorted(
        (Memory.decode(raw) for _, raw in host.kv_query(records_ns, "", 0)), key=lambda m: (m.doc, m.id)
    )
    wanted = {f"{doc:010d}": memory.id for doc, memory in enumerate(memories)}
    for key, _ in host.kv_query(docs_ns, "", 0):
        if key not in wanted:
            host.kv_put(docs_ns, key, b"")
    raw = host.kv_get(meta, "stats")
    stats = Stats.decode(raw)
    if upgrade:
        stats.terms = rules.CURRENT
    rules.check(namespace, stats.terms)
    documents: list[tuple[int, list[str]]] = []
    for doc, memory in enumerate(memories):
        if memory.doc != doc:
            memory.doc = doc
            host.kv_put(records_ns, memory.id, memory.encode())
        host.kv_put(docs_ns, f"{doc:010d}", memory.id.encode("utf-8"))
        documents.append((doc, rules.document(memory, stats.terms)))
    terms_ns = bucket(namespace, "terms")
    held = len(keywords.read_pending(host, terms_ns, stats.docs, stats.tokens))  # they stay pending
    stats.docs, stats.tokens = len(memories), sum(length(words) for _, words in documents)
    terms = keywords.rebuild(host, terms_ns, documents, held, keywords.mark(stats.docs, stats.tokens))
    if memories:
        stats.embedder = stats.embedder or memories[0].embedder
    if raw is not None or memories:
        write_stats(host, namespace, raw, stats, rebuilt=True)
    return {"memories": len(memories), "terms": terms}


def remove(host: Host, namespace: str, ids: list[str]) -> int:
    """Delete memories (record, vector, timeline entry); keep the keyword index exact, doc numbers dense.

    The pending list is indexed first. The last documents move into the freed numbers, so only the
    postings of the terms of the removed and the moved memories are rewritten: the store ends up as
    :func:`rebuild` would leave it. Returns how many memories were removed.
    """
    names = ("memories", "docs", "meta", "terms")
    records_ns, docs_ns, meta, terms_ns = (bucket(namespace, name) for name in names)
    found = _stored(host, records_ns, ids)
    if not found:
        return 0
    before = host.kv_get(meta, "stats")
    stats = Stats.decode(before)
    rules.check(namespace, stats.terms)
    if not keywords.settle(host, terms_ns, keywords.mark(stats.docs, stats.tokens)):
        rebuild(host, namespace)  # a stale pending list: an older engine wrote past it
        found = _stored(host, records_ns, list(found))  # read again: renumbered
        before = host.kv_get(meta, "stats")
        stats = Stats.decode(before)
    gone: dict[int, Memory] = {}
    for key, raw in found.items():
        memory = Memory.decode(raw)
        gone[memory.doc] = memory
        host.kv_put(records_ns, key, b"")
        host.kv_put(bucket(namespace, f"vectors/{memory.embedder}"), key, b"")
        if memory.files:
            cites.drop(host, namespace, key)
        timeline.drop(host, namespace, memory.seq)
    size = stats.docs - len(gone)
    holes = sorted(doc for doc in gone if doc < size)
    movers = [doc for doc in range(size, stats.docs) if doc not in gone]
    moved: dict[int, int] = dict(zip(movers, holes, strict=True))
    touched = list(gone.values())
    for old, new in moved.items():
        key = (host.kv_get(docs_ns, f"{old:010d}") or b"").decode("utf-8")
        memory = Memory.decode(host.kv_get(records_ns, key) or b"null")
        memory.doc = new
        host.kv_put(records_ns, key, memory.encode())
        host.kv_put(docs_ns, f"{new:010d}", key.encode("utf-8"))
        touched.append(memory)
    for doc in range(size, stats.docs):
        host.kv_put(docs_ns, f"{doc:010d}", b"")
    for term in sorted({term for memory in touched for term in rules.document(memory, stats.terms)}):
        plist = keywords.postings(host, terms_ns, term)
        kept = [(moved.get(doc, doc), tf, n) for doc, tf, n in plist if doc not in gone]
        keywords.set_postings(host, terms_ns, term, kept)
    stats.docs = size
    stats.tokens -= sum(length(rules.document(memory, stats.terms)) for memory in gone.values())
    write_stats(host, namespace, before, stats)
    return len(gone)


def _stored(host: Host, records_ns: str, ids: list[str]) -> dict[str, bytes]:
    """The stored records of those of ``ids`` that exist, by id."""
    return {key: raw for key in ids if (raw := host.kv_get(records_ns, key)) is not None}
