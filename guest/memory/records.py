"""Memory records and where they live in the key-value store.

One *store* per namespace: ``default`` uses plain buckets (``memories`` ...), a
discipline ``name`` uses ``disciplines/<name>/<bucket>``; the host routes the
latter to ``.gm/disciplines/<name>/rs-learn.db``.

Buckets of a store:

* ``memories``            ``mem-…`` -> JSON record (text, namespace, ts, embedder, source, doc, …)
* ``vectors/<embedder>``  ``mem-…`` -> little-endian f32 vector (the embedder id is in the name)
* ``docs``                ``%010d`` doc number -> ``mem-…`` (the keyword index speaks doc numbers)
* ``terms``               keyword postings (see ``guest/index/keywords.py``)
* ``meta``                ``stats`` -> JSON {docs, tokens, embedder, terms}; ``postings`` -> the ``stats``
                          the last writer that keeps chunk directories wrote (``guest/index/postings.py``);
                          ``timeline`` -> the next timeline number (ASCII decimal)
* ``timeline``            ``%010d`` timeline number -> ``mem-…``: the order memories were stored (and
                          forgotten) in, for listing (see ``guest/memory/timeline.py``)
* ``forgotten``           ``mem-…`` -> JSON tombstone of a forgotten memory (``guest/memory/tombstones.py``)

A record's optional fields: ``seq`` (its timeline number; derived, like ``doc``), ``supersedes``
(the ids it replaced), ``superseded_by`` (the id that replaced it), ``files`` (``{path: sha256}``
of the project files its text names, when it was stored: ``guest/memory/freshness.py``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from guest.host import Host, bucket
from guest.index import postings

TERMS_VERSION = 5  # the terms version of a new store (guest.memory.rules)
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK64 = (1 << 64) - 1


def fnv1a64(data: bytes) -> int:
    """64-bit FNV-1a."""
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h


def memory_id(namespace: str, text: str) -> str:
    """``mem-<fnv1a64(namespace|text) as 16 hex>-<utf8 length of text>``."""
    raw = text.encode("utf-8")
    return f"mem-{fnv1a64(namespace.encode('utf-8') + b'|' + raw):016x}-{len(raw)}"


@dataclass
class Memory:
    """One stored memory."""

    id: str
    text: str
    namespace: str
    ts: int
    embedder: str
    source: str
    doc: int
    importance: float | None = None
    context: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    seq: int | None = None
    supersedes: list[str] | None = None
    superseded_by: str | None = None
    files: dict[str, str] | None = None

    def encode(self) -> bytes:
        """Stable JSON bytes (sorted keys, no optional nulls)."""
        data = {k: v for k, v in vars(self).items() if v is not None and v != {}}  # asdict deep-copies: slow
        return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    @classmethod
    def decode(cls, raw: bytes) -> Memory:
        """Inverse of :meth:`encode`."""
        data = json.loads(raw)
        return cls(**data)

    def links(self) -> dict[str, Any]:
        """``supersedes`` and ``superseded_by``, those that are set (as listings and exports show them)."""
        out: dict[str, Any] = {}
        if self.supersedes:
            out["supersedes"] = list(self.supersedes)
        if self.superseded_by is not None:
            out["superseded_by"] = self.superseded_by
        return out


@dataclass
class Stats:
    """Per-store counters for the keyword index, and the rules its terms follow.

    ``terms`` is the store's terms version (:mod:`guest.memory.rules`): a new store gets the
    current one; stats without the field are a store of version 1, and are written without it.
    """

    docs: int = 0
    tokens: int = 0
    embedder: str = ""
    terms: int = TERMS_VERSION

    def encode(self) -> bytes:
        """Stable JSON bytes."""
        data = asdict(self)
        if self.terms == 1:
            del data["terms"]  # a version-1 store's stats stay byte for byte what they were
        return json.dumps(data, sort_keys=True).encode("utf-8")

    @classmethod
    def decode(cls, raw: bytes | None) -> Stats:
        """Decode, or a fresh ``Stats`` for an empty store (of the current terms version)."""
        if not raw:
            return cls(terms=TERMS_VERSION)
        data = json.loads(raw)
        data.setdefault("terms", 1)
        return cls(**data)


def write_stats(
    host: Host, namespace: str, before: bytes | None, stats: Stats, rebuilt: bool = False
) -> None:
    """Write ``stats`` over ``before`` (the value read), keeping the postings directories' guard.

    ``rebuilt``: every directory of the store was just rewritten, so they are trusted again.
    """
    meta = bucket(namespace, "meta")
    value = stats.encode()
    if rebuilt:
        postings.renew_guard(host, meta, value)
    else:
        postings.keep_guard(host, meta, before, value)
    host.kv_put(meta, "stats", value)
