"""The files of a persisted vector index: an immutable memory-mapped *base* and an append-only *delta*.

A base is written once under a fresh id and never modified:

* ``<id>.rows``  float32 L2-normalised rows, ``rows x dim`` (only finite vectors of the dimension);
* ``<id>.keys``  ``rows + 1`` little-endian u64 offsets, then the UTF-8 keys back to back;
* ``<id>.hash``  ``rows`` sorted u64 key hashes, then the ``rows`` row numbers in that order
  (finds the row of a key without reading the keys: the delta hides replaced rows this way);
* ``<id>.bits``, ``<id>.mean`` (approximate bases only) the sign bits of ``row - mean``, packed in
  ``ceil(dim / 64)`` u64 words per row and stored word-major (the first word of every row, then
  the second ...), and the float32 mean they are centred on.

The delta ``<id>.delta`` holds the writes committed since the base was built, as records
``u32 key length, u32 value length, key, value`` (an empty value is a delete); only the length
the head names is valid (a crashed writer's tail is ignored and overwritten).

Opening a base maps the files (no copy, no parse); each file's size is checked against the head,
so a truncated or mismatched file is refused, never served.
"""

from __future__ import annotations

import hashlib
import itertools
import mmap
import os
import struct
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from host_harness.fs import write_durably
from host_harness.store.topk import F32, Matrix, normalise

STREAM_ROWS = 65536  # rows read, normalised and sign-bitted at a time when a base is built
U64 = np.dtype("<u8")
RECORD = struct.Struct("<II")
Rows = npt.NDArray[np.intp]


def key_hash(key: str) -> int:
    """The 64-bit hash a base sorts its keys by."""
    return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "little")


def words(dim: int) -> int:
    """u64 words of sign bits per row."""
    return (dim + 63) // 64


def sign_bits(centred: Matrix) -> npt.NDArray[np.uint64]:
    """Pack the signs of ``centred`` rows into u64 words (``1`` where the component is positive)."""
    packed = np.packbits(centred > 0, axis=1)
    pad = words(centred.shape[1]) * 8 - packed.shape[1]
    if pad:
        packed = np.pad(packed, ((0, 0), (0, pad)))
    return np.ascontiguousarray(packed).view(U64)


