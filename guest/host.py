"""The ``Host`` protocol: the six host imports as the engine sees them.

``guest/app.py`` adapts the WIT imports to this protocol inside the component;
natively, ``host_harness`` passes its own services object. Engine modules never
know which one they talk to.
"""

from __future__ import annotations

from typing import Protocol

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
