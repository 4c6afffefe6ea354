"""Where structured-memory records live, and the store-held sequences that name them.

Buckets of the default store (durable data first, derived index after):

* ``records``                  ``cl-<n>`` / ``td-<n>`` / ``nt-<n>`` -> the record as JSON (sorted keys);
  checklist items live inside their checklist's record (ids ``it-<n>``);
* ``records-meta``             ``seq`` -> ``{"cl": n, "td": n, "nt": n, "it": n}`` (last id handed out),
  ``retention`` -> ``{"lastRun": ms}``, ``index`` -> keyword-index statistics;
* ``records-terms``            derived keyword postings (``guest/structured/index.py``);
* ``records-vectors/<embedder>``  derived session-note vectors (``guest/structured/index.py``).

Ids come from the sequences: deterministic, never random, never reused after a delete. A record
written by another process under an id the sequence has not reached yet is skipped over.
Every record carries ``version`` (1 on create, +1 per change), ``createdAt`` and ``updatedAt``
(host clock, epoch ms) and the ``scope`` it was created under.
"""

from __future__ import annotations

import json
from typing import Any

from guest.errors import Internal, NotFound
from guest.host import WARN, Host
from guest.structured.context import Context, record_scope

RECORDS = "records"
META = "records-meta"
TERMS = "records-terms"
VECTORS = "records-vectors"
KINDS = {"cl": "checklist", "td": "todo", "nt": "session_note"}
PREFIXES = {kind: prefix for prefix, kind in KINDS.items()}
# Statuses a caller may set, per kind; ``deleted`` is set only by a soft delete.
STATUSES = {
    "checklist": ("open", "done", "archived"),
    "todo": ("pending", "in_progress", "done", "cancelled", "archived"),
    "session_note": ("active", "archived"),
    "item": ("pending", "in_progress", "done", "skipped"),
}
DEFAULT_STATUS = {"checklist": "open", "todo": "pending", "session_note": "active", "item": "pending"}
ARCHIVED = "archived"
DELETED = "deleted"


def vectors_ns(embedder_id: str) -> str:
    """The bucket of session-note vectors made by ``embedder_id``."""
    return f"{VECTORS}/{embedder_id}"


def encode(value: Any) -> bytes:
    """Stable JSON bytes: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def id_number(record_id: str) -> int:
    """The sequence number of an id (``td-12`` -> 12); ``-1`` when malformed."""
    _, _, number = record_id.partition("-")
    digits = number.isascii() and number.isdigit()  # str.isdigit alone: Unicode-version dependent
    return int(number) if digits and number[:1] != "0" and len(number) <= 16 else -1


def doc_number(record_id: str) -> int:
    """The keyword index's document number of a record: ``4 * n + kind``; ``-1`` when malformed."""
    prefix = record_id.partition("-")[0]
    number = id_number(record_id)
    if prefix not in KINDS or number < 0 or number >= 2**30:
        return -1
    return 4 * number + list(KINDS).index(prefix)


def doc_id(doc: int) -> str:
    """Inverse of :func:`doc_number`."""
    return f"{list(KINDS)[doc % 4]}-{doc // 4}"


def decode(key: str, raw: bytes) -> dict[str, Any] | None:
    """A record, or ``None`` when the stored bytes are not a record object."""
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(value, dict) or value.get("id") != key or value.get("kind") not in STATUSES:
        return None
    return value


def load(host: Host, record_id: str) -> dict[str, Any] | None:
    """The stored record ``record_id`` (whatever its scope or status), or ``None``."""
    raw = host.kv_get(RECORDS, record_id)
    if raw is None:
        return None
    record = decode(record_id, raw)
    if record is None:
        raise Internal(f"record {record_id!r} is corrupt (not a record object); run reconcile_index")
    return record


def find(host: Host, ctx: Context, record_id: str, include_deleted: bool = False) -> dict[str, Any]:
    """The record as this caller may see it; :class:`NotFound` if absent, out of scope or deleted."""
    record = load(host, record_id)
    if (
        record is None
        or not ctx.scope.sees(record_scope(record))
        or (record.get("status") == DELETED and not include_deleted)
    ):
        raise NotFound(f"no record {record_id!r} in this scope")
    return record


def save(host: Host, record: dict[str, Any]) -> dict[str, Any]:
    """Write a record; return it as stored (keys sorted, as every verb answers)."""
    raw = encode(record)
    host.kv_put(RECORDS, record["id"], raw)
    stored: dict[str, Any] = json.loads(raw)
    return stored


def remove(host: Host, record_id: str) -> None:
    """Delete a record for good."""
    host.kv_put(RECORDS, record_id, b"")


def scan(host: Host, q: str = "") -> list[dict[str, Any]]:
    """Every decodable record whose stored JSON contains ``q`` (a prefilter), by id; corrupt ones logged."""
    out = []
    for key, raw in host.kv_query(RECORDS, q, 0):
        record = decode(key, raw)
        if record is None:
            host.log(WARN, f"structured memory: skipping corrupt record {key!r}")
            continue
        out.append(record)
    return out


def read_meta(host: Host, key: str) -> dict[str, Any]:
    """A ``records-meta`` object (empty when absent or unreadable)."""
    raw = host.kv_get(META, key)
    if raw is None:
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def write_meta(host: Host, key: str, value: dict[str, Any]) -> None:
    """Write a ``records-meta`` object (unchanged bytes write nothing on the host)."""
    host.kv_put(META, key, encode(value))


def next_id(host: Host, prefix: str) -> str:
    """Hand out the next id of ``prefix``; skips ids already taken by a direct write."""
    seq = read_meta(host, "seq")
    number = seq.get(prefix, 0)
    number = number + 1 if isinstance(number, int) and not isinstance(number, bool) else 1
    while prefix != "it" and host.kv_get(RECORDS, f"{prefix}-{number}") is not None:
        number += 1
    seq[prefix] = number
    write_meta(host, "seq", seq)
    return f"{prefix}-{number}"
