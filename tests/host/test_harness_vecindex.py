"""The persisted vector index and the store digests it is validated against.

"A new process" is a fresh ``SqliteKV`` + ``VectorIndex`` over the same file and cache folder; a
process that must not read the vectors from SQLite has ``values_of_size`` replaced by a tripwire.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import WASM
from hypothesis import given, settings
from hypothesis import strategies as st

from host_harness.store import MIGRATIONS, SqliteKV, digest
from host_harness.vectors import IndexDir, IndexPolicy, VectorIndex
from host_harness.vectors import index as vecindex

NS = "vectors/test"
DIM = 8


def vec(rng: np.random.Generator) -> bytes:
    return rng.normal(size=DIM).astype("<f4").tobytes()


def reference(items: dict[str, bytes], query: np.ndarray, k: int) -> list[str]:
    """Exact top-k keys by cosine (float64), ties by key."""
    scored = []
    for key, value in items.items():
        row = np.frombuffer(value, dtype="<f4").astype(np.float64)
        norm = np.linalg.norm(row)
        scored.append((-(row @ query) / (norm * np.linalg.norm(query)) if norm else 0.0, key))
    return [key for _, key in sorted(scored)[:k]]


class Process:
    """One process's view: its own connection and index over the shared file and cache."""

    def __init__(self, db: Path, policy: IndexPolicy, *, may_scan: bool = True) -> None:
        self.kv = SqliteKV(db)
        self.index = VectorIndex(self.kv, policy)
        if not may_scan:
            def tripwire(ns: str, size: int) -> list[tuple[str, bytes]]:
                raise AssertionError(f"read every vector of {ns} from SQLite")
            self.kv.values_of_size = tripwire  # type: ignore[method-assign]

    def put(self, items: dict[str, bytes]) -> None:
        with self.kv.transaction():
            for key, value in items.items():
                self.kv.put(NS, key, value)

    def search(self, query: np.ndarray, k: int) -> list[str]:
        hits = [key for key, _ in self.index.search(NS, query.tolist(), k)]
        self.kv.commit()
        return hits

    def close(self) -> None:
        self.kv.close()


def indexed(db: Path, policy: IndexPolicy, count: int, seed: int):
    """A store of ``count`` random vectors whose index one process built; ``(rng, items, query)``."""
    rng = np.random.default_rng(seed)
    items = {f"k{i:03d}": vec(rng) for i in range(count)}
    first = Process(db, policy)
    first.put(items)
    query = rng.normal(size=DIM)
    assert first.search(query, 10) == reference(items, query, 10)  # builds the index
    first.close()
    return rng, items, query


@pytest.fixture
def policy(tmp_path: Path) -> IndexPolicy:
    return IndexPolicy(tmp_path / "cache", persist_min=0, approx_min=None)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "project" / ".gm" / "rs-learn.db"


def recorded(db: Path, ns: str = NS) -> tuple[int, bytes | None] | None:
    row = sqlite3.connect(db).execute("SELECT entries, digest FROM kv_digest WHERE ns = ?", (ns,)).fetchone()
    return None if row is None else (row[0], row[1])


def computed(db: Path, ns: str = NS) -> tuple[int, bytes]:
    d = digest.compute(sqlite3.connect(db), ns)
    return d.entries, d.value.to_bytes(16, "little")


def test_every_write_keeps_the_digest_and_foreign_writes_null_it(db: Path, policy: IndexPolicy):
    rng = np.random.default_rng(1)
    writer = Process(db, policy)
    writer.put({f"k{i}": vec(rng) for i in range(20)})
    assert recorded(db) == computed(db)
    writer.put({"k3": b"", "k4": vec(rng), "k99": vec(rng), "text": b"not a vector"})
    assert recorded(db) == computed(db)
    with writer.kv.transaction():
        writer.kv.put("memories", "m", b"{}")  # untracked namespaces have no digest
    assert recorded(db, "memories") is None
    raw = sqlite3.connect(db, isolation_level=None)
    raw.execute("UPDATE kv SET value = x'00' WHERE ns = ? AND key = 'k5'", (NS,))  # e.g. a merge driver
    raw.close()
    assert recorded(db) == (21, None), "a write that bypasses the harness leaves the digest unknown"
    assert writer.kv.base_digest(NS) is None
    writer.kv.commit()
    writer.put({"k6": vec(rng)})
    assert recorded(db) == computed(db), "the next harness write recomputes it"
    writer.put({f"k{i}": b"" for i in range(100)} | {"text": b""})
    assert recorded(db) is None and writer.kv.base_digest(NS) == digest.EMPTY
    writer.close()


