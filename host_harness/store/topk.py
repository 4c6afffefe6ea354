"""Cosine top-k over float32 matrices: normalising rows, a growable table, the top-k rule.

Shared by the in-memory scan (``host_harness.vectors.search``) and the persisted index
(``host_harness.vectors.index``), so both answer with the same scores and the same ties.

Scores: cosine of the normalised rows, rounded to f32 (the WIT type). Zero vectors
score 0. Values with a non-finite component (NaN, infinity) are corrupt, not
vectors: they are left out. Ties break by key ascending (Python ``str`` order =
UTF-8 byte order).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

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
        keys = self.keys
        return ranked([(keys[i], float(scores[i])) for i in top_rows(scores, k).tolist()], k)


def unit_query(query: Sequence[float], k: int) -> tuple[Matrix, float] | None:
    """The L2-normalised f32 query and its norm; ``None`` if nothing can match (k <= 0, empty, not finite)."""
    if k <= 0 or len(query) == 0:
        return None
    q = np.asarray(query, dtype=np.float64)
    if not np.isfinite(q).all():
        return None
    norm = float(np.sqrt(q @ q))
    return (q / norm if norm else q).astype(np.float32), norm


def top_rows(scores: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.intp]:
    """Indices of the ``k`` best scores, plus every row tied with the ``k``-th (the key decides later)."""
    if k >= len(scores):
        return np.arange(len(scores))
    neg = -scores
    kth = np.partition(neg, k - 1)[k - 1]
    return np.flatnonzero(neg <= kth)


def ranked(hits: list[tuple[str, float]], k: int) -> list[tuple[str, float]]:
    """The ``k`` best ``(key, score)`` pairs: score descending, then key ascending."""
    return sorted(hits, key=lambda hit: (-hit[1], hit[0]))[:k]
