"""Fusion ranks exactly as sorting every fused score would, with fewer ``docs`` lookups.

:class:`guest.memory.fusion.Fusion` learns which memory a keyword candidate is only when the order
depends on it. These tests hold it to the ranking of the old way -- every document looked up, every
fused score summed, sorted by ``(-score, id, namespace)`` -- on real stores: random candidate pools
full of ties (native, against the store directly), and whole recalls through both targets.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from guest.host import bucket
from guest.index import keywords
from guest.memory import rules
from guest.memory.channels import evident
from guest.memory.fusion import Disagreement, DocKey, Fusion, Key, minmax
from guest.memory.lift import Lift
from guest.memory.recall import RecallOptions, collapse, f32, keyword_channel, vector_channel
from guest.memory.records import Memory, Stats
from guest.strings.when import Window
from guest.text.embed import StaticEmbedder
from host_harness.services import HostServices

ROOT = Path(__file__).resolve().parents[2]
WEIGHTS = (0.25, 0.75)
NAMESPACES = ("default", "ops")


class Remembered:
    """``kv_get`` of a store nothing writes meanwhile, each entry read from it once: the references'
    reads in the generated loops below (the store is real; the oracle does not re-read it 30,000 times)."""

    def __init__(self, services: HostServices) -> None:
        self.services = services
        self.seen: dict[tuple[str, str], bytes | None] = {}

    def kv_get(self, ns: str, key: str) -> bytes | None:
        if (ns, key) not in self.seen:
            self.seen[ns, key] = self.services.kv_get(ns, key)
        return self.seen[ns, key]


def reference(services: HostServices | Remembered, vectors: list[tuple[Key, float]],
              words: list[tuple[DocKey, float]],
              norms: tuple[dict[Key, float], dict[DocKey, float]] | None = None):
    """Every document looked up, the fused scores summed and sorted: the ranking before Fusion."""
    vnorm, knorm = (minmax(vectors), minmax(words)) if norms is None else (norms[0].items(), norms[1].items())
    scores: dict[Key, float] = {}
    for key, score in vnorm:
        scores[key] = scores.get(key, 0.0) + WEIGHTS[0] * score
    for (namespace, doc), score in knorm:
        raw = services.kv_get(bucket(namespace, "docs"), f"{doc:010d}")
        if raw is not None:
            key = (namespace, raw.decode("utf-8"))
            scores[key] = scores.get(key, 0.0) + WEIGHTS[1] * score
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0][1], kv[0][0]))


def counting(services: HostServices) -> dict[str, int]:
    """Count the ``kv_get`` calls of ``services`` by bucket (its last path part)."""
    counts: dict[str, int] = {}
    inner = services.kv_get

    def kv_get(ns: str, key: str) -> bytes | None:
        counts[ns.rsplit("/", 1)[-1]] = counts.get(ns.rsplit("/", 1)[-1], 0) + 1
        return inner(ns, key)

    services.kv_get = kv_get  # type: ignore[method-assign]
    return counts


@pytest.fixture
def stored(tmp_path: Path) -> tuple[HostServices, dict[str, list[str]]]:
    """Two stores of 60 memories each: records and ``docs`` entries that agree, as writers leave them."""
    services = HostServices(tmp_path)
    ids: dict[str, list[str]] = {}
    services.begin(write_lock=True)  # one transaction, as a guest call writes
    for namespace in NAMESPACES:
        ids[namespace] = []
        for doc in range(60):
            key = f"mem-{namespace}-{doc:03d}"
            record = Memory(key, f"text {doc}", namespace, 0, "e", "memorize", doc)
            services.kv_put(bucket(namespace, "memories"), key, record.encode())
            services.kv_put(bucket(namespace, "docs"), f"{doc:010d}", key.encode("utf-8"))
            ids[namespace].append(key)
    services.commit()
    yield services, ids
    services.close()


def pools(rnd: random.Random, ids: dict[str, list[str]]):
    """Random channel pools over both stores: overlapping, with many equal scores."""
    levels = [rnd.choice([0.1, 0.5, 0.5, 0.9, 1.0, 2.0, 3.0]) for _ in range(4)]
    vectors: list[tuple[Key, float]] = []
    words: list[tuple[DocKey, float]] = []
    for namespace in rnd.sample(NAMESPACES, rnd.randint(1, 2)):
        for doc in rnd.sample(range(60), rnd.randint(0, 25)):
            vectors.append(((namespace, ids[namespace][doc]), rnd.choice(levels) * rnd.choice([1, 1, 0.5])))
        for doc in rnd.sample(range(60), rnd.randint(0, 25)):
            words.append(((namespace, doc), rnd.choice(levels) * 7))
    vectors.append((("default", "mem-without-a-record"), rnd.choice(levels)))  # a stale vector
    words.append((("default", 999), rnd.choice(levels)))  # a document without a docs entry
    return vectors, words


def test_the_lazy_ranking_is_the_sorted_ranking(stored):
    services, ids = stored
    rnd, reads = random.Random(7), Remembered(services)
    for _ in range(400):
        vectors, words = pools(rnd, ids)
        expected = reference(reads, vectors, words)
        for limit in (1, 3, 10, 200):
            fusion = Fusion(services, vectors, words, WEIGHTS)
            assert list(fusion.ranked(limit)) == expected[:limit]
        eager = Fusion(services, vectors, words, WEIGHTS, eager=True)
        assert list(eager.ranked(200)) == expected


def test_the_lazy_ranking_with_calibrated_scores_is_the_sorted_ranking(stored):
    services, ids = stored
    rnd, reads = random.Random(5), Remembered(services)
    for _ in range(300):  # any normalised scores in their channel's order, as calibration gives them
        vectors, words = pools(rnd, ids)
        top_v, top_k = rnd.choice([0.3, 1.0, 4.0]), rnd.choice([0.2, 1.0, 9.0])
        norms = ({key: min(1.0, s / top_v) for key, s in vectors},
                 {doc: min(1.0, s / top_k) for doc, s in words})
        expected = reference(reads, vectors, words, norms)
        for limit in (1, 3, 10, 200):
            fusion = Fusion(services, vectors, words, WEIGHTS, norms=norms)
            assert list(fusion.ranked(limit)) == expected[:limit]
        eager = Fusion(services, vectors, words, WEIGHTS, eager=True, norms=norms)
        assert list(eager.ranked(200)) == expected


def lifted_reference(services, vectors, words, lift: Lift, reach: int):
    """The lifted ranking the slow way: every document's lift, the ``reach`` best vector
    candidates of lifted stores lifted by their record, every score summed and sorted."""
    vpart = {key: WEIGHTS[0] * s for key, s in minmax(vectors)}
    kpart = {doc: WEIGHTS[1] * s for doc, s in minmax(words)}
    kpart = {doc: k + lift.docs[doc] if doc in lift.docs else k for doc, k in kpart.items()}
    top = [x for x in sorted(vpart, key=lambda x: (-vpart[x], x))[:reach] if x[0] in lift.stores]
    scores: dict[Key, float] = {}
    for (namespace, doc), k in kpart.items():
        raw = services.kv_get(bucket(namespace, "docs"), f"{doc:010d}")
        if raw is not None:
            key = (namespace, raw.decode("utf-8"))
            scores[key] = vpart[key] + k if key in vpart else 0.0 + k
    for key, v in vpart.items():
        if key not in scores:
            raw = services.kv_get(bucket(key[0], "memories"), key[1])
            scores[key] = v + lift.of_record(Memory.decode(raw), key[0]) if raw and key in top else 0.0 + v
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0][1], kv[0][0]))


@pytest.mark.slow  # many generated rankings
def test_the_lazy_lifted_ranking_is_the_sorted_ranking(stored):
    services, ids = stored
    services.begin(write_lock=True)
    for namespace in NAMESPACES:  # labels and dates the lift can find in the records
        for doc, key in enumerate(ids[namespace]):
            record = Memory(key, f"S{doc % 3}: text {doc}", namespace, doc * 86_400_000, "e", "memorize", doc)
            services.kv_put(bucket(namespace, "memories"), key, record.encode())
    services.commit()
    rnd, reads = random.Random(11), Remembered(services)  # after the records are rewritten
    for _ in range(300):
        vectors, words = pools(rnd, ids)
        subject, timed = rnd.random() < 0.7, rnd.random() < 0.5
        window = Window(rnd.randint(0, 30), rnd.randint(30, 60)) if timed else None
        stores = dict.fromkeys(rnd.sample(NAMESPACES, rnd.randint(1, 2)), rules.CURRENT)
        lift = Lift(rnd.choice([0.5, 0.25]), 0.5, frozenset({"s1"}) if subject else frozenset(), window, {},
                    stores, 0.0)
        for namespace in stores:  # what the facet postings would say: doc % 3 == 1 has subject s1
            for doc in range(60):
                timed_doc = window is not None and window.holds(doc * 86_400_000)
                value = lift.value(subject and doc % 3 == 1, timed_doc)
                if value:
                    lift.docs[(namespace, doc)] = value
        lift = Lift(lift.subject_weight, lift.time_weight, lift.subjects, window, lift.docs, stores,
                    lift.value(subject, timed))
        for reach in (0, 3, 10):
            expected = lifted_reference(reads, vectors, words, lift, reach)
            for limit in (1, 5, 200):
                fusion = Fusion(services, vectors, words, WEIGHTS, lift=lift, reach=reach)
                assert list(fusion.ranked(limit)) == expected[:limit]
            eager = Fusion(services, vectors, words, WEIGHTS, eager=True, lift=lift, reach=reach)
            assert list(eager.ranked(200)) == expected


def test_it_looks_up_only_what_the_order_needs(stored):
    services, ids = stored
    vectors = [(("default", ids["default"][doc]), 1.0 - doc / 100) for doc in range(50)]
    words = [(("default", doc), 10.0 - doc / 10) for doc in range(10, 60)]
    counts = counting(services)
    fusion = Fusion(services, vectors, words, WEIGHTS)
    top = list(fusion.ranked(5))
    assert top == reference(services, vectors, words)[:5]
    assert counts["docs"] - 50 < 25  # the reference itself looked up all 50


def test_a_disagreeing_store_is_noticed(stored):
    services, ids = stored
    # documents 3 and 4 swapped in the docs map, not in the records (a damaged store)
    services.kv_put("docs", f"{3:010d}", ids["default"][4].encode())
    services.kv_put("docs", f"{4:010d}", ids["default"][3].encode())
    vectors = [(("default", ids["default"][3]), 1.0), (("default", ids["default"][9]), 0.5)]
    words = [(("default", 3), 5.0), (("default", 7), 1.0)]
    fusion = Fusion(services, vectors, words, WEIGHTS)
    with pytest.raises(Disagreement):
        for key, _ in fusion.ranked(10):
            fusion.memory(key)
    eager = Fusion(services, vectors, words, WEIGHTS, eager=True)
    assert list(eager.ranked(10)) == reference(services, vectors, words)


def test_a_document_naming_a_memory_whose_record_names_another_is_noticed(stored):
    services, ids = stored
    services.kv_put("docs", f"{5:010d}", ids["default"][3].encode())  # the record of memory 3 says doc 3
    vectors = [(("default", ids["default"][3]), 1.0), (("default", ids["default"][9]), 0.0)]
    words = [(("default", 8), 10.0), (("default", 5), 2.0), (("default", 6), 1.0)]
    with pytest.raises(Disagreement):  # memory 3's record is read first (doc 3: no keyword part)
        list(Fusion(services, vectors, words, WEIGHTS).ranked(10))


TOPICS = [
    "the build cache lives in {} and is cleared by make clean",
    "database migrations for {} run before the tests start",
    "deploy {} with the blue green script after review",
    "the {} service retries three times with exponential backoff",
    "logging for {} goes to stderr as json lines",
]
WORDS = ["alpha", "beta", "gamma", "delta", "kappa", "sigma", "omega", "zeta", "theta", "lambda"]


def texts(n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        topic = rnd.choice(TOPICS).format(rnd.choice(WORDS))
        out.append(f"{topic} {rnd.choice(WORDS)} {i % 7}" if i % 5 else topic)  # some exact repeats
    return out


def eager_recall(services: HostServices, embedder: StaticEmbedder, query: str, limit: int):
    """Recall as it was before Fusion: every document looked up first."""
    options = RecallOptions()
    pool = max(options.candidates, limit * 4)
    stats_raw = services.kv_get("meta", "stats")
    stats = Stats.decode(stats_raw)
    near = vector_channel(services, embedder, embedder.embed(query), "default", stats, pool)
    vectors = [(("default", k), s) for k, s in near]
    terms = keywords.terms(query)
    found = keyword_channel(services, terms, "default", stats, pool, None, stats_raw) if terms else []
    words = [(("default", d), s) for d, s in found]
    fusion = Fusion(services, vectors, words, WEIGHTS, eager=True)
    cosines = dict(vectors)
    evidenced = [(key, score) for key, score in fusion.ranked(pool)  # no shared term, a low cosine: out
                 if evident(key in fusion.docs, cosines.get(key, 0.0))]
    hits = collapse(services, embedder, fusion, evidenced, limit, options)
    return [(m.id, score) for m, score in hits]


def test_recall_answers_what_eager_fusion_answers(guest, services):
    memories = [{"text": text} for text in texts(300, seed=3)]
    imported = json.loads(guest.dispatch("import", json.dumps({"memories": memories})))
    assert imported["ok"], imported
    embedder = StaticEmbedder(ROOT / "models")
    counts = counting(services)
    rnd = random.Random(5)
    checked = lazy = eager = 0
    queries = ["build cache", "deploy omega", "retries backoff sigma", "json lines kappa 3", "nothing here"]
    queries += [" ".join(rnd.sample([*WORDS, "cache", "tests", "script", "service"], 3)) for _ in range(15)]
    for query in queries:
        for limit in (3, 8):
            before = counts.get("docs", 0)
            got = json.loads(guest.dispatch("recall", json.dumps({"query": query, "limit": limit})))
            assert got["ok"], got
            lazy += counts.get("docs", 0) - before
            services.begin()
            try:
                before = counts.get("docs", 0)
                want = eager_recall(services, embedder, query, limit)
                eager += counts.get("docs", 0) - before
            finally:
                services.rollback()
            assert [(h["id"], h["score"]) for h in got["data"]] == [(i, f32(s)) for i, s in want]
            checked += bool(want)
    assert checked > 20
    assert lazy < eager / 2  # the eager reference looks every keyword candidate up


def test_recall_of_a_disagreeing_store_warns_and_answers_as_before(guest, services):
    query = "zebra unicorn orchestra"
    memories = [{"text": text} for text in [query, "quartz nebula xylophone", *texts(120, seed=4)]]
    assert json.loads(guest.dispatch("import", json.dumps({"memories": memories})))["ok"]
    first, second = services.kv_get("docs", f"{0:010d}"), services.kv_get("docs", f"{1:010d}")
    services.kv_put("docs", f"{0:010d}", second)  # the query's document now names the other memory
    services.kv_put("docs", f"{1:010d}", first)
    got = json.loads(guest.dispatch("recall", json.dumps({"query": query, "limit": 5})))
    assert any("docs map and records disagree" in record.msg for record in services.logs)
    services.begin()
    try:
        want = eager_recall(services, StaticEmbedder(ROOT / "models"), query, 5)
    finally:
        services.rollback()
    assert [(h["id"], h["score"]) for h in got["data"]] == [(i, f32(s)) for i, s in want]