def test_equal_contents_have_equal_digests_whatever_the_order(tmp_path: Path, policy: IndexPolicy):
    rng = np.random.default_rng(2)
    items = {f"k{i}": vec(rng) for i in range(30)}
    a, b = Process(tmp_path / "a.db", policy), Process(tmp_path / "b.db", policy)
    a.put(items)
    for key in reversed(list(items)):
        b.put({key: vec(rng)})
        b.put({key: items[key]})
    assert recorded(tmp_path / "a.db") == recorded(tmp_path / "b.db")
    a.close()
    b.close()


def test_an_old_store_is_read_without_change_and_migrated_by_its_first_write(db: Path, policy: IndexPolicy):
    rng = np.random.default_rng(3)
    db.parent.mkdir(parents=True)
    old = sqlite3.connect(db, isolation_level=None)
    for statement in MIGRATIONS[0]:
        old.execute(statement)
    old.execute("PRAGMA user_version = 1")
    items = {f"k{i}": vec(rng) for i in range(10)}
    old.executemany("INSERT INTO kv VALUES (?, ?, ?)", [(NS, k, v) for k, v in items.items()])
    old.close()
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    reader = Process(db, policy)
    query = rng.normal(size=DIM)
    assert reader.search(query, 3) == reference(items, query, 3)  # no digest: scanned
    reader.close()
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before, "a read must not migrate the file"
    writer = Process(db, policy)
    with writer.kv.transaction():
        writer.kv.put("other", "k", b"v")  # any write migrates, and backfills the digests
    writer.close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert recorded(db) == computed(db)


def test_a_new_process_opens_the_index_without_reading_the_vectors(db: Path, policy: IndexPolicy):
    _, items, query = indexed(db, policy, 300, seed=4)
    fresh = Process(db, policy, may_scan=False)
    assert fresh.search(query, 10) == reference(items, query, 10)
    fresh.close()


def test_writers_keep_the_index_current_through_the_delta(db: Path, policy: IndexPolicy, monkeypatch):
    monkeypatch.setattr(vecindex, "DELTA_MIN", 25)  # fold the delta into a new base early
    rng, items, _ = indexed(db, policy, 200, seed=5)
    for round_ in range(8):
        writer = Process(db, policy, may_scan=False)
        change = {f"k{int(i):03d}": vec(rng) for i in rng.integers(0, 260, size=6)}
        change |= {f"k{int(i):03d}": b"" for i in rng.integers(0, 260, size=3)}
        writer.put(change)
        writer.close()
        for key, value in change.items():
            if value:
                items[key] = value
            else:
                items.pop(key, None)
        reader = Process(db, policy, may_scan=False)  # never rebuilds: the writers kept the index current
        query = rng.normal(size=DIM)
        assert reader.search(query, 15) == reference(items, query, 15), f"round {round_}"
        reader.close()
    head = IndexDir(policy, db, NS, DIM).head()
    assert head is not None and head["records"] < 30, "the delta was folded into a new base"


