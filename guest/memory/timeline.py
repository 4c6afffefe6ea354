"""The timeline: the order a store's memories were stored (and forgotten) in, for listing.

``list_memories`` pages through a store newest first, and a page must cost its own size, not the
store's: the host cannot list a bucket from a key on (``host-kv-query`` reads the whole bucket), so
the guest must know the keys of a page. Doc numbers are dense and in memorize order, but a forget
moves the last documents into the holes it leaves (:func:`guest.memory.reindex.remove`). So each
store keeps its own sequence: bucket ``timeline`` maps ``%010d`` numbers, handed out in order and
never reused, to memory ids, and ``meta/timeline`` holds the next number. A memory takes a number
when it is stored (memorize, import, a git merge bringing it in) and a new one when it is forgotten
(its tombstone's), so "newest first" means "most recently stored or forgotten here first".

An entry is valid while the record (or tombstone) of its id names the same number as its ``seq``;
an entry left behind (the memory was forgotten, then memorized again) is skipped by readers, and
writers delete the entries they know are gone. A record without ``seq`` was stored before the
timeline existed: the first write that needs the timeline fills it from the ``docs`` map (number =
document number, so the order is unchanged), and until then readers walk ``docs`` instead.
"""

from __future__ import annotations

from guest.host import Host, bucket
from guest.memory.records import Stats

BUCKET = "timeline"
NEXT = "timeline"  # key of the meta bucket


def key(seq: int) -> str:
    """The timeline key of number ``seq``."""
    return f"{seq:010d}"


def top(host: Host, namespace: str) -> tuple[int, bool]:
    """The number after the newest entry, and whether the store has a timeline (else: walk ``docs``)."""
    raw = host.kv_get(bucket(namespace, "meta"), NEXT)
    if raw is None:
        return Stats.decode(host.kv_get(bucket(namespace, "meta"), "stats")).docs, False
    return int(raw), True


def entry(host: Host, namespace: str, seq: int, timeline: bool) -> str | None:
    """The memory id at ``seq`` (of the timeline, or of ``docs`` when the store has none)."""
    raw = host.kv_get(bucket(namespace, BUCKET if timeline else "docs"), key(seq))
    return raw.decode("utf-8") if raw is not None else None


class Appender:
    """Hands out timeline numbers during one write; :meth:`close` stores the next number."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.next: dict[str, int] = {}

    def append(self, namespace: str, memory_id: str) -> int:
        """A new number for ``memory_id`` in ``namespace``'s store, its entry written."""
        seq = self.next.get(namespace)
        if seq is None:
            seq = _start(self.host, namespace)
        self.host.kv_put(bucket(namespace, BUCKET), key(seq), memory_id.encode("utf-8"))
        self.next[namespace] = seq + 1
        return seq

    def close(self) -> None:
        """Store each store's next number."""
        for namespace, seq in self.next.items():
            self.host.kv_put(bucket(namespace, "meta"), NEXT, str(seq).encode("ascii"))
        self.next.clear()


def drop(host: Host, namespace: str, seq: int | None) -> None:
    """Delete the entry ``seq`` (``None``: a record from before the timeline; its entry stays, invalid)."""
    if seq is not None:
        host.kv_put(bucket(namespace, BUCKET), key(seq), b"")


def _start(host: Host, namespace: str) -> int:
    """The store's next number; a store without a timeline gets one from its ``docs`` map first."""
    seq, existing = top(host, namespace)
    if not existing:
        for doc in range(seq):
            found = host.kv_get(bucket(namespace, "docs"), key(doc))
            if found is not None:
                host.kv_put(bucket(namespace, BUCKET), key(doc), found)
    return seq
