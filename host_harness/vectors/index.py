"""The persisted vector index: what a new process searches instead of reading every vector from SQLite.

Every CLI call and every prompt-submit hook is a new process. Loading a namespace's vectors from
SQLite costs ~10 us per memory (a second at 100k); mapping a persisted index costs milliseconds.
The index lives in the user's cache, never in the project:

    <cache>/vectors/<sha256 of the store's absolute path>/<sha256 of the namespace>-<dim>/
        head.json        which base, how much delta, and the store digest they reproduce
        <id>.rows ...    the base files (``host_harness.vectors.files``)
        <id>.delta       writes since the base
        lock             serialises the processes that write this directory

**Trust.** An index is served only when ``head.json`` names the digest the store records for the
namespace *now* (``host_harness.store.digest``; the digest of the state at the start of the
call, whose own writes are overlaid). Anything else -- an older or newer digest, a head or file that
does not parse or has the wrong size, a store replaced by ``git checkout`` -- is a miss: the index
is rebuilt from the store (a full read, once) or, if that cannot happen now, the call scans SQLite as
before. A stale or corrupt cache is never served.

**Keeping up.** A writer in this harness appends its committed changes to the delta of every
index of the namespace whose head is at the digest its transaction started from, and moves the head
to the new digest, just before ``COMMIT`` (under the store's write lock and the directory's
``flock``). If the commit then fails, the head names a digest the store never reached: a miss. A
delta longer than ``max(2048, rows / 8)`` records is folded into a new base by the writer.

**Exact or approximate.** Below ``approx_min`` rows the base is searched exactly (one float32
matrix-vector product over the mapped rows). From ``approx_min`` rows on, a base also carries the
sign bits of its centred rows; a search ranks every row by Hamming distance, rescores the best
``max(candidates, 20 k)`` (ties at the cut by row number) exactly and returns those: scores are
exact cosines, only the candidate set is approximate (recall@10 against exact is measured by
``make bench``; the threshold and the candidate count come from there, see ``docs/decisions.md``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from host_harness.cachedir import flock_within
from host_harness.config import ConfigError
from host_harness.fs import write_atomic
from host_harness.store import Digest
from host_harness.store.topk import Matrix, VectorTable, ranked, top_rows
from host_harness.vectors.files import Base, append_delta, encode_delta, read_delta, sign_bits

FORMAT = 2  # 2: sign bits stored word-major
SUBDIR = "vectors"
DELTA_MIN = 2048
KEEP_STORES = 16
LOCK_WAIT_S = 1.0
MODE_ENV = "RS_LEARN_VECTOR_INDEX"
MODES = ("auto", "exact", "scan")
PERSIST_MIN = 1000
APPROX_MIN = 50_000  # measured crossover: docs/decisions.md D44
CANDIDATES = 1000
HOOK_SCAN_MAX = 20_000  # the hooks scan at most this many vectors on a miss (~0.2 s): docs/large-stores.md

log = logging.getLogger("rs_learn.host")
Hits = list[tuple[str, float]]


@dataclass(frozen=True)
class IndexPolicy:
    """When to persist and when to approximate; ``cache_dir=None`` never persists (scan SQLite)."""

    cache_dir: Path | None = None
    persist_min: int = PERSIST_MIN
    approx_min: int | None = APPROX_MIN
    candidates: int = CANDIDATES
    build_on_miss: bool = True  # False: scan on a miss and note it (the hook builds in the background)
    scan_max: int | None = None  # without build_on_miss: bigger namespaces are not scanned either

    @classmethod
    def from_env(cls, cache_dir: Path) -> IndexPolicy:
        """``$RS_LEARN_VECTOR_INDEX``: ``auto`` (default), ``exact`` (never approximate) or ``scan``."""
        mode = os.environ.get(MODE_ENV, "auto").strip().lower() or "auto"
        if mode not in MODES:
            raise ConfigError(f"{MODE_ENV}={mode!r} is not one of {', '.join(MODES)}")
        if mode == "scan":
            return cls(None)
        return cls(cache_dir, approx_min=None if mode == "exact" else APPROX_MIN)


class Snapshot:
    """A base plus the delta on top of it: the namespace's vectors at :attr:`digest`."""

    def __init__(self, digest: Digest, base: Base, dim: int, changes: dict[str, bytes]) -> None:
        self.digest = digest
        self.base = base
        self.dim = dim
        self.changes = dict(changes)  # key -> latest value since the base (empty: deleted)
        size = 4 * dim
        self.delta = VectorTable(dim, [(k, v) for k, v in self.changes.items() if len(v) == size])
        self.hidden = base.rows_of(self.changes)  # base rows the delta replaced or deleted

    def apply(self, changes: dict[str, bytes], digest: Digest) -> None:
        """Add committed ``changes``; the snapshot is now at ``digest``."""
        fresh = [key for key in changes if key not in self.changes]
        for key, value in changes.items():
            self.delta.set(key, value)  # a deletion or a non-vector removes the key
        self.changes.update(changes)
        self.hidden = np.union1d(self.hidden, self.base.rows_of(fresh)).astype(np.intp)
        self.digest = digest

    def search(self, query: Matrix, k: int, overlay: dict[str, bytes], approx_candidates: int | None) -> Hits:
        """The ``k`` best of base, delta and the call's own ``overlay`` writes (exact ties by key)."""
        hidden = self.hidden
        if overlay:
            hidden = np.union1d(hidden, self.base.rows_of(overlay)).astype(np.intp)
        hits = self._base_hits(query, k, hidden, approx_candidates)
        hits += [hit for hit in self.delta.search(query, k + len(overlay)) if hit[0] not in overlay]
        if overlay:
            own = VectorTable(self.dim, [(k_, v) for k_, v in overlay.items() if len(v) == 4 * self.dim])
            hits += own.search(query, k)
        return ranked(hits, k)

    def _base_hits(self, query: Matrix, k: int, hidden: Any, approx_candidates: int | None) -> Hits:
        base = self.base
        if base.size == 0:
            return []
        if approx_candidates is not None and base.bits is not None and base.mean is not None:
            wanted = max(approx_candidates, 20 * k)
            if wanted < base.size:
                qbits = sign_bits((query - base.mean)[None, :])[0]
                rows = nearest(hamming(base.bits, qbits), wanted)
                if len(hidden):
                    rows = np.setdiff1d(rows, hidden, assume_unique=True)
                scores = base.rows[rows] @ query
                return [(base.key(int(rows[i])), float(scores[i])) for i in top_rows(scores, k).tolist()]
        scores = base.rows @ query
        if len(hidden):
            scores[hidden] = -np.inf
        return [(base.key(i), float(scores[i])) for i in top_rows(scores, k).tolist() if scores[i] > -np.inf]


