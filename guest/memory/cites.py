"""Which memories cite project files: what makes "stale only" cost the citing memories, not the store.

A memory can only be stale (:mod:`guest.memory.freshness`) when it was stored with ``files``. Bucket
``cites`` of a store keeps one entry per such memory -- ``mem-…`` -> ``1`` -- written with its record
by :func:`guest.memory.memorize.write` (memorize, import, capture, a git merge: every way a memory is
stored) and by the merge when it rewrites a record; :func:`guest.memory.reindex.remove` deletes it
with the record. ``meta/cites`` = ``1`` says the bucket covers every record of the store: a new
store has it from its first write; a store from before this index gets it at its first write after
it (:func:`complete`: one query of the records for ``"files":``, host-side). Until then
:func:`citing` asks the host for those records each time (the same query), so a reader is right
either way. An entry whose memory is gone is skipped (the record is read anyway): an entry is a
hint, the record decides.
"""

from __future__ import annotations

from guest.host import Host, bucket
from guest.memory.records import Memory

BUCKET = "cites"
MARK = "cites"  # key of the meta bucket
FILES_FIELD = '"files":'  # what every encoded record with files holds (sorted keys, compact JSON)


def note(host: Host, namespace: str, memory: Memory) -> None:
    """Record that ``memory`` (stored in ``namespace``'s store) cites files, when it does."""
    if memory.files:
        host.kv_put(bucket(namespace, BUCKET), memory.id, b"1")


def drop(host: Host, namespace: str, memory_id: str) -> None:
    """Delete ``memory_id``'s entry (its record is deleted)."""
    host.kv_put(bucket(namespace, BUCKET), memory_id, b"")


def complete(host: Host, namespace: str) -> None:
    """Before a write: give a store without the mark its entries (once) and the mark."""
    meta = bucket(namespace, "meta")
    if host.kv_get(meta, MARK) is not None:
        return
    for memory in _scanned(host, namespace):
        note(host, namespace, memory)
    host.kv_put(meta, MARK, b"1")


def citing(host: Host, namespace: str) -> list[Memory]:
    """The live records of ``namespace``'s store that cite files (in no particular order)."""
    if host.kv_get(bucket(namespace, "meta"), MARK) is None:
        return _scanned(host, namespace)
    memories = bucket(namespace, "memories")
    out = []
    for memory_id, _ in host.kv_query(bucket(namespace, BUCKET), "", 0):
        raw = host.kv_get(memories, memory_id)
        if raw is not None:
            memory = Memory.decode(raw)
            if memory.files:
                out.append(memory)
    return out


def _scanned(host: Host, namespace: str) -> list[Memory]:
    """The records holding ``"files":`` (the host filters the bucket), those with files decoded."""
    found = (Memory.decode(raw) for _, raw in host.kv_query(bucket(namespace, "memories"), FILES_FIELD, 0))
    return [memory for memory in found if memory.files]
