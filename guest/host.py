"""The ``Host`` protocol: the six host imports as the engine sees them.

``guest/app.py`` adapts the WIT imports to this protocol inside the component;
natively, ``host_harness`` passes its own services object. Engine modules never
know which one they talk to.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

CONTRACT = "0.2.0"  # the host contract's version: the WIT package's (docs/host-contract.md)

INFO = 1
WARN = 2
ERROR = 3

# Reserved, read-only namespace served by the host (see wit/rs-learn.wit).
HOST_NS = "host"


def bucket(namespace: str, name: str) -> str:
    """The host namespace of bucket ``name`` in the store of ``namespace``.

    ``default`` is the project store (plain bucket names); a discipline ``name`` lives under
    ``disciplines/<name>/``, which the host routes to that discipline's own database.
    """
    if namespace == "default":
        return name
    return f"disciplines/{namespace}/{name}"


def pack(items: Iterable[bytes | None]) -> str:
    """A list of byte strings (``None``: absent) as one string: the WIT's *pack* (contract v2).

    The items' lengths in decimal (``-`` for ``None``) joined by ``,``, a newline, then every present
    item's bytes, each byte as the code point of its value (Latin-1): one string crosses the boundary
    in one copy, where a ``list<u8>`` crosses element by element.
    """
    lengths: list[str] = []
    present: list[bytes] = []
    for item in items:
        if item is None:
            lengths.append("-")
        else:
            lengths.append(str(len(item)))
            present.append(item)
    return ",".join(lengths) + "\n" + b"".join(present).decode("latin-1")


def unpack(text: str) -> list[bytes | None]:
    """The items of a pack (see :func:`pack`); ``ValueError`` when it is malformed."""
    head, newline, body = text.partition("\n")
    if not newline:
        raise ValueError("a pack has no header line")
    data = body.encode("latin-1")  # UnicodeEncodeError (a ValueError): a code point above U+00FF
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


def pack_keys(keys: Sequence[str]) -> str:
    """Keys as a pack of their UTF-8 bytes."""
    return pack([key.encode("utf-8") for key in keys])


def pairs(text: str) -> list[tuple[str, bytes]]:
    """A pack of key, value, key, value, ... as ``(key, value)`` pairs (no item may be absent)."""
    items = unpack(text)
    if len(items) % 2 or any(item is None for item in items):
        raise ValueError("a pack of pairs has an odd or absent item")
    return [(key.decode("utf-8"), value) for key, value in zip(items[0::2], items[1::2], strict=True)]  # type: ignore[union-attr,misc]


class HostError(Exception):
    """A host import reported an error (``host-kv-put`` returned ``err``)."""


class Host(Protocol):
    """What the engine needs from its host; mirrors the WIT imports one to one."""

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """Return the value stored under ``key`` in ``ns``, or ``None``."""
        ...

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """Store ``value`` (empty deletes); raise :class:`HostError` on failure."""
        ...

    def kv_get_many(self, ns: str, keys: Sequence[str]) -> list[bytes | None]:
        """The values under ``keys``, in order (``None`` where there is none): one crossing."""
        ...

    def kv_put_many(self, ns: str, items: Sequence[tuple[str, bytes]]) -> None:
        """Store each ``(key, value)`` in order (empty deletes): one crossing."""
        ...

    def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """Return ``(key, value)`` pairs whose key or value contains ``q``, by key."""
        ...

    def vec_search(self, ns: str, query: list[float], k: int) -> list[tuple[str, float]]:
        """Return the ``k`` best ``(key, cosine)`` pairs, best first, ties by key."""
        ...

    def log(self, level: int, msg: str) -> None:
        """Write a log line (1 info, 2 warn, 3 error)."""
        ...

    def now_ms(self) -> int:
        """Return epoch milliseconds from the host clock."""
        ...


class HostWrapper:
    """A :class:`Host` that passes every import to ``inner``; subclasses override what they change."""

    def __init__(self, inner: Host) -> None:
        self.inner = inner

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """``host-kv-get``."""
        return self.inner.kv_get(ns, key)

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put``."""
        self.inner.kv_put(ns, key, value)

    def kv_get_many(self, ns: str, keys: Sequence[str]) -> list[bytes | None]:
        """``host-kv-get`` of many keys: one crossing, unless a subclass reads keys its own way."""
        if type(self).kv_get is HostWrapper.kv_get:
            return self.inner.kv_get_many(ns, keys)
        return [self.kv_get(ns, key) for key in keys]

    def kv_put_many(self, ns: str, items: Sequence[tuple[str, bytes]]) -> None:
        """``host-kv-put`` of many entries: one crossing, unless a subclass writes its own way."""
        if type(self).kv_put is HostWrapper.kv_put:
            self.inner.kv_put_many(ns, items)
            return
        for key, value in items:
            self.kv_put(ns, key, value)

    def kv_query(self, ns: str, q: str, limit: int) -> list[tuple[str, bytes]]:
        """``host-kv-query``."""
        return self.inner.kv_query(ns, q, limit)

    def vec_search(self, ns: str, query: list[float], k: int) -> list[tuple[str, float]]:
        """``host-vec-search``."""
        return self.inner.vec_search(ns, query, k)

    def log(self, level: int, msg: str) -> None:
        """``host-log``."""
        self.inner.log(level, msg)

    def now_ms(self) -> int:
        """``host-now-ms``."""
        return self.inner.now_ms()


class ReadOnce(HostWrapper):
    """The host, each value read from it at most once: for a verb that reads the same keys again.

    Writes go through and update what it remembers, so it answers what the store holds; the store
    does not change under one export call (its transaction).
    """

    def __init__(self, inner: Host) -> None:
        super().__init__(inner)
        self.values: dict[tuple[str, str], bytes | None] = {}

    def kv_get(self, ns: str, key: str) -> bytes | None:
        """``host-kv-get``, from memory after the first time."""
        if (ns, key) not in self.values:
            self.values[(ns, key)] = self.inner.kv_get(ns, key)
        return self.values[(ns, key)]

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """``host-kv-put`` (an empty value deletes)."""
        self.inner.kv_put(ns, key, value)
        self.values[(ns, key)] = value or None

    def kv_get_many(self, ns: str, keys: Sequence[str]) -> list[bytes | None]:
        """``host-kv-get`` of many keys; the ones not read before in one crossing."""
        missing = list(dict.fromkeys(key for key in keys if (ns, key) not in self.values))
        if missing:
            for key, value in zip(missing, self.inner.kv_get_many(ns, missing), strict=True):
                self.values[(ns, key)] = value
        return [self.values[(ns, key)] for key in keys]

    def kv_put_many(self, ns: str, items: Sequence[tuple[str, bytes]]) -> None:
        """``host-kv-put`` of many entries."""
        self.inner.kv_put_many(ns, items)
        for key, value in items:
            self.values[(ns, key)] = value or None
