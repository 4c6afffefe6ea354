"""Bulk export and import of memories (``export``, ``import``): how stores move and merge.

**export** ``{namespace?, start?, limit?, vectors?}`` pages through one store by document number
(the order memories were stored in) and answers ``{namespace, memories, next, total}``; each memory
is ``{id, namespace, text, created, source, embedder}`` plus ``importance``/``context`` when set and,
with ``vectors: true``, ``vector``: the stored little-endian float32 vector in base64, and the links and
files of :mod:`guest.memory.carry`. ``next`` is the ``start`` of the following page, ``null`` after the
last. ``export {forgotten: true}`` pages the same way through the store's tombstones (by id).

**import** ``{memories: [...], namespace?}`` stores a batch in one transaction, with memorize's
rules: the id is content-addressed (``mem-<fnv1a64(namespace|text)>-<length>``, recomputed: an
``id`` in the input is ignored), so importing the same memories again stores nothing (``deduped``).
Each item is ``{text, namespace?, created?, source?, importance?, context?, embedder?, vector?}``; a
leading ``@name`` in the text chooses the discipline as in memorize; the batch's ``namespace`` is
the store of items that name none (by a sigil or their own ``namespace``). With ``dry_run: true``
nothing is written (nor embedded): the counts say what an import would do, and ``new`` lists the
indexes of the items it would store (``import --from`` shows them). ``created`` is epoch
milliseconds or an ISO-8601 date (UTC when no offset is given; the host clock when absent). A
``vector`` (base64 of float32 little-endian, or a list of numbers) is kept only when ``embedder``
names this engine's embedder -- then it must be a finite unit (or zero) vector of the right size --
and the text is embedded otherwise. Every item is checked before anything is written; an error names
the item (``memories[3]: field 'created' ...``) and the batch stores nothing. Keyword postings of
the batch are written once per term. Every item goes through memorize's screen
(``guest/screening/screen.py``): secrets redacted (a vector of a text that changed is not kept),
instructions aimed at the agent quarantined -- whatever the item says -- and the answer counts
``redacted`` and ``quarantined``. Items may carry supersede links, files and tombstones
(:mod:`guest.memory.carry`): the answer then also counts ``forgotten``, the tombstones that took
effect (with ``dry_run``, those that would).

**origin** (:mod:`guest.memory.origin`): an export line carries its memory's ``provenance`` (when it
has one). An import's ``origin`` ``{file?, reviewed?}`` says what the host read and whether the user
said they reviewed it; each new memory's origin is ``{"kind": "imported", file, reviewed}``, with the
line's own ``provenance`` under ``was`` -- or, from a reviewed file, the line's ``provenance`` itself
(restoring an export keeps its origins). A line never gives a more trusted stored memory a
``superseded_by``.
"""

from __future__ import annotations

import base64
import json
import math
import re
import struct
from collections import Counter
from dataclasses import replace
from typing import Any

from guest import requests
from guest.errors import InvalidRequest
from guest.host import Host, bucket
from guest.memory import carry, disciplines, origin
from guest.memory.carry import Carried
from guest.memory.limits import MAX_TEXT_BYTES
from guest.memory.memorize import write
from guest.memory.records import Memory, Stats, memory_id
from guest.memory.tombstones import Tombstone
from guest.screening.screen import (
    Screen,
    quarantine,
    quarantine_of,
    quarantined,
    secret_name,
    secret_name_error,
)
from guest.strings.dates import days_from_civil, month_days
from guest.text.embed import StaticEmbedder, dot, pack

MAX_ITEMS = 5000
MAX_SPLIT_BYTES = 1_800_000  # a text to split: what one import line may hold
MAX_PAGE = 5000
DEFAULT_PAGE = 500
MAX_SOURCE_BYTES = 256
MAX_CONTEXT_BYTES = 16 * 1024
MAX_TS = 2**63 - 1
UNIT_TOLERANCE = 1e-3
# YYYY-MM-DD, optionally T or space HH:MM[:SS[.fraction]], optionally Z or +HH:MM / -HH:MM
ISO_RE = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?"
    r"([Zz]|[+-](\d{2}):?(\d{2}))?)?"
)


