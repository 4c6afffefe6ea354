"""memorize / recall semantics, on both targets (native guest and the built .wasm) and both stores."""

from __future__ import annotations

import json

import pytest
from envelopes import call, ok
from stores import store_digest as db_digest
from stores import store_exists

from guest.memory.channels import MIN_COSINE
from guest.memory.records import fnv1a64, memory_id

# the PostgreSQL copies: one case per verb and what the store decides (both_stores marks below)


FACTS = [
    "The terrain palette switches when the biome changes.",
    "Use pnpm, not npm, to install packages in this repository.",
    "The CI pipeline runs on Python 3.11 with two cores.",
    "Database migrations are numbered and must stay idempotent.",
    "The login page redirects to /dashboard after a successful sign-in.",
]


def test_fnv1a64_known_vectors():
    # Reference values of 64-bit FNV-1a.
    assert fnv1a64(b"") == 0xCBF29CE484222325
    assert fnv1a64(b"a") == 0xAF63DC4C8601EC8C
    assert fnv1a64(b"foobar") == 0x85944171F73967E8


def test_memory_id_shape():
    assert memory_id("default", "héllo") == f"mem-{fnv1a64(b'default|' + 'héllo'.encode()):016x}-6"


def test_cold_start_recall_is_empty(guest, project):
    assert ok(guest, "recall", {"query": "anything at all"}) == []
    assert guest.recall("anything", 5) == []
    assert db_digest(project) is None, "a read must not create the store"


@pytest.mark.both_stores
def test_memorize_returns_content_id_and_dedups(guest, project):
    first = ok(guest, "memorize", {"text": FACTS[0]})
    assert first == {"id": memory_id("default", FACTS[0]), "namespace": "default", "deduped": False}
    before = db_digest(project)
    again = ok(guest, "memorize", FACTS[0])  # raw text body, same fact
    assert again == {**first, "deduped": True}
    assert db_digest(project) == before, "a deduplicated write must leave the file byte-identical"
    assert ok(guest, "stats", "")["memories"] == 1


def test_body_forms_are_equivalent(guest):
    a = ok(guest, "memorize", {"text": "alpha fact"})
    b = ok(guest, "memorize", json.dumps("alpha fact"))
    c = ok(guest, "memorize", "alpha fact")
    assert a["id"] == b["id"] == c["id"]
    assert [b["deduped"], c["deduped"]] == [True, True]


@pytest.mark.both_stores
def test_recall_finds_the_right_fact_first(guest):
    for fact in FACTS:
        ok(guest, "memorize", fact)
    query = "which package manager should I use to run the pipeline"
    hits = ok(guest, "recall", {"query": query, "limit": 3})
    assert hits[0]["text"] == FACTS[1] and FACTS[2] in [h["text"] for h in hits]
    assert all(set(h) == {"id", "text", "score", "namespace", "ts"} for h in hits)
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)
    body = {"query": "which package manager should I use", "limit": 5, "explain": True}
    explained = ok(guest, "recall", body)
    assert len(explained) < len(FACTS)  # not every memory: only those with some evidence
    assert all(h["explain"]["bm25"] > 0 or h["explain"]["cosine"] >= MIN_COSINE for h in explained)
    hits = ok(guest, "recall", {"query": "terrain palette switching", "limit": 1})
    assert [h["text"] for h in hits] == [FACTS[0]]


def test_recall_limit_and_default(guest):
    for i in range(12):
        ok(guest, "memorize", f"note number {i} about the build cache")
    assert len(ok(guest, "recall", "build cache")) == 8
    assert len(ok(guest, "recall", {"query": "build cache", "limit": 3})) == 3
    assert len(ok(guest, "recall", {"query": "build cache", "limit": 100})) == 12
    default = ok(guest, "recall", {"query": "build cache", "limit": 0})
    assert default == ok(guest, "recall", "build cache"), "limit 0 is the default, as in the WIT export"
    assert [untimed(h) for h in default] == guest.recall("build cache", 0)


def test_typed_exports_match_dispatch(guest):
    mem_id = guest.memorize(FACTS[2], "default")
    assert mem_id == memory_id("default", FACTS[2])
    typed = guest.recall("python version in CI", 2)
    via_dispatch = ok(guest, "recall", {"query": "python version in CI", "limit": 2})
    assert typed == [untimed(h) for h in via_dispatch]  # the WIT recall-hit has no ts


def untimed(hit: dict) -> dict:
    """A dispatch hit without its ``ts`` (the typed export's record has none)."""
    return {k: v for k, v in hit.items() if k != "ts"}


@pytest.mark.both_stores
def test_namespaces_are_separate_stores(guest, project):
    a = ok(guest, "memorize", {"text": "frontend uses vite", "namespace": "frontend"})
    b = ok(guest, "memorize", {"text": "frontend uses vite"})
    assert a["id"] != b["id"] and a["namespace"] == "frontend"
    assert store_exists(project, "frontend")
    hits = ok(guest, "recall", {"query": "vite", "namespace": "frontend"})
    assert [(h["id"], h["namespace"]) for h in hits] == [(a["id"], "frontend")]
    assert ok(guest, "stats", {"namespace": "frontend"})["memories"] == 1
    assert ok(guest, "stats", {})["memories"] == 1


