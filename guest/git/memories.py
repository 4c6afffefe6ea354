"""Merging memories: content-addressed, so a union; deletions on one side honoured.

A memory's id is a hash of its namespace and text, so the same id on both branches is the same
memory, and two branches that memorized different texts never collide. Per key of ``memories``
(:mod:`guest.git.sides` rules): a memory only theirs added is added (numbered after ours, oldest
first, with theirs' vector, or embedded now when theirs has none); one only theirs deleted is
deleted; one only theirs changed takes theirs' fields. Both added or changed it (e.g. both
memorized the same text): the earlier record's fields win, fields only the other set are filled
in, and ``ts`` is the earliest. Deleted on one side, changed on the other: kept. Doc numbers are
ours' (``docs``/``terms`` stay valid); when a memory is deleted the keyword index is rebuilt
(:func:`guest.memory.reindex.rebuild`), and so it is when a kept memory's date moved in a store whose
terms hold dates. Every memory added is indexed by ours' terms version (:mod:`guest.memory.rules`):
a merge of an old store with a new one never mixes their rules. The derived buckets (``vectors/*``,
``docs``, ``terms``, ``meta``) are never merged key by key.
"""

from __future__ import annotations

from dataclasses import asdict, replace

from guest.git.sides import Report, Sides, take
from guest.host import Host, bucket
from guest.memory.memorize import write
from guest.memory.records import Memory, Stats
from guest.memory.reindex import rebuild, remove
from guest.text import dates
from guest.text.embed import StaticEmbedder, pack

MEMORIES = "memories"
DERIVED = ("docs", "terms", "meta")
DERIVED_PREFIXES = ("vectors/",)
STORE = "default"  # the driver's store is the scratch project's own: plain bucket names


def owns(bucket: str) -> bool:
    """Whether ``bucket`` belongs to the memory store."""
    return bucket == MEMORIES or bucket in DERIVED or bucket.startswith(DERIVED_PREFIXES)


def merge(host: Host, embedder: StaticEmbedder, sides: Sides, report: Report) -> None:
    """Merge theirs' memories into ours."""
    added: list[Memory] = []
    removed: list[Memory] = []
    redated = False  # a kept memory's date moved: its date facet terms are stale
    for key, state in sides.changed(MEMORIES).items():
        winner = take(state)
        if winner == "ours":
            continue
        ours = _load(sides, "ours", key)
        theirs = _load(sides, "theirs", key)
        if ours is None and theirs is not None:
            if winner is None:
                report.conflict(f"memory {key}: deleted on ours, changed on theirs; kept")
            added.append(theirs)
        elif theirs is None and ours is not None:
            if winner is None:
                report.conflict(f"memory {key}: changed on ours, deleted on theirs; kept")
            else:
                removed.append(ours)
        elif ours is not None and theirs is not None:
            if replace(theirs, doc=ours.doc) == ours:
                continue  # only the doc number differs: derived, and ours' is the one in force
            record = theirs if winner == "theirs" else combine(ours, theirs)
            _replace(host, embedder, sides, ours, record)
            redated = redated or dates.facets(record.ts) != dates.facets(ours.ts)
            report.count("memories", "merged")
    for memory in sorted(added, key=lambda m: (m.ts, m.id)):
        vector = sides.get("theirs", f"vectors/{memory.embedder}", memory.id)
        if vector is None:
            memory.embedder = embedder.id
            vector = pack(embedder.embed(memory.text))
        write(host, [(memory, vector)], into=STORE)
    remove(host, STORE, [memory.id for memory in removed])
    if redated and Stats.decode(host.kv_get(bucket(STORE, "meta"), "stats")).terms >= 2:
        rebuild(host, STORE)  # the index by ours' terms version, with the dates now in force
    report.count("memories", "added", len(added))
    report.count("memories", "removed", len(removed))


def combine(ours: Memory, theirs: Memory) -> Memory:
    """One record from two of the same memory: the earlier one's fields, gaps filled from the other.

    ``ts`` is the earliest; ``doc`` and ``embedder`` stay ours' (ours' index and vector are in place).
    """
    first, second = sorted((ours, theirs), key=lambda m: (m.ts, m.encode()))
    fields = asdict(first)
    for name, value in asdict(second).items():
        if fields.get(name) in (None, {}):
            fields[name] = value
    fields["extra"] = {**second.extra, **first.extra}
    fields.update(doc=ours.doc, embedder=ours.embedder, ts=min(ours.ts, theirs.ts))
    return Memory(**fields)


def _replace(host: Host, embedder: StaticEmbedder, sides: Sides, ours: Memory, record: Memory) -> None:
    """Write ``record`` over ours' record of the same memory (same text: the postings stay)."""
    record.doc = ours.doc
    if record.embedder != ours.embedder:
        vector = sides.get("theirs", f"vectors/{record.embedder}", record.id)
        if vector is None:
            record.embedder, vector = embedder.id, pack(embedder.embed(record.text))
        host.kv_put(f"vectors/{record.embedder}", record.id, vector)
        host.kv_put(f"vectors/{ours.embedder}", record.id, b"")
    host.kv_put(MEMORIES, record.id, record.encode())


def _load(sides: Sides, side: str, key: str) -> Memory | None:
    raw = sides.get(side, MEMORIES, key)
    return None if raw is None else Memory.decode(raw)
