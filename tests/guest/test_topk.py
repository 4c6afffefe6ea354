"""The pruned keyword search (``guest/index/topk.py``) answers exactly what exhaustive BM25 answers.

The store is Zipfian text, so the common terms spill into sealed chunks with directories and the
pruning has something to skip. Every check compares ranked ``(doc, score)`` pairs for equality --
the same documents, in the same order, with the same floats -- against :func:`topk.scores` over
every posting; ``recall`` in keyword mode is compared the same way through the component.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import zlib
from array import array
from pathlib import Path

import pytest

from guest.index import keywords, postings, topk
from guest.memory.records import Stats
from guest.memory.reindex import remove
from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest
from host_harness.targets.native import NativeGuest
from host_harness.vectors import IndexPolicy

WORDS = [f"w{i}" for i in range(400)]
DOCS = 2600
SIZES = (1, 8, 50, 200)


def zipf_text(rnd: random.Random) -> str:
    """A text of 4-60 words drawn with Zipfian frequencies (a few words in half the texts)."""
    count = rnd.choice([4, 6, 9, 14, 22, 35, 60])
    return " ".join(WORDS[min(int(rnd.paretovariate(1.1)) - 1, len(WORDS) - 1)] for _ in range(count))


def queries(rnd: random.Random, n: int) -> list[list[str]]:
    """Queries of 1-6 terms, common and rare mixed, some repeated or absent."""
    out = [["w0"], ["w1"], ["w0", "w1"], ["w0", "w0", "w2"], ["w399", "w0"], ["absent"]]
    out.append(["absent", "w3"])
    while len(out) < n:
        size = rnd.randint(1, 6)
        out.append([WORDS[min(int(rnd.paretovariate(0.6)) - 1, len(WORDS) - 1)] for _ in range(size)])
    return out


def exhaustive(services: HostServices, ns: str, query: list[str], k: int) -> list[tuple[int, float]]:
    stats = Stats.decode(services.kv_get(meta_of(ns), "stats"))
    found = topk.scores(query, lambda t: keywords.postings(services, ns, t), stats.docs, stats.tokens)
    return sorted(found.items(), key=lambda p: (-p[1], p[0]))[:k]


def pruned(
    services: HostServices, ns: str, query: list[str], k: int,
    cache: postings.PostingsCache | None = None, trusted: bool | None = None,
) -> list[tuple[int, float]]:
    raw = services.kv_get(meta_of(ns), "stats")
    stats = Stats.decode(raw)
    if trusted is None:
        trusted = postings.guard_ok(services, meta_of(ns), raw)
    return topk.search(services, ns, query, stats.docs, stats.tokens, k, cache, trusted)


def meta_of(ns: str) -> str:
    return ns.rsplit("terms", 1)[0] + "meta"


@pytest.fixture(scope="module")
def zipf_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose default store holds DOCS Zipfian memories (imported natively)."""
    project = tmp_path_factory.mktemp("zipf")
    services = HostServices(project, index_policy=IndexPolicy(None))
    import_zipf(NativeGuest(services))
    services.close()
    return project


def import_zipf(guest: BaseGuest) -> None:
    """Import the DOCS Zipfian texts of the store, 500 per call."""
    rnd = random.Random(15)
    texts = list(dict.fromkeys(zipf_text(rnd) for _ in range(DOCS + 200)))[:DOCS]
    for first in range(0, len(texts), 500):
        items = [{"text": text} for text in texts[first : first + 500]]
        assert json.loads(guest.dispatch("import", json.dumps({"memories": items})))["ok"]


@pytest.fixture
def zipf_services(zipf_store: Path):
    services = HostServices(zipf_store, index_policy=IndexPolicy(None))
    services.begin()
    yield services
    services.rollback()
    services.close()


