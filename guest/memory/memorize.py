"""memorize: embed first, then write record, vector, doc number, timeline entry and postings.

Content-addressed: the id is a hash of namespace and text, so storing the same
text twice writes nothing the second time (``deduped``). A text that was forgotten
is stored again, as new, and its tombstone deleted (:mod:`guest.memory.tombstones`).
The project files the text names are recorded with their digests (:mod:`guest.memory.freshness`).
:func:`write` stores new memories in bulk (``import`` uses it): one read and one write of
each keyword head and of each store's stats per batch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from guest.host import Host, bucket
from guest.index import keywords
from guest.index.postings import length
from guest.memory import cites, freshness, rules, timeline, tombstones
from guest.memory.origin import FIELD as ORIGIN
from guest.memory.records import Memory, Stats, memory_id, write_stats
from guest.memory.reindex import rebuild
from guest.screening.screen import APPROVED, quarantine_of, quarantined
from guest.text.embed import StaticEmbedder, pack


@dataclass(frozen=True)
class Stored:
    """The outcome of one memorize."""

    id: str
    namespace: str
    deduped: bool
    quarantined: str | None = None  # why the stored memory is quarantined (not approved)
    approved: bool = False  # someone approved the stored memory
    record: Memory | None = field(default=None, compare=False)  # as stored: written, or found (deduped)


@dataclass(frozen=True)
class Known:
    """A memory's id and its stored record as the caller read them (``raw`` ``None``: not stored)."""

    id: str
    raw: bytes | None

    @classmethod
    def read(cls, host: Host, namespace: str, text: str) -> Known:
        """The id of ``text`` in ``namespace``'s store and its record there, read once."""
        key = memory_id(namespace, text)
        return cls(key, host.kv_get(bucket(namespace, "memories"), key))


def memorize(
    host: Host,
    embedder: StaticEmbedder,
    text: str,
    namespace: str,
    source: str = "memorize",
    importance: float | None = None,
    context: str | None = None,
    quarantine: str | None = None,
    vector: list[float] | None = None,
    ts: int | None = None,
    captured: dict[str, Any] | None = None,
    known: Known | None = None,
    origin: dict[str, Any] | None = None,
) -> Stored:
    """Store ``text`` in ``namespace`` (already validated) unless it is already there.

    ``quarantine``: why the text reads as an instruction aimed at the agent; a new memory is
    stored quarantined. A stored one keeps its own state, which the answer reports.
    ``vector``: the text's embedding when the caller computed it already. ``ts``: when it was said
    (epoch ms, validated), for an import of old notes; the host clock's now by default. ``known``:
    the id and stored record when the caller read them already (:meth:`Known.read`). ``captured``:
    the provenance of a memory found in an agent's session (``guest/capture/verbs.py``). ``origin``:
    where the text came from (:mod:`guest.memory.origin`), kept with a new record.
    """
    known = known or Known.read(host, namespace, text)
    key, raw = known.id, known.raw
    if raw is not None:
        found = Memory.decode(raw)
        marks = found.extra
        return Stored(key, namespace, True, quarantine_of(marks), bool(marks.get(APPROVED)), record=found)
    if vector is None:
        vector = embedder.embed(text)  # embed first: no text is ever stored without its vector
    extra = quarantined(quarantine) if quarantine else {}
    if captured is not None:
        extra["captured"] = captured
    if origin is not None:
        extra[ORIGIN] = origin
    when = host.now_ms() if ts is None else ts
    record = Memory(key, text, namespace, when, embedder.id, source, 0, importance, context, extra,
                    files=freshness.digests(host, text) or None)
    forgotten = tombstones.get(host, namespace, key)
    if forgotten is not None:  # memorized again after a forget: a new decision
        tombstones.delete(host, namespace, key)
        timeline.drop(host, namespace, forgotten.memory.seq)
    write(host, [(record, pack(vector))])
    return Stored(key, namespace, False, quarantine, record=record)


def write(host: Host, batch: list[tuple[Memory, bytes]], into: str | None = None) -> None:
    """Store new memories (not stored yet, ids distinct) with their packed vectors, in order.

    Each memory gets the next document number and timeline number of its store -- ``into``, or
    the store of its own ``namespace`` -- then its vector (under its ``embedder``), record, doc
    entry and timeline entry are written, then the batch's postings (through the pending list,
    :mod:`guest.index.pending`; terms by the store's rules, :mod:`guest.memory.rules`) and stats. (A
    git merge passes ``into``: it works on a copy of one file, whatever discipline its memories
    name.)
    """
    stats: dict[str, Stats] = {}
    before: dict[str, bytes | None] = {}
    counts: dict[str, bytes] = {}  # the store's counts before the batch (the pending list's mark)
    postings: dict[str, list[tuple[int, list[str]]]] = {}
    appender = timeline.Appender(host)
    for record, vector in batch:
        namespace = into or record.namespace
        store = stats.get(namespace)
        if store is None:
            raw = before[namespace] = host.kv_get(bucket(namespace, "meta"), "stats")
            store = stats[namespace] = Stats.decode(raw)
            rules.check(namespace, store.terms)
            counts[namespace] = keywords.mark(store.docs, store.tokens)
            cites.complete(host, namespace)
        record.doc = store.docs
        record.seq = appender.append(namespace, record.id)
        words = rules.document(record, store.terms)
        host.kv_put(bucket(namespace, f"vectors/{record.embedder}"), record.id, vector)
        host.kv_put(bucket(namespace, "memories"), record.id, record.encode())
        cites.note(host, namespace, record)
        host.kv_put(bucket(namespace, "docs"), f"{record.doc:010d}", record.id.encode("utf-8"))
        postings.setdefault(namespace, []).append((record.doc, words))
        store.docs += 1
        store.tokens += length(words)
        store.embedder = store.embedder or record.embedder
    appender.close()
    for namespace, docs in postings.items():
        after = keywords.mark(stats[namespace].docs, stats[namespace].tokens)
        indexed = keywords.add_documents(host, bucket(namespace, "terms"), docs, counts[namespace], after)
        write_stats(host, namespace, before[namespace], stats[namespace])
        if not indexed:  # a stale pending list: an older engine wrote past it
            rebuild(host, namespace)