def nearest(distance: Any, wanted: int) -> Any:
    """The ``wanted`` rows of smallest ``distance`` (< ``len(distance)``), ties by row number; ascending.

    Distances are small integers, so a histogram finds the cut distance in one pass: every row
    below it is taken, then the first rows at it. At 100k rows this takes ~0.15 ms where
    ``argpartition`` took ~1.2 ms (and chose among the rows at the cut arbitrarily).
    """
    cut = int(np.searchsorted(np.cumsum(np.bincount(distance)), wanted))
    rows = np.flatnonzero(distance <= cut)
    if len(rows) > wanted:
        keep = distance[rows] < cut
        keep[np.flatnonzero(~keep)[: wanted - int(np.count_nonzero(keep))]] = True
        rows = rows[keep]
    return rows


def hamming(bits: Any, qbits: Any) -> Any:
    """Hamming distance to ``qbits`` of every row of word-major ``bits`` (``words x rows`` u64).

    One contiguous pass per word, into u16 distances (u32 past 65,535 bits): ~4.6 ms at 1M rows
    of 6 words, where row-major bits read word column by word column took ~15.6 ms (each pass
    strided over every cache line) and ``bitwise_count(bits ^ qbits).sum(axis=1)`` ~29 ms.
    """
    words, size = bits.shape
    distance = np.zeros(size, dtype=np.uint16 if words * 64 <= 0xFFFF else np.uint32)
    scratch, counts = np.empty(size, dtype=bits.dtype), np.empty(size, dtype=np.uint8)
    for word in range(words):
        np.bitwise_xor(bits[word], qbits[word], out=scratch)
        distance += np.bitwise_count(scratch, out=counts)
    return distance


