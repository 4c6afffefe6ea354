"""What export and import carry besides a memory's text: supersede links, cited files, tombstones.

An exported memory adds, when set, ``supersedes`` (ids), ``superseded_by`` (an id) and ``files``
(``{path: sha256}``, :mod:`guest.memory.freshness`). ``export {forgotten: true}`` pages through the
store's tombstones instead: each a memory line plus ``forgotten: {ts, reason?}``.

On import every item may carry the same fields (checked with the rest of the item, before anything
is written). A memory that is stored already takes the links it lacks (``superseded_by`` when it has
none, ``supersedes`` united), so importing an export again changes nothing. A tombstone line (one
with ``forgotten``) forgets its memory as a merge would: time decides (:mod:`guest.memory.tombstones`)
-- a stored record from before the forget is removed, a later one stays; a tombstone is kept when
the store has none of that memory or an older one. A memory line whose memory the store forgot is
imported only when it was created after the forget.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from guest import requests
from guest.errors import InvalidRequest
from guest.host import Host, bucket
from guest.memory import lookup, timeline, tombstones
from guest.memory.records import Memory
from guest.memory.reindex import remove
from guest.memory.tombstones import Tombstone
from guest.screening.screen import Screen

SHA256_RE = re.compile(r"[0-9a-f]{64}")
MAX_FILES = 64


@dataclass(frozen=True)
class Carried:
    """The optional fields of one import item."""

    supersedes: list[str] | None
    superseded_by: str | None
    files: dict[str, str] | None
    forgotten: int | None  # epoch ms: the item is a tombstone
    reason: str | None


def exported(memory: Memory) -> dict[str, Any]:
    """The links and files of ``memory`` as export fields (only those that are set)."""
    out = memory.links()
    if memory.files:
        out["files"] = dict(memory.files)
    return out


def forgotten_page(host: Host, namespace: str, start: int, limit: int) -> tuple[list[Tombstone], int]:
    """The tombstones ``start`` .. ``start + limit`` of a store (by memory id), and how many it has."""
    found = host.kv_query(bucket(namespace, tombstones.BUCKET), "", 0)
    return [Tombstone.decode(raw) for _, raw in found[start : start + limit]], len(found)


def check(item: dict[str, Any], created: Callable[[Any, str], int | None], screen: Screen) -> Carried:
    """Validate the optional fields of an import item (``created``: the checker of a time field).

    A tombstone's ``reason`` goes through the request's ``screen`` like the item's other texts.
    """
    supersedes = lookup.ids(item, "supersedes", required=False) or None
    superseded_by = None
    if item.get("superseded_by") is not None:
        superseded_by = lookup.memory_id(item["superseded_by"], "superseded_by")
    files = _files(item.get("files"))
    forgotten, reason = None, None
    mark = item.get("forgotten")
    if mark is not None:
        if not isinstance(mark, dict) or "ts" not in mark:
            kind = requests.kind_of(mark)
            raise InvalidRequest(f"field 'forgotten' must be an object with 'ts', not {kind}")
        forgotten = created(mark["ts"], "forgotten.ts")
        if forgotten is None:
            raise InvalidRequest("field 'forgotten.ts' must be a time, not null")
        if mark.get("reason") is not None:
            reason = screen.text(requests.text(mark, "reason", tombstones.MAX_REASON_BYTES))
    return Carried(supersedes, superseded_by, files, forgotten, reason)


def _files(value: Any) -> dict[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) > MAX_FILES:
        raise InvalidRequest(f"field 'files' must be an object of at most {MAX_FILES} paths to digests")
    for path, digest in value.items():
        if not path or path.startswith("/") or ".." in path.split("/"):
            raise InvalidRequest(f"field 'files' names a path outside the project: {path[:80]!r}")
        if not isinstance(digest, str) or not SHA256_RE.fullmatch(digest):
            raise InvalidRequest(f"field 'files' gives {path[:80]!r} a digest that is not sha256 hex")
    return dict(value) or None


def apply(memory: Memory, carried: Carried) -> None:
    """Give a memory about to be stored the links and files of its item."""
    memory.supersedes = sorted(set(carried.supersedes)) if carried.supersedes else None
    memory.superseded_by = carried.superseded_by
    memory.files = carried.files


def link_stored(host: Host, stored: Memory, carried: Carried) -> None:
    """Give a memory stored already the links of its item that it lacks."""
    supersedes = sorted(set(stored.supersedes or []) | set(carried.supersedes or [])) or None
    superseded_by = stored.superseded_by or carried.superseded_by
    if (supersedes, superseded_by) != (stored.supersedes, stored.superseded_by):
        stored.supersedes, stored.superseded_by = supersedes, superseded_by
        host.kv_put(bucket(stored.namespace, "memories"), stored.id, stored.encode())


def blocked(host: Host, memory: Memory, *, revive: bool = True) -> bool:
    """Whether the store forgot ``memory`` after it was created (then it is not imported).

    Otherwise, with ``revive``, a tombstone of an older forget is deleted (the memory comes back).
    """
    tomb = tombstones.get(host, memory.namespace, memory.id)
    if tomb is None:
        return False
    if tomb.beats(memory):
        return True
    if revive:  # created after the forget: it comes back
        tombstones.delete(host, memory.namespace, memory.id)
        timeline.drop(host, memory.namespace, tomb.memory.seq)
    return False


def forget_imported(host: Host, tombs: list[Tombstone], *, dry_run: bool = False) -> int:
    """Honour imported tombstones (after the batch's memories are stored); how many took effect.

    Decided one by one, in order, against the store as the earlier lines of the batch leave it;
    written once: the memories they remove go in one :func:`remove` per store (one pass over the
    keyword postings, not one per line), then the tombstones. With ``dry_run`` nothing is written:
    how many would take effect in the store as it is.
    """
    applied = 0
    records: dict[tuple[str, str], Memory | None] = {}  # the record as the batch leaves it
    known: dict[tuple[str, str], Tombstone | None] = {}  # the tombstone as the batch leaves it
    stored_tombs: dict[tuple[str, str], Tombstone | None] = {}  # the store's own, before the batch
    doomed: dict[str, list[str]] = {}
    for tomb in tombs:
        key = (tomb.memory.namespace, tomb.memory.id)
        if key not in records:
            records[key] = lookup.record(host, *key)
            known[key] = stored_tombs[key] = tombstones.get(host, *key)
        record, newest = records[key], known[key]
        if record is not None and not tomb.beats(record):
            continue  # stored after that forget
        if newest is not None and newest.forgotten >= tomb.forgotten:
            continue
        applied += 1
        if record is not None:
            doomed.setdefault(key[0], []).append(key[1])
            records[key] = None
        known[key] = tomb
    if dry_run:
        return applied
    for namespace, ids in doomed.items():
        remove(host, namespace, ids)
    appender = timeline.Appender(host)
    for key, kept in known.items():
        before = stored_tombs[key]
        if kept is None or kept is before:
            continue
        kept.memory.seq = before.memory.seq if before is not None else appender.append(key[0], key[1])
        tombstones.put(host, key[0], kept)
    appender.close()
    return applied
