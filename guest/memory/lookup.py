"""Finding memories by id: validated ids, the stores to look in, a record or a tombstone, a chain's head.

Memory ids do not say which store holds them, so a verb that takes ids (``get_memory``,
``forget``) looks in the store its ``namespace`` names, or else in ``default`` and then every
discipline the project knows (``host/disciplines``), and takes the first store that has the id --
live or forgotten.

Supersede links stay inside one store. A superseded memory's ``superseded_by`` names its successor;
:func:`head` follows the links to the newest memory of the chain (the one nothing superseded), or
``None`` when the chain ends at a memory that was forgotten or is missing. Links written on two
branches can form a cycle after a merge: the newest member of the cycle (``ts``, then id) is then
its head.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from guest import requests
from guest.errors import InvalidRequest
from guest.host import Host, bucket
from guest.memory import disciplines, tombstones
from guest.memory.records import Memory
from guest.memory.tombstones import Tombstone

ID_RE = re.compile(r"mem-[0-9a-f]{16}-[0-9]{1,10}")
MAX_IDS = 100
MAX_CHAIN = 64


@dataclass(frozen=True)
class Found:
    """A memory found by id: its store and its record, or its tombstone when it was forgotten."""

    namespace: str
    record: Memory | None
    tombstone: Tombstone | None

    @property
    def memory(self) -> Memory:
        """The record, or the forgotten memory's fields."""
        if self.record is not None:
            return self.record
        assert self.tombstone is not None
        return self.tombstone.memory


def memory_id(value: Any, field: str) -> str:
    """A memory id (``mem-<16 hex>-<length>``), or a validation error naming ``field``."""
    if not isinstance(value, str):
        raise InvalidRequest(f"field {field!r} must be a memory id string, not {requests.kind_of(value)}")
    if not ID_RE.fullmatch(value):
        raise InvalidRequest(f"field {field!r} is not a memory id (mem-<16 hex>-<length>): {value[:80]!r}")
    return value


def ids(body: dict[str, Any], field: str, required: bool = True) -> list[str]:
    """A list of distinct memory ids (a single id string is a list of one), in order."""
    value = body.get(field)
    if value is None and not required:
        return []
    if value is None:
        raise InvalidRequest(f"missing field {field!r}")
    listed = [value] if isinstance(value, str) else value
    if not isinstance(listed, list):
        raise InvalidRequest(f"field {field!r} must be an array of memory ids, not {requests.kind_of(value)}")
    if not listed and required:
        raise InvalidRequest(f"field {field!r} is empty")
    if len(listed) > MAX_IDS:
        raise InvalidRequest(f"field {field!r} holds {len(listed)} ids; the limit is {MAX_IDS}")
    out: list[str] = []
    for i, item in enumerate(listed):
        checked = memory_id(item, f"{field}[{i}]" if not isinstance(value, str) else field)
        if checked not in out:
            out.append(checked)
    return out


def stores(host: Host, body: dict[str, Any]) -> list[str]:
    """The stores to look in: the body's ``namespace``, or ``default`` and every known discipline."""
    chosen = disciplines.requested(body)
    if chosen is not None:
        return [chosen]
    return [disciplines.DEFAULT, *sorted(disciplines.known(host) | set(disciplines.enabled(host)))]


def record(host: Host, namespace: str, memory_id: str) -> Memory | None:
    """The live record of ``memory_id`` in ``namespace``'s store."""
    raw = host.kv_get(bucket(namespace, "memories"), memory_id)
    return Memory.decode(raw) if raw is not None else None


def find(host: Host, memory_id: str, namespaces: list[str]) -> Found | None:
    """The first store of ``namespaces`` that holds ``memory_id``, live or forgotten."""
    for namespace in namespaces:
        live = record(host, namespace, memory_id)
        if live is not None:
            return Found(namespace, live, None)
        tombstone = tombstones.get(host, namespace, memory_id)
        if tombstone is not None:
            return Found(namespace, None, tombstone)
    return None


def head(memory: Memory, load: Callable[[str], Memory | None]) -> Memory | None:
    """The newest memory of ``memory``'s chain (``load(id)`` reads a record of the same store)."""
    seen = {memory.id: memory}
    current = memory
    while current.superseded_by is not None:
        if current.superseded_by in seen:  # a cycle: its newest member
            cycle = _cycle(seen, current.superseded_by)
            return max(cycle, key=lambda m: (m.ts, m.id))
        following = load(current.superseded_by)
        if following is None or len(seen) >= MAX_CHAIN:
            return None
        seen[following.id] = current = following
    return current


def _cycle(seen: dict[str, Memory], start: str) -> list[Memory]:
    members = [seen[start]]
    while members[-1].superseded_by not in (None, start):
        members.append(seen[str(members[-1].superseded_by)])
    return members
