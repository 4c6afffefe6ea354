"""Merging memories: content-addressed, so a union; deletions and forgets on one side honoured.

A memory's id is a hash of its namespace and text, so the same id on both branches is the same
memory, and two branches that memorized different texts never collide. Per key of ``memories``
(:mod:`guest.git.sides` rules): a memory only theirs added is added (numbered after ours, oldest
first, with theirs' vector, or embedded now when theirs has none); one only theirs deleted is
deleted; one only theirs changed takes theirs' fields. Both added or changed it (e.g. both
memorized the same text): the earlier record's fields win, fields only the other set are filled
in, and ``ts`` is the earliest. Deleted on one side, changed on the other: kept. Doc numbers and
timeline numbers are ours' (``docs``/``terms``/``timeline`` stay valid); when a memory is deleted
the keyword index is kept exact (:func:`guest.memory.reindex.remove`), and it is rebuilt
(:func:`guest.memory.reindex.rebuild`) when a kept memory's date moved in a store whose terms hold
dates. Every memory added is indexed by ours' terms version (:mod:`guest.memory.rules`): a merge of
an old store with a new one never mixes their rules. The derived buckets (``vectors/*``, ``docs``,
``terms``, ``timeline``, ``meta``) are never merged key by key.

Forgotten memories (bucket ``forgotten``, :mod:`guest.memory.tombstones`) then decide by time,
whatever the sides did: when either side holds a tombstone of a memory, the later tombstone is
kept, and the memory stays (its tombstone deleted) only if the record those rules leave was stored
after that forget -- memorized again, a new decision; otherwise it is removed, or not added. So a
forget on one branch survives a merge with a branch that still has the memory, untouched or
memorized there before the forget. The merge says so, one note per memory (:meth:`Report.note`):
a memorize of a text that is stored already writes nothing (``deduped``), so a branch that
"memorized it again" before the merge looks exactly like one that left it alone -- the note tells
the user to memorize it again after the merge if they meant to keep it.

Supersede links (:mod:`guest.memory.correct`) are fields of the records and merge with them; when
both branches superseded the same memory by *different* memories, the later of the two (``ts``,
then id) wins: the superseded memory and the earlier successor both point to it, it lists both in
its ``supersedes``, and the earlier successor no longer lists the memory it lost (every link has its
counterpart). One head stands for the chain, so recall shows one, and the merge reports the
decision as a conflict (decided: the exit status stays 0) naming both, for the user to check.

Origin (:mod:`guest.memory.origin`): a memory theirs added arrives with ``{"kind": "git", commit,
author, self, was}`` -- what the driver knows of the branch merged in (``git_merge {theirs}``) --
and, from someone else, without an approval it carried. Theirs' supersede of a memory of ours by
one that arrived so never replaces a more trusted head: the link waits for ``approve`` of the new
memory (:func:`guest.memory.correct.link_pending`), and the merge reports it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from guest.git.sides import Report, Sides, State, take
from guest.host import Host, bucket
from guest.memory import cites, origin, timeline, tombstones
from guest.memory.correct import PENDING
from guest.memory.memorize import write
from guest.memory.records import Memory, Stats
from guest.memory.reindex import rebuild, remove
from guest.memory.tombstones import Tombstone
from guest.strings import dates
from guest.text.embed import StaticEmbedder, pack

MEMORIES = "memories"
FORGOTTEN = tombstones.BUCKET
DERIVED = ("docs", "terms", "meta", timeline.BUCKET, cites.BUCKET)
DERIVED_PREFIXES = ("vectors/",)
STORE = "default"  # the driver's store is the scratch project's own: plain bucket names


def owns(bucket: str) -> bool:
    """Whether ``bucket`` belongs to the memory store."""
    return bucket in (MEMORIES, FORGOTTEN) or bucket in DERIVED or bucket.startswith(DERIVED_PREFIXES)


@dataclass
class _Plan:
    """What the merge does to ours: memories to add, remove or rewrite, tombstones to keep or drop."""

    added: list[Memory]
    removed: list[Memory]
    replaced: list[tuple[Memory, Memory]]  # (ours, the record to write over it)
    tombs: list[tuple[Tombstone | None, Tombstone]]  # (ours' tombstone, the one to keep)
    dropped: list[Tombstone]  # ours' tombstones of memories that came back
    forks: list[tuple[str, str, str]] = field(default_factory=list)  # (memory, ours' and theirs' successor)


def merge(host: Host, embedder: StaticEmbedder, sides: Sides, report: Report,
          through: dict[str, Any] | None = None) -> None:
    """Merge theirs' memories and tombstones into ours (``through``: the git origin of what theirs adds)."""
    plan = _Plan([], [], [], [], [])
    records = sides.changed(MEMORIES)
    for key in sorted(set(records) | set(sides.changed(FORGOTTEN))):
        _decide(sides, key, records.get(key), plan, report)
    if through is not None:
        _arrive(plan, through, report)
    for memory in sorted(plan.added, key=lambda m: (m.ts, m.id)):
        vector = sides.get("theirs", f"vectors/{memory.embedder}", memory.id)
        if vector is None:
            memory.embedder = embedder.id
            vector = pack(embedder.embed(memory.text))
        write(host, [(memory, vector)], into=STORE)
    for ours, record in plan.replaced:
        _replace(host, embedder, sides, ours, record)
    remove(host, STORE, [memory.id for memory in plan.removed])
    redated = any(dates.facets(record.ts) != dates.facets(ours.ts) for ours, record in plan.replaced)
    if redated and Stats.decode(host.kv_get(bucket(STORE, "meta"), "stats")).terms >= 2:
        rebuild(host, STORE)  # the index by ours' terms version, with the dates now in force
    appender = timeline.Appender(host)
    for ours_tomb, kept in plan.tombs:
        kept.memory.seq = ours_tomb.memory.seq if ours_tomb else appender.append(STORE, kept.memory.id)
        tombstones.put(host, STORE, kept)
    appender.close()
    for tomb in plan.dropped:
        tombstones.delete(host, STORE, tomb.memory.id)
        timeline.drop(host, STORE, tomb.memory.seq)
    for fork in plan.forks:
        _join_fork(host, *fork, report)
    report.count("memories", "added", len(plan.added))
    report.count("memories", "removed", len(plan.removed))
    if plan.replaced:
        report.count("memories", "merged", len(plan.replaced))
    if plan.tombs:
        report.count("memories", "forgotten", len(plan.tombs))


