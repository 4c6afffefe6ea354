"""The static embedder: WordPiece ids -> mean of int8 table rows -> L2-normalised 384-d.

Inference follows model2vec's ``StaticModel.encode``: the text is cut to
``max_chars`` characters, tokenised without special tokens, cut to 512 tokens,
``[UNK]`` ids are dropped, the rows are averaged and the mean is L2-normalised
(no tokens -> the zero vector).

Pure-Python speed comes from integer lanes: each table row is widened to 384
unsigned 48-bit lanes packed in one Python ``int`` (``bytearray`` extended-slice
assignment, C speed), multiplied by the row's integer scale and summed with
big-integer arithmetic, so a whole row is one C-level addition. The sums are exact (the
largest scale times 255 times 512 tokens stays below 2**47, checked at load); only the final
normalisation uses floats, with a correctly rounded sum of squares (:func:`dot`). The widened,
scaled row of each token is kept once computed (up to :data:`ROW_CACHE` tokens per instance), so
embedding a text costs one big-integer addition per token.

Assets are read at import time, so componentize-py bakes them into the
component's heap snapshot.
"""

from __future__ import annotations

import json
import math
import operator
import struct
from collections.abc import Sequence
from pathlib import Path

from guest.text import tokenizer

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
MAGIC = b"RSE1"
SCALE_BITS = 32
LANE_BYTES = 6  # 48-bit lanes: a token sum needs 44 bits, and 64-bit lanes made every integer a third longer
WORD_BYTES = 8
TOP = 1 << (8 * LANE_BYTES - 1)
CHUNK_BYTES = 1 << 20
BIAS = 128  # stored int8 values are shifted to 0..255 so that every lane stays non-negative
ROW_CACHE = 8192  # token rows kept as ready integer lanes (~2.3 KB each): Zipf makes most tokens repeat


class StaticEmbedder:
    """Mean-pooled static token embeddings with an int8 table."""

    def __init__(self, models_dir: Path) -> None:
        manifest = json.loads((models_dir / "manifest.json").read_text(encoding="utf-8"))
        self.id: str = manifest["embedder_id"]
        self.max_tokens: int = manifest["max_tokens"]
        self.max_chars: int = manifest["max_chars"]
        self.unk_id: int = manifest["unk_id"]
        with (models_dir / "embeddings.bin").open("rb") as f:
            header = f.read(16)
            if header[:4] != MAGIC:
                raise ValueError("embeddings.bin: bad magic")
            rows, dims, _ = struct.unpack_from("<III", header, 4)
            scales = struct.unpack(f"<{rows}f", f.read(4 * rows))
            # int8 -> uint8 (+128) chunk by chunk into one buffer: the heap snapshot baked
            # into the component then holds the table once, not once per copy.
            shift = bytes((b + BIAS) & 0xFF for b in range(256))
            self._table = bytearray(rows * dims)
            for start in range(0, rows * dims, CHUNK_BYTES):
                chunk = f.read(CHUNK_BYTES)
                self._table[start : start + len(chunk)] = chunk.translate(shift)
        self.dims: int = dims
        self._scales = [round(s * 2**SCALE_BITS) for s in scales]
        # A lane sums up to max_tokens values of 0..255 times a scale; signed, it stays within
        # ±128 times that. Both must fit below TOP for the lanes never to carry into each other.
        if max(self._scales, default=0) * 255 * self.max_tokens >= TOP:
            raise ValueError("embeddings.bin: scales too large for 48-bit lanes")
        self._lane = bytearray(dims * LANE_BYTES)
        self._wide = bytearray(dims * WORD_BYTES)  # each lane in the high six bytes of a 64-bit word
        self._rows: dict[int, int] = {}  # token id -> its scaled lanes (see ROW_CACHE)
        self._unpack = struct.Struct(f"<{dims}q").unpack
        # TOP in every lane: adding it (minus the offset) keeps each lane in [0, 2 * TOP) without
        # carries, and XOR with it then reads the lane back as a signed 48-bit integer.
        self._top = int.from_bytes(TOP.to_bytes(LANE_BYTES, "little") * dims, "little")
        self._ones = int.from_bytes((1).to_bytes(LANE_BYTES, "little") * dims, "little")
        self.tokenizer = tokenizer.load(models_dir)

    def token_ids(self, text: str) -> list[int]:
        """Ids that take part in the mean (truncated, ``[UNK]`` dropped)."""
        ids = self.tokenizer.encode(text[: self.max_chars])[: self.max_tokens]
        unk = self.unk_id
        return [i for i in ids if i != unk]

    def embed(self, text: str) -> list[float]:
        """The L2-normalised embedding of ``text`` (zeros when no token is known)."""
        return self.embed_ids(self.token_ids(text))

    def embed_ids(self, ids: list[int]) -> list[float]:
        """The L2-normalised mean of the table rows ``ids``."""
        dims = self.dims
        if not ids:
            return [0.0] * dims
        rows = self._rows
        new = set(ids).difference(rows)
        if new:
            if len(rows) + len(new) > ROW_CACHE:
                rows.clear()
                new = set(ids)
            for i in new:
                rows[i] = self._row(i)
        # map() over C-level methods: no bytecode per element (the wasm CPython is slow at it).
        total = sum(map(rows.__getitem__, ids))
        offset = BIAS * sum(map(self._scales.__getitem__, ids))
        # Every lane minus the offset, as signed 48-bit lanes, in three big-integer operations.
        signed = ((total + (TOP - offset) * self._ones) ^ self._top).to_bytes(dims * LANE_BYTES, "little")
        wide = self._wide  # its two low bytes per word stay zero: each word reads as lane * 2**16
        for byte in range(LANE_BYTES):
            wide[WORD_BYTES - LANE_BYTES + byte :: WORD_BYTES] = signed[byte::LANE_BYTES]
        sums = list(map(float, self._unpack(wide)))  # exact: at most 44 significant bits each
        norm = math.sqrt(dot(sums, sums))  # the 2**16 cancels exactly in the quotients
        if norm == 0.0:
            return [0.0] * dims
        return list(map(norm.__rtruediv__, sums))

    def _row(self, i: int) -> int:
        """Row ``i`` widened to unsigned 48-bit lanes in one integer, times the row's scale."""
        lane, dims = self._lane, self.dims
        lane[::LANE_BYTES] = self._table[i * dims : (i + 1) * dims]
        scale: int = self._scales[i]
        return int.from_bytes(lane, "little") * scale


