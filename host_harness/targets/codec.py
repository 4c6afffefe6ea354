"""The one place that knows wasmtime-py's value conventions for the ``rs-learn`` world.

Checked against wasmtime-py 50 (see ``tests/test_harness_codec.py``):

* ``list<u8>`` is ``bytes`` both ways (lowering insists on ``bytes``: not
  ``bytearray``, not ``memoryview``); ``option<T>`` is ``T`` or ``None``;
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

from collections.abc import Iterable
from typing import Any

from wasmtime.component import Record, Variant

from host_harness.errors import GuestError

U64_MAX = 2**64 - 1


def record(**fields: Any) -> Record:
    """Build a WIT record value with the given (raw WIT) field names."""
    value = Record()
    for name, field in fields.items():
        setattr(value, name, field)
    return value


# lowering: host import results -> wasmtime


def lower_option_bytes(value: bytes | bytearray | memoryview | None) -> bytes | None:
    """Lower ``option<list<u8>>``."""
    return None if value is None else bytes(value)


def lower_entries(pairs: Iterable[tuple[str, bytes]]) -> list[Record]:
    """Lower ``list<entry>``: records with ``key`` and ``value``."""
    return [record(key=str(key), value=bytes(value)) for key, value in pairs]


def lower_hits(pairs: Iterable[tuple[str, float]]) -> list[Record]:
    """Lower ``list<hit>``: records with ``key`` and a Python-float ``score``."""
    return [record(key=str(key), score=float(score)) for key, score in pairs]


def lower_unit_result(error: str | None) -> str | None:
    """Lower ``result<_, string>``: ``None`` is ok, a string is the error."""
    return None if error is None else str(error)


def lower_u64(value: int) -> int:
    """Lower ``u64``: an ``int`` clamped to ``0 .. 2**64-1``."""
    return min(max(int(value), 0), U64_MAX)


# lifting: import arguments and export results -> plain Python


def lift_bytes(value: Any) -> bytes:
    """Lift a ``list<u8>`` argument."""
    if not isinstance(value, (bytes, bytearray)):
        raise TypeError(f"expected bytes for list<u8>, got {type(value).__name__}")
    return bytes(value)


def lift_floats(value: Any) -> list[float]:
    """Lift a ``list<f32>`` argument."""
    if not isinstance(value, list):
        raise TypeError(f"expected a list for list<f32>, got {type(value).__name__}")
    return [float(v) for v in value]


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