def test_a_reader_s_rebuild_never_replaces_a_committing_writer_s_head(db: Path, policy: IndexPolicy):
    """The writer appends just before ``COMMIT``, which waits for a reader still at the old digest.

    That reader misses (the head is already ahead of it) and rebuilds: were the writer's lock gone by
    then, it would install the old digest over the new head, and every later process would rebuild.
    """
    rng, items, query = indexed(db, policy, 50, seed=8)
    index = IndexDir(policy, db, NS, DIM)
    before = index.head()
    assert before is not None
    reader = Process(db, policy)
    reader.kv.write_lock = False  # a read-only call (recall, a hook)
    assert reader.kv.get(NS, "k000") == items["k000"]  # its read transaction: a shared lock
    added = {"new": vec(rng)}

    def write() -> None:
        other = Process(db, policy)
        other.put(added)
        other.close()

    writer = threading.Thread(target=write)
    writer.start()
    deadline = time.monotonic() + 60
    while (head := index.head()) is None or head["digest"] == before["digest"]:
        assert time.monotonic() < deadline, "the writer never appended"
        time.sleep(0.01)
    assert writer.is_alive(), "the writer's COMMIT waits for the reader"
    hits = [key for key, _ in reader.index.search(NS, query.tolist(), 10)]
    assert hits == reference(items, query, 10), "the reader answers at the digest it reads"
    reader.kv.commit()
    writer.join(60)
    assert not writer.is_alive()
    head = index.head()
    assert head is not None and head["records"] == 1
    assert head["digest"] == digest.compute(sqlite3.connect(db), NS).hex(), "the head is the writer's"
    fresh = Process(db, policy, may_scan=False)  # opens the head: never rebuilds
    assert fresh.search(query, 10) == reference(items | added, query, 10)
    fresh.close()
    reader.close()


def test_a_call_sees_its_own_writes_and_a_rollback_forgets_them(db: Path, policy: IndexPolicy):
    rng = np.random.default_rng(6)
    items = {f"k{i:03d}": vec(rng) for i in range(100)}
    proc = Process(db, policy)
    proc.put(items)
    query = rng.normal(size=DIM)
    best = reference(items, query, 1)[0]
    proc.search(query, 1)
    proc.kv.put(NS, best, b"")  # delete the best, inside an open transaction
    proc.kv.put(NS, "new", (query * 3).astype("<f4").tobytes())
    hits = [key for key, _ in proc.index.search(NS, query.tolist(), 3)]
    assert hits[0] == "new" and best not in hits
    proc.kv.rollback()
    assert proc.search(query, 1) == [best]
    proc.close()


def test_a_replaced_store_is_never_served_from_the_old_index(tmp_path: Path, db: Path, policy: IndexPolicy):
    rng = np.random.default_rng(7)
    mine = {f"k{i:03d}": vec(rng) for i in range(120)}
    theirs = dict(mine) | {"k005": vec(rng), "k200": vec(rng)}  # the same count and keys, nearly
    proc = Process(db, policy)
    proc.put(mine)
    query = rng.normal(size=DIM)
    proc.search(query, 5)
    proc.close()
    other = Process(tmp_path / "branch.db", IndexPolicy(None))
    other.put(theirs)
    other.close()
    shutil.copyfile(tmp_path / "branch.db", db)  # `git checkout` of another branch's store
    again = Process(db, policy)
    assert again.search(query, 10) == reference(theirs, query, 10)
    again.close()


@pytest.mark.parametrize(
    "damage", ["truncated rows", "garbage head", "missing keys", "another store's head", "an older format"]
)
def test_a_damaged_index_is_rebuilt_never_served(db: Path, policy: IndexPolicy, damage: str):
    _, items, query = indexed(db, policy, 150, seed=8)
    index = IndexDir(policy, db, NS, DIM)
    head = index.head()
    assert head is not None
    base = index.path / head["base"]
    if damage == "truncated rows":
        with open(f"{base}.rows", "r+b") as rows:
            rows.truncate(100)
    elif damage == "garbage head":
        (index.path / "head.json").write_bytes(b"{not json")
    elif damage == "missing keys":
        os.unlink(f"{base}.keys")
    elif damage == "an older format":  # format 1 stored the sign bits row-major: never read as 2
        (index.path / "head.json").write_text(json.dumps(head | {"format": vecindex.FORMAT - 1}))
    else:
        (index.path / "head.json").write_text(json.dumps(head | {"db": "/elsewhere/rs-learn.db"}))
    fresh = Process(db, policy)
    assert fresh.search(query, 10) == reference(items, query, 10)
    fresh.close()
    rebuilt = index.head()
    assert rebuilt is not None and rebuilt["base"] != head["base"], "rebuilt, not served"
    assert Process(db, policy, may_scan=False).search(query, 10) == reference(items, query, 10)


