"""The one place that knows wasmtime-py's value conventions for the ``rs-learn`` world.

Contract v2 (``wit/rs-learn.wit``): every byte string an import takes or answers crosses as one
``string`` -- a *blob* (each byte a code point U+0000..U+00FF) or a *pack* (a list of byte strings:
their lengths, a newline, their bytes as one blob). Stock wasmtime-py copies a string in one call and
a ``list<u8>`` one 32-byte value cell per byte. The pack functions here are the host's copy of the
guest's (``guest/host.py``; the host never imports the guest's code).

Checked against wasmtime-py 51 (see ``tests/host/test_harness_codec.py``):

* ``string`` is ``str`` both ways; ``option<T>`` is ``T`` or ``None``;
* ``f32`` is lowered only from a Python ``float`` (``numpy.float32`` is rejected),
  ``u64``/``u32`` only from ``int``;
* records are :class:`wasmtime.component.Record` objects whose attributes are the
  raw WIT field names;
* ``result``/``variant`` are *untagged* when the cases' Python types differ
  (``result<_, string>``: ``None`` is ok, a ``str`` is the error;
  ``result<list<recall-hit>, string>``: a ``list`` or a ``str``) and *tagged*
  (``Variant('ok' | 'err', payload)``) when they overlap (``result<string, string>``).

Lowering turns the host's plain Python answers into those shapes; lifting turns
export results into plain Python or raises :class:`GuestError`.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import Any

import numpy as np
from wasmtime.component import Record, Variant

from host_harness.errors import GuestError

U64_MAX = 2**64 - 1


def record(**fields: Any) -> Record:
    """Build a WIT record value with the given (raw WIT) field names."""
    value = Record()
    for name, field in fields.items():
        setattr(value, name, field)
    return value


# packs and blobs (contract v2)


def blob(data: bytes) -> str:
    """Bytes as a blob: each byte the code point of its value."""
    return data.decode("latin-1")


def lower_pack(items: Iterable[bytes | None]) -> str:
    """A list of byte strings (``None``: absent) as a pack."""
    lengths: list[str] = []
    present: list[bytes] = []
    for item in items:
        if item is None:
            lengths.append("-")
        else:
            lengths.append(str(len(item)))
            present.append(bytes(item))
    return ",".join(lengths) + "\n" + b"".join(present).decode("latin-1")


def lift_pack(text: Any) -> list[bytes | None]:
    """The items of a pack; ``ValueError`` (or ``TypeError``) when it is not one."""
    if not isinstance(text, str):
        raise TypeError(f"expected a string (a pack), got {type(text).__name__}")
    head, newline, body = text.partition("\n")
    if not newline:
        raise ValueError("a pack has no header line")
    data = body.encode("latin-1")
    if not head:
        if data:
            raise ValueError("an empty pack carries bytes")
        return []
    items: list[bytes | None] = []
    at = 0
    for length in head.split(","):
        if length == "-":
            items.append(None)
            continue
        if not length.isdigit():
            raise ValueError(f"a pack's length is not a number: {length[:20]!r}")
        end = at + int(length)
        items.append(data[at:end])
        at = end
    if at != len(data):
        raise ValueError(f"a pack's lengths add up to {at} bytes, not {len(data)}")
    return items


def lift_keys(text: Any) -> list[str]:
    """A pack of UTF-8 keys (none absent)."""
    keys = lift_pack(text)
    if any(key is None for key in keys):
        raise ValueError("a pack of keys has an absent item")
    return [key.decode("utf-8") for key in keys if key is not None]


def lift_pairs(text: Any) -> list[tuple[str, bytes]]:
    """A pack of key, value, key, value, ... (none absent) as pairs."""
    items = lift_pack(text)
    if len(items) % 2 or any(item is None for item in items):
        raise ValueError("a pack of pairs has an odd number of items or an absent one")
    return [(bytes(key).decode("utf-8"), bytes(value))  # type: ignore[arg-type]
            for key, value in zip(items[0::2], items[1::2], strict=True)]


def lower_pairs(pairs: Iterable[tuple[str, bytes]]) -> str:
    """``(key, value)`` pairs as a pack of key, value, ..."""
    return lower_pack(item for key, value in pairs for item in (str(key).encode("utf-8"), bytes(value)))


def lift_floats(value: Any) -> list[float]:
    """A blob of little-endian f32s (``host-vec-search``'s query)."""
    if not isinstance(value, str):
        raise TypeError(f"expected a string (a blob of f32s), got {type(value).__name__}")
    data = value.encode("latin-1")
    if len(data) % 4:
        raise ValueError(f"a blob of f32s has {len(data)} bytes, not a multiple of 4")
    floats: list[float] = np.frombuffer(data, dtype="<f4").astype(float).tolist()
    return floats


def lower_hits(pairs: Iterable[tuple[str, float]]) -> str:
    """``(key, score)`` hits as a pack of key, score (4 bytes, little-endian f32), ..."""
    return lower_pack(item for key, score in pairs
                      for item in (str(key).encode("utf-8"), struct.pack("<f", float(score))))


# lowering: host import results -> wasmtime


def lower_unit_result(error: str | None) -> str | None:
    """Lower ``result<_, string>``: ``None`` is ok, a string is the error."""
    return None if error is None else str(error)


def lower_u64(value: int) -> int:
    """Lower ``u64``: an ``int`` clamped to ``0 .. 2**64-1``."""
    return min(max(int(value), 0), U64_MAX)


# lifting: import arguments and export results -> plain Python


def lift_string(value: Any) -> str:
    """Lift a ``string`` result."""
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


def lift_recall_hit(value: Any) -> dict[str, Any]:
    """Lift a ``recall-hit`` record into ``{id, text, score, namespace}``."""
    return {
        "id": value.id,
        "text": value.text,
        "score": float(value.score),
        "namespace": value.namespace,
    }


def lift_recall_result(value: Any) -> list[dict[str, Any]]:
    """Lift ``result<list<recall-hit>, string>`` (untagged): the hits, or raise the error."""
    if isinstance(value, str):
        raise GuestError(value)
    if not isinstance(value, list):
        raise TypeError(f"expected list | str for result<list<recall-hit>, string>: {type(value).__name__}")
    return [lift_recall_hit(hit) for hit in value]


def lift_string_result(value: Any) -> str:
    """Lift ``result<string, string>`` (tagged): the ok string, or raise the error."""
    if not isinstance(value, Variant) or value.tag not in ("ok", "err"):
        raise TypeError(f"expected Variant('ok'|'err', str) for result<string, string>, got {value!r}")
    if value.tag == "err":
        raise GuestError(lift_string(value.payload))
    return lift_string(value.payload)
