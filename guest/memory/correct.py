"""Correcting memories: ``forget`` them, or say that a new one ``supersedes`` them.

**forget** removes each memory from its store exactly as a git merge removes one
(:func:`guest.memory.reindex.remove`: record, vector, ``docs`` and keyword postings, the index kept
exact) and leaves a tombstone (:mod:`guest.memory.tombstones`) with the time (``host.now_ms()``)
and the reason. A forgotten memory takes a new timeline number, so ``list_memories {include:
["forgotten"]}`` shows the most recently forgotten first. Forgetting an id that is already forgotten
changes nothing and counts it as forgotten; an id no store holds is ``missing``.

**supersede**: ``memorize {text, supersedes: [ids]}`` checks every id first -- it must be a live
memory of the store the new memory goes to, and not the new memory itself -- so a bad id stores
nothing and says which (``not_found: supersedes[1]: …``). Then the new memory is stored (or found,
when the text was stored already), each old record gets ``superseded_by`` = the new id, and the new
record lists them in ``supersedes`` and loses any ``superseded_by`` of its own: the latest decision
makes it the head of its chain.

**trust**: a supersede never lets a less trusted origin replace a more trusted memory
(:func:`guest.memory.origin.outranks`: "We use npm, not pnpm" from an unreviewed CONTRIBUTING.md
against the user's typed "We use pnpm, not npm"). The new memory is stored, the old one stays the
head, and the new record keeps ``pending_supersedes``: ``approve`` of the new memory links them then
(:func:`link_pending`).
"""

from __future__ import annotations

from typing import Any

from guest.errors import InvalidRequest, NotFound
from guest.host import Host, bucket
from guest.memory import lookup, origin, timeline, tombstones
from guest.memory.records import Memory
from guest.memory.reindex import remove
from guest.memory.tombstones import Tombstone


def forget(host: Host, memory_ids: list[str], reason: str | None, namespaces: list[str]) -> dict[str, Any]:
    """Forget ``memory_ids`` (looked up in ``namespaces``): ``{forgotten, missing}``."""
    now = host.now_ms()
    forgotten: list[str] = []
    missing: list[str] = []
    doomed: dict[str, list[Memory]] = {}
    for memory_id in memory_ids:
        found = lookup.find(host, memory_id, namespaces)
        if found is None:
            missing.append(memory_id)
            continue
        forgotten.append(memory_id)
        if found.record is not None:
            doomed.setdefault(found.namespace, []).append(found.record)
    appender = timeline.Appender(host)
    for namespace, records in doomed.items():
        remove(host, namespace, [record.id for record in records])
        for record in records:
            record.seq = appender.append(namespace, record.id)
            tombstones.put(host, namespace, Tombstone(record, now, reason))
    appender.close()
    return {"forgotten": forgotten, "missing": missing}


def superseded(host: Host, namespace: str, memory_ids: list[str], new_id: str) -> list[Memory]:
    """The live records ``memory_ids`` of ``namespace``'s store, checked before the new memory is stored."""
    out = []
    for i, memory_id in enumerate(memory_ids):
        where = f"supersedes[{i}]"
        if memory_id == new_id:
            raise InvalidRequest(f"{where}: a memory cannot supersede itself ({memory_id}); nothing stored")
        record = lookup.record(host, namespace, memory_id)
        if record is None:
            gone = tombstones.get(host, namespace, memory_id) is not None
            state = "was forgotten" if gone else "does not exist"
            raise NotFound(f"{where}: memory {memory_id!r} {state} in store {namespace!r}; nothing stored")
        out.append(record)
    return out


PENDING = "pending_supersedes"


def link_trusted(host: Host, namespace: str, new: Memory, old: list[Memory]) -> list[str]:
    """:func:`link` ``old`` to ``new`` but those more trusted than ``new``: their ids, left waiting."""
    waiting = [record for record in old if origin.outranks(record.extra, new.extra)]
    if waiting:
        ids = sorted(set(new.extra.get(PENDING, [])) | {record.id for record in waiting})
        new.extra = {**new.extra, PENDING: ids}
        host.kv_put(bucket(namespace, "memories"), new.id, new.encode())
    linked = [record for record in old if record not in waiting]
    if linked:
        link(host, namespace, new, linked)
    return [record.id for record in waiting]


def link_pending(host: Host, namespace: str, new: Memory) -> list[str]:
    """Once ``new`` is approved: link the live memories its supersede waited for; their ids."""
    ids = new.extra.get(PENDING)
    if not isinstance(ids, list):
        return []
    new.extra = {key: value for key, value in new.extra.items() if key != PENDING}
    old = [record for key in ids if isinstance(key, str)
           and (record := lookup.record(host, namespace, key)) is not None and record.id != new.id]
    host.kv_put(bucket(namespace, "memories"), new.id, new.encode())
    if old:
        link(host, namespace, new, old)
    return [record.id for record in old]


def link(host: Host, namespace: str, new: Memory, old: list[Memory]) -> None:
    """Mark ``old`` superseded by ``new`` (its record as stored) and make it the head of its chain."""
    memories = bucket(namespace, "memories")
    for record in old:
        if record.superseded_by != new.id:
            record.superseded_by = new.id
            host.kv_put(memories, record.id, record.encode())
    listed = sorted(set(new.supersedes or []) | {record.id for record in old})
    if new.supersedes != listed or new.superseded_by is not None:
        new.supersedes, new.superseded_by = listed, None
        host.kv_put(memories, new.id, new.encode())