def test_common_terms_have_sealed_chunks_and_directories(zipf_services):
    head = zipf_services.kv_get("terms", "w0")
    assert head is not None and postings.HEAD.unpack_from(head)[0] >= 1, "w0 must spill into chunks"
    directory = zipf_services.kv_get("terms", postings.directory_key("w0"))
    full = postings.HEAD.unpack_from(head)[0]
    assert directory is not None and len(directory) == postings.ENTRY.size * full
    assert postings.guard_ok(zipf_services, "meta", zipf_services.kv_get("meta", "stats"))


@pytest.mark.parametrize("k", SIZES)
def test_pruned_equals_exhaustive(zipf_services, k):
    cache = postings.PostingsCache()
    for query in queries(random.Random(k), 60):
        want = exhaustive(zipf_services, "terms", query, k)
        assert pruned(zipf_services, "terms", query, k, cache) == want, query
        assert pruned(zipf_services, "terms", query, k, cache) == want, query  # from the cache


@pytest.mark.parametrize("seed", range(6))
def test_add_all_keeps_every_document_that_can_still_reach_theta(zipf_services, seed):
    """Partial sums: exact for documents already held; a new one is left out only if it cannot make it."""
    stats = Stats.decode(zipf_services.kv_get("meta", "stats"))
    head = zipf_services.kv_get("terms", "w0")
    assert head is not None
    df = postings.document_count(head)
    idf = math.log(1.0 + (stats.docs - df + 0.5) / (df + 0.5))
    term = topk._Term(zipf_services, "terms", "w0", head, df, idf, stats.tokens / stats.docs, None, True)
    every = {doc: term.value[tf | length << 16]
             for doc, tf, length in keywords.postings(zipf_services, "terms", "w0")}
    rnd = random.Random(seed)
    before = {doc: rnd.random() for doc in [*rnd.sample(sorted(every), 40), stats.docs + 5]}
    theta = rnd.uniform(0.0, 2.0 * term.bound) if seed else 0.0
    later = rnd.uniform(0.0, term.bound)
    acc = dict(before)
    term.add_all(acc, theta, later)
    assert set(acc) <= set(before) | set(every)
    for doc, value in every.items():
        if doc in before:
            assert acc[doc] == before[doc] + value
        elif value * (1.0 + topk.SLACK) + later >= theta:
            assert acc[doc] == value
        elif value * (1.0 + 2 * topk.SLACK) + later < theta:  # certainly out: not summed at all
            assert doc not in acc
    assert acc[stats.docs + 5] == before[stats.docs + 5]


@pytest.mark.parametrize("shape", ["uniform", "ties", "skewed", "short"])
def test_kth_largest_equals_sorting(shape):
    rnd = random.Random(shape)
    for _ in range(30):
        size = rnd.randint(1, 50) if shape == "short" else rnd.randint(2100, 30000)
        if shape == "ties":
            values = [float(rnd.randint(0, 5)) for _ in range(size)]
        elif shape == "skewed":  # sampling misses the few large values: the cut lets too few through
            values = [0.0] * size
            for at in rnd.sample(range(size), rnd.randint(1, 400)):
                values[at] = rnd.random() + 1.0
        else:
            values = [rnd.random() for _ in range(size)]
        k = rnd.randint(1, min(size, 400))
        assert topk.kth_largest(values, k) == sorted(values)[-k]


def test_untrusted_directories_give_the_same_answers(zipf_services):
    for query in queries(random.Random(7), 40):
        want = exhaustive(zipf_services, "terms", query, 50)
        assert pruned(zipf_services, "terms", query, 50, trusted=False) == want, query


