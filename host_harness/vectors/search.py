"""``VectorIndex``: ``host-vec-search`` over the values of one SQLite database.

A namespace's vectors are the values that are little-endian f32 vectors of the
query's dimension. Ways to search them:

* **persisted** (namespaces whose digest the store records, at least
  ``policy.persist_min`` entries, a cache directory configured): the memory-mapped
  index of ``host_harness.vectors.index``, validated against the store's digest on
  every search, rebuilt from the store on a miss. A new process opens it in
  milliseconds instead of reading every vector;
* **scan** (everything else, and whenever the persisted index cannot be trusted
  right now): the values are loaded once per process into a float32 matrix of
  L2-normalised rows; a search is a matrix-vector product plus a partial sort;
* **none**, for a hook (``policy.scan_max``): a namespace bigger than that whose persisted index
  cannot be trusted right now (a pull or another process changed the store) is neither rebuilt
  nor scanned inside the hook's budget: the search answers no vector and says so (:attr:`note`),
  and the recall stands on its keyword channel until the index is rebuilt in the background.

Staying in sync (the index is a :class:`host_harness.kv.KVListener`):

* puts inside the open transaction update the scanned matrices in place and are
  overlaid on the persisted snapshot, so a call sees its own writes;
* just before a commit the persisted indexes get the transaction's changes
  (``committing``), and keep their locks until the commit is over (``committed``), so that
  no reader installs a rebuild at the old digest over them; a rollback drops what the
  transaction had changed;
* another connection's commit shows up as a new ``PRAGMA data_version`` (scanned
  matrices are dropped) or a new digest (the persisted snapshot is reopened);
* reopening the connection drops everything.

Scores: cosine of the normalised rows, rounded to f32 (the WIT type). Zero
vectors score 0. Values with a non-finite component (NaN, infinity) are corrupt,
not vectors: they are left out, as is everything for a non-finite query. Ties
break by key ascending (Python ``str`` order = UTF-8 byte order).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence

from host_harness.store import Digest, SqliteKV, tracked
from host_harness.store.topk import VectorTable, unit_query
from host_harness.vectors.index import IndexDir, IndexPolicy, Snapshot

log = logging.getLogger("rs_learn.host")


class VectorIndex:
    """Cosine search over every namespace of one :class:`SqliteKV`: persisted where possible, else scanned."""

    def __init__(self, kv: SqliteKV, policy: IndexPolicy | None = None) -> None:
        self.kv = kv
        self.policy = policy if policy is not None else IndexPolicy()
        self.tables: dict[tuple[str, int], VectorTable] = {}
        self.snapshots: dict[tuple[str, int], Snapshot] = {}
        self.pending: dict[str, dict[str, bytes]] = {}  # the open transaction's writes to tracked namespaces
        self.misses: set[tuple[str, int]] = set()  # indexes this process scanned instead of building
        self.unscanned: dict[tuple[str, int], int] = {}  # misses too big to scan now (policy.scan_max): size
        self.note: Callable[[str], None] = log.warning  # where a search answered without vectors says so
        self._version: int | None = None
        self._held = contextlib.ExitStack()  # index locks kept from ``committing`` to ``committed``
        kv.listeners.append(self)

    def search(self, ns: str, query: Sequence[float], k: int) -> list[tuple[str, float]]:
        """Return the ``k`` values of ``ns`` most cosine-similar to ``query``."""
        prepared = unit_query(query, k)
        if prepared is None:
            return []
        unit, dim = prepared[0], len(query)
        version = self.kv.data_version()
        if version is None:
            return []  # no database file: nothing stored
        if version != self._version:
            self.tables.clear()  # another connection committed
            self._version = version
        snapshot = self._snapshot(ns, dim)
        if snapshot is not None:
            candidates = self.policy.candidates if self.policy.approx_min is not None else None
            return snapshot.search(unit, k, self.pending.get(ns, {}), candidates)
        table = self.tables.get((ns, dim))
        if table is None and (ns, dim) in self.unscanned:
            self.note(f"answered from the keyword channel alone: the vector index of {ns!r} in "
                      f"{self.kv.path} ({self.unscanned[ns, dim]} vectors) is out of date and is rebuilt "
                      "in the background")
            return []
        if table is None:
            table = VectorTable(dim, self.kv.values_of_size(ns, 4 * dim))
            self.tables[(ns, dim)] = table
        return table.search(unit, k)

    def _snapshot(self, ns: str, dim: int) -> Snapshot | None:
        """The persisted snapshot of ``ns`` at the start of the call, or ``None`` to scan instead."""
        self.unscanned.pop((ns, dim), None)
        if self.policy.cache_dir is None or not tracked(ns):
            return None
        digest = self.kv.base_digest(ns)
        if digest is None or digest.entries < self.policy.persist_min:
            return None  # unknown (an old or foreign-written store) or too small to be worth it
        snapshot = self.snapshots.get((ns, dim))
        if snapshot is not None and snapshot.digest == digest:
            return snapshot
        index = IndexDir(self.policy, self.kv.path, ns, dim)
        snapshot = index.open(digest)
        if snapshot is None:
            if self.pending.get(ns):
                return None  # the store already holds this call's writes: it cannot rebuild the start state
            if not self.policy.build_on_miss:
                self.misses.add((ns, dim))
                if self.policy.scan_max is not None and digest.entries > self.policy.scan_max:
                    self.unscanned[ns, dim] = digest.entries
                return None
            snapshot = index.build(digest, self.kv.values_of_size(ns, 4 * dim))
        self.snapshots[(ns, dim)] = snapshot
        return snapshot

    def prepare(self, ns: str, dim: int) -> bool:
        """Open or build the persisted index of ``ns`` now; whether searches of it will use one."""
        found = self.kv.data_version() is not None and self._snapshot(ns, dim) is not None
        self.kv.rollback()
        return found

    # KVListener

    def changed(self, ns: str, key: str, value: bytes) -> None:
        """Apply a put of the open transaction to the scanned tables of ``ns`` and to its overlay."""
        for (table_ns, _), table in self.tables.items():
            if table_ns == ns:
                table.set(key, value)
        if tracked(ns):
            self.pending.setdefault(ns, {})[key] = value

    def committing(self, digests: dict[str, tuple[Digest | None, Digest]]) -> None:
        """Hand the transaction's changes to the persisted indexes of their namespaces."""
        for ns, (before, after) in digests.items():
            changes = self.pending.pop(ns, {})
            if not changes or self.policy.cache_dir is None:
                continue
            for (snap_ns, _), snapshot in self.snapshots.items():
                if snap_ns == ns and before is not None and snapshot.digest == before:
                    snapshot.apply(changes, after)
            for dim in IndexDir.dims(self.policy, self.kv.path, ns):
                IndexDir(self.policy, self.kv.path, ns, dim).append(before, after, changes, self._held)
        self.pending.clear()

    def committed(self) -> None:
        """The commit is over (done or failed): release the index locks ``committing`` kept."""
        self._held.close()

    def rolled_back(self, namespaces: set[str]) -> None:
        """Forget the tables and overlays the rolled-back transaction had changed."""
        for ns, dim in list(self.tables):
            if ns in namespaces:
                del self.tables[(ns, dim)]
        for ns in namespaces:
            self.pending.pop(ns, None)

    def reset(self) -> None:
        """Forget everything (the connection was reopened)."""
        self.tables.clear()
        self.snapshots.clear()
        self.pending.clear()
        self.unscanned.clear()
        self._version = None