def pack(vector: list[float]) -> bytes:
    """Little-endian f32 bytes, the layout ``host-vec-search`` reads."""
    return struct.pack(f"<{len(vector)}f", *vector)


def unpack(blob: bytes) -> list[float]:
    """Inverse of :func:`pack`."""
    return list(struct.unpack(f"<{len(blob) // 4}f", blob))


def to_json(vector: list[float]) -> str:
    """``vector`` at float32 precision as a JSON array: what the store keeps and recall searches with.

    Each component is rounded to float32 (as :func:`pack` stores it and ``host-vec-search`` takes
    it) and written with 9 significant digits, which is enough for the float32 to read back exactly
    (``pack(json.loads(to_json(v))) == pack(v)``). ``%.9g`` is ~3x faster than the 17 digits a
    float64 needs, and in the component formatting 384 floats cost as much as embedding the text.
    ``%g`` writes integral values bare (``0``, ``-1``), which would parse as integers; a component
    is integral only when it is 0 or ±1 (the vector is a unit vector) and zeros are common, so
    those get their ``.0`` back by plain replaces (a regular expression took 3x longer).
    """
    rounded = unpack(pack(vector))
    fmt = _FORMATS.get(len(rounded))
    if fmt is None:
        fmt = _FORMATS[len(rounded)] = "[, " + ", ".join(["%.9g"] * len(rounded)) + ", ]"
    text: str = fmt % tuple(rounded)
    for value, bares in _INTEGRAL:
        if value in rounded:  # (-0.0 == 0.0)
            for bare in bares:  # matches do not overlap: a run of equal values needs a second pass
                text = text.replace(bare, bare[:-2] + ".0, ").replace(bare, bare[:-2] + ".0, ")
    return "[" + text[3:-3] + "]"


_FORMATS: dict[int, str] = {}
_INTEGRAL = ((0.0, (", 0, ", ", -0, ")), (1.0, (", 1, ",)), (-1.0, (", -1, ",)))


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    """The dot product, correctly rounded (``math.fsum``): the same bits under every CPython.

    Not ``sum``: from 3.12 it adds floats with compensation, so the guest's CPython (3.14) and a
    3.11 native guest summed the same products to different last bits (364 of 400 embedded texts'
    squared norms).
    """
    return math.fsum(map(operator.mul, a, b))


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine of two already-normalised vectors."""
    return dot(a, b)


EMBEDDER = StaticEmbedder(MODELS_DIR)