def test_store_without_directories_answers_the_same_and_fills_them_in(zipf_services):
    """A store older than directories is read exactly; a sealing write completes the term's entries."""
    wanted = {key: value for key, value in zipf_services.kv_query("terms", "", 0) if key.endswith("#d")}
    for key in wanted:
        zipf_services.kv_put("terms", key, b"")
    zipf_services.kv_put("meta", postings.GUARD_KEY, b"")
    for query in queries(random.Random(9), 30):
        want = exhaustive(zipf_services, "terms", query, 50)
        assert pruned(zipf_services, "terms", query, 50) == want, query
    # fill w0's head up to a seal: its directory comes back exactly as a rebuild writes it
    head = zipf_services.kv_get("terms", "w0")
    assert head is not None
    full = postings.HEAD.unpack_from(head)[0]
    stats = Stats.decode(zipf_services.kv_get("meta", "stats"))
    missing = postings.CHUNK - (len(head) - postings.HEAD.size) // postings.POSTING.size
    docs = [(stats.docs + i, ["w0"]) for i in range(missing)]
    keywords.index_documents(zipf_services, "terms", docs)
    entries = zipf_services.kv_get("terms", postings.directory_key("w0"))
    chunks = [zipf_services.kv_get("terms", postings.chunk_key("w0", n)) or b"" for n in range(full + 1)]
    assert entries == postings.directory_of(chunks)


def test_a_chunk_rewritten_behind_its_directory_is_detected(zipf_services):
    """An older engine rewrote a chunk and not its directory: the crc check falls back to every posting."""
    blob = zipf_services.kv_get("terms", postings.chunk_key("w0", 0))
    assert blob is not None
    docs, _ = postings.unpack(blob)
    zipf_services.kv_put("terms", postings.chunk_key("w0", 0),
                         b"".join(postings.POSTING.pack(d, 7, 2) for d in docs))  # tf 7: beyond the bound
    cache = postings.PostingsCache()
    for query in (["w0"], ["w0", "w1"], ["w0", "w5", "w9"]):
        want = exhaustive(zipf_services, "terms", query, 50)
        assert pruned(zipf_services, "terms", query, 50, cache) == want, query


def test_guard_goes_stale_when_stats_change_behind_it(zipf_services):
    stats = zipf_services.kv_get("meta", "stats")
    assert stats is not None
    assert postings.guard_ok(zipf_services, "meta", stats)
    changed = json.dumps({**json.loads(stats), "docs": 1}).encode()
    zipf_services.kv_put("meta", "stats", changed)  # an older engine's write
    assert not postings.guard_ok(zipf_services, "meta", changed)
    postings.keep_guard(zipf_services, "meta", changed, stats)  # a new writer after it keeps it stale
    assert zipf_services.kv_get("meta", postings.GUARD_KEY) == postings.STALE
    assert not postings.guard_ok(zipf_services, "meta", stats)


def test_remove_keeps_directories_exact(zipf_services):
    keys = [key for key, _ in zipf_services.kv_query("memories", "", 0)][::97]
    remove(zipf_services, "default", keys)
    for key, value in zipf_services.kv_query("terms", "", 0):
        if key.endswith("#d"):
            term = key[:-2]
            head = zipf_services.kv_get("terms", term)
            assert head is not None
            chunks = [zipf_services.kv_get("terms", postings.chunk_key(term, n)) or b""
                      for n in range(postings.HEAD.unpack_from(head)[0])]
            assert value == postings.directory_of(chunks), term
    for query in queries(random.Random(3), 30):
        want = exhaustive(zipf_services, "terms", query, 50)
        assert pruned(zipf_services, "terms", query, 50) == want, query


def test_keyword_recall_through_the_target_equals_exhaustive(zipf_store, target, request, monkeypatch):
    """Keyword ``recall`` on each target ranks and scores as exhaustive BM25 does natively."""
    from conftest import make_guest

    rnd = random.Random(21)
    bodies = [{"query": " ".join(q), "mode": "keyword", "limit": rnd.choice([3, 8, 20])}
              for q in queries(rnd, 40)]
    services = HostServices(zipf_store, index_policy=IndexPolicy(None))
    guest = make_guest(target, services, request)
    got = [json.loads(guest.dispatch("recall", json.dumps(body))) for body in bodies]
    guest.close()
    services.close()
    monkeypatch.setattr(keywords, "bm25", _exhaustive_bm25)
    reference = HostServices(zipf_store, index_policy=IndexPolicy(None))
    native = NativeGuest(reference)
    want = [json.loads(native.dispatch("recall", json.dumps(body))) for body in bodies]
    reference.close()
    assert got == want