def test_an_unwritable_cache_still_answers(db: Path, tmp_path: Path):
    rng = np.random.default_rng(9)
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the cache folder should be")
    policy = IndexPolicy(blocked, persist_min=0, approx_min=None)
    items = {f"k{i:03d}": vec(rng) for i in range(50)}
    proc = Process(db, policy)
    proc.put(items)
    query = rng.normal(size=DIM)
    assert proc.search(query, 5) == reference(items, query, 5)
    proc.close()


def test_approximate_search_rescored_exactly_and_close_to_exact(db: Path, tmp_path: Path):
    rng = np.random.default_rng(10)
    dim = 160  # sign bits need some dimensions to rank by; 3 words per row test their layout
    centres = rng.normal(size=(40, dim))
    items = {f"k{i:04d}": (centres[i % 40] + 0.5 * rng.normal(size=dim)).astype("<f4").tobytes()
             for i in range(4000)}
    approx = Process(db, IndexPolicy(tmp_path / "cache", persist_min=0, approx_min=1000, candidates=400))
    approx.put(items)
    found = 0
    answers = []
    for _ in range(20):
        query = centres[rng.integers(40)] + 0.5 * rng.normal(size=dim)
        hits = approx.index.search(NS, query.tolist(), 10)
        approx.kv.commit()
        answers.append((query, [key for key, _ in hits]))
        exact = reference(items, query, 10)
        found += len({key for key, _ in hits} & set(exact))
        for key, score in hits:  # every score returned is the exact cosine
            row = np.frombuffer(items[key], dtype="<f4").astype(np.float64)
            assert score == pytest.approx(row @ query / np.linalg.norm(row) / np.linalg.norm(query), abs=1e-5)
    assert found / 200 >= 0.9
    head = IndexDir(approx.index.policy, db, NS, dim).head()
    assert head is not None and head["approx"] is True
    approx.close()
    mapped = Process(db, approx.index.policy, may_scan=False)  # the base read back from its files
    assert [mapped.search(query, 10) for query, _ in answers] == [hits for _, hits in answers]
    mapped.close()


def test_small_namespaces_are_scanned(db: Path, tmp_path: Path):
    rng = np.random.default_rng(11)
    policy = IndexPolicy(tmp_path / "cache", persist_min=100, approx_min=None)
    proc = Process(db, policy)
    proc.put({f"k{i}": vec(rng) for i in range(99)})
    proc.search(rng.normal(size=DIM), 3)
    proc.close()
    assert not (tmp_path / "cache").exists()


def test_the_mode_comes_from_the_environment(tmp_path: Path, monkeypatch):
    monkeypatch.setenv(vecindex.MODE_ENV, "scan")
    assert IndexPolicy.from_env(tmp_path).cache_dir is None
    monkeypatch.setenv(vecindex.MODE_ENV, "exact")
    assert IndexPolicy.from_env(tmp_path) == IndexPolicy(tmp_path, approx_min=None)
    monkeypatch.setenv(vecindex.MODE_ENV, "fast")
    with pytest.raises(vecindex.ConfigError, match="RS_LEARN_VECTOR_INDEX='fast'"):
        IndexPolicy.from_env(tmp_path)


OPS = st.lists(
    st.tuples(
        st.sampled_from(["a", "b"]),  # which process
        st.sampled_from(["put", "delete", "commit", "rollback", "search"]),
        st.integers(0, 14),  # key
        st.integers(0, 2**32 - 1),  # seed of the vector / query
    ),
    max_size=40,
)


