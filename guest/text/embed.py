"""The static embedder: WordPiece ids -> mean of int8 table rows -> L2-normalised 384-d.

Inference follows model2vec's ``StaticModel.encode``: the text is cut to
``max_chars`` characters, tokenised without special tokens, cut to 512 tokens,
``[UNK]`` ids are dropped, the rows are averaged and the mean is L2-normalised
(no tokens -> the zero vector).

Pure-Python speed comes from integer lanes: each table row is widened to 384
unsigned 64-bit lanes packed in one Python ``int`` (``bytearray`` extended-slice
assignment, C speed), multiplied by the row's integer scale and summed with
big-integer arithmetic, so a whole row is one C-level addition. The arithmetic
is exact; only the final normalisation uses floats.

Assets are read at import time, so componentize-py bakes them into the
component's heap snapshot.
"""

from __future__ import annotations

import json
import math
import operator
import struct
from pathlib import Path

from guest.text import tokenizer

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
MAGIC = b"RSE1"
SCALE_BITS = 32
LANE_BYTES = 8
CHUNK_BYTES = 1 << 20
BIAS = 128  # stored int8 values are shifted to 0..255 so that every lane stays non-negative


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
        self._lane = bytearray(dims * LANE_BYTES)
        self._unpack = struct.Struct(f"<{dims}Q").unpack
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
        lane, table, scales = self._lane, self._table, self._scales
        total = 0
        scale_sum = 0
        for i in ids:
            lane[::LANE_BYTES] = table[i * dims : (i + 1) * dims]
            scale = scales[i]
            total += int.from_bytes(lane, "little") * scale
            scale_sum += scale
        # map() over C-level methods: no bytecode per element (the wasm CPython is slow at it).
        offset = BIAS * scale_sum
        sums = list(map(offset.__rsub__, self._unpack(total.to_bytes(dims * LANE_BYTES, "little"))))
        norm = math.sqrt(sum(map(operator.mul, sums, sums)))  # exact integer sum of squares
        if norm == 0.0:
            return [0.0] * dims
        return list(map(norm.__rtruediv__, sums))


def pack(vector: list[float]) -> bytes:
    """Little-endian f32 bytes, the layout ``host-vec-search`` reads."""
    return struct.pack(f"<{len(vector)}f", *vector)


def unpack(blob: bytes) -> list[float]:
    """Inverse of :func:`pack`."""
    return list(struct.unpack(f"<{len(blob) // 4}f", blob))


def cosine(a: list[float], b: list[float]) -> float:
    """Cosine of two already-normalised vectors (left-to-right sum: same bits everywhere)."""
    return float(sum(map(operator.mul, a, b)))


EMBEDDER = StaticEmbedder(MODELS_DIR)
