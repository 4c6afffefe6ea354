"""The derived index of structured memory: keyword postings and session-note vectors.

Both are rebuilt from the durable ``records`` bucket by :func:`rebuild` (the ``reconcile_index``
verb): they may go stale when another process writes records directly, never the other way round.

* ``records-terms``: key ``<term>`` -> postings ``u32 doc, u16 tf, u16 length`` (little-endian),
  sorted by doc; a record's document number is :func:`guest.sm_store.doc_number` of its id. The
  indexed text is the title and tags twice (they weigh double), then the description or content
  and, for a checklist, its items' titles and tags. Soft-deleted records are not indexed. An update
  rewrites only the postings whose ``(tf, length)`` changed.
* ``records-vectors/<embedder>``: key ``<id>@<digest of the embedded text, 16 hex>`` -> f32 vector
  of a session note's title and content; the hash lets :func:`rebuild` keep vectors that are still
  current and re-embed only the stale ones.
* ``records-meta`` ``index``: ``{"docs", "tokens", "embedder"}`` for BM25.
* ``records-slugs``: which slug each record holds (``guest/structured/slugs.py``).
"""

from __future__ import annotations

import struct
from collections import Counter
from typing import Any

from guest.host import Host
from guest.index import keywords
from guest.structured import slugs
from guest.structured.store import DELETED, TERMS, doc_number, read_meta, vectors_ns, write_meta
from guest.text.embed import StaticEmbedder, pack

POSTING = struct.Struct("<IHH")
DIGEST_MOD = (1 << 61) - 1  # a Mersenne prime
Entry = tuple[Counter[str], int]


def indexed_text(record: dict[str, Any]) -> str:
    """The text the keyword channel indexes for ``record``."""
    head = " ".join([record.get("title") or "", *record.get("tags", [])])
    parts = [head, head, record.get("description") or "", record.get("content") or ""]
    for item in record.get("items", []):
        parts.append(" ".join([item.get("title") or "", *item.get("tags", [])]))
    return "\n".join(parts)


def entry(record: dict[str, Any] | None) -> Entry | None:
    """A record's term counts and length, or ``None`` when it is not indexed."""
    if record is None or record.get("status") == DELETED or doc_number(str(record.get("id"))) < 0:
        return None
    words = keywords.terms(indexed_text(record))
    return Counter(words), min(len(words), 0xFFFF)


def note_key(record: dict[str, Any] | None) -> tuple[str, str] | None:
    """The vector key of a live session note and the text to embed, else ``None``."""
    if record is None or record.get("kind") != "session_note" or record.get("status") == DELETED:
        return None
    text = f"{record.get('title') or ''}\n{record.get('content') or ''}"
    return f"{record['id']}@{digest(text)}", text


def digest(text: str) -> str:
    """A 16-hex content digest: the UTF-8 bytes read as one integer, modulo 2^61 - 1.

    Not cryptographic -- it only tells a current vector from a stale one -- but computed at C speed
    (``int.from_bytes`` and one big-integer remainder), unlike a per-byte hash loop in the guest.
    """
    raw = text.encode("utf-8")
    return f"{int.from_bytes(raw, 'little') % DIGEST_MOD:016x}"


def update(
    host: Host, embedder: StaticEmbedder, old: dict[str, Any] | None, new: dict[str, Any] | None
) -> None:
    """Move the index from ``old`` to ``new`` (either may be ``None``: created / removed)."""
    record_id = str((new or old or {}).get("id"))
    doc = doc_number(record_id)
    before, after = entry(old), entry(new)
    stats = read_meta(host, "index")
    docs, tokens = int(stats.get("docs", 0)), int(stats.get("tokens", 0))
    if before != after and doc >= 0:
        old_terms, old_len = before or (Counter(), 0)
        new_terms, new_len = after or (Counter(), 0)
        for term in sorted(set(old_terms) | set(new_terms)):
            if (old_terms[term], old_len) == (new_terms[term], new_len):
                continue
            rows = [p for p in _postings(host, term) if p[0] != doc]
            if new_terms[term]:
                rows.append((doc, min(new_terms[term], 0xFFFF), new_len))
                rows.sort()
            host.kv_put(TERMS, term, b"".join(POSTING.pack(*p) for p in rows))
        docs += (after is not None) - (before is not None)
        tokens += new_len - old_len
    write_meta(host, "index", {"docs": max(docs, 0), "tokens": max(tokens, 0), "embedder": embedder.id})
    slugs.move(host, old, new)
    old_key, new_key = note_key(old), note_key(new)
    if old_key != new_key:
        vectors = vectors_ns(embedder.id)
        if old_key is not None:
            host.kv_put(vectors, old_key[0], b"")
        if new_key is not None:
            host.kv_put(vectors, new_key[0], pack(embedder.embed(new_key[1])))


def _postings(host: Host, term: str) -> list[tuple[int, int, int]]:
    raw = host.kv_get(TERMS, term)
    return list(POSTING.iter_unpack(raw)) if raw else []


def search(host: Host, query: list[str]) -> list[tuple[int, float]]:
    """Every ``(doc, BM25 score)`` matching a query term, best first (ties: lower doc first)."""
    stats = read_meta(host, "index")
    found = keywords.scores(
        query, lambda term: _postings(host, term), int(stats.get("docs", 0)), int(stats.get("tokens", 0))
    )
    return sorted(found.items(), key=lambda pair: (-pair[1], pair[0]))


def rebuild(host: Host, embedder: StaticEmbedder, records: list[dict[str, Any]]) -> dict[str, int]:
    """Recompute the whole index from ``records``; write only what differs. Returns counts."""
    postings: dict[str, list[tuple[int, int, int]]] = {}
    docs = tokens = 0
    wanted: dict[str, str] = {}
    for record in sorted(records, key=lambda r: doc_number(str(r["id"]))):
        built = entry(record)
        if built is not None:
            terms, length = built
            doc = doc_number(record["id"])
            for term, tf in terms.items():
                postings.setdefault(term, []).append((doc, min(tf, 0xFFFF), length))
            docs, tokens = docs + 1, tokens + length
        note = note_key(record)
        if note is not None:
            wanted[note[0]] = note[1]
    removed_terms = 0
    for term, _ in host.kv_query(TERMS, "", 0):
        if term not in postings:
            host.kv_put(TERMS, term, b"")
            removed_terms += 1
    for term, rows in sorted(postings.items()):
        host.kv_put(TERMS, term, b"".join(POSTING.pack(*p) for p in rows))
    previous = str(read_meta(host, "index").get("embedder") or "")
    if previous and previous != embedder.id:  # vectors of another embedder are useless now
        for key, _ in host.kv_query(vectors_ns(previous), "", 0):
            host.kv_put(vectors_ns(previous), key, b"")
    write_meta(host, "index", {"docs": docs, "tokens": tokens, "embedder": embedder.id})
    vectors = vectors_ns(embedder.id)
    present = {key for key, _ in host.kv_query(vectors, "", 0)}
    for key in sorted(present - set(wanted)):
        host.kv_put(vectors, key, b"")
    embedded = 0
    for key in sorted(set(wanted) - present):
        host.kv_put(vectors, key, pack(embedder.embed(wanted[key])))
        embedded += 1
    return {
        "indexed": docs,
        "terms": len(postings),
        "removedTerms": removed_terms,
        "vectors": len(wanted),
        "embedded": embedded,
        "removedVectors": len(present - set(wanted)),
    }
