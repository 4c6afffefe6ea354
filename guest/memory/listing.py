"""``list_memories`` and ``get_memory``: what a store holds, as a person reads it.

**list_memories** ``{namespace?, limit?, cursor?, query?, include?, stale?, quarantined?}`` pages
through one store newest first -- most recently stored (or, with ``include: ["forgotten"]``,
forgotten) first; the order of the store's timeline (:mod:`guest.memory.timeline`) -- and answers
``{namespace, memories, next}``. ``next`` is an opaque cursor for the following page, ``null`` after
the last; memories stored between two pages come before the cursor, so a page never repeats or skips
one. A page reads the entries it shows and at most :data:`MAX_SCAN` entries in all, so its cost does
not grow with the store: with a ``query`` (a case-insensitive substring of the text, not a ranked
recall), ``stale: true``, ``quarantined: true``, ``captured: true`` (only the memories captured from an
agent's session, ``guest/capture/verbs.py``; ``session`` narrows them to the sessions whose id starts
with it, as ``list`` and ``review`` show the first 8 characters) a page may come
back short, with a ``next`` to go
on from.

Hidden unless ``include`` names them: ``forgotten`` memories (their tombstones) and ``superseded``
ones. Each memory is ``{id, text, namespace, ts}`` plus, when they apply, ``origin`` (how it was
stored, when not by ``memorize``: ``learn``, ``import`` …), ``provenance`` (where its text came from
and how far it is trusted: :mod:`guest.memory.origin`), ``supersedes``, ``superseded_by``,
``files`` (the project files it names), ``stale: {files}`` (those that changed or vanished since),
``quarantined`` (why it is held back from the agent, until approved: ``guest/screening/screen.py``),
``captured: {kind, session, at}`` (found in an agent's session, not stored by anyone) and
``forgotten: {ts, reason?}``.

**get_memory** ``{id, namespace?}`` answers one memory in the same shape, forgotten or not.
"""

from __future__ import annotations

import re
from typing import Any

from guest import requests
from guest.errors import InvalidRequest, NotFound
from guest.host import Host
from guest.memory import disciplines, freshness, lookup, origin, timeline, tombstones
from guest.memory.correct import PENDING
from guest.memory.records import Memory
from guest.memory.tombstones import Tombstone
from guest.screening.screen import quarantine_of

DEFAULT_PAGE = 20
MAX_PAGE = 200
MAX_SCAN = 1000
MAX_QUERY_BYTES = 1024
INCLUDE = ("forgotten", "superseded")  # what a listing hides unless asked (see hidden())
CURSOR_RE = re.compile(r"m([0-9]{1,10})")


def list_memories(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    """One page of one store's memories, newest first."""
    namespace = requests.namespace(body) or disciplines.DEFAULT
    limit = requests.integer(body, "limit", DEFAULT_PAGE, 1, MAX_PAGE)
    start, has_timeline = timeline.top(host, namespace)
    start = min(start, _cursor(body))
    needle = ""
    if body.get("query") not in (None, ""):
        needle = requests.text(body, "query", MAX_QUERY_BYTES).casefold()
    include = _include(body)
    only_stale = requests.boolean(body, "stale", False)
    only_quarantined = requests.boolean(body, "quarantined", False)
    only_captured = requests.boolean(body, "captured", False)
    session = requests.text(body, "session", MAX_QUERY_BYTES, required=False)
    out: list[dict[str, Any]] = []
    seq = start
    while seq > 0 and len(out) < limit and start - seq < MAX_SCAN:
        seq -= 1
        found = _at(host, namespace, seq, has_timeline)
        if found is None:
            continue
        memory, tombstone = found
        if not hidden(memory, tombstone) <= include or needle not in memory.text.casefold():
            continue
        shown = item(host, memory, tombstone)
        if (only_stale and "stale" not in shown) or (only_quarantined and "quarantined" not in shown):
            continue
        captured = shown.get("captured")
        if (only_captured or session) and (
            captured is None or not str(captured.get("session", "")).startswith(session or "")
        ):
            continue
        out.append(shown)
    return {"namespace": namespace, "memories": out, "next": f"m{seq}" if seq > 0 else None}


def get_memory(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    """One memory by id, live or forgotten."""
    memory_id = lookup.memory_id(body.get("id"), "id") if "id" in body else None
    if memory_id is None:
        raise InvalidRequest("missing field 'id'")
    found = lookup.find(host, memory_id, lookup.stores(host, body))
    if found is None:
        raise NotFound(f"no memory {memory_id!r} in this project's stores")
    return item(host, found.memory, found.tombstone)


def hidden(memory: Memory, tombstone: Tombstone | None) -> set[str]:
    """Why a listing hides ``memory`` unless ``include`` names it (empty: it is shown)."""
    reasons = set()
    if tombstone is not None:
        reasons.add("forgotten")
    if memory.superseded_by is not None:
        reasons.add("superseded")
    return reasons


def item(host: Host, memory: Memory, tombstone: Tombstone | None = None) -> dict[str, Any]:
    """A memory as ``list_memories`` and ``get_memory`` show it (staleness asked of the host now)."""
    out: dict[str, Any] = {"id": memory.id, "text": memory.text, "namespace": memory.namespace,
                           "ts": memory.ts}
    if memory.source != "memorize":
        out["origin"] = memory.source
    out["provenance"] = origin.shown(memory.extra)
    if isinstance(memory.extra.get(PENDING), list):
        out["supersede_waits"] = memory.extra[PENDING]
    out.update(memory.links())
    if memory.files:
        out["files"] = sorted(memory.files)
        changed = freshness.changed(host, memory.files) if tombstone is None else []
        if changed:
            out["stale"] = {"files": changed}
    if quarantine_of(memory.extra):
        out["quarantined"] = quarantine_of(memory.extra)
    if isinstance(memory.extra.get("captured"), dict):
        out["captured"] = memory.extra["captured"]
    if tombstone is not None:
        out["forgotten"] = {"ts": tombstone.forgotten}
        if tombstone.reason is not None:
            out["forgotten"]["reason"] = tombstone.reason
    return out


def _at(host: Host, namespace: str, seq: int, has_timeline: bool) -> tuple[Memory, Tombstone | None] | None:
    """The memory at timeline number ``seq``, if that entry is still its own."""
    memory_id = timeline.entry(host, namespace, seq, has_timeline)
    if memory_id is None:
        return None
    record = lookup.record(host, namespace, memory_id)
    if record is not None:
        return (record, None) if record.seq in (None, seq) or not has_timeline else None
    tombstone = tombstones.get(host, namespace, memory_id) if has_timeline else None
    if tombstone is None or tombstone.memory.seq != seq:
        return None
    return tombstone.memory, tombstone


def _cursor(body: dict[str, Any]) -> int:
    value = body.get("cursor")
    if value is None:
        return 2**40
    match = CURSOR_RE.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise InvalidRequest(f"field 'cursor' is not a 'next' of list_memories: {str(value)[:80]!r}")
    return int(match.group(1))


def _include(body: dict[str, Any]) -> set[str]:
    value = body.get("include", [])
    listed = [value] if isinstance(value, str) else value
    if not isinstance(listed, list):
        raise InvalidRequest(f"field 'include' must be an array, not {requests.kind_of(value)}")
    for i, name in enumerate(listed):
        if name not in INCLUDE:
            raise InvalidRequest(f"field 'include[{i}]' must be one of {', '.join(INCLUDE)}, got {name!r}")
    return set(listed)
