"""Rebuilding derived data from durable data, and archive aliases (groundwork of issue #16).

* ``keywords.rebuild`` gives the bytes that indexing the same documents one by one gives;
* ``reindex {rebuild: true}`` renumbers memories densely and rebuilds ``docs``/``terms``/``meta``:
  a no-op on a sound store, a repair on a damaged one;
* ``remove`` deletes memories and leaves exactly the index a rebuild would give;
* ``Archive.reindex`` packs the search index exactly like ``archive`` calls do;
* ``archive-alias`` makes ``archive_recall`` name the blocks a merge renumbered.
"""

from __future__ import annotations

import pytest
from envelopes import call, ok
from stores import store_digest

from guest.archive.search import entry_of
from guest.archive.store import Archive, Block
from guest.index import keywords
from guest.memory.reindex import remove

pytestmark = pytest.mark.both_stores

TEXTS = [
    "Use pnpm, not npm, in this repository.",
    "Deploys go through ArgoCD; never kubectl apply by hand.",
    "The staging server listens on port 8080.",
    "Run the integration tests with pytest -m integration before a release.",
]


def db_digest(project) -> str | None:
    return store_digest(project)


@pytest.mark.slow  # a store indexed twice
def test_keyword_rebuild_equals_indexing_one_by_one(services):
    texts = [f"{text * (doc % 7 + 1)} shared" for doc, text in enumerate(TEXTS * 300)]
    documents = [(doc, keywords.terms(text)) for doc, text in enumerate(texts)]
    services.begin()  # one transaction, as in a call
    for doc, words in documents:
        keywords.index_document(services, "one-by-one", doc, words)
    services.kv_put("rebuilt", "stale-term", b"\x00\x00\x00\x00")
    assert keywords.rebuild(services, "rebuilt", documents) == len(services.kv_query("one-by-one", "", 0))
    assert services.kv_query("rebuilt", "", 0) == services.kv_query("one-by-one", "", 0)
    assert any("#" in key for key, _ in services.kv_query("rebuilt", "", 0)), "chunks were spilled"
    services.commit()


def test_rebuild_of_a_sound_store_writes_nothing(guest, project):
    for text in TEXTS:
        ok(guest, "memorize", {"text": text})
    before = db_digest(project)
    report = ok(guest, "reindex", {"rebuild": True})
    assert report["rebuilt"]["memories"] == len(TEXTS) and report["reembedded"] == 0
    assert db_digest(project) == before


def test_rebuild_repairs_a_damaged_keyword_index(guest, services):
    for text in TEXTS:
        ok(guest, "memorize", {"text": text})
    for bucket in ("terms", "docs"):
        for key, _ in services.kv_query(bucket, "", 0):
            services.kv_put(bucket, key, b"")
    assert ok(guest, "recall", {"query": "ArgoCD deploys", "mode": "keyword"}) == []
    ok(guest, "reindex", {"rebuild": True})
    hits = ok(guest, "recall", {"query": "ArgoCD deploys", "mode": "keyword"})
    assert [h["text"] for h in hits] == [TEXTS[1]]


def test_rebuild_renumbers_after_a_memory_is_gone(guest, services):
    ids = [ok(guest, "memorize", {"text": text})["id"] for text in TEXTS]
    services.kv_put("memories", ids[1], b"")
    ok(guest, "reindex", {"rebuild": True})
    assert ok(guest, "stats")["memories"] == 3
    assert [key for key, _ in services.kv_query("docs", "", 0)] == [f"{n:010d}" for n in range(3)]
    assert ok(guest, "recall", {"query": "ArgoCD", "mode": "keyword"}) == []
    hits = ok(guest, "recall", {"query": "staging port 8080", "mode": "keyword"})
    assert [h["id"] for h in hits] == [ids[2]]
    assert not call(guest, "reindex", {"rebuild": "yes"})["ok"]


