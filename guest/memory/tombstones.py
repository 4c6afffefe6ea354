"""Tombstones: what a store remembers of a forgotten memory.

``forget`` removes a memory from the store -- record, vector, keyword index, ``docs`` -- so it can
neither be recalled nor crowd a recall's candidates, and leaves a tombstone in bucket ``forgotten``
(key: the memory id) so that everything that moves memories between stores honours the decision:
a git merge (the other branch still has the memory), a second checkout sharing a PostgreSQL store,
an ``import`` of an older export. The tombstone keeps the memory's text and fields (``list_memories
{include: ["forgotten"]}`` shows it; ``forget`` hides, it does not erase) plus when it was forgotten
and why.

Time decides between a tombstone and a record of the same memory: a record stored *after* the
forget (``ts`` greater than the tombstone's ``forgotten``) is a new decision and wins -- memorizing
the same text again brings a memory back and deletes its tombstone; a record stored before it (or
at the same millisecond) loses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from guest.host import Host, bucket
from guest.memory.records import Memory

BUCKET = "forgotten"
MAX_REASON_BYTES = 1024


@dataclass
class Tombstone:
    """A forgotten memory: its record's fields, when it was forgotten and why."""

    memory: Memory
    forgotten: int
    reason: str | None = None

    def encode(self) -> bytes:
        """Stable JSON bytes: the record's fields (no ``doc``) plus ``forgotten`` and ``reason``."""
        data = json.loads(self.memory.encode())
        data.pop("doc", None)
        data["forgotten"] = self.forgotten
        if self.reason is not None:
            data["reason"] = self.reason
        return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    @classmethod
    def decode(cls, raw: bytes) -> Tombstone:
        """Inverse of :meth:`encode`."""
        data: dict[str, Any] = json.loads(raw)
        forgotten = int(data.pop("forgotten"))
        reason = data.pop("reason", None)
        return cls(Memory(**{**data, "doc": -1}), forgotten, reason)

    def beats(self, record: Memory) -> bool:
        """Whether this forget is newer than ``record`` (stored at or before the forget)."""
        return self.forgotten >= record.ts


def get(host: Host, namespace: str, memory_id: str) -> Tombstone | None:
    """The tombstone of ``memory_id`` in ``namespace``'s store, if it was forgotten there."""
    raw = host.kv_get(bucket(namespace, BUCKET), memory_id)
    return Tombstone.decode(raw) if raw is not None else None


def put(host: Host, namespace: str, tombstone: Tombstone) -> None:
    """Store ``tombstone`` under its memory's id."""
    host.kv_put(bucket(namespace, BUCKET), tombstone.memory.id, tombstone.encode())


def delete(host: Host, namespace: str, memory_id: str) -> None:
    """Delete the tombstone of ``memory_id`` (none: nothing happens)."""
    host.kv_put(bucket(namespace, BUCKET), memory_id, b"")
