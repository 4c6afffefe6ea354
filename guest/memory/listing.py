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
back short, with a ``next`` to go on from. ``stale: true`` is the exception: only the memories
that cite files can be stale and the store keeps which those are (:mod:`guest.memory.cites`), so a
stale page is always full (up to ``limit``), costs those memories and not the store (each file's
digest asked once), and adds ``total``, how many stale memories there are below the cursor.

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
from guest.memory import cites, disciplines, freshness, lookup, origin, timeline, tombstones
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
    keep = _Keep(needle, include, only_quarantined, only_captured, session or "")
    if only_stale:
        return _stale(host, namespace, limit, start, keep)
    out: list[dict[str, Any]] = []
    seq = start
    while seq > 0 and len(out) < limit and start - seq < MAX_SCAN:
        seq -= 1
        found = _at(host, namespace, seq, has_timeline)
        if found is None:
            continue
        shown = keep.shown(host, *found)
        if shown is not None:
            out.append(shown)
    return {"namespace": namespace, "memories": out, "next": f"m{seq}" if seq > 0 else None}


class _Keep:
    """The filters of one listing other than ``stale``."""

    def __init__(self, needle: str, include: set[str], quarantined: bool, captured: bool,
                 session: str) -> None:
        self.needle, self.include, self.quarantined = needle, include, quarantined
        self.captured, self.session = captured, session
        self.digests: dict[str, str | None] = {}  # the host's file digests, asked once per listing

    def shown(self, host: Host, memory: Memory, tombstone: Tombstone | None) -> dict[str, Any] | None:
        """``memory`` as the listing shows it, or ``None`` when a filter drops it."""
        if not hidden(memory, tombstone) <= self.include or self.needle not in memory.text.casefold():
            return None
        shown = item(host, memory, tombstone, self.digests)
        if self.quarantined and "quarantined" not in shown:
            return None
        captured = shown.get("captured")
        if (self.captured or self.session) and (
            captured is None or not str(captured.get("session", "")).startswith(self.session)
        ):
            return None
        return shown


def _stale(host: Host, namespace: str, limit: int, start: int, keep: _Keep) -> dict[str, Any]:
    """A page of the stale memories below timeline number ``start``, newest first, and their ``total``.

    Only the memories that cite files can be stale, and the store keeps which those are and the
    files they cite (:mod:`guest.memory.cites`): the page costs them, not the store.
    """
    found = []
    for memory in cites.stale(host, namespace, keep.digests):
        order = memory.seq if memory.seq is not None else memory.doc  # (a store from before the timeline)
        if order < start:
            shown = keep.shown(host, memory, None)
            if shown is not None and "stale" in shown:
                found.append((order, shown))
    found.sort(key=lambda pair: (-pair[0], pair[1]["id"]))
    page = found[:limit]
    more = len(found) > limit
    return {"namespace": namespace, "memories": [shown for _, shown in page],
            "next": f"m{page[-1][0]}" if more else None, "total": len(found)}


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


def item(host: Host, memory: Memory, tombstone: Tombstone | None = None,
         digests: dict[str, str | None] | None = None) -> dict[str, Any]:
    """A memory as ``list_memories`` and ``get_memory`` show it (staleness asked of the host now).

    ``digests`` keeps the host's answers for the files asked already (a listing asks each file once).
    """
    out: dict[str, Any] = {"id": memory.id, "text": memory.text, "namespace": memory.namespace,
                           "ts": memory.ts}
    if memory.source != "memorize":
        out["origin"] = memory.source
    if memory.context:
        out["context"] = memory.context  # an imported note's headings (``Conventions > Testing``)
    out["provenance"] = origin.shown(memory.extra)
    if isinstance(memory.extra.get(PENDING), list):
        out["supersede_waits"] = memory.extra[PENDING]
    out.update(memory.links())
    if memory.files:
        out["files"] = sorted(memory.files)
        changed = freshness.changed(host, memory.files, digests) if tombstone is None else []
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