@dataclass
class Base:
    """The immutable part of an index: rows, keys, key hashes and (optionally) sign bits."""

    ident: str
    rows: Matrix
    offsets: npt.NDArray[np.uint64]
    blob: bytes | mmap.mmap | memoryview
    hashes: npt.NDArray[np.uint64]
    order: npt.NDArray[np.uint64]
    bits: npt.NDArray[np.uint64] | None = None  # words x rows (word-major)
    mean: Matrix | None = None

    @property
    def size(self) -> int:
        """Number of rows."""
        return len(self.rows)

    def key(self, row: int) -> str:
        """The key of ``row``."""
        return bytes(self.blob[int(self.offsets[row]) : int(self.offsets[row + 1])]).decode("utf-8")

    def keys(self) -> list[str]:
        """Every key, in row order (compaction only: decodes them all)."""
        return [self.key(i) for i in range(self.size)]

    def rows_of(self, keys: Iterable[str]) -> Rows:
        """The rows holding ``keys`` (keys not in the base are skipped)."""
        listed = list(keys)
        hashes = np.fromiter((key_hash(key) for key in listed), dtype=U64, count=len(listed))
        found: list[int] = []
        n = self.size
        starts = np.searchsorted(self.hashes, hashes).tolist()
        for key, h, at in zip(listed, hashes.tolist(), starts, strict=True):
            while at < n and int(self.hashes[at]) == h:  # a 64-bit collision is checked, not assumed away
                row = int(self.order[at])
                if self.key(row) == key:
                    found.append(row)
                    break
                at += 1
        return np.asarray(sorted(found), dtype=np.intp)

    @classmethod
    def make(cls, keys: list[str], rows: Matrix, approx: bool) -> Base:
        """A base in memory from normalised ``rows`` and their ``keys``."""
        encoded = [key.encode("utf-8") for key in keys]
        offsets = np.zeros(len(keys) + 1, dtype=U64)
        np.cumsum([len(raw) for raw in encoded], out=offsets[1:])
        hashes = np.fromiter((key_hash(key) for key in keys), dtype=U64, count=len(keys))
        order = np.argsort(hashes, kind="stable").astype(U64)
        bits = mean = None
        if approx and len(keys):
            mean = rows.mean(axis=0, dtype=np.float64).astype(np.float32)
            bits = np.empty((words(rows.shape[1]), len(rows)), dtype=U64)  # word-major: see hamming()
            for start in range(0, len(rows), STREAM_ROWS):  # bounded temporaries at a million rows
                bits[:, start : start + STREAM_ROWS] = sign_bits(rows[start : start + STREAM_ROWS] - mean).T
        return cls(uuid.uuid4().hex[:16], rows, offsets, b"".join(encoded), hashes[order], order, bits, mean)

    @classmethod
    def from_pairs(cls, dim: int, pairs: Iterable[tuple[str, bytes]], approx_min: int | None) -> Base:
        """A base from raw ``(key, value)`` pairs of ``4 * dim`` bytes (non-finite ones dropped).

        Read :data:`STREAM_ROWS` pairs at a time: a million vectors are 1.5 GB of rows, and holding
        them as Python bytes objects as well (and joined, and normalised) took several times that.
        """
        keys: list[str] = []
        parts: list[Matrix] = []
        it = iter(pairs)
        while batch := list(itertools.islice(it, STREAM_ROWS)):
            raw = np.frombuffer(b"".join(value for _, value in batch), dtype=F32).reshape(len(batch), dim)
            rows, finite = normalise(raw)
            keys += [key for (key, _), ok in zip(batch, finite, strict=True) if ok]
            parts.append(rows[finite] if not finite.all() else rows)
        matrix = parts[0] if len(parts) == 1 else np.concatenate(parts or [np.empty((0, dim), dtype=F32)])
        return cls.make(keys, matrix, approx_min is not None and len(keys) >= approx_min)

    # files

    def files(self) -> dict[str, bytes | memoryview]:
        """The file contents of this base, by suffix (the rows as a view, not a copy)."""
        out: dict[str, bytes | memoryview] = {
            "rows": np.ascontiguousarray(self.rows, dtype=F32).reshape(-1).view(np.uint8).data,
            "keys": self.offsets.tobytes() + bytes(self.blob),
            "hash": self.hashes.tobytes() + self.order.tobytes(),
        }
        if self.bits is not None and self.mean is not None:
            out["bits"] = self.bits.tobytes()
            out["mean"] = self.mean.astype(F32).tobytes()
        return out

    def write(self, directory: Path) -> None:
        """Write the files (each fsynced) under this base's id; the head that names them comes after."""
        for suffix, data in self.files().items():
            path = directory / f"{self.ident}.{suffix}"
            with open(path, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())

    @classmethod
    def load(cls, directory: Path, ident: str, rows: int, dim: int, approx: bool) -> Base:
        """Map the files of base ``ident``; ``ValueError`` when a file does not have the expected size."""
        matrix = _map(directory / f"{ident}.rows", F32, rows * dim).reshape(rows, dim)
        keys = _map(directory / f"{ident}.keys", np.dtype(np.uint8), None)
        head = 8 * (rows + 1)
        if len(keys) < head:
            raise ValueError(f"{ident}.keys is truncated")
        offsets = keys[:head].view(U64)
        blob = keys[head:].data  # a view into the map: keys are decoded only when asked for
        if int(offsets[0]) != 0 or int(offsets[-1]) != len(blob):
            raise ValueError(f"{ident}.keys does not match its offsets")
        hashed = _map(directory / f"{ident}.hash", U64, 2 * rows)
        bits = mean = None
        if approx:
            bits = _map(directory / f"{ident}.bits", U64, rows * words(dim)).reshape(words(dim), rows)
            mean = _map(directory / f"{ident}.mean", F32, dim)
        return cls(ident, matrix, offsets, blob, hashed[:rows], hashed[rows:], bits, mean)


def _map(path: Path, dtype: np.dtype[Any], count: int | None) -> npt.NDArray[Any]:
    """A read-only memory map of ``path`` as ``count`` items of ``dtype`` (``None``: the whole file)."""
    size = path.stat().st_size
    if count is not None and size != count * dtype.itemsize:
        raise ValueError(f"{path.name} holds {size} bytes, expected {count * dtype.itemsize}")
    if size == 0:
        return np.zeros(0, dtype=dtype)
    # a plain ndarray view of the map (which it keeps alive): np.memmap's Python-level __getitem__
    # cost ~4 us per element read (a key's offsets), ~0.4 ms per search at 100k
    return np.memmap(path, dtype=dtype, mode="r", shape=(size // dtype.itemsize,)).view(np.ndarray)


def encode_delta(changes: dict[str, bytes]) -> bytes:
    """Delta records for ``changes`` (key -> value, empty = deleted)."""
    out = bytearray()
    for key, value in changes.items():
        raw = key.encode("utf-8")
        out += RECORD.pack(len(raw), len(value)) + raw + value
    return bytes(out)


def read_delta(path: Path, length: int) -> dict[str, bytes]:
    """The final value of every key in the first ``length`` bytes of a delta file."""
    if length == 0:
        return {}
    with open(path, "rb") as source:
        data = source.read(length)
    if len(data) != length:
        raise ValueError(f"{path.name} is shorter than its head says")
    out: dict[str, bytes] = {}
    at = 0
    while at < length:
        klen, vlen = RECORD.unpack_from(data, at)
        at += RECORD.size
        if at + klen + vlen > length:
            raise ValueError(f"{path.name} ends inside a record")
        out[data[at : at + klen].decode("utf-8")] = data[at + klen : at + klen + vlen]
        at += klen + vlen
    return out


def append_delta(path: Path, at: int, data: bytes) -> None:
    """Write ``data`` at offset ``at`` of the delta (dropping any tail beyond it), durably."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        os.ftruncate(fd, at)
        os.lseek(fd, at, os.SEEK_SET)
        write_durably(fd, data)
    finally:
        os.close(fd)
