"""``PgVectorIndex``: ``host-vec-search`` on the PostgreSQL store, answered by pgvector.

PostgreSQL picks the candidates, this module scores them: the candidates' stored values are
rescored exactly with ``host_harness.store.topk`` (the SQLite store's code), so scores, the
treatment of zero and corrupt vectors, and ties by key are the same on both stores.

* **exact** (below ``approx_min`` vectors in the namespace, other dimensions than the HNSW
  index's, ``RS_LEARN_VECTOR_INDEX=exact``): ``ORDER BY`` cosine distance over the namespace's rows
  (a scan inside the server), ``k`` plus a margin fetched. pgvector accumulates in f32, so where
  the margin's last score comes within :data:`EPS` of the k-th the fetch is repeated wider:
  nothing that ties with or beats the k-th is ever left out. Zero vectors (``vec`` NULL) sort as
  distance 1 (score 0); rows whose distance overflows (NaN) sort first, to be scored here.
* **approximate** (from ``approx_min`` vectors, dimension 384): the HNSW cosine index returns
  ``candidates`` rows (``hnsw.ef_search`` at least that; sorting and sequential scans are turned
  off for that one query, so stale planner statistics cannot turn it into a sort), the zero
  vectors are added from their own index, and all are rescored exactly. The index holds every
  project's rows, so a namespace that is a small part of a large table may come back short after
  filtering: then the search is exact.
* another namespace than a vector one (its values have no ``vec`` column) or more than
  16,000 dimensions: the values of the right size are read and scanned here.

Writes of the call are visible (the same transaction). Ties break by key ascending.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from host_harness.store.digest import tracked
from host_harness.store.pg.kv import MAX_VECTOR_DIM, ROWS, PgKV
from host_harness.store.pg.schema import HNSW_DIM
from host_harness.store.topk import Matrix, VectorTable, unit_query

APPROX_MIN = 50_000  # measured crossover on the realistic corpus: docs/decisions.md D49
CANDIDATES = 200
EF_SEARCH = 600
MARGIN = 16
EPS = 1e-4  # pgvector's f32 accumulation error is far below this
PLANNER = "SELECT set_config('enable_sort', '{state}', true), set_config('enable_seqscan', '{state}', true)"
Hits = list[tuple[str, float]]


@dataclass(frozen=True)
class PgSearchPolicy:
    """When the search is approximate (``approx_min=None``: never) and how many candidates it rescores."""

    approx_min: int | None = APPROX_MIN
    candidates: int = CANDIDATES
    ef_search: int = EF_SEARCH


class PgVectorIndex:
    """Cosine search over the vector rows of one :class:`PgKV` store."""

    def __init__(self, kv: PgKV, policy: PgSearchPolicy | None = None) -> None:
        self.kv = kv
        self.policy = policy if policy is not None else PgSearchPolicy()
        self.misses: set[tuple[str, int]] = set()  # no persisted index to warm: always empty

    def search(self, ns: str, query: Sequence[float], k: int) -> Hits:
        """Return the ``k`` values of ``ns`` most cosine-similar to ``query``."""
        prepared = unit_query(query, k)
        if prepared is None:
            return []
        unit, norm = prepared
        dim = len(unit)
        if not tracked(ns) or dim > MAX_VECTOR_DIM:
            return VectorTable(dim, self.kv.values_of_size(ns, 4 * dim)).search(unit, k)
        if norm == 0.0:  # every candidate scores 0: the first k keys
            rows = self._select(f"SELECT key {ROWS} AND dim = {dim} ORDER BY key LIMIT %s", (ns, k))
            return [(str(key), 0.0) for (key,) in rows]
        approx_min = self.policy.approx_min
        if dim == HNSW_DIM and approx_min is not None and self.kv.vector_entries(ns) >= approx_min:
            hits = self._approximate(ns, unit, k)
            if hits is not None:
                return hits
        return self._exact(ns, unit, k)

    def _select(self, sql: str, params: tuple[object, ...]) -> list[tuple[object, ...]]:
        kv = self.kv
        rows = kv.session.execute(sql, (kv.session.project, kv.discipline, *params), binary=True)
        return list(rows.fetchall())

    def _exact(self, ns: str, unit: Matrix, k: int) -> Hits:
        dim = len(unit)
        distance = "coalesce(nullif(vec <=> %b, 'NaN'::float8), -1)"
        sql = (f"SELECT key, value {ROWS} AND dim = {dim}"
               f" ORDER BY CASE WHEN vec IS NULL THEN 1 ELSE {distance} END, key LIMIT %s")
        wanted = k + MARGIN
        while True:
            rows = self._select(sql, (ns, unit, wanted))
            hits = rescored(rows, unit)
            if len(rows) < wanted or hits[k - 1][1] - hits[-1][1] > EPS:
                return hits[:k]  # everything, or the k-th clears the margin: nothing left out ties with it
            wanted *= 4

    def _approximate(self, ns: str, unit: Matrix, k: int) -> Hits | None:
        wanted = max(k + MARGIN, self.policy.candidates)
        session = self.kv.session
        session.set_local("hnsw.ef_search", str(max(wanted, self.policy.ef_search)))
        # The planner would sort the namespace's rows whenever its statistics say they are few (a
        # store filled since the last ANALYZE): that is the exact search, at its cost. Here the
        # namespace is known to be large, so the HNSW index is what is wanted.
        session.execute(PLANNER.format(state="off"))
        try:
            rows = self._select(f"SELECT key, value {ROWS} AND dim = {HNSW_DIM}"
                                f" ORDER BY vec::vector({HNSW_DIM}) <=> %b LIMIT %s", (ns, unit, wanted))
        finally:
            session.execute(PLANNER.format(state="on"))
        if len(rows) < wanted:
            return None  # other rows of the index crowded this namespace's out: search exactly
        rows += self._select(f"SELECT key, value {ROWS} AND dim = {HNSW_DIM} AND vec IS NULL"
                             " ORDER BY key LIMIT %s", (ns, k))
        return rescored(rows, unit)[:k]


def rescored(rows: list[tuple[object, ...]], unit: Matrix) -> Hits:
    """Every ``(key, value)`` row scored exactly against ``unit``: best first, ties by key."""
    pairs = [(str(key), bytes(value)) for key, value in rows]  # type: ignore[call-overload]
    return VectorTable(len(unit), pairs).search(unit, len(pairs))
