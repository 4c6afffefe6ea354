"""Which memories cite project files: what makes "stale only" cost the citing memories, not the store.

A memory can only be stale (:mod:`guest.memory.freshness`) when it was stored with ``files``. Bucket
``cites`` of a store keeps one entry per such memory -- ``mem-…`` -> its ``files`` (``{path: sha256}``,
compact JSON: a record's files never change once it is stored) -- written with its record
by :func:`guest.memory.memorize.write` (memorize, import, capture, a git merge: every way a memory is
stored) and by the merge when it rewrites a record; :func:`guest.memory.reindex.remove` deletes it
with the record. ``meta/cites`` = ``1`` says the bucket covers every record of the store: a new
store has it from its first write; a store from before this index gets it at its first write after
it (:func:`complete`: one query of the records for ``"files":``, host-side). Until then
:func:`stale` asks the host for those records each time (the same query), so a reader is right
either way. So :func:`stale` reads the index, asks the host for each cited file's digest once, and
reads the records of the stale memories only; an entry whose memory is gone is skipped (an entry
is a hint, the record decides).
"""

from __future__ import annotations

import json

from guest.host import Host, bucket
from guest.memory import freshness
from guest.memory.records import Memory

BUCKET = "cites"
MARK = "cites"  # key of the meta bucket
FILES_FIELD = '"files":'  # what every encoded record with files holds (sorted keys, compact JSON)


def note(host: Host, namespace: str, memory: Memory) -> None:
    """Record that ``memory`` (stored in ``namespace``'s store) cites files, when it does."""
    if memory.files:
        files = json.dumps(memory.files, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        host.kv_put(bucket(namespace, BUCKET), memory.id, files.encode("utf-8"))


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


def stale(host: Host, namespace: str, digests: dict[str, str | None]) -> list[Memory]:
    """The live records of ``namespace``'s store whose cited files changed (in no particular order).

    ``digests`` keeps the host's answer for each file asked (the caller shows the same answers).
    """
    if host.kv_get(bucket(namespace, "meta"), MARK) is None:
        return [m for m in _scanned(host, namespace) if freshness.changed(host, m.files, digests)]
    memories = bucket(namespace, "memories")
    out = []
    for memory_id, raw_files in host.kv_query(bucket(namespace, BUCKET), "", 0):
        try:
            files = json.loads(raw_files)
        except ValueError:
            files = None
        if isinstance(files, dict) and not freshness.changed(host, files, digests):
            continue  # (an entry that is not a files object is checked on its record)
        raw = host.kv_get(memories, memory_id)
        if raw is not None:
            memory = Memory.decode(raw)
            if memory.files and freshness.changed(host, memory.files, digests):
                out.append(memory)
    return out


def _scanned(host: Host, namespace: str) -> list[Memory]:
    """The records holding ``"files":`` (the host filters the bucket), those with files decoded."""
    found = (Memory.decode(raw) for _, raw in host.kv_query(bucket(namespace, "memories"), FILES_FIELD, 0))
    return [memory for memory in found if memory.files]
