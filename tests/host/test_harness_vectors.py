"""VectorIndex: cosine top-k over a real SQLite store, kept in sync with writes; PgVectorIndex the same.

Every test runs five ways: scanning SQLite, through the persisted index (exact), through the
persisted index with approximate search on (small sets are still searched exactly), and on
PostgreSQL + pgvector, exact and with approximate search on from 0 vectors (the HNSW index is
for 384 dimensions: these small vectors are searched exactly; tests/host/test_pg_store.py has HNSW's own).
"""

from __future__ import annotations

import math
import struct
import uuid
from pathlib import Path

import numpy as np
import pytest

from host_harness.store import SqliteKV
from host_harness.store.pg.kv import PgKV, PgSession
from host_harness.store.pg.vectors import PgSearchPolicy, PgVectorIndex
from host_harness.vectors import IndexPolicy, VectorIndex

V, W = "vectors/v", "vectors/w"  # tracked namespaces: the persisted index applies to them


def vec(*values: float) -> bytes:
    return struct.pack(f"<{len(values)}f", *values)


@pytest.fixture(params=["scan", "persisted", "approximate", "pg-exact", "pg-approximate"])
def policy(request: pytest.FixtureRequest, tmp_path: Path) -> IndexPolicy | PgSearchPolicy:
    cache = tmp_path / "cache"
    return {
        "scan": IndexPolicy(None),
        "persisted": IndexPolicy(cache, persist_min=0, approx_min=None),
        "approximate": IndexPolicy(cache, persist_min=0, approx_min=0),
        "pg-exact": PgSearchPolicy(approx_min=None),
        "pg-approximate": PgSearchPolicy(approx_min=0),
    }[request.param]


@pytest.fixture
def store(tmp_path: Path, policy: IndexPolicy | PgSearchPolicy, request: pytest.FixtureRequest):
    if isinstance(policy, PgSearchPolicy):
        session = PgSession(request.getfixturevalue("pg_url"), f"vectors-{uuid.uuid4().hex[:12]}")
        pg = PgKV(session, "")
        yield pg, PgVectorIndex(pg, policy)
        session.close()
        return
    kv = SqliteKV(tmp_path / "v.db")
    yield kv, VectorIndex(kv, policy)
    kv.close()


def another_connection(kv, tmp_path: Path):
    """A second connection to the same store (another process's, in effect)."""
    if isinstance(kv, PgKV):
        return PgKV(PgSession(kv.session.url, kv.session.project), "")
    return SqliteKV(tmp_path / "v.db")


def fill(kv: SqliteKV, ns: str, items: dict[str, bytes]) -> None:
    with kv.transaction():
        for key, value in items.items():
            kv.put(ns, key, value)


def test_top_k_on_hand_checkable_2d_vectors(store):
    kv, index = store
    fill(kv, V, {"east": vec(1, 0), "north": vec(0, 2), "ne": vec(3, 3), "west": vec(-1, 0)})
    hits = index.search(V, [1.0, 0.0], 3)
    assert [k for k, _ in hits] == ["east", "ne", "north"]
    assert [s for _, s in hits] == pytest.approx([1.0, math.sqrt(0.5), 0.0], abs=1e-7)  # f32 precision
    # east and west both score 0: the tie breaks by key
    assert [k for k, _ in index.search(V, [0.0, -5.0], 10)] == ["east", "west", "ne", "north"]
    assert index.search(V, [1.0, 0.0], 0) == []
    assert index.search(V, [], 3) == []
    assert index.search("missing", [1.0, 0.0], 3) == []
    kv.commit()


def test_ties_break_by_key_ascending_at_the_cut(store):
    kv, index = store
    fill(kv, V, {key: vec(1, 1) for key in ("d", "b", "e", "a", "c")} | {"best": vec(1, 0)})
    assert [k for k, _ in index.search(V, [1.0, 0.0], 3)] == ["best", "a", "b"]
    assert [k for k, _ in index.search(V, [0.0, 1.0], 2)] == ["a", "b"]
    kv.commit()


def test_only_values_of_the_query_dimension_take_part(store):
    kv, index = store
    fill(kv, V, {"two": vec(1, 0), "three": vec(1, 0, 0), "text": b"hello world!", "odd": b"\x00\x00\x80"})
    assert index.search(V, [1.0, 0.0], 10) == [("two", 1.0)]
    # by contract any 12-byte value is a 3-d vector, text or not; the 3-byte one never is
    assert {k for k, _ in index.search(V, [1.0, 0.0, 0.0], 10)} == {"three", "text"}
    kv.commit()