def export_page(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    """One page of one store's memories, in the order they were stored."""
    namespace = requests.namespace(body) or disciplines.DEFAULT
    start = requests.integer(body, "start", 0, 0, 2**31)
    limit = requests.integer(body, "limit", DEFAULT_PAGE, 1, MAX_PAGE)
    with_vectors = requests.boolean(body, "vectors", False)
    if requests.boolean(body, "forgotten", False):
        tombs, total = carry.forgotten_page(host, namespace, start, limit)
        out = [{**_exported(tomb.memory), "forgotten": _mark(tomb)} for tomb in tombs]
    else:
        total = Stats.decode(host.kv_get(bucket(namespace, "meta"), "stats")).docs
        out = []
        for doc in range(start, min(start + limit, total)):
            key = host.kv_get(bucket(namespace, "docs"), f"{doc:010d}")
            raw = host.kv_get(bucket(namespace, "memories"), key.decode("utf-8")) if key else None
            if raw is None:
                continue
            memory = Memory.decode(raw)
            item = _exported(memory)
            if with_vectors:
                vector = host.kv_get(bucket(namespace, f"vectors/{memory.embedder}"), memory.id)
                item["vector"] = base64.b64encode(vector).decode("ascii") if vector else None
            out.append(item)
    following = start + limit
    return {"namespace": namespace, "memories": out, "next": following if following < total else None,
            "total": total}


def _exported(memory: Memory) -> dict[str, Any]:
    """One memory as an export line (without its vector)."""
    item: dict[str, Any] = {"id": memory.id, "namespace": memory.namespace, "text": memory.text,
                            "created": memory.ts, "source": memory.source, "embedder": memory.embedder}
    if memory.importance is not None:
        item["importance"] = memory.importance
    if memory.context is not None:
        item["context"] = memory.context
    if quarantine_of(memory.extra):
        item["quarantined"] = quarantine_of(memory.extra)
    if origin.FIELD in memory.extra:
        item["provenance"] = origin.of(memory.extra)
    return {**item, **carry.exported(memory)}


def _mark(tomb: Tombstone) -> dict[str, Any]:
    return {"ts": tomb.forgotten} if tomb.reason is None else {"ts": tomb.forgotten, "reason": tomb.reason}


def import_batch(host: Host, embedder: StaticEmbedder, body: dict[str, Any]) -> dict[str, Any]:
    """Store a batch of memories (all checked first); count what was new, deduped and embedded."""
    items = body.get("memories")
    if not isinstance(items, list):
        raise InvalidRequest(f"field 'memories' must be an array, not {requests.kind_of(items)}")
    if len(items) > MAX_ITEMS:
        raise InvalidRequest(f"field 'memories' holds {len(items)} items; the limit is {MAX_ITEMS}")
    fallback = requests.namespace(body, default=None)
    dry_run = requests.boolean(body, "dry_run", False)
    skip_invalid = requests.boolean(body, "skip_invalid", False)
    split = requests.boolean(body, "split", False)
    with_ids = requests.boolean(body, "ids", False)
    came = origin.imported(body)
    screen = Screen(host)
    checked: list[tuple[int, Memory, bytes | None, Carried]] = []
    skipped: list[dict[str, Any]] = []
    for i, it in enumerate(items):
        counted = dict(screen.counts)
        try:
            checked += [(i, *piece) for piece in _item(host, embedder, it, f"memories[{i}]", fallback, screen,
                                                       split, came)]
        except InvalidRequest as error:
            if not skip_invalid:
                raise
            screen.counts = counted  # what a skipped item redacted is not stored: not counted
            skipped.append({"index": i, "error": str(error).replace(f"memories[{i}]: ", "", 1)})
    batch: list[tuple[Memory, bytes]] = []
    tombs: list[Tombstone] = []
    fresh: list[Memory] = []
    new: list[int] = []
    seen: set[str] = set()
    embedded = 0
    for index, memory, vector, carried in checked:
        if carried.forgotten is not None:
            tombs.append(Tombstone(memory, carried.forgotten, carried.reason))
            continue
        raw = host.kv_get(bucket(memory.namespace, "memories"), memory.id)
        if raw is not None:
            if not dry_run:
                stored = Memory.decode(raw)
                trusted = origin.outranks(stored.extra, memory.extra)
                carry.link_stored(host, stored, replace(carried, superseded_by=None) if trusted else carried)
            continue
        if memory.id in seen or carry.blocked(host, memory, revive=not dry_run):
            continue
        seen.add(memory.id)
        fresh.append(memory)
        if index not in new:
            new.append(index)
        if vector is None:
            embedded += 1
            if dry_run:
                continue
            vector = pack(embedder.embed(memory.text))
        carry.apply(memory, carried)
        batch.append((memory, vector))
    if not dry_run:
        write(host, batch)
    forgotten = carry.forget_imported(host, tombs, dry_run=dry_run)
    deduped = len(checked) - len(fresh) - forgotten
    counts: dict[str, Any] = {"items": len(items), "imported": len(fresh), "deduped": deduped,
                              "embedded": embedded}
    held = sum(1 for memory in fresh if quarantine_of(memory.extra))
    if held:
        counts["quarantined"] = held
    if forgotten:
        counts["forgotten"] = forgotten
    if skipped:
        counts["skipped"] = skipped
    if with_ids:
        counts["ids"] = [memory.id for memory in fresh]
        counts["namespaces"] = dict(sorted(Counter(memory.namespace for memory in fresh).items()))
    if dry_run:
        return screen.report(counts | {"dry_run": True, "new": new})
    return screen.report(counts)


def _item(
    host: Host, embedder: StaticEmbedder, item: Any, where: str, fallback: str | None, screen: Screen,
    split: bool = False,
    came: dict[str, Any] | None = None,
) -> list[tuple[Memory, bytes | None, Carried]]:
    """Validate one item: the memory to store (``doc`` not yet assigned) and its vector, if usable.

    With ``split``, a text over :data:`MAX_TEXT_BYTES` is redacted whole, then stored as several
    memories of at most that size each (cut at paragraphs, then lines, then spaces).
    """
    if not isinstance(item, dict):
        raise InvalidRequest(f"{where} must be an object, not {requests.kind_of(item)}")
    limit = MAX_SPLIT_BYTES if split else MAX_TEXT_BYTES
    try:
        text = requests.text(item, "text", limit)
        target = disciplines.for_write(host, text, requests.namespace(item, default=None))
        given = requests.text({"text": target.text}, "text", limit)
        text = screen.text(given, "text", limit)
        namespace = target.namespaces[0] if target.explicit else fallback or disciplines.DEFAULT
        if secret_name(namespace) is not None:  # refused here, so the item alone is skipped
            raise InvalidRequest(secret_name_error(str(secret_name(namespace))))
        created = _created(item.get("created"))
        source = screen.text(_optional_text(item, "source", MAX_SOURCE_BYTES) or "import")
        context = _optional_text(item, "context", MAX_CONTEXT_BYTES)
        context = None if context is None else screen.text(context)
        importance = None if item.get("importance") is None else requests.number(item, "importance", 0, 0, 1)
        vector = _vector(item, embedder) if text == given else None  # embedded from the secret: redo it
        carried = carry.check(item, _created, screen)
        provenance = _provenance(item, came or origin.imported({}), screen)
    except InvalidRequest as error:
        raise InvalidRequest(f"{where}: {error.message}") from None
    ts = host.now_ms() if created is None else created
    pieces = pieces_of(text, MAX_TEXT_BYTES)
    out = []
    for number, piece in enumerate(pieces):
        reason = quarantine(piece)  # the input's own marks are not trusted: screened again
        extra = {**(quarantined(reason) if reason else {}), origin.FIELD: provenance}
        memory = Memory(memory_id(namespace, piece), piece, namespace, ts, embedder.id, source, 0, importance,
                        context, extra)
        links = carried if number == 0 else Carried(None, None, None, carried.forgotten, carried.reason)
        out.append((memory, vector if len(pieces) == 1 else None, links))
    return out


def _provenance(item: dict[str, Any], came: dict[str, Any], screen: Screen) -> dict[str, Any]:
    """The origin of an import line's memory: the import's, its own under ``was`` (its own, when reviewed)."""
    value = item.get("provenance")
    if value is None:
        return came
    if not isinstance(value, dict) or value.get("kind") not in origin.KINDS:
        kinds = ", ".join(origin.KINDS)
        raise InvalidRequest(f"field 'provenance' must be an object whose kind is one of {kinds}")
    if len(json.dumps(value)) > origin.MAX_DETAIL_CHARS * 4:
        raise InvalidRequest("field 'provenance' is too long")
    carried = screen.strings({key: part for key, part in value.items() if key not in ("trust", "label")})
    return carried if came.get("reviewed") else {**came, "was": carried}


def pieces_of(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` UTF-8 bytes, cut at paragraphs, lines, spaces or anywhere."""
    if len(text.encode("utf-8")) <= limit:
        return [text]
    out: list[str] = []
    rest = text
    while len(rest.encode("utf-8")) > limit:
        head = rest.encode("utf-8")[:limit].decode("utf-8", "ignore")  # never half a character
        cut = next((head.rfind(mark) for mark in ("\n\n", "\n", " ") if head.rfind(mark) > 0), len(head))
        piece, rest = head[:cut].strip(), rest[cut:].lstrip()
        if piece:
            out.append(piece)
    if rest.strip():
        out.append(rest.strip())
    return out


def _optional_text(item: dict[str, Any], field: str, max_bytes: int) -> str | None:
    if item.get(field) is None:
        return None
    return requests.text(item, field, max_bytes)


def _created(value: Any, field: str = "created") -> int | None:
    """Epoch milliseconds from a number of milliseconds or an ISO-8601 date."""
    if value is None:
        return None
    if isinstance(value, str):
        match = ISO_RE.fullmatch(value.strip())
        if match is None:
            raise InvalidRequest(f"field {field!r} is not an ISO-8601 date: {value!r}")
        year, month, day, hour, minute, second = (int(g or 0) for g in match.group(1, 2, 3, 4, 5, 6))
        if not (1 <= month <= 12 and 1 <= day <= month_days(year, month) and hour < 24 and minute < 60
                and second < 61):
            raise InvalidRequest(f"field {field!r} is not a valid date: {value!r}")
        millis = int((match.group(7) or "").ljust(3, "0")[:3])
        offset = 0
        if match.group(8) not in (None, "Z", "z"):
            sign = -1 if match.group(8)[0] == "-" else 1
            offset = sign * (int(match.group(9)) * 60 + int(match.group(10)))
        minutes = (days_from_civil(year, month, day) * 24 + hour) * 60 + minute - offset
        value = (minutes * 60 + second) * 1000 + millis
    return requests.as_integer(value, field, 0, MAX_TS)


def _vector(item: dict[str, Any], embedder: StaticEmbedder) -> bytes | None:
    """The item's vector as stored bytes when it comes from this embedder, else ``None`` (embed)."""
    raw = item.get("vector")
    if raw is None or item.get("embedder") != embedder.id:
        return None
    if isinstance(raw, str):
        try:
            blob = base64.b64decode(raw, validate=True)
        except ValueError:  # binascii.Error
            raise InvalidRequest("field 'vector' is not valid base64") from None
        if len(blob) != 4 * embedder.dims:
            raise InvalidRequest(f"field 'vector' holds {len(blob)} bytes, not {4 * embedder.dims}")
        values = struct.unpack(f"<{embedder.dims}f", blob)
    elif isinstance(raw, list):
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
        if len(raw) != embedder.dims or not numbers:
            raise InvalidRequest(f"field 'vector' must hold {embedder.dims} numbers")
        blob = pack([float(v) for v in raw])
        values = struct.unpack(f"<{embedder.dims}f", blob)
    else:
        raise InvalidRequest(f"field 'vector' must be base64 or an array, not {requests.kind_of(raw)}")
    norm = math.sqrt(dot(values, values))
    if not math.isfinite(norm) or (norm and abs(norm - 1.0) > UNIT_TOLERANCE):
        raise InvalidRequest(f"field 'vector' is not a unit vector (its norm is {norm:.6g})")
    return blob
