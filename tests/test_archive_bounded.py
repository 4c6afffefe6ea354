"""``archive_search`` in bounded memory, with the same results (issue 11, item 3).

Large blocks keep their keyword text out of the index, in pieces the host scans
(``host-kv-query`` with the keyword, limit 1); the index is read one chunk at a time.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from envelopes import call, ok
from hypothesis import given, settings
from hypothesis import strategies as st
from test_archive import GOLDEN

from guest.archive import terms
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
    from host_harness.guests.native import NativeGuest

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


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux /proc to measure memory")
def test_search_memory_does_not_grow_with_the_archive(wasm_path: Path, project: Path):
    """16 blocks of ~1.9 MB: the host used ~80 bytes per archived byte (2.4 GB here) before."""
    from bench.archive import fill, measure_search  # fills through the native guest; searches in wasm

    archived = fill(project, 2)
    small = measure_search(project, wasm_path, "deploy4 latency")
    archived += fill(project, 16, start=2)
    large = measure_search(project, wasm_path, "deploy4 latency")
    print(f"\narchive_search memory growth: {small['growth'] / 2**20:.1f} MiB at 2 blocks, "
          f"{large['growth'] / 2**20:.1f} MiB at 16 blocks ({archived / 2**20:.1f} MiB archived)")
    assert len(large["results"]) == 16
    assert large["growth"] < 64 * 2**20, "bounded: far below the archive's size"
    assert large["growth"] < small["growth"] + 32 * 2**20, "does not grow with the number of blocks"