@settings(max_examples=40, deadline=None)
@given(ops=OPS)
def test_two_processes_always_agree_with_a_brute_force_model(tmp_path_factory, ops):
    """Interleaved writers, readers, commits and rollbacks over one file and one cache."""
    root = tmp_path_factory.mktemp("model")
    policy = IndexPolicy(root / "cache", persist_min=0, approx_min=None)
    procs = {"a": Process(root / "s.db", policy), "b": Process(root / "s.db", policy)}
    committed: dict[str, bytes] = {}
    pending: dict[str, bytes] = {}
    owner: str | None = None  # the process with an open transaction (SQLite serialises them)
    for who, op, key_number, seed in ops:
        proc, key = procs[who], f"k{key_number:02d}"
        if owner not in (None, who):
            procs[owner].kv.commit()
            committed = {k: v for k, v in (committed | pending).items() if v}
            pending, owner = {}, None
        if op in ("put", "delete"):
            value = vec(np.random.default_rng(seed)) if op == "put" else b""
            proc.kv.put(NS, key, value)
            pending[key], owner = value, who
        elif op in ("commit", "rollback"):
            getattr(proc.kv, op)()
            if op == "commit":
                committed = {k: v for k, v in (committed | pending).items() if v}
            pending, owner = {}, None
        else:
            query = np.random.default_rng(seed).normal(size=DIM)
            visible = {k: v for k, v in (committed | pending).items() if v}
            hits = [k for k, _ in proc.index.search(NS, query.tolist(), 5)]
            assert hits == reference(visible, query, 5)
            owner = who
    for proc in procs.values():
        proc.close()


# through the guest (both targets) and through real processes


FACTS = [f"Cache shard {i} of the {kind} service expires after {i % 7 + 2} minutes."
         for i, kind in enumerate(["billing", "search", "auth", "upload", "mail"] * 8)]


def test_recall_through_the_guest_is_the_same_scanned_or_persisted(project: Path, clock, guest_factory,
                                                                    tmp_path: Path):
    from envelopes import ok

    from host_harness.services import HostServices

    writer = HostServices(project, clock=clock, index_policy=IndexPolicy(None))
    ok(guest_factory(writer), "import", {"memories": [{"text": fact} for fact in FACTS]})
    writer.close()
    policy = IndexPolicy(tmp_path / "cache", persist_min=0, approx_min=None)
    queries = ["which shard of auth expires", "upload service cache", "minutes before the mail shard expires"]
    answers = {}
    for name, chosen in (("scan", IndexPolicy(None)), ("persisted", policy), ("reopened", policy)):
        services = HostServices(project, clock=clock, index_policy=chosen)
        guest = guest_factory(services)
        answers[name] = [ok(guest, "recall", {"query": q, "mode": "vector"}) for q in queries]
        services.close()
    assert answers["persisted"] == answers["scan"] and answers["reopened"] == answers["scan"]
    assert IndexDir(policy, project / ".gm" / "rs-learn.db", f"vectors/{EMBEDDER_ID}", 384).head() is not None


EMBEDDER_ID = json.loads((Path(__file__).resolve().parents[2] / "models" / "manifest.json")
                         .read_text())["embedder_id"]