def test_set_postings_lays_out_like_appending(services):
    services.begin()
    for doc in range(1500):
        keywords.index_document(services, "all", doc, ["shared", f"only{doc}"])
        if doc % 7:
            keywords.index_document(services, "kept", doc, ["shared", f"only{doc}"])
    plist = [p for p in keywords.postings(services, "all", "shared") if p[0] % 7]
    keywords.set_postings(services, "all", "shared", list(reversed(plist)))
    assert len(services.kv_query("kept", "shared", 0)) == 3  # the head, one full chunk, its directory
    assert services.kv_query("all", "shared", 0) == services.kv_query("kept", "shared", 0)
    keywords.set_postings(services, "all", "shared", [])
    assert services.kv_query("all", "shared", 0) == []
    services.commit()


def test_remove_leaves_what_a_rebuild_gives(guest, services, project):
    texts = [f"{text} (variant {n})" for n in range(3) for text in TEXTS]
    ids = [ok(guest, "memorize", {"text": text})["id"] for text in texts]
    services.begin()
    assert remove(services, "default", [ids[0], ids[5], ids[11], ids[10], "mem-absent"]) == 4
    services.commit()
    after = db_digest(project)
    ok(guest, "reindex", {"rebuild": True})
    assert db_digest(project) == after, "remove left an index that a rebuild changes"
    assert ok(guest, "stats")["memories"] == 8
    assert services.kv_query("vectors/" + ok(guest, "stats")["embedder"], "", 0)[0][0] in ids
    assert len(services.kv_query("vectors/" + ok(guest, "stats")["embedder"], "", 0)) == 8
    hits = ok(guest, "recall", {"query": "pnpm npm", "limit": 10, "mode": "keyword"})
    assert sorted(h["id"] for h in hits) == sorted([ids[4], ids[8]])


def test_archive_reindex_packs_like_archiving(guest, services):
    bodies = [{"content": f"block {n}\n" + "x" * n, "label": f"b{n}"} for n in range(70)]
    blocks = [ok(guest, "archive", body) for body in bodies]
    chunks = services.kv_query("archive-index", "", 0)
    assert len(chunks) == 3
    store = Archive(services, "default")
    entries, locked = store.entries()
    assert sorted(entries) == [b["seq"] for b in blocks] and not locked
    for key, _ in chunks:
        services.kv_put("archive-index", key, b"")
    assert store.reindex(list(entries.values()), set()) == 3
    assert services.kv_query("archive-index", "", 0) == chunks
    assert services.kv_get("archive-meta", "chunk") == b"2"
    assert entry_of(Block(8, "b7", "block 7\n" + "x" * 7, 0)) == entries[8]


def test_archive_recall_names_renumbered_blocks(guest, services):
    ok(guest, "archive", {"content": "kept its number", "label": "kept"})
    ok(guest, "archive", {"content": "moved here by a merge", "label": "moved"})
    services.kv_put("archive-alias", f"{1:020d}", b"[2]")
    services.kv_put("archive-alias", f"{9:020d}", b"[2]")
    first = ok(guest, "archive_recall", {"id": "r1"})
    assert first["content"] == "kept its number"
    header = "[r1 — kept, recalled verbatim; another branch's r1 is now r2 (moved)]"
    assert first["text"] == header + "\nkept its number"
    assert first["renumbered"] == [{"id": "r2", "label": "moved"}]
    only = ok(guest, "recall", {"id": "r9"})  # no block of its own: the renumbered one answers
    assert only["id"] == "r2" and only["content"] == "moved here by a merge"
    assert only["text"].startswith("[r2 — moved, recalled verbatim; r9 on another branch]\n")
    plain = ok(guest, "archive_recall", {"id": "r2"})
    assert "renumbered" not in plain
    assert plain["text"] == "[r2 — moved, recalled verbatim]\nmoved here by a merge"
    services.kv_put("archive-alias", f"{1:020d}", b"not json")
    assert "renumbered" not in ok(guest, "archive_recall", {"id": "r1"})