@pytest.mark.both_stores
def test_near_duplicates_collapse_newest_wins(guest, clock):
    old = ok(guest, "memorize", "The staging server runs on port 8080.")
    clock.advance(60_000)
    new = ok(guest, "memorize", "The staging server runs on port 8080 .")
    ok(guest, "memorize", "Lunch is at noon on Fridays.")
    hits = ok(guest, "recall", {"query": "staging server port", "limit": 5})
    ids = [h["id"] for h in hits]
    assert new["id"] in ids and old["id"] not in ids
    assert ids[0] == new["id"]


def test_ties_break_by_id_and_runs_are_deterministic(guest):
    for text in ("zeta gamma", "alpha gamma", "mu gamma"):
        ok(guest, "memorize", text)
    first = ok(guest, "recall", {"query": "gamma", "mode": "keyword"})
    assert first == ok(guest, "recall", {"query": "gamma", "mode": "keyword"})
    tied = [h for h in first if h["score"] == first[0]["score"]]
    assert [h["id"] for h in tied] == sorted(h["id"] for h in tied)


def test_modes(guest):
    for fact in FACTS:
        ok(guest, "memorize", fact)
    kw = ok(guest, "recall", {"query": "idempotent migrations", "mode": "keyword", "limit": 2})
    assert kw[0]["text"] == FACTS[3]
    vec = ok(guest, "recall", {"query": "idempotent migrations", "mode": "vector", "limit": 2})
    assert vec[0]["text"] == FACTS[3]


def test_timestamp_comes_from_host_clock(guest, services, clock):
    clock.now_ms = 1_800_000_000_123
    mem = ok(guest, "memorize", "clocked fact")
    record = json.loads(services.kv_get("memories", mem["id"]))
    assert record["ts"] == 1_800_000_000_123
    assert record["source"] == "memorize"
    assert record["embedder"] == ok(guest, "version", "")["embedder"]
    vector = services.kv_get(f"vectors/{record['embedder']}", mem["id"])
    assert vector is not None and len(vector) == 384 * 4


BAD_REQUESTS = [
    ("memorize", "", "missing field 'text'"),
    ("memorize", "   ", "missing field 'text'"),
    ("memorize", {"text": ""}, "field 'text' is empty"),
    ("memorize", {"text": 42}, "field 'text' must be a string, not a number"),
    ("memorize", {"text": ["a"]}, "field 'text' must be a string, not an array"),
    ("memorize", {"text": "x" * (64 * 1024 + 1)}, "the limit is 65536"),
    ("memorize", '{"text": "\\ud800"}', "not valid Unicode"),
    ("memorize", {"text": "ok", "namespace": "../etc"}, "is not a valid name"),
    ("memorize", {"text": "ok", "namespace": "/abs"}, "is not a valid name"),
    ("memorize", {"text": "ok", "namespace": "a\u0000b"}, "is not a valid name"),
    ("memorize", {"text": "ok", "namespace": "n" * 65}, "is not a valid name"),
    ("memorize", {"text": "ok", "namespace": 7}, "must be a string"),
    ("memorize", "[1, 2]", "not an array"),
    ("memorize", '{"text": "unterminated', "does not parse"),
    ("recall", {"query": 5}, "field 'query' must be a string"),
    ("recall", {"query": "q", "limit": 101}, "between 0 and 100"),
    ("recall", {"query": "q", "limit": -3}, "between 0 and 100"),
    ("recall", {"query": "q", "limit": "5"}, "must be an integer"),
    ("recall", {"query": "q", "limit": True}, "must be an integer"),
    ("recall", {"query": "q", "limit": 2.5}, "must be an integer"),
    ("recall", {"query": "q", "mode": "magic"}, "must be one of hybrid, vector, keyword"),
    ("recall", {"query": "x" * 9000}, "the limit is 8192"),
    ("recall", {}, "missing field 'query'"),
    ("frobnicate", {}, "unknown verb 'frobnicate'"),
]


@pytest.mark.both_stores
@pytest.mark.parametrize(
    ("verb", "body", "message"), BAD_REQUESTS, ids=[f"{v}-{i}" for i, (v, _, _) in enumerate(BAD_REQUESTS)]
)
def test_bad_requests_are_clear_errors_and_change_nothing(guest, project, verb, body, message):
    ok(guest, "memorize", "a fact that must survive")
    before = db_digest(project)
    envelope = call(guest, verb, body)
    assert envelope["ok"] is False and envelope["verb"] == verb
    assert envelope["error"].startswith("validation: ")
    assert message in envelope["error"]
    assert db_digest(project) == before
    # The instance is still healthy afterwards.
    assert ok(guest, "stats", "")["memories"] == 1


