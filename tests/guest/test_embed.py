"""The static embedder against a numpy reference, and native/wasm agreement."""

from __future__ import annotations

import itertools
import json
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guest.text.embed import EMBEDDER, MODELS_DIR, cosine, dot, pack, unpack

TEXTS = [
    "hello world",
    "The quick brown fox jumps over the lazy dog.",
    "def memorize(text: str, namespace: str) -> str:  # content-addressed",
    "Übergrößenträger café naïve façade",
    "数据库迁移 must be idempotent 🙂",
    "word " * 700,  # longer than 512 tokens: truncated
    "x" * 5000,  # longer than max_chars
]


def reference_table() -> tuple[np.ndarray, dict]:
    """Dequantise ``embeddings.bin`` with numpy (float64)."""
    raw = (MODELS_DIR / "embeddings.bin").read_bytes()
    assert raw[:4] == b"RSE1"
    rows, dims, _ = struct.unpack_from("<III", raw, 4)
    scales = np.frombuffer(raw, dtype="<f4", count=rows, offset=16).astype(np.float64)
    q = np.frombuffer(raw, dtype=np.int8, count=rows * dims, offset=16 + 4 * rows).reshape(rows, dims)
    manifest = json.loads((MODELS_DIR / "manifest.json").read_text())
    return q.astype(np.float64) * scales[:, None], manifest


TABLE, MANIFEST = reference_table()


def reference_embed(text: str) -> np.ndarray:
    """model2vec semantics: cut chars, tokenise, cut 512 tokens, drop [UNK], mean, L2."""
    ids = EMBEDDER.tokenizer.encode(text[: MANIFEST["max_chars"]])[: MANIFEST["max_tokens"]]
    ids = [i for i in ids if i != MANIFEST["unk_id"]]
    if not ids:
        return np.zeros(TABLE.shape[1])
    mean = TABLE[ids].mean(axis=0)
    return mean / np.linalg.norm(mean)


def test_manifest_matches_assets():
    import hashlib

    for name, digest in MANIFEST["sha256"].items():
        assert hashlib.sha256((MODELS_DIR / name).read_bytes()).hexdigest() == digest, name
    assert MANIFEST["dims"] == 384 == EMBEDDER.dims
    assert EMBEDDER.id == MANIFEST["embedder_id"]
    assert MANIFEST["embedder_id"].endswith(MANIFEST["sha256"]["embeddings.bin"][:12])


@pytest.mark.parametrize("text", TEXTS)
def test_matches_numpy_reference(text):
    got = np.array(EMBEDDER.embed(text))
    want = reference_embed(text)
    assert np.abs(got - want).max() <= 1e-6


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_matches_reference_on_any_text(text):
    assert np.abs(np.array(EMBEDDER.embed(text)) - reference_embed(text)).max() <= 1e-6


def test_truncation_to_512_tokens():
    ids = EMBEDDER.token_ids("word " * 700)
    assert len(ids) == 512


def test_unknown_only_text_is_zero_vector():
    assert EMBEDDER.embed("") == [0.0] * 384


def test_pack_round_trip_little_endian():
    vector = [1.0, -2.5, 0.0]
    assert pack(vector) == b"\x00\x00\x80\x3f\x00\x00\x20\xc0\x00\x00\x00\x00"
    assert unpack(pack(vector)) == vector


def test_similar_texts_are_closer_than_unrelated():
    a = EMBEDDER.embed("install packages with pnpm")
    b = EMBEDDER.embed("use pnpm to install dependencies")
    c = EMBEDDER.embed("the weather in paris is mild")
    assert cosine(a, b) > cosine(a, c) + 0.2


def test_dot_is_the_correctly_rounded_sum_of_the_products():
    """The same bits under 3.11 (left-to-right ``sum``) and 3.14 (compensated ``sum``): neither is used."""
    assert dot([0.1] * 10, [1.0] * 10) == 1.0  # left to right: 0.9999999999999999
    vectors = [EMBEDDER.embed(text) for text in TEXTS]
    for a, b in itertools.pairwise(vectors):
        assert cosine(a, b) == float(sum(Fraction(x * y) for x, y in zip(a, b, strict=True)))
        assert dot(a, a) == float(sum(Fraction(x * x) for x in a))


def test_the_largest_scaled_row_512_times_fits_the_lanes():
    """The worst case for the 48-bit lanes: every token the row with the largest scale."""
    scales = EMBEDDER._scales
    ids = [max(range(len(scales)), key=scales.__getitem__)] * MANIFEST["max_tokens"]
    mean = TABLE[ids].mean(axis=0)
    assert np.abs(np.array(EMBEDDER.embed_ids(ids)) - mean / np.linalg.norm(mean)).max() <= 1e-6


def test_a_table_whose_scales_would_overflow_the_lanes_is_refused(tmp_path):
    from guest.text.embed import StaticEmbedder

    for name in ("manifest.json", "vocab.txt", "normalizer.json"):
        (tmp_path / name).write_bytes((MODELS_DIR / name).read_bytes())
    raw = bytearray((MODELS_DIR / "embeddings.bin").read_bytes())
    struct.pack_into("<f", raw, 16, 1.0)  # row 0's scale: 2**32 * 255 * 512 > 2**47
    (tmp_path / "embeddings.bin").write_bytes(bytes(raw))
    with pytest.raises(ValueError, match="48-bit lanes"):
        StaticEmbedder(tmp_path)


@pytest.fixture
def guest_pair(services, wasm_runtime):
    from host_harness.targets.component import WasmGuest
    from host_harness.targets.native import NativeGuest

    pair = (NativeGuest(services), WasmGuest(wasm_runtime, services))
    yield pair
    for g in pair:
        g.close()


@pytest.mark.parametrize("text", TEXTS)
def test_wasm_and_native_vectors_are_identical(guest_pair, text):
    native, wasm = guest_pair
    envelopes = [json.loads(g.dispatch("embed", json.dumps({"text": text}))) for g in (native, wasm)]
    assert envelopes[0]["ok"], envelopes[0]
    assert envelopes[0] == envelopes[1]


def test_row_cache_gives_the_same_vectors_when_it_overflows(monkeypatch):
    from guest.text import embed

    want = [EMBEDDER.embed(text) for text in TEXTS]
    EMBEDDER._rows.clear()
    monkeypatch.setattr(embed, "ROW_CACHE", 40)  # smaller than one text's distinct tokens: cleared often
    assert [EMBEDDER.embed(text) for text in TEXTS] == want
    assert len(EMBEDDER._rows) <= 512  # one text's tokens at most (then it is cleared)


@pytest.mark.parametrize("text", [*TEXTS, "", "x"])
def test_vector_json_reads_back_as_the_stored_float32(text):
    from guest.text.embed import to_json

    vector = EMBEDDER.embed(text)
    read = json.loads(to_json(vector))
    assert pack(read) == pack(vector)  # the float32 the store keeps, exactly
    assert all(isinstance(v, float) for v in read)


def test_vector_json_handles_integral_components():
    from guest.text.embed import to_json

    for vector in ([1.0] + [0.0] * 383, [-1.0, 0.5, -0.0], [1e-45, 0.25, -3e-39]):
        read = json.loads(to_json(vector))
        assert pack(read) == pack(vector)
        assert all(isinstance(v, float) for v in read)
    assert to_json([1.0, 0.0, -0.0, -1.0, 0.5, 1e-45]) == "[1.0, 0.0, -0.0, -1.0, 0.5, 1.40129846e-45]"