def _arrive(plan: _Plan, through: dict[str, Any], report: Report) -> None:
    """Give what theirs adds its git origin; hold theirs' supersedes of more trusted heads of ours."""
    added = {memory.id: memory for memory in plan.added}
    for memory in plan.added:
        memory.extra = origin.arrived(memory.extra, through)
    for number, (ours, record) in enumerate(plan.replaced):
        successor = added.get(record.superseded_by or "")
        if ours.superseded_by or successor is None or not origin.outranks(ours.extra, successor.extra):
            continue
        plan.replaced[number] = (ours, replace(record, superseded_by=None))
        successor.supersedes = [key for key in successor.supersedes or [] if key != ours.id] or None
        successor.extra[PENDING] = sorted(set(successor.extra.get(PENDING, [])) | {ours.id})
        report.note(f"memory {ours.id}: theirs superseded it by {successor.id}, which is less trusted "
                    f"here ({origin.label(origin.of(successor.extra))}); approve {successor.id} to let it")


def _decide(sides: Sides, key: str, state: State | None, plan: _Plan, report: Report) -> None:
    """Plan the merge of one memory id: the record rules first, then the tombstones' time."""
    ours = _load(sides, "ours", key)
    theirs = _load(sides, "theirs", key)
    tombs = [t for t in (_tomb(sides, "ours", key), _tomb(sides, "theirs", key)) if t is not None]
    result, notes = _record(ours, theirs, state)
    if tombs:
        latest = max(tombs, key=lambda t: (t.forgotten, t.encode()))
        ours_tomb = _tomb(sides, "ours", key)
        stored = max((m.ts for m in (ours, theirs) if m is not None), default=None)
        if result is not None and stored is not None and stored > latest.forgotten:
            if ours_tomb is not None:
                plan.dropped.append(ours_tomb)  # memorized again after the forget: it is back
        else:
            held = [(side, record) for side, record in (("ours", ours), ("theirs", theirs)) if record]
            if held:  # the side that still had it may have memorized it again (deduped): say so
                report.note(_forgotten(key, held[0][1], latest, held[0][0]))
            result, notes = None, []
            if ours_tomb is None or ours_tomb.encode() != latest.encode():
                plan.tombs.append((ours_tomb, latest))
    for note in notes:
        report.conflict(f"memory {key}: {note}")
    if result is not None and ours is not None and theirs is not None:
        if ours.superseded_by and theirs.superseded_by and ours.superseded_by != theirs.superseded_by:
            plan.forks.append((key, ours.superseded_by, theirs.superseded_by))
    if result is None and ours is not None:
        plan.removed.append(ours)
    elif result is not None and ours is None:
        plan.added.append(result)
    elif result is not None and ours is not None and result is not ours:
        plan.replaced.append((ours, result))


def _record(
    ours: Memory | None, theirs: Memory | None, state: State | None
) -> tuple[Memory | None, list[str]]:
    """The record the union rules leave for one id (``state``: how ``memories`` differs there)."""
    if state is None:
        return ours, []
    winner = take(state)
    if winner == "ours":
        return ours, []
    if ours is None and theirs is not None:
        return theirs, [] if winner is not None else ["deleted on ours, changed on theirs; kept"]
    if theirs is None and ours is not None:
        return (None, []) if winner is not None else (ours, ["changed on ours, deleted on theirs; kept"])
    if ours is not None and theirs is not None:
        if replace(theirs, doc=ours.doc, seq=ours.seq) == ours:
            return ours, []  # only the derived numbers differ: ours' are the ones in force
        return (theirs if winner == "theirs" else combine(ours, theirs)), []
    return None, []