def test_zero_vectors_score_zero_and_corrupt_vectors_are_skipped(store):
    kv, index = store
    fill(kv, V, {"zero": vec(0, 0), "nan": vec(math.nan, 1), "inf": vec(math.inf, 0), "ok": vec(0, 1)})
    assert index.search(V, [1.0, 0.0], 10) == [("ok", 0.0), ("zero", 0.0)]
    assert index.search(V, [0.0, 0.0], 10) == [("ok", 0.0), ("zero", 0.0)]
    assert index.search(V, [math.nan, 0.0], 10) == []
    # no overflow, however large the components
    assert index.search(V, [1e30, 1e30], 1) == [("ok", pytest.approx(math.sqrt(0.5), abs=1e-7))]
    fill(kv, W, {"huge": vec(3e38, 3e38), "small": vec(1e-30, 0)})
    assert index.search(W, [1.0, 1.0], 2) == [("huge", pytest.approx(1.0, abs=1e-7)),
                                                ("small", pytest.approx(math.sqrt(0.5), abs=1e-7))]
    kv.commit()


def test_writes_in_the_open_transaction_are_visible_and_rollback_forgets_them(store):
    kv, index = store
    fill(kv, V, {"a": vec(1, 0), "b": vec(0, 1)})
    assert [k for k, _ in index.search(V, [1.0, 0.0], 1)] == ["a"]  # builds the cache
    kv.put(V, "c", vec(2, 0.1))  # append
    kv.put(V, "a", vec(-1, 0))  # replace
    kv.put(V, "b", b"")  # delete
    kv.put(V, "d", b"not a vector")  # wrong size: ignored
    assert [k for k, _ in index.search(V, [1.0, 0.0], 5)] == ["c", "a"]
    kv.rollback()
    assert index.search(V, [1.0, 0.0], 5) == [("a", 1.0), ("b", 0.0)]
    kv.commit()


def test_many_appends_and_deletes_keep_the_table_consistent(store):
    kv, index = store
    rng = np.random.default_rng(7)
    fill(kv, V, {"seed": vec(1, 0, 0)})
    index.search(V, [1.0, 0.0, 0.0], 1)
    live: dict[str, np.ndarray] = {"seed": np.array([1, 0, 0], dtype=np.float32)}
    for i in range(200):
        key = f"k{rng.integers(0, 60):02d}"
        if rng.random() < 0.3:
            kv.put(V, key, b"")
            live.pop(key, None)
        else:
            value = rng.normal(size=3).astype(np.float32)
            kv.put(V, key, value.astype("<f4").tobytes())
            live[key] = value
        if i % 50 == 0:
            kv.commit()
    query = np.array([0.3, -0.2, 0.9])
    expected = sorted(live, key=lambda k: (-float(live[k] @ query / np.linalg.norm(live[k])), k))
    assert [k for k, _ in index.search(V, query.tolist(), len(live))] == expected
    kv.commit()


def test_another_connection_commit_is_seen(store, tmp_path: Path):
    kv, index = store
    fill(kv, V, {"a": vec(1, 0)})
    assert index.search(V, [0.0, 1.0], 5) == [("a", 0.0)]
    kv.commit()
    other = another_connection(kv, tmp_path)
    fill(other, V, {"b": vec(0, 1)})
    other.close()
    if isinstance(other, PgKV):
        other.session.close()
    assert [k for k, _ in index.search(V, [0.0, 1.0], 5)] == ["b", "a"]
    kv.commit()


def test_matches_a_brute_force_reference(store):
    kv, index = store
    rng = np.random.default_rng(1234)
    data = rng.normal(size=(500, 16)).astype(np.float32)
    keys = [f"mem-{i:04d}" for i in range(500)]
    fill(kv, V, {k: row.astype("<f4").tobytes() for k, row in zip(keys, data, strict=True)})
    query = rng.normal(size=16)
    rows = data.astype(np.float64) / np.linalg.norm(data, axis=1, keepdims=True)
    reference = rows @ (query / np.linalg.norm(query))
    order = sorted(range(500), key=lambda i: (-reference[i], keys[i]))[:25]
    hits = index.search(V, query.tolist(), 25)
    assert [k for k, _ in hits] == [keys[i] for i in order]
    assert [s for _, s in hits] == pytest.approx([reference[i] for i in order], abs=1e-6)
    assert all(isinstance(s, float) for _, s in hits)
    kv.commit()
