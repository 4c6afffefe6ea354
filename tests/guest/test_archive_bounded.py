"""``archive_search`` in bounded memory, with the same results (issue 11, item 3).

Large blocks keep their keyword text out of the index, in pieces the host scans
(``host-kv-query`` with the keyword, limit 1); the index is read one chunk at a time.
"""

from __future__ import annotations

import itertools
import json
import random
import string

import pytest
from envelopes import call, ok
from hypothesis import given, settings
from hypothesis import strategies as st
from test_archive import GOLDEN

from guest.archive import search, terms
from host_harness.services import HostServices

WORDS = ["deploy", "rollback", "canary", "kubernetes", "helm", "ingress", "latency", "budget", "alpha"]


@settings(max_examples=200, deadline=None)
@given(runs=st.lists(st.text("abcé", min_size=1, max_size=40), min_size=1, max_size=30),
       size=st.integers(12, 40), overlap=st.integers(1, 8), data=st.data())
def test_every_short_keyword_is_inside_one_piece(runs, size, overlap, data):
    text = " ".join(runs)
    chunks = terms.pieces(text, size, overlap)
    assert all(len(piece) <= size for piece in chunks)
    run = data.draw(st.sampled_from(runs))
    start = data.draw(st.integers(0, len(run) - 1))
    keyword = run[start : start + data.draw(st.integers(1, overlap))]
    assert any(keyword in piece for piece in chunks), (keyword, chunks)


def test_piece_keys_hold_no_keyword_rune():
    keys = [terms.piece_key(i) for i in (0, 7, 12_345, 999_999)]
    assert all(not any(c.isalnum() for c in key) for key in keys)
    assert len(set(keys)) == 4


def test_the_golden_log_answers_the_same_with_every_block_out_of_line(native_guest_factory, clock,
                                                                      monkeypatch):
    monkeypatch.setattr(terms, "INLINE_TERMS", 0)
    monkeypatch.setattr(terms, "PIECE_CHARS", 40)  # many pieces, long runs in windows
    monkeypatch.setattr(terms, "MAX_TERM_CHARS", 16)  # the golden log's keywords have at most 12 runes
    guest = native_guest_factory()
    log = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for block in log["blocks"]:
        clock.now_ms = block["ts"]
        assert call(guest, "archive", block["body"]) == block["expect"]
    index = guest.services.kv_query("archive-index", "", 0)
    assert all(json.loads(raw)["split"] for _, raw in index), "every entry is out of line"
    mismatches = []
    for entry in log["calls"]:
        got = call(guest, entry["verb"], entry["raw"] if "raw" in entry else entry["body"])
        if got != entry["expect"]:
            mismatches.append((entry["case"], got, entry["expect"]))
    assert not mismatches, mismatches[:3]


@pytest.fixture
def native_guest_factory(project, clock):
    from host_harness.targets.native import NativeGuest

    made = []

    def make():
        services = HostServices(project, clock=clock)
        made.append(services)
        return NativeGuest(services)

    yield make
    for services in made:
        services.close()


def big_block(seed: int, words: int) -> str:
    rng = random.Random(seed)
    return " ".join(f"{rng.choice(WORDS)}{rng.randrange(10**6)}" for _ in range(words))


def test_large_blocks_are_found_by_substring_like_small_ones(guest, services):
    big = big_block(1, 12_000) + " needle" + "x" * 50_000 + "haystack"  # a 50 KB run: windows
    ok(guest, "archive", {"content": "small deploy note", "label": "small"})
    ok(guest, "archive", {"content": big, "label": "big one"})
    ok(guest, "archive", {"content": big_block(2, 12_000), "label": "other big"})
    chunk = json.loads(services.kv_get("archive-index", f"{0:020d}"))
    assert chunk["split"] == [2, 3] and chunk["content_terms"][1:] == ["", ""]
    assert len(chunk["content_terms"][0]) < 100
    assert services.kv_query(f"archive-terms/{2:020d}", "", 0), "the pieces live in their own bucket"
    results = ok(guest, "archive_search", {"query": "needle xxxxhaystack deploy", "limit": 5})["results"]
    assert [(r["id"], r["score"]) for r in results] == [("r2", 3), ("r3", 1), ("r1", 1)]
    assert [r["id"] for r in ok(guest, "archive_search", "haystack")["results"]] == ["r2"]
    assert ok(guest, "archive_search", "absentword")["results"] == []
    assert ok(guest, "archive_recall", "r2")["content"] == big


class ScanCounting(HostServices):
    """Counts the host's scans of large blocks' keyword text (``host-kv-query`` on ``archive-terms/``)."""

    scans = 0

    def kv_query(self, ns, q, limit):
        if "archive-terms/" in ns:
            self.scans += 1
        return super().kv_query(ns, q, limit)


def test_a_query_uses_at_most_max_terms_keywords(guest_factory, project, clock):
    """Issue 25, item 10: 2,200 keywords cost the host no more scans than eight (the cap) per large block."""
    assert search.MAX_TERMS == 8, "docs/archive.md documents the cap"
    services = ScanCounting(project, clock=clock)
    try:
        guest = guest_factory(services)
        ok(guest, "archive", {"content": big_block(1, 12_000) + " needle", "label": "big one"})
        ok(guest, "archive", {"content": big_block(2, 12_000), "label": "other big"})
        ok(guest, "archive", {"content": "a small note about the needle", "label": "small"})
        absent = [f"zzq{c}" for c in "abcdef"]  # the first eight: needle, deploy and these
        fill = ["".join(p) for n in (2, 3) for p in itertools.product(string.ascii_lowercase, repeat=n)]
        query = " ".join(["needle", "Needle", "deploy", *absent])
        for word in fill:  # as many distinct words as 8 KiB holds (~2,200)
            if len(query) + 1 + len(word) > 8192:
                break
            query += " " + word
        keywords = list(dict.fromkeys(query.lower().split()))
        assert len(keywords) > 2_000
        services.scans = 0
        data = ok(guest, "recall_search", {"query": query, "limit": 5})
        assert services.scans <= 8 * 2, "each large block is asked about eight keywords at most"
        assert data["terms"] == sorted(["needle", "deploy", *absent])
        assert [(r["id"], r["score"]) for r in data["results"]] == [("r1", 2), ("r3", 1), ("r2", 1)]
        assert data["text"].endswith("(Only the first 8 distinct keywords were used; left out: aa, ab, ac, "
                                     f"ad, ae and {len(keywords) - 13} more.)")
        ordinary = ok(guest, "recall_search", {"query": " ".join(["needle", *fill[:7]])})
        assert "Only the first" not in ordinary["text"] and len(ordinary["terms"]) == 8
    finally:
        services.close()