def combine(ours: Memory, theirs: Memory) -> Memory:
    """One record from two of the same memory: the earlier one's fields, gaps filled from the other.

    ``ts`` is the earliest; ``doc``, ``seq`` and ``embedder`` stay ours' (ours' index, timeline entry and
    vector are in place).
    """
    first, second = sorted((ours, theirs), key=lambda m: (m.ts, m.encode()))
    fields = asdict(first)
    for name, value in asdict(second).items():
        if fields.get(name) in (None, {}):
            fields[name] = value
    fields["extra"] = {**second.extra, **first.extra}
    fields.update(doc=ours.doc, seq=ours.seq, embedder=ours.embedder, ts=min(ours.ts, theirs.ts))
    return Memory(**fields)


def _replace(host: Host, embedder: StaticEmbedder, sides: Sides, ours: Memory, record: Memory) -> None:
    """Write ``record`` over ours' record of the same memory (same text: the postings stay)."""
    record.doc, record.seq = ours.doc, ours.seq
    if record.embedder != ours.embedder:
        vector = sides.get("theirs", f"vectors/{record.embedder}", record.id)
        if vector is None:
            record.embedder, vector = embedder.id, pack(embedder.embed(record.text))
        host.kv_put(f"vectors/{record.embedder}", record.id, vector)
        host.kv_put(f"vectors/{ours.embedder}", record.id, b"")
    host.kv_put(MEMORIES, record.id, record.encode())
    cites.note(host, STORE, record)


def _join_fork(host: Host, key: str, mine: str, other: str, report: Report) -> None:
    """One head for ``key``, superseded by ``mine`` on ours and ``other`` on theirs: the later one.

    Runs on the merged records; a successor that the merge left out (forgotten) does not compete.
    """
    old = _stored(host, key)
    successors = [m for m in (_stored(host, mine), _stored(host, other)) if m is not None]
    if old is None or not successors:
        return
    head = max(successors, key=lambda m: (m.ts, m.id))
    changed = {head.id: head}
    old.superseded_by = head.id
    changed[old.id] = old
    head.supersedes = sorted({*(head.supersedes or []), old.id})
    for loser in successors:
        if loser.id != head.id:
            loser.superseded_by = head.id
            loser.supersedes = sorted(set(loser.supersedes or []) - {old.id}) or None
            head.supersedes = sorted({*head.supersedes, loser.id})
            changed[loser.id] = loser
    for record in changed.values():
        host.kv_put(MEMORIES, record.id, record.encode())
    losers = [m.id for m in successors if m.id != head.id]
    if losers:
        report.conflict(f"memory {key} ({_short(old.text)}) was superseded on both branches, by {losers[0]} "
                        f"({_short(changed[losers[0]].text)}) and by {head.id} ({_short(head.text)}); the "
                        f"later one, {head.id}, is its head now and supersedes {losers[0]} too -- check it "
                        f"(rs-learn-host show {head.id}; memorize with --supersedes to decide otherwise)")
        report.count("memories", "superseded on both", 1)


def _forgotten(key: str, record: Memory, tomb: Tombstone, holder: str) -> str:
    """The note for a memory a forget of one side removes from (or keeps out of) the other."""
    forgetter = "theirs" if holder == "ours" else "ours"
    why = f" ({tomb.reason})" if tomb.reason else ""
    outcome = "removed" if holder == "ours" else "not added"
    return (f"memory {key} ({_short(record.text)}) was forgotten on {forgetter} at "
            f"{dates.iso_date(tomb.forgotten)}{why}; {holder} still had it, stored before that forget: "
            f"{outcome}. If {holder} memorized it again since (a memorize of a stored text changes "
            f"nothing), memorize it again now to keep it")


def _short(text: str, most: int = 60) -> str:
    """A text on one line, cut to ``most`` characters, JSON-quoted."""
    line = " ".join(text.split())
    return json.dumps(line if len(line) <= most else line[: most - 1] + "…", ensure_ascii=False)


def _stored(host: Host, key: str | None) -> Memory | None:
    """The merged record of ``key`` in ours, if any."""
    raw = host.kv_get(MEMORIES, key) if key else None
    return None if raw is None else Memory.decode(raw)


def _load(sides: Sides, side: str, key: str) -> Memory | None:
    raw = sides.get(side, MEMORIES, key)
    return None if raw is None else Memory.decode(raw)


def _tomb(sides: Sides, side: str, key: str) -> Tombstone | None:
    raw = sides.get(side, FORGOTTEN, key)
    return None if raw is None else Tombstone.decode(raw)
