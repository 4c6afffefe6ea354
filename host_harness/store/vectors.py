"""``VectorIndex``: ``host-vec-search`` over the values of one SQLite database.

A namespace's vectors are the values that are little-endian f32 vectors of the
query's dimension. For each ``(namespace, dimension)`` asked about, the index
loads them once into a float32 matrix of L2-normalised rows; a search is then a
single matrix-vector product plus a partial sort.

Staying in sync (the index is a :class:`host_harness.kv.KVListener`):

* puts inside the open transaction update the cached matrices in place
  (replace, append, delete), so a call sees its own writes;
* a rollback drops the matrices of the namespaces the transaction changed;
* another connection's commit shows up as a new ``PRAGMA data_version``, which
  drops every matrix of the database (checked at each search);
* reopening the connection drops everything.

Scores: cosine of the normalised rows, rounded to f32 (the WIT type). Zero
vectors score 0. Values with a non-finite component (NaN, infinity) are corrupt,
not vectors: they are left out, as is everything for a non-finite query. Ties
break by key ascending (Python ``str`` order = UTF-8 byte order).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from host_harness.store.kv import SqliteKV

F32 = np.dtype("<f4")
F32_SAFE_NORM = 1e37  # below float32's maximum (3.4e38) with room to spare

Matrix = npt.NDArray[np.float32]


def normalise(rows: Matrix) -> tuple[Matrix, npt.NDArray[np.bool_]]:
    """L2-normalised float32 copies of ``rows`` (zero rows stay zero) and the mask of finite rows.

    Squared norms are accumulated in float64, so large components cannot overflow;
    the division runs in float32 except for the (absurd) rows whose norm does not fit.
    """
    finite: npt.NDArray[np.bool_] = np.asarray(np.isfinite(rows).all(axis=1))
    with np.errstate(invalid="ignore", over="ignore"):
        norms = np.sqrt(np.einsum("ij,ij->i", rows, rows, dtype=np.float64))
    norms[~finite | (norms == 0.0)] = 1.0
    huge = norms > F32_SAFE_NORM
    out: Matrix = np.empty(rows.shape, dtype=np.float32)
    np.divide(rows, np.where(huge, 1.0, norms).astype(np.float32)[:, None], out=out)
    if huge.any():
        out[huge] = rows[huge].astype(np.float64) / norms[huge][:, None]
    out[~finite] = 0.0
    return out, finite


class VectorTable:
    """The vectors of one dimension in one namespace: keys and a growable normalised matrix."""

    def __init__(self, dim: int, pairs: Sequence[tuple[str, bytes]] = ()) -> None:
        self.dim = dim
        raw = np.frombuffer(b"".join(value for _, value in pairs), dtype=F32).reshape(len(pairs), dim)
        rows, finite = normalise(raw)
        self.keys: list[str] = [key for (key, _), ok in zip(pairs, finite, strict=True) if ok]
        self.rows: Matrix = rows[finite]
        self.size = len(self.keys)
        self.position = {key: i for i, key in enumerate(self.keys)}

    def set(self, key: str, value: bytes) -> None:
        """Insert or replace ``key`` (a value of another size, or a corrupt one, removes it)."""
        if len(value) != 4 * self.dim:
            self.remove(key)
            return
        row, finite = normalise(np.frombuffer(value, dtype=F32).reshape(1, self.dim))
        if not finite[0]:
            self.remove(key)
            return
        i = self.position.get(key)
        if i is None:
            if self.size == len(self.rows):
                grown = np.zeros((max(16, 2 * self.size), self.dim), dtype=np.float32)
                grown[: self.size] = self.rows[: self.size]
                self.rows = grown
            i = self.size
            self.size += 1
            self.keys.append(key)
            self.position[key] = i
        self.rows[i] = row[0]

    def remove(self, key: str) -> None:
        """Delete ``key`` by moving the last row into its place (order is irrelevant)."""
        i = self.position.pop(key, None)
        if i is None:
            return
        last = self.size - 1
        if i != last:
            moved = self.keys[last]
            self.rows[i] = self.rows[last]
            self.keys[i] = moved
            self.position[moved] = i
        self.keys.pop()
        self.size = last

    def search(self, query: Matrix, k: int) -> list[tuple[str, float]]:
        """Top ``k`` by cosine with the normalised ``query``: score desc, then key asc."""
        n = self.size
        if n == 0 or k <= 0:
            return []
        scores = self.rows[:n] @ query
        if k < n:
            neg = -scores
            kth = np.partition(neg, k - 1)[k - 1]
            candidates = np.flatnonzero(neg <= kth)  # every row tied with the k-th one too
        else:
            candidates = np.arange(n)
        keys = self.keys
        pairs = [(float(scores[i]), keys[i]) for i in candidates.tolist()]
        ranked = sorted(pairs, key=lambda p: (-p[0], p[1]))
        return [(key, score) for score, key in ranked[:k]]


class VectorIndex:
    """Cached cosine search over every namespace of one :class:`SqliteKV`."""

    def __init__(self, kv: SqliteKV) -> None:
        self.kv = kv
        self.tables: dict[tuple[str, int], VectorTable] = {}
        self._version: int | None = None
        kv.listeners.append(self)

    def search(self, ns: str, query: Sequence[float], k: int) -> list[tuple[str, float]]:
        """Return the ``k`` values of ``ns`` most cosine-similar to ``query``."""
        dim = len(query)
        if k <= 0 or dim == 0:
            return []
        q = np.asarray(query, dtype=np.float64)
        if not np.isfinite(q).all():
            return []
        version = self.kv.data_version()
        if version is None:
            return []  # no database file: nothing stored
        if version != self._version:
            self.tables.clear()  # another connection committed
            self._version = version
        table = self.tables.get((ns, dim))
        if table is None:
            table = VectorTable(dim, self.kv.values_of_size(ns, 4 * dim))
            self.tables[(ns, dim)] = table
        norm = float(np.sqrt(q @ q))
        return table.search((q / norm if norm else q).astype(np.float32), k)

    # KVListener

    def changed(self, ns: str, key: str, value: bytes) -> None:
        """Apply a put of the open transaction to the cached tables of ``ns``."""
        for (table_ns, _), table in self.tables.items():
            if table_ns == ns:
                table.set(key, value)

    def rolled_back(self, namespaces: set[str]) -> None:
        """Forget the tables the rolled-back transaction had changed."""
        for ns, dim in list(self.tables):
            if ns in namespaces:
                del self.tables[(ns, dim)]

    def reset(self) -> None:
        """Forget everything (the connection was reopened)."""
        self.tables.clear()
        self._version = None