def _exhaustive_bm25(host, ns, query, docs, tokens, k, cache=None, trusted=True, extra=None):
    found = topk.scores(query, lambda t: keywords.postings(host, ns, t, extra), docs, tokens)
    return sorted(found.items(), key=lambda p: (-p[1], p[0]))[:k]


def random_chunk(rnd: random.Random, n: int) -> bytes:
    """``n`` raw postings in document order, lengths and tfs of every width."""
    doc = rnd.randrange(1 << 24)
    out = []
    for _ in range(n):
        doc += rnd.choice([1, 1, 2, 9, 300, 70_000])
        out.append(postings.POSTING.pack(doc, rnd.choice([1, 1, 2, 3, 0xFFFF]), rnd.randrange(1, 0x10000)))
    return b"".join(out)


def as_lists(found: postings.Postings) -> tuple[list[int], list[int]]:
    return list(found[0]), list(found[1])


def test_a_packed_chunk_unpacks_to_its_postings_and_never_looks_raw():
    rnd = random.Random(4)
    padded = 0
    for n in [0, 1, 2, 7, 8, 100, postings.CHUNK] + [rnd.randrange(1, postings.CHUNK) for _ in range(60)]:
        raw = random_chunk(rnd, n)
        blob = postings.pack(raw)
        assert blob.startswith(postings.PACKED) and len(blob) % postings.POSTING.size
        padded += blob.endswith(b"\0")
        assert as_lists(postings.unpack(blob)) == postings.decode(raw)
        assert as_lists(postings.unpack(raw)) == postings.decode(raw), "a chunk from before packing"
        assert all(isinstance(part, array) for part in postings.unpack(blob) + postings.unpack(raw)), \
            "a chunk unpacks compact, as the chunk cache counts it (8 bytes a posting)"
    assert padded, "some chunk needed the pad byte (a multiple of 8 long otherwise)"