@functools.lru_cache(maxsize=256)
def store_key(db: Path) -> str:
    """The cache folder of a store: a digest of its absolute path.

    Memoised per process: every commit asks, to find the store's persisted indexes.
    """
    return hashlib.sha256(str(db.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:24]


class IndexDir:
    """The persisted index of one ``(store, namespace, dimension)``."""

    def __init__(self, policy: IndexPolicy, db: Path, ns: str, dim: int) -> None:
        assert policy.cache_dir is not None
        self.policy = policy
        self.db, self.ns, self.dim = db, ns, dim
        self.store = policy.cache_dir / SUBDIR / store_key(db)
        self.path = self.store / f"{hashlib.sha256(ns.encode('utf-8')).hexdigest()[:16]}-{dim}"

    @classmethod
    def dims(cls, policy: IndexPolicy, db: Path, ns: str) -> list[int]:
        """The dimensions with a persisted index of ``ns`` in ``db``'s cache folder."""
        probe = cls(policy, db, ns, 0)
        prefix = probe.path.name[:-1]  # "<namespace digest>-"
        try:
            names = [p.name for p in probe.store.iterdir() if p.name.startswith(prefix)]
        except OSError:
            return []
        return sorted(int(name[len(prefix) :]) for name in names if name[len(prefix) :].isdigit())

    # reading

    def head(self) -> dict[str, Any] | None:
        """The parsed head, or ``None`` when absent, unreadable or about another store/namespace."""
        try:
            head = json.loads((self.path / "head.json").read_bytes())
        except (OSError, ValueError):
            return None
        expected = {"format": FORMAT, "db": str(self.db.resolve()), "ns": self.ns, "dim": self.dim}
        if not isinstance(head, dict) or any(head.get(k) != v for k, v in expected.items()):
            return None
        return head

    def open(self, digest: Digest) -> Snapshot | None:
        """The snapshot at ``digest`` from the files, or ``None`` (a miss: absent, stale or corrupt)."""
        head = self.head()
        if head is None or head.get("digest") != digest.hex() or head.get("entries") != digest.entries:
            return None
        try:
            ident = str(head["base"])
            base = Base.load(self.path, ident, int(head["rows"]), self.dim, bool(head["approx"]))
            changes = read_delta(self.path / f"{ident}.delta", int(head["delta"]))
            return Snapshot(digest, base, self.dim, changes)
        except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
            log.warning("vector index %s is unusable (%s); rebuilding it", self.path, error)
            return None

    # writing

    def build(self, digest: Digest, pairs: Iterable[tuple[str, bytes]]) -> Snapshot:
        """A new base from the store's vectors at ``digest``; persisted when the cache is writable."""
        base = Base.from_pairs(self.dim, pairs, self.policy.approx_min)
        with self.lock(wait=False) as locked:
            if locked:
                self._install(base, digest)
        return Snapshot(digest, base, self.dim, {})

    def append(self, before: Digest | None, after: Digest, changes: dict[str, bytes],
               held: contextlib.ExitStack) -> None:
        """Add a transaction's ``changes`` if the head is at ``before``; fold a long delta into a new base.

        The lock stays in ``held`` until the store's ``COMMIT`` is over. Between this append and that
        commit the head is ahead of what every reader sees: a reader that missed and rebuilt at the old
        digest would otherwise install its base over this head, and the index would then be stale for
        every later process until the next rebuild.
        """
        if held.enter_context(self.lock(wait=True)):
            head = self.head()
            if head is None or before is None or head.get("digest") != before.hex():
                return
            ident, length, records = str(head["base"]), int(head["delta"]), encode_delta(changes)
            append_delta(self.path / f"{ident}.delta", length, records)
            head.update(digest=after.hex(), entries=after.entries, delta=length + len(records),
                        records=int(head["records"]) + len(changes))
            if head["records"] <= max(DELTA_MIN, int(head["rows"]) // 8):
                write_atomic(self.path / "head.json", json.dumps(head).encode("utf-8"))
                return
            snapshot = Snapshot(after, Base.load(self.path, ident, int(head["rows"]), self.dim,
                                                 bool(head["approx"])), self.dim,
                                read_delta(self.path / f"{ident}.delta", int(head["delta"])))
            self._install(compact(snapshot, self.policy.approx_min), after)

    def _install(self, base: Base, digest: Digest) -> None:
        """Write ``base``'s files, point the head at it, drop older bases (caller holds the lock)."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            db = str(self.db.resolve())
            write_atomic(self.store / "store.json", json.dumps({"db": db}).encode("utf-8"))
            base.write(self.path)
            head = {"format": FORMAT, "db": db, "ns": self.ns, "dim": self.dim,
                    "digest": digest.hex(), "entries": digest.entries, "base": base.ident, "rows": base.size,
                    "approx": base.bits is not None, "delta": 0, "records": 0}
            write_atomic(self.path / "head.json", json.dumps(head).encode("utf-8"))
        except OSError as error:
            log.warning("cannot persist the vector index %s: %s", self.path, error)
            return
        keep = {base.ident}
        for path in sorted(self.path.iterdir(), key=_mtime, reverse=True):
            ident = path.name.split(".", 1)[0]
            if path.name in ("head.json", "lock") or path.name.startswith("."):
                continue
            if len(keep) < 2 or ident in keep:  # the previous base stays for readers that just opened it
                keep.add(ident)
                continue
            path.unlink(missing_ok=True)
        prune_stores(self.store.parent, self.store)

    @contextlib.contextmanager
    def lock(self, wait: bool) -> Iterator[bool]:
        """``flock`` the directory; yields whether it was acquired (``wait``: up to :data:`LOCK_WAIT_S`)."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            yield False
            return
        try:
            yield flock_within(fd, LOCK_WAIT_S if wait else 0.0, 0.01)
        finally:
            os.close(fd)


def compact(snapshot: Snapshot, approx_min: int | None) -> Base:
    """One base holding what ``snapshot`` holds (base rows not hidden, plus the delta's vectors)."""
    base, delta = snapshot.base, snapshot.delta
    keep = np.setdiff1d(np.arange(base.size), snapshot.hidden, assume_unique=True)
    keys = [base.key(int(i)) for i in keep] + delta.keys[: delta.size]
    rows = np.concatenate([np.asarray(base.rows[keep]), delta.rows[: delta.size]])
    return Base.make(keys, rows, approx_min is not None and len(keys) >= approx_min)


def prune_stores(root: Path, current: Path) -> None:
    """Drop the indexes of stores that no longer exist, and all but the :data:`KEEP_STORES` most recent."""
    try:
        stores = [p for p in root.iterdir() if p.is_dir()]
    except OSError:
        return
    live = []
    for store in stores:
        try:
            db = Path(json.loads((store / "store.json").read_bytes())["db"])
        except (OSError, ValueError, KeyError, TypeError):
            db = None
        if store != current and (db is None or not db.exists()):
            shutil.rmtree(store, ignore_errors=True)
        else:
            live.append(store)
    for store in sorted(live, key=_mtime, reverse=True)[KEEP_STORES:]:
        if store != current:
            shutil.rmtree(store, ignore_errors=True)


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0
