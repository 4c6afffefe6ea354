"""memorize: embed first, then write record, vector, doc number and postings.

Content-addressed: the id is a hash of namespace and text, so storing the same
text twice writes nothing the second time (``deduped``).
"""

from __future__ import annotations

from dataclasses import dataclass

from guest.host import Host, bucket
from guest.memory.records import Memory, Stats, memory_id
from guest.text import keywords
from guest.text.embed import StaticEmbedder, pack


@dataclass(frozen=True)
class Stored:
    """The outcome of one memorize."""

    id: str
    namespace: str
    deduped: bool


def memorize(
    host: Host,
    embedder: StaticEmbedder,
    text: str,
    namespace: str,
    source: str = "memorize",
    importance: float | None = None,
    context: str | None = None,
) -> Stored:
    """Store ``text`` in ``namespace`` (already validated) unless it is already there."""
    key = memory_id(namespace, text)
    memories = bucket(namespace, "memories")
    if host.kv_get(memories, key) is not None:
        return Stored(key, namespace, True)
    vector = embedder.embed(text)  # embed first: no text is ever stored without its vector
    record = Memory(
        id=key,
        text=text,
        namespace=namespace,
        ts=host.now_ms(),
        embedder=embedder.id,
        source=source,
        doc=0,
        importance=importance,
        context=context,
    )
    add(host, namespace, record, pack(vector))
    return Stored(key, namespace, False)


def add(host: Host, namespace: str, record: Memory, vector: bytes) -> None:
    """Write a new memory: its vector, the record under the store's next doc number, postings, stats.

    ``record.doc`` is set here. ``vector`` is the packed vector made by ``record.embedder``.
    """
    meta = bucket(namespace, "meta")
    stats = Stats.decode(host.kv_get(meta, "stats"))
    words = keywords.terms(record.text)
    record.doc = stats.docs
    host.kv_put(bucket(namespace, f"vectors/{record.embedder}"), record.id, vector)
    host.kv_put(bucket(namespace, "memories"), record.id, record.encode())
    host.kv_put(bucket(namespace, "docs"), f"{record.doc:010d}", record.id.encode("utf-8"))
    keywords.index_document(host, bucket(namespace, "terms"), record.doc, words)
    stats.docs += 1
    stats.tokens += len(words)
    stats.embedder = stats.embedder or record.embedder
    host.kv_put(meta, "stats", stats.encode())