def test_a_damaged_packed_chunk_reads_as_no_postings():
    raw = random_chunk(random.Random(5), 300)
    body = postings.PACKED + zlib.compress(b"".join(raw[j::8] for j in range(8)))
    assert as_lists(postings.unpack(body + b"\0" if len(body) % 8 == 0 else body)) == postings.decode(raw)

    def pad(b: bytes) -> bytes:  # keep it from looking raw (a multiple of 8 long)
        return b + b"\0" if len(b) % postings.POSTING.size == 0 else b

    flipped = bytearray(body)
    flipped[len(body) // 2] ^= 0x10
    for damaged in [
        pad(body[:-3]),  # cut short
        pad(bytes(flipped)),  # a bit flipped (zlib's checksum)
        pad(b"zz" + body[2:]),  # not packed
        pad(body + b"\0\0"),  # more after the stream than the pad
        pad(postings.PACKED + zlib.compress(raw[:-1])),  # not whole postings
        pad(postings.PACKED + zlib.compress(raw * 4)),  # more postings than a chunk holds
    ]:
        assert len(damaged) % postings.POSTING.size
        assert as_lists(postings.unpack(damaged)) == ([], []), damaged[:8]
        first, _, tf, _ = postings.ENTRY.unpack(postings.entry(damaged, 77))
        assert (first, tf) == (77, 0), "bounds nothing, keeps the first docs in order"


def test_sealed_chunks_are_stored_packed_in_under_a_third(zipf_services):
    stored = raw = 0
    for key, value in zipf_services.kv_query("terms", "", 0):
        if "#" in key and key[-1].isdigit():
            assert value.startswith(postings.PACKED), key
            stored, raw = stored + len(value), raw + len(postings.unpack(value)[0]) * postings.POSTING.size
    assert raw >= 4 * postings.CHUNK_BYTES
    assert stored < 0.3 * raw, (stored, raw)


def raw_postings(blob: bytes) -> bytes:
    """A stored chunk's postings in the raw layout."""
    docs, codes = postings.unpack(blob)
    return b"".join(postings.POSTING.pack(d, c & 0xFFFF, c >> 16) for d, c in zip(docs, codes, strict=True))


def unpack_store(services: HostServices) -> None:
    """Make ``services``' store one written before chunks were packed (raw chunks, their directories)."""
    for key in [key for key, _ in services.kv_query("terms", "", 0)]:
        if key.endswith(postings.DIRECTORY):
            term = key[: -len(postings.DIRECTORY)]
            head = services.kv_get("terms", term)
            assert head is not None
            chunks = [raw_postings(services.kv_get("terms", postings.chunk_key(term, n)) or b"")
                      for n in range(postings.HEAD.unpack_from(head)[0])]
            for n, chunk in enumerate(chunks):
                services.kv_put("terms", postings.chunk_key(term, n), chunk)
            services.kv_put("terms", key, postings.directory_of(chunks))


def test_a_store_of_raw_chunks_answers_the_same(zipf_services):
    asked = queries(random.Random(6), 40)
    cache = postings.PostingsCache()
    before = [pruned(zipf_services, "terms", q, 20, cache) for q in asked]
    unpack_store(zipf_services)
    for query, want in zip(asked, before, strict=True):
        assert pruned(zipf_services, "terms", query, 20, cache) == want, query
        assert exhaustive(zipf_services, "terms", query, 20) == want, query


def test_a_rebuild_packs_the_raw_chunks_of_an_older_store(zipf_store, target, request, tmp_path):
    """``reindex {rebuild: true}`` on each target leaves the postings a fresh import writes."""
    from conftest import make_guest

    shutil.copytree(zipf_store, tmp_path / "p")
    services = HostServices(tmp_path / "p", index_policy=IndexPolicy(None))
    want = dict(services.kv_query("terms", "", 0))
    services.begin()
    unpack_store(services)
    services.commit()
    assert dict(services.kv_query("terms", "", 0)) != want
    guest = make_guest(target, services, request)
    answer = json.loads(guest.dispatch("reindex", json.dumps({"rebuild": True})))
    guest.close()
    assert answer["ok"], answer
    assert dict(services.kv_query("terms", "", 0)) == want
    services.close()


@pytest.mark.slow  # packed chunks on both targets
def test_each_target_writes_the_same_packed_chunks(zipf_store, target, request, tmp_path):
    """The component's zlib and the native one pack a chunk to the same bytes (determinism)."""
    from conftest import make_guest

    native = HostServices(zipf_store, index_policy=IndexPolicy(None))
    want = dict(native.kv_query("terms", "", 0))
    native.close()
    services = HostServices(tmp_path, index_policy=IndexPolicy(None))
    guest = make_guest(target, services, request)
    import_zipf(guest)
    guest.close()
    got = dict(services.kv_query("terms", "", 0))
    services.close()
    assert sum(key.endswith("#0") for key in got) >= 2, "chunks were sealed"
    assert got == want


def test_the_chunk_cache_keeps_the_latest_within_its_limit_and_checks_the_crc():
    chunk = postings.decode(random_chunk(random.Random(7), postings.CHUNK))
    cache = postings.PostingsCache(limit=2 * postings.CHUNK_BYTES)
    for n in range(3):
        cache.put(("terms", "w", n), n, chunk)
        assert cache.size <= cache.limit
    assert cache.get(("terms", "w", 0), 0) is None, "the least recently used went first"
    assert cache.get(("terms", "w", 1), 1) == chunk
    assert cache.get(("terms", "w", 2), 99) is None, "another crc: the chunk was rewritten"
    cache.put(("terms", "w", 3), 3, chunk)  # 2 was used less recently than 1
    assert cache.get(("terms", "w", 1), 1) == chunk and cache.get(("terms", "w", 2), 2) is None
