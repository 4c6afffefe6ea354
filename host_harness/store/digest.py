"""Content digests of the vector namespaces, kept by the store in the same transaction as the writes.

The persisted vector index (``host_harness.vectors.index``) lives outside the project, in the
user's cache; the committed ``.db`` is the only source of truth, and it may be replaced under us
(``git checkout``, ``git pull``, a merge). So the index is served only when it was built from
*exactly* what the store holds now, and the store says what that is: table ``kv_digest`` holds,
per tracked namespace, the number of entries and an order-independent digest of them,

    digest = sum(blake2b-128(utf8(key) || 0x00 || value)) mod 2**128   over the namespace's rows,

updated by every write in the writing transaction (add the new row's hash, subtract the old
one's). Equal digests mean equal contents (up to a 2**-128 accident), whichever history led
there: two branches that end with the same vectors share a cache; any difference is a mismatch.

Writers that do not know about digests (an older host, the ``sqlite3`` shell, a merge driver
writing rows) cannot leave a wrong digest behind: triggers on ``kv`` set the namespace's digest
to NULL on any insert, update or delete, and our own writer restores it before committing. A NULL
or missing digest means "unknown": readers fall back to scanning the store, and the next write
through this harness recomputes it from the rows.

Tracked namespaces are the ones the guest keeps vectors in: the first path segment ends in
``vectors`` (``vectors/<embedder>``, ``records-vectors/<embedder>``). Other namespaces are still
searchable by ``host-vec-search``; they are scanned, as before.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass

MOD = 1 << 128
# SQL form of :func:`tracked` (GLOB is case-sensitive, like the Python rule).
_TRACKED_SQL = "substr({row}.ns, 1, instr({row}.ns || '/', '/') - 1) GLOB '*vectors'"
_INVALIDATE = (
    "CREATE TRIGGER IF NOT EXISTS kv_digest_{event} AFTER {event} ON kv WHEN " + _TRACKED_SQL
    + " BEGIN UPDATE kv_digest SET digest = NULL WHERE ns = {row}.ns; END"
)
# Migration 2 (see ``host_harness.store.schema.MIGRATIONS``): one statement per entry.
SCHEMA = [
    "CREATE TABLE IF NOT EXISTS kv_digest ("
    " ns TEXT PRIMARY KEY, entries INTEGER NOT NULL, digest BLOB) WITHOUT ROWID",
    _INVALIDATE.format(event="INSERT", row="NEW"),
    _INVALIDATE.format(event="UPDATE", row="NEW"),
    _INVALIDATE.format(event="DELETE", row="OLD"),
]


def tracked(ns: str) -> bool:
    """Whether the store keeps a digest of ``ns`` (its first segment ends in ``vectors``)."""
    return ns.split("/", 1)[0].endswith("vectors")


def row_hash(key: str, value: bytes) -> int:
    """The 128-bit hash of one entry."""
    raw = hashlib.blake2b(key.encode("utf-8") + b"\x00" + value, digest_size=16).digest()
    return int.from_bytes(raw, "little")


@dataclass(frozen=True)
class Digest:
    """What a namespace holds: how many entries and their summed hash."""

    entries: int
    value: int

    def hex(self) -> str:
        """The digest as 32 hex digits (for file headers and logs)."""
        return f"{self.value:032x}"

    def changed(self, removed: int, added: int, count: int) -> Digest:
        """The digest after removing hash ``removed``, adding ``added``, and ``count`` more entries."""
        return Digest(self.entries + count, (self.value - removed + added) % MOD)


EMPTY = Digest(0, 0)


def read(conn: sqlite3.Connection, ns: str) -> Digest | None:
    """The recorded digest of ``ns``; ``None`` when unknown (NULL, or rows without a digest row)."""
    try:
        row = conn.execute("SELECT entries, digest FROM kv_digest WHERE ns = ?", (ns,)).fetchone()
    except sqlite3.OperationalError as error:
        if "no such table" in str(error):
            return None  # a store from before migration 2: nothing recorded
        raise
    if row is None:
        empty = conn.execute("SELECT 1 FROM kv WHERE ns = ? LIMIT 1", (ns,)).fetchone() is None
        return EMPTY if empty else None
    if row[1] is None:
        return None
    return Digest(int(row[0]), int.from_bytes(bytes(row[1]), "little"))


def compute(conn: sqlite3.Connection, ns: str) -> Digest:
    """The digest of ``ns`` from its rows (reads the whole namespace)."""
    total = count = 0
    for key, value in conn.execute("SELECT key, value FROM kv WHERE ns = ?", (ns,)):
        total += row_hash(key, bytes(value))
        count += 1
    return Digest(count, total % MOD)


def backfill(conn: sqlite3.Connection) -> None:
    """Record the digest of every tracked namespace already in the store (migration 2)."""
    for (ns,) in conn.execute("SELECT DISTINCT ns FROM kv").fetchall():
        if tracked(ns):
            write(conn, ns, compute(conn, ns))


def write(conn: sqlite3.Connection, ns: str, digest: Digest) -> None:
    """Record ``digest`` for ``ns`` (an empty namespace has no row)."""
    if digest.entries == 0:
        conn.execute("DELETE FROM kv_digest WHERE ns = ?", (ns,))
        return
    conn.execute(
        "INSERT INTO kv_digest (ns, entries, digest) VALUES (?, ?, ?) ON CONFLICT (ns) "
        "DO UPDATE SET entries = excluded.entries, digest = excluded.digest",
        (ns, digest.entries, digest.value.to_bytes(16, "little")),
    )


class DigestBook:
    """The digests a write transaction changes: read before its first write, written before COMMIT."""

    def __init__(self) -> None:
        self.before: dict[str, Digest | None] = {}
        self._delta: dict[str, tuple[int, int, int]] = {}  # ns -> (removed, added, count)

    def note(self, conn: sqlite3.Connection, ns: str, key: str, old: bytes | None, new: bytes) -> None:
        """Account for ``key`` going from ``old`` (``None``: absent) to ``new`` (empty: deleted)."""
        if ns not in self.before:
            self.before[ns] = read(conn, ns)  # before our first write: the trigger is about to NULL it
        removed, added, count = self._delta.get(ns, (0, 0, 0))
        if old is not None:
            removed, count = removed + row_hash(key, old), count - 1
        if new:
            added, count = added + row_hash(key, new), count + 1
        self._delta[ns] = (removed, added, count)

    def flush(self, conn: sqlite3.Connection) -> dict[str, tuple[Digest | None, Digest]]:
        """Write every changed digest; return ``{ns: (digest before, digest after)}``."""
        out: dict[str, tuple[Digest | None, Digest]] = {}
        for ns, (removed, added, count) in self._delta.items():
            before = self.before.get(ns)
            after = before.changed(removed, added, count) if before is not None else compute(conn, ns)
            write(conn, ns, after)
            out[ns] = (before, after)
        self.clear()
        return out

    def clear(self) -> None:
        """Forget the transaction (committed or rolled back)."""
        self.before.clear()
        self._delta.clear()
