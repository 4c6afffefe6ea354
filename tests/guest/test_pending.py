"""The keyword index's pending list (``terms/#pending``, :mod:`guest.index.pending`).

* one-document writes go to the list; the write that would overflow it indexes the whole list,
  and the postings are then byte for byte those of indexing every document one by one;
* documents still in the list are found by keyword recall, exactly as exhaustive BM25 ranks them;
* removing memories indexes the list first; a rebuild keeps the newest documents pending;
* a list an older engine wrote past (the store's counts changed) is ignored, and the next write
  rebuilds the index.
"""

from __future__ import annotations

import json

import pytest
from envelopes import ok
from stores import store_digest

from guest.index import keywords, pending, postings, topk
from guest.memory import rules
from guest.memory.records import Memory, Stats
from guest.memory.reindex import remove

pytestmark = pytest.mark.both_stores

WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega".split()


def text(n: int) -> str:
    """A distinct memory whose words overlap with its neighbours'."""
    return " ".join(WORDS[(n + i * i) % len(WORDS)] for i in range(n % 5 + 2)) + f" item{n}"


def terms_bucket(services) -> dict[str, bytes]:
    return dict(services.kv_query("terms", "", 0))


def held(services) -> list[int]:
    raw = services.kv_get("terms", pending.KEY)
    return [int(line.split(b" ")[0]) for line in raw.split(b"\n")[1:]] if raw else []


def documents(services) -> list[tuple[int, list[str]]]:
    """Each stored memory's doc number and terms, by the store's terms version (words and facets)."""
    version = Stats.decode(services.kv_get("meta", "stats")).terms
    memories = [Memory.decode(raw) for _, raw in services.kv_query("memories", "", 0)]
    return sorted((memory.doc, rules.document(memory, version)) for memory in memories)


def exhaustive(services, query: str, k: int = 50) -> list[tuple[int, float]]:
    stats = Stats.decode(services.kv_get("meta", "stats"))
    listed = keywords.read_pending(services, "terms", stats.docs, stats.tokens)
    found = topk.scores(keywords.terms(query), lambda t: keywords.postings(services, "terms", t, listed),
                        stats.docs, stats.tokens)
    return sorted(found.items(), key=lambda p: (-p[1], p[0]))[:k]


def test_writes_fill_the_list_then_index_it_as_one_by_one(guest, services):
    for n in range(pending.PENDING_DOCS):
        ok(guest, "memorize", text(n))
    assert held(services) == list(range(pending.PENDING_DOCS))
    assert set(terms_bucket(services)) == {pending.KEY}  # nothing indexed in place yet
    ok(guest, "memorize", text(pending.PENDING_DOCS))
    assert held(services) == []  # the 33rd write indexed all 33
    one_by_one = keywords._Buffer(services)
    for document in documents(services):
        keywords.index_documents(one_by_one, "terms", [document])
    assert terms_bucket(services) == one_by_one.values
    ok(guest, "memorize", text(99))
    assert held(services) == [pending.PENDING_DOCS + 1]


@pytest.mark.parametrize("count", [5, 40, 70])
def test_keyword_recall_sees_pending_documents_as_exhaustive_bm25_ranks_them(guest, services, count):
    for n in range(count):
        ok(guest, "memorize", text(n))
    assert held(services)  # some documents are only in the list
    for query in ("alpha gamma", "item3 omega", f"item{count - 1}", "lambda sigma beta"):
        hits = ok(guest, "recall", {"query": query, "mode": "keyword", "limit": 50})
        docs = {json.loads(services.kv_get("memories", hit["id"]))["doc"] for hit in hits}
        assert docs == {doc for doc, _ in exhaustive(services, query)}
    latest = ok(guest, "recall", {"query": f"item{count - 1}", "mode": "keyword", "limit": 1})
    assert latest[0]["text"] == text(count - 1)


def test_removing_indexes_the_list_first_and_keeps_the_index_exact(guest, services):
    ids = [ok(guest, "memorize", text(n))["id"] for n in range(10)]
    assert held(services) == list(range(10))
    services.begin()  # as a git merge removes what the other side deleted
    assert remove(services, "default", [ids[3]]) == 1
    services.commit()
    assert held(services) == []
    rebuilt = keywords._Buffer(services)
    keywords.index_documents(rebuilt, "terms", documents(services))
    assert terms_bucket(services) == rebuilt.values
    assert ok(guest, "recall", {"query": "item3", "mode": "keyword"}) == []


