"""``git_merge``: the three-way merge of one store, bucket by bucket.

Each capability merges the buckets it owns (:data:`OWNERS`): memories (a union), the archive
(collisions renumbered), structured records (by id, version and field). Derived buckets -- vectors,
keyword postings, counters, index chunks -- are never merged key by key: each owner brings them
up to date after merging its durable data. A bucket nobody owns (written by a newer rs-learn, or
another tool) is merged conservatively, key by key: a key only one side changed takes that change,
a key both changed keeps ours and is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from guest.git import archive, memories, records
from guest.git.sides import Report, Sides, take
from guest.host import Host
from guest.memory import origin
from guest.text.embed import StaticEmbedder

OWNERS: list[Callable[[str], bool]] = [memories.owns, archive.owns, records.owns]


def merge_store(host: Host, embedder: StaticEmbedder, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """Merge theirs (``git/theirs/``) into ours (the store) against the base; the report.

    ``body``: ``{theirs: {commit?, author?, self?}}``, what the driver knows of the branch merged in
    (the origin of the memories it adds: :func:`guest.memory.origin.git`).
    """
    sides = Sides(host, "merge")
    report = Report()
    memories.merge(host, embedder, sides, report, origin.git(body or {}))
    archive.merge(host, sides, report)
    records.merge(host, embedder, sides, report)
    for bucket, counts in sorted(sides.buckets().items()):
        if counts.get("changed") and not any(owns(bucket) for owns in OWNERS):
            merge_unknown(host, sides, bucket, report)
    return report.as_json()


def merge_unknown(host: Host, sides: Sides, bucket: str, report: Report) -> None:
    """Key by key: one side's change wins; both changed: ours is kept and the key reported."""
    for key, state in sides.changed(bucket).items():
        winner = take(state)
        if winner == "theirs":
            host.kv_put(bucket, key, sides.get("theirs", bucket, key) or b"")
            report.count("other", bucket)
        elif winner is None:
            report.conflict(f"{bucket} {key!r}: changed on both sides (unknown bucket); kept ours")