@pytest.mark.slow  # 1,200 memories, processes
def test_processes_build_share_and_keep_the_index_current(wasm_runtime, project: Path, tmp_path: Path):
    from envelopes import ok
    from hostprocs import host, host_env, wait_for

    from host_harness.services import HostServices
    from host_harness.targets.native import NativeGuest
    from host_harness.targets.runtime import artifact_is_intact, cache_file_name, default_cache_dir

    cache = tmp_path / "cache"
    cache.mkdir()
    name = cache_file_name(WASM.read_bytes())
    for path in (default_cache_dir() / name, default_cache_dir() / f"{name}.sha256"):
        shutil.copyfile(path, cache / path.name)
    assert artifact_is_intact(cache / name)
    services = HostServices(project, index_policy=IndexPolicy(None))
    texts = [f"Note {i}: the {['billing', 'search', 'auth'][i % 3]} worker {i} restarts every {i % 11} hours."
             for i in range(1200)]
    reviewed = {"reviewed": True}  # the user's own notes: the hook injects them
    ok(NativeGuest(services), "import", {"memories": [{"text": t} for t in texts], "origin": reviewed})
    services.close()
    env = host_env(project, RS_LEARN_CACHE_DIR=str(cache), RS_LEARN_VECTOR_INDEX="auto")
    db = project / ".gm" / "rs-learn.db"
    ns = f"vectors/{EMBEDDER_ID}"
    index = IndexDir(IndexPolicy(cache), db, ns, 384)

    def store_digest() -> str:
        found = digest.read(sqlite3.connect(db), ns)
        assert found is not None
        return found.hex()

    prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(project),
                         "prompt": "when does the auth worker 7 restart?"}).encode()
    hooked = host("hook", "prompt-submit", env=env, input=prompt)
    assert b"the auth worker" in hooked.stdout, "the hook answered (by scanning)"
    wait_for(lambda: (found := index.head()) is not None and found["digest"] == store_digest(), 60,
             "the index the hook started building in the background")
    wait_for(lambda: not index.path.with_suffix(".building").exists(), 10, "the build to finish")
    first = host("recall", "auth worker restarts", "--json", env=env)
    assert first.returncode == 0, first.stderr
    head = index.head()
    assert head is not None and head["digest"] == store_digest() and head["records"] == 0

    def write(tag: str) -> None:
        for i in range(3):
            done = host("memorize", f"Writer {tag} fact {i}: the search worker {i} uses {i + 4} GB.", env=env)
            assert done.returncode == 0, done.stderr

    threads = [threading.Thread(target=write, args=(tag,)) for tag in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    head = index.head()
    assert head is not None and head["digest"] == store_digest(), "the writers kept the index current"
    assert head["records"] == 6
    scanned = host("recall", "how much memory does the search worker use", "--json",
                   env={**env, "RS_LEARN_VECTOR_INDEX": "scan"})
    persisted = host("recall", "how much memory does the search worker use", "--json", env=env)
    assert json.loads(persisted.stdout) == json.loads(scanned.stdout)
    assert "Writer" in json.loads(persisted.stdout)[0]["text"]


@pytest.mark.parametrize("words", [1, 6])
def test_hamming_of_word_major_bits_equals_the_row_sums(words: int):
    rng = np.random.default_rng(words)
    rows = rng.integers(0, np.iinfo(np.uint64).max, (3000, words), dtype=np.uint64, endpoint=True)
    query = rng.integers(0, np.iinfo(np.uint64).max, words, dtype=np.uint64, endpoint=True)
    rows[0] = ~query  # every bit differs: the largest distance (384 at 6 words) must not wrap
    got = vecindex.hamming(np.ascontiguousarray(rows.T), query)
    want = np.bitwise_count(rows ^ query).sum(axis=1, dtype=np.uint32)
    assert np.array_equal(got, want)


@given(
    distances=st.lists(st.integers(0, 12), min_size=2, max_size=300),
    fraction=st.floats(0.0, 0.99),
)
def test_nearest_takes_the_smallest_distances_ties_by_row(distances: list[int], fraction: float):
    distance = np.asarray(distances, dtype=np.uint32)
    wanted = max(1, int(len(distances) * fraction))
    expected = sorted(sorted(range(len(distances)), key=lambda row: (distances[row], row))[:wanted])
    assert vecindex.nearest(distance, wanted).tolist() == expected


def test_a_hook_neither_serves_nor_scans_a_big_stale_index_and_says_so(db: Path, policy: IndexPolicy):
    """Issue 25: after a change by another process, a hook answers without vectors rather than late."""
    rng, items, query = indexed(db, policy, 30, seed=7)
    other = Process(db, IndexPolicy(None))  # another process, another cache: the index is not told
    items["k999"] = vec(rng)
    other.put({"k999": items["k999"]})
    other.close()
    hook = IndexPolicy(policy.cache_dir, persist_min=0, approx_min=None, build_on_miss=False, scan_max=20)
    reader = Process(db, hook, may_scan=False)
    notes: list[str] = []
    reader.index.note = notes.append
    assert reader.search(query, 10) == [], "the stale index is not served, and 31 vectors are not scanned"
    assert reader.index.misses == {(NS, DIM)}
    assert len(notes) == 1 and "keyword channel alone" in notes[0] and "(31 vectors)" in notes[0]
    small = Process(db, IndexPolicy(policy.cache_dir, persist_min=0, approx_min=None, build_on_miss=False,
                                    scan_max=31))
    assert small.search(query, 10) == reference(items, query, 10), "at most scan_max: scanned, as before"
    small.close()
    builder = Process(db, policy)  # what the hook starts in the background
    assert builder.index.prepare(NS, DIM)
    builder.close()
    notes.clear()
    assert reader.search(query, 10) == reference(items, query, 10) and notes == []
    reader.close()