def test_rebuild_keeps_the_newest_documents_pending(guest, services, project):
    for n in range(40):
        ok(guest, "memorize", text(n))
    before = terms_bucket(services)
    assert held(services) == list(range(33, 40))
    report = ok(guest, "reindex", {"rebuild": True})
    assert report["rebuilt"]["memories"] == 40
    assert terms_bucket(services) == before


def older_engine_memorize(services, doc: int, words: list[str]) -> None:
    """What an engine without the pending list does: index in place, bump the counts."""
    services.begin()
    stats = Stats.decode(services.kv_get("meta", "stats"))
    keywords.index_documents(services, "terms", [(doc, words)])
    services.kv_put("docs", f"{doc:010d}", b"mem-older")
    stats.docs, stats.tokens = stats.docs + 1, stats.tokens + len(words)
    services.kv_put("meta", "stats", stats.encode())
    services.commit()


def test_a_list_an_older_engine_wrote_past_is_ignored_then_rebuilt(guest, services):
    for n in range(6):
        ok(guest, "memorize", text(n))
    # An older engine indexes a document past the list (its record is left out: only the index
    # matters here) -- the list's counts no longer match the store's.
    older_engine_memorize(services, 6, keywords.terms("older engine wrote this"))
    assert held(services) == list(range(6))
    stats = Stats.decode(services.kv_get("meta", "stats"))
    assert keywords.read_pending(services, "terms", stats.docs, stats.tokens).stale
    assert ok(guest, "recall", {"query": "item2", "mode": "keyword"}) == []  # ignored, not misread
    ok(guest, "memorize", text(7))  # the next write rebuilds the index from the memories
    stats = Stats.decode(services.kv_get("meta", "stats"))
    assert not keywords.read_pending(services, "terms", stats.docs, stats.tokens).stale
    for n in (2, 7):
        assert ok(guest, "recall", {"query": f"item{n}", "mode": "keyword", "limit": 1})[0]["text"] == text(n)


def test_a_store_embedder_change_does_not_stale_the_list(guest, services):
    for n in range(4):
        ok(guest, "memorize", text(n))
    services.begin()
    stats = Stats.decode(services.kv_get("meta", "stats"))
    stats.embedder = "another-embedder"
    services.kv_put("meta", "stats", stats.encode())
    services.commit()
    assert ok(guest, "recall", {"query": "item1", "mode": "keyword", "limit": 1})[0]["text"] == text(1)


def test_pending_list_layout():
    raw = pending.encode([(7, ["b", "a", "b"]), (8, [])], pending.mark(9, 3))
    assert raw == b"pending 9 3\n7 3 a:1 b:2\n8 0"
    listed = pending.Pending(raw, pending.mark(9, 3))
    assert len(listed) == 2 and not listed.stale
    assert listed.postings("b") == postings.POSTING.pack(7, 2, 3)
    assert listed.postings("c") == b""
    assert listed.documents() == [(7, ["a", "b", "b"]), (8, [])]
    grown = pending.append(raw, [(9, ["a"])], pending.mark(10, 4))
    assert grown == b"pending 10 4\n7 3 a:1 b:2\n8 0\n9 1 a:1"
    assert pending.Pending(grown, pending.mark(10, 5)).stale
    assert pending.Pending(grown, pending.mark(10, 5)).postings("a") == b""


def test_removing_past_a_stale_list_rebuilds_the_index_first(guest, services, project):
    ids = [ok(guest, "memorize", text(n))["id"] for n in range(6)]
    older_engine_memorize(services, 6, keywords.terms("older engine wrote this"))
    services.begin()
    assert remove(services, "default", [ids[2]]) == 1
    services.commit()
    assert held(services) == []  # rebuilt: the stale list is gone, its documents indexed
    assert ok(guest, "recall", {"query": "item2", "mode": "keyword"}) == []
    for n in (0, 5):
        assert ok(guest, "recall", {"query": f"item{n}", "mode": "keyword", "limit": 1})[0]["text"] == text(n)
    before = store_digest(project)
    assert ok(guest, "reindex", {"rebuild": True})["rebuilt"]["memories"] == 5
    assert store_digest(project) == before  # the removal left exactly what a rebuild gives
