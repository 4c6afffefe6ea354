"""``git_text``: a store as stable text, one line per memory, archived block and record.

``git diff``, ``git log -p`` and pull-request views show the lines that changed (``docs/decisions.md``
D56). Sections in a fixed order, entries sorted by id; every string is JSON-quoted so that a value
never spans lines. Derived data (vectors, postings, doc numbers, counters, index chunks) is left
out: it changes whenever the memories do and says nothing a reviewer needs.

* ``memory <id> "<text>" <fields>`` (``lesson`` for memories stored by ``learn``), then
  ``forgotten <id> "<text>" forgotten="<time>" reason="…" <fields>`` for each tombstone;
* ``archive r<seq> "<label>" <bytes> bytes ts="<time>" "<excerpt>"``, ``archive-alias r<seq> -> r<n>, ...``;
* ``<kind> <id> v<version> <status> "<title>" {other fields}``, checklist items indented below
  their checklist in tree order;
* ``other <bucket> <key> <value>`` for buckets this version does not know.

Times (``ts``, ``createdAt``, ``updatedAt``, ...) read as ISO-8601 UTC; unset scope fields, nulls and
empty lists are left out.
"""

from __future__ import annotations

import json
from typing import Any

from guest.archive.search import excerpt
from guest.archive.store import decode_aliases, decode_block, format_id
from guest.git import archive, memories
from guest.git.merge import OWNERS
from guest.git.sides import Sides
from guest.host import Host
from guest.memory import origin
from guest.memory.records import Memory
from guest.memory.tombstones import Tombstone
from guest.structured import store, tree
from guest.structured.index import digest

HEADER = "# rs-learn memory store (rs-learn-host git textconv; vectors and indexes omitted)"
HIDDEN = {"id", "text", "doc", "seq", "embedder", "namespace"}
RECORD_HEAD = {"id", "kind", "version", "status", "title", "items"}
SHORT_VALUE = 200


def project(host: Host) -> str:
    """The text of the store."""
    sides = Sides(host, "textconv")
    lines = [HEADER]
    lines += _memories(host)
    lines += _archive(host)
    lines += _records(host)
    for bucket in sorted(sides.buckets()):
        if not any(owns(bucket) for owns in OWNERS):
            entries = host.kv_query(bucket, "", 0)
            lines += [f"other {bucket} {_quote(key)} {_value(raw)}" for key, raw in entries]
    return "\n".join(lines) + "\n"


def _memories(host: Host) -> list[str]:
    out = []
    for _, raw in host.kv_query(memories.MEMORIES, "", 0):
        memory = Memory.decode(raw)
        kind = "lesson" if memory.source == "learn" else "memory"
        out.append(_memory_line(kind, memory, {}))
    for _, raw in host.kv_query(memories.FORGOTTEN, "", 0):
        tomb = Tombstone.decode(raw)
        forgot = {"forgotten": iso(tomb.forgotten), "reason": tomb.reason}
        out.append(_memory_line("forgotten", tomb.memory, forgot))
    return out


def _memory_line(kind: str, memory: Memory, extra: dict[str, Any]) -> str:
    fields = _shown({k: v for k, v in vars(memory).items() if k not in HIDDEN} | extra)
    if fields.get("source") in ("learn", "memorize"):
        del fields["source"]
    came = origin.of(memory.extra)
    if isinstance(fields.get("extra"), dict) and origin.FIELD in fields["extra"]:
        fields["extra"] = {k: v for k, v in fields["extra"].items() if k != origin.FIELD}
        if not fields["extra"]:
            del fields["extra"]
    if came not in ({"kind": "typed"}, {"kind": "unknown"}, {"kind": "learned"}):  # (a lesson says learned)
        fields["from"] = origin.label(came)
    return f"{kind} {memory.id} {_quote(memory.text)} {_attrs(fields)}".rstrip()


def _archive(host: Host) -> list[str]:
    out = []
    for key, raw in host.kv_query(archive.BLOCKS, "", 0):
        block = decode_block(raw)
        if block is None:
            out.append(f"archive {format_id(int(key))} (unreadable or locked, {len(raw)} bytes)")
            continue
        size = len(block.content.encode("utf-8"))
        out.append(f"archive {block.id} {_quote(block.label)} {size} bytes ts={_quote(iso(block.ts))} "
                   f"{_quote(excerpt(block.content))}")
    for key, raw in host.kv_query(archive.ALIASES, "", 0):
        targets = ", ".join(format_id(seq) for seq in decode_aliases(raw))
        out.append(f"archive-alias {format_id(int(key))} -> {targets}")
    return out


def _records(host: Host) -> list[str]:
    found = [(key, store.decode(key, raw), raw) for key, raw in host.kv_query(store.RECORDS, "", 0)]
    out = []
    for key, record, raw in sorted(found, key=lambda f: (f[0].partition("-")[0], store.id_number(f[0]))):
        if record is None:
            out.append(f"record {key} (not a valid record, {len(raw)} bytes)")
            continue
        out.append(_record_line(str(record["kind"]), record, ""))
        for item, depth in tree.walk(record.get("items", [])):
            out.append(_record_line("item", item, "  " * depth))
    return out


def _record_line(kind: str, record: dict[str, Any], indent: str) -> str:
    rest = _shown({k: v for k, v in record.items() if k not in RECORD_HEAD})
    head = f"{indent}{kind} {record.get('id')} v{record.get('version')} {record.get('status')}"
    return f"{head} {_quote(record.get('title'))} {json.dumps(rest, sort_keys=True, ensure_ascii=False)}"


def _shown(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields worth a reader's eye: no nulls or empties, unset scope ids dropped, times as ISO."""
    out: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "scope" and isinstance(value, dict):
            value = {k: v for k, v in value.items() if v not in (None, False)}
        elif (name == "ts" or name.endswith("At")) and isinstance(value, int) and not isinstance(value, bool):
            value = iso(value)
        if value not in (None, [], {}):
            out[name] = value
    return out


def iso(ms: int) -> str:
    """Epoch milliseconds as ISO-8601 UTC (``2026-12-01T09:30:00.000Z``), without ``datetime``."""
    days, ms_of_day = divmod(ms, 86_400_000)
    z = days + 719_468  # days since 0000-03-01 (proleptic Gregorian; H. Hinnant's civil_from_days)
    era, doe = divmod(z, 146_097)
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day, month = doy - (153 * mp + 2) // 5 + 1, mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (month <= 2)
    seconds, millis = divmod(ms_of_day, 1000)
    clock = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{millis:03d}"
    return f"{year:04d}-{month:02d}-{day:02d}T{clock}Z"


def _attrs(fields: dict[str, Any]) -> str:
    return " ".join(f"{name}={_quote(value)}" for name, value in sorted(fields.items()))


def _quote(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _value(raw: bytes) -> str:
    """A short UTF-8 value quoted; anything else as its size and a digest."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and len(text) <= SHORT_VALUE and text.isprintable():
        return _quote(text)
    return f"({len(raw)} bytes, digest {digest(raw.decode('latin-1'))})"