def test_typed_export_errors(guest):
    from host_harness.errors import GuestError

    with pytest.raises(GuestError, match="field 'text' is empty"):
        guest.memorize("   ", "default")
    with pytest.raises(GuestError, match="is not a valid name"):
        guest.memorize("fine", "../x")


def test_embed_verb_is_normalised(guest):
    data = ok(guest, "embed", "hello world")
    assert data["dims"] == 384 and len(data["vector"]) == 384
    assert abs(sum(v * v for v in data["vector"]) - 1.0) < 1e-6  # a unit vector at float32 precision
    assert ok(guest, "embed", "\u2603\u2603")["vector"] == [0.0] * 384  # no known token


@pytest.mark.both_stores
def test_lone_surrogates_never_reach_the_guest(guest, project):
    from host_harness.errors import GuestError

    bad = "bad \udcff bytes"  # what undecodable argv bytes become under surrogateescape
    envelope = json.loads(guest.dispatch("memorize", bad))
    assert envelope == {
        "ok": False,
        "verb": "memorize",
        "error": "validation: body is not valid Unicode (lone surrogate)",
    }
    assert json.loads(guest.dispatch(bad, "{}"))["ok"] is False
    with pytest.raises(GuestError, match="text is not valid Unicode"):
        guest.memorize(bad, "default")
    with pytest.raises(GuestError, match="query is not valid Unicode"):
        guest.recall(bad, 3)
    assert db_digest(project) is None


@pytest.mark.sqlite_only
def test_cli_rejects_invalid_utf8_argument(project, wasm_path):
    import os
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "host_harness", "-p", str(project), "--wasm", str(wasm_path), "memorize"]
    done = subprocess.run([*cmd, os.fsdecode(b"\xff\xfe bad")], capture_output=True, text=True)
    assert done.returncode == 1
    assert "not valid Unicode" in done.stderr and "Traceback" not in done.stderr
    assert not (project / ".gm").exists()


def test_recency_weight_is_configurable_per_request(guest, clock):
    old = ok(guest, "memorize", "the release checklist lives in docs alpha")
    clock.advance(90 * 86_400_000)
    new = ok(guest, "memorize", "the release checklist lives in docs omega")
    plain = ok(guest, "recall", {"query": "release checklist docs", "mode": "keyword"})
    assert plain[0]["score"] == plain[1]["score"]  # a tie, broken by id
    boosted = ok(
        guest, "recall", {"query": "release checklist docs", "mode": "keyword", "recency_weight": 1.0}
    )
    assert [h["id"] for h in boosted] == [new["id"], old["id"]]
    assert boosted[0]["score"] > boosted[1]["score"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"query": "q", "recency_weight": -1}, "between 0 and 10"),
        ({"query": "q", "recency_weight": "high"}, "must be a number"),
        ({"query": "q", "recency_weight": True}, "must be a number"),
        ({"query": "q", "recency_half_life_days": 0}, "between 0.01 and 36500"),
    ],
)
def test_bad_recency(guest, body, message):
    envelope = call(guest, "recall", body)
    assert envelope["ok"] is False and message in envelope["error"]


@pytest.mark.both_stores
def test_embedder_mismatch_is_detected_and_reindex_fixes_it(guest, services, project):
    for fact in FACTS:
        ok(guest, "memorize", fact)
    current = ok(guest, "version", "")["embedder"]
    # Make the store look as if an older embedder had written it.
    services.begin()
    for key, vector in services.kv_query(f"vectors/{current}", "", 0):
        services.kv_put("vectors/old-embedder", key, vector)
        services.kv_put(f"vectors/{current}", key, b"")
    for key, raw in services.kv_query("memories", "", 0):
        services.kv_put("memories", key, json.dumps({**json.loads(raw), "embedder": "old-embedder"}).encode())
    stats = json.loads(services.kv_get("meta", "stats"))
    services.kv_put("meta", "stats", json.dumps({**stats, "embedder": "old-embedder"}).encode())
    services.commit()

    assert ok(guest, "recall", {"query": "package manager", "mode": "vector"}) == []
    assert any("run reindex" in r.msg for r in services.logs)
    assert (
        ok(guest, "recall", {"query": "pnpm", "mode": "keyword"})[0]["text"] == FACTS[1]
    )  # keywords still work

    report = ok(guest, "reindex", "")
    assert report == {
        "namespace": "default",
        "memories": len(FACTS),
        "reembedded": len(FACTS),
        "previous_embedder": "old-embedder",
        "embedder": current,
    }
    assert services.kv_query("vectors/old-embedder", "", 0) == []
    assert ok(guest, "recall", {"query": "which package manager", "mode": "vector"})[0]["text"] == FACTS[1]
    assert ok(guest, "stats", "")["embedder"] == current
    before = db_digest(project)
    assert ok(guest, "reindex", "")["reembedded"] == 0
    assert db_digest(project) == before, "a second reindex changes nothing"
