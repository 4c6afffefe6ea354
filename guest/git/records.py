"""Merging structured records (checklists, todos, session notes) by id, version and field.

Rules (``docs/decisions.md`` D59), per record id of ``records`` that differs between the branches:

* one side unchanged since the base: the other side's record (or its deletion) wins;
* both created the same id independently (ids are per-store sequences): both are kept; the one
  created later moves to the next free id of its kind (items likewise, store-wide);
* deleted on one side, changed on the other: the changed record is kept;
* changed on both: field by field -- a field only one side changed takes that change; a field both
  changed to different values (a true conflict) takes the value of the side with the higher
  ``version``, then the later ``updatedAt``; when both are equal nothing can decide: ours is kept
  and the merge reports it undecided (the driver exits non-zero). Checklist items merge the same
  way, item by item (an item whose parent was deleted moves to the top level). Every true conflict
  is kept, with both values, in a session note (``Merge conflict in <id>``, tag ``merge-conflict``)
  under the record's own scope.

Sequences become the larger of both sides' (then past any renumbered id); the derived index moves
record by record (:func:`guest.structured.index.update`). Slugs stay unique per kind and scope: where
both branches gave one slug to two records, the lower id keeps it and the other is re-slugged.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from guest.git.sides import MISSING, Report, Sides, pick, take
from guest.host import Host
from guest.structured import index, slugs, store, tree
from guest.structured.context import load_context, record_scope
from guest.structured.records import RecordWriter
from guest.text.embed import StaticEmbedder

OWNED = (store.RECORDS, store.META, store.TERMS, slugs.SLUGS)
STAMPS = ("version", "updatedAt")
VALUE_CHARS = 300
NOTE_BYTES = 12_000  # under the 16 KiB text limit
Versions = list[dict[str, Any] | None]  # base, ours, theirs


def owns(bucket: str) -> bool:
    """Whether ``bucket`` belongs to structured memory."""
    return bucket in OWNED or bucket.startswith(store.VECTORS + "/")


def merge(host: Host, embedder: StaticEmbedder, sides: Sides, report: Report) -> None:
    """Merge theirs' records into ours."""
    changed = sides.changed(store.RECORDS)
    before = store.read_meta(host, "seq")
    seq = _merge_meta(host, sides, report)
    if not changed:
        if seq != before:
            store.write_meta(host, "seq", seq)
        return
    stored: dict[str, dict[str, Any] | None] = {}
    versions: dict[str, Versions] = {}
    for key in changed:
        found = [_decode(sides, side, key, report) for side in ("base", "ours", "theirs")]
        if found[1] is MISSING or found[2] is MISSING:
            continue  # corrupt on a side: ours is kept (reported)
        versions[key] = [None if v is MISSING else v for v in found]
        stored[key] = versions[key][1]
    _renumber_records(versions, stored, seq, report)
    _renumber_items(versions, seq, report)
    store.write_meta(host, "seq", seq)
    conflicted: list[tuple[dict[str, Any], list[str]]] = []
    for key, (base, ours, theirs) in sorted(versions.items()):
        result, notes, undecided = _merge_one(base, ours, theirs)
        if notes:
            conflicted.append((result or {}, notes))
            for note in notes:
                report.conflict(f"record {key}: {note}", undecided)
        if result != stored.get(key):
            if result is None:
                store.remove(host, key)
            else:
                store.save(host, result)
            index.update(host, embedder, stored.get(key), result)
            report.count("records", "removed" if result is None else "merged")
    for record, notes in conflicted:
        if record:
            report.add("records", "notes", _note(host, embedder, record, notes, sides.path))
    # Both branches may have given one slug to two records (each was unique on its branch): the
    # record with the lower id keeps it, the other gets the next free one, as reconcile_index does.
    merged = store.scan(host)
    reslugged = slugs.backfill(host, merged)
    slugs.rebuild(host, merged)
    if reslugged:
        report.count("records", "reslugged", reslugged)


def _merge_meta(host: Host, sides: Sides, report: Report) -> dict[str, Any]:
    """Sequences: the larger of both sides' per kind; ``retention``: the later run; others by the rules."""
    seq = store.read_meta(host, "seq")
    theirs_seq = _json(sides.get("theirs", store.META, "seq")) or {}
    for prefix, number in theirs_seq.items():
        if isinstance(number, int) and number > int(seq.get(prefix, 0) or 0):
            seq[prefix] = number
    for key, state in sides.changed(store.META).items():
        if key in ("seq", "index"):
            continue  # merged above; derived
        theirs = sides.get("theirs", store.META, key)
        if key == "retention":
            ours = sides.get("ours", store.META, key)
            runs = [_json(raw).get("lastRun", 0) for raw in (ours, theirs) if raw]
            store.write_meta(host, key, {"lastRun": max(runs)})
        elif take(state) == "theirs":
            host.kv_put(store.META, key, theirs or b"")
        elif take(state) is None:
            report.conflict(f"records-meta {key}: changed on both sides; kept ours")
    return seq


def _renumber_records(
    versions: dict[str, Versions], stored: dict[str, Any], seq: dict[str, Any], report: Report
) -> None:
    """Two different records both branches created under one id: the later one gets a new id."""
    for key in sorted(versions):
        base, ours, theirs = versions[key]
        if base is not None or ours is None or theirs is None:
            continue
        side, loser = max((("ours", ours), ("theirs", theirs)), key=lambda p: _created(p[1]))
        prefix = key.partition("-")[0]
        seq[prefix] = int(seq.get(prefix, 0) or 0) + 1
        moved = {**loser, "id": f"{prefix}-{seq[prefix]}"}
        versions[key] = [None, ours if side == "theirs" else None, theirs if side == "ours" else None]
        versions[moved["id"]] = [None, moved if side == "ours" else None, moved if side == "theirs" else None]
        stored.setdefault(moved["id"], None)
        report.add("records", "renumbered", {"from": key, "to": moved["id"], "side": side})


def _renumber_items(versions: dict[str, Versions], seq: dict[str, Any], report: Report) -> None:
    """Two different items both branches created under one id: the later one gets a new id."""
    new: list[dict[str, tuple[str, dict[str, Any]]]] = [{}, {}]  # ours, theirs: item id -> (record, item)
    for key, (base, *sides) in sorted(versions.items()):
        known = {item["id"] for item in (base or {}).get("items", [])}
        for found, record in zip(new, sides, strict=True):
            for item in (record or {}).get("items", []):
                if item["id"] not in known:
                    found[item["id"]] = (key, item)
    for item_id in sorted(set(new[0]) & set(new[1]), key=store.id_number):
        (ours_key, ours_item), (theirs_key, theirs_item) = new[0][item_id], new[1][item_id]
        if ours_key == theirs_key and ours_item == theirs_item:
            continue
        candidates = [("ours", ours_key, ours_item), ("theirs", theirs_key, theirs_item)]
        side, key, _ = max(candidates, key=lambda c: _created(c[2]))
        seq["it"] = int(seq.get("it", 0) or 0) + 1
        fresh = f"it-{seq['it']}"
        position = 1 if side == "ours" else 2
        record = dict(versions[key][position] or {})
        record["items"] = [
            {**i, "id": fresh if i["id"] == item_id else i["id"],
             "parentId": fresh if i.get("parentId") == item_id else i.get("parentId")}
            for i in record.get("items", [])
        ]
        versions[key][position] = record
        moved = {"from": f"{key}/{item_id}", "to": f"{key}/{fresh}", "side": side}
        report.add("records", "renumbered", moved)


def _merge_one(
    base: dict[str, Any] | None, ours: dict[str, Any] | None, theirs: dict[str, Any] | None
) -> tuple[dict[str, Any] | None, list[str], bool]:
    """The merged record (``None``: deleted), its conflict notes and whether one is undecided."""
    if ours == theirs or base == theirs:
        return ours, [], False
    if base == ours:
        return theirs, [], False
    if ours is None or theirs is None:
        kept = "ours" if theirs is None else "theirs"
        return ours or theirs, [f"deleted on one side, changed on the other; kept {kept}'s change"], False
    if base is None:  # cannot happen after renumbering; keep ours rather than guess
        return ours, ["created on both sides; kept ours"], True
    notes: list[str] = []
    merged, undecided = _fields(base, ours, theirs, "", notes)
    if any("items" in r for r in (base, ours, theirs)):
        items, undecided_items = _items(base, ours, theirs, notes)
        merged["items"] = items
        undecided = undecided or undecided_items
    if merged.get("status") != store.ARCHIVED and merged.get("archivedAt") is not None:
        merged["archivedAt"] = None  # as an update that leaves the archive does
    _restamp(merged, ours, theirs)
    return merged, notes, undecided


def _fields(
    base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any], path: str, notes: list[str]
) -> tuple[dict[str, Any], bool]:
    """Field-wise merge of one record or item (without ``items`` and the stamps)."""
    newer = _newer(ours, theirs)
    merged: dict[str, Any] = {}
    undecided = False
    for name in sorted((set(base) | set(ours) | set(theirs)) - {"items", *STAMPS}):
        values = [r.get(name, MISSING) for r in (base, ours, theirs)]
        value, clash = pick(*values)
        if clash:
            value = values[2] if newer == "theirs" else values[1]
            kept = newer or "ours (undecided: same version and time)"
            undecided = undecided or newer is None
            notes.append(
                f"{path}{name}: ours {_show(values[1])} (v{ours.get('version')}), "
                f"theirs {_show(values[2])} (v{theirs.get('version')}); kept {kept}"
            )
        if value is not MISSING:
            merged[name] = value
    return merged, undecided


def _items(
    base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any], notes: list[str]
) -> tuple[list[dict[str, Any]], bool]:
    """Item-by-item merge of a checklist's items; parents that vanished make their children roots."""
    sides = [{i["id"]: i for i in r.get("items", [])} for r in (base, ours, theirs)]
    out: list[dict[str, Any]] = []
    undecided = False
    for item_id in sorted(set().union(*sides), key=store.id_number):
        b, o, t = (side.get(item_id) for side in sides)
        if o == t or b == t:
            item = o
        elif b == o:
            item = t
        elif o is None or t is None or b is None:
            item = o or t
            notes.append(f"items.{item_id}: deleted on one side, changed on the other; kept the change")
        else:
            item, clash = _fields(b, o, t, f"items.{item_id}.", notes)
            undecided = undecided or clash
            _restamp(item, o, t)
            item["id"] = item_id
        if item is not None:
            out.append(dict(item))
    ids = {item["id"] for item in out}
    for item in out:
        if item.get("parentId") is not None and item["parentId"] not in ids:
            item["parentId"] = None
    reachable = {item["id"] for item, _ in tree.walk(out)}
    for item in out:  # a cycle made by two moves: its members become roots
        if item["id"] not in reachable:
            item["parentId"] = None
    return tree.ordered(out), undecided


def _restamp(merged: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    """``version``/``updatedAt``: a side's when the result equals it, else past both."""
    for side in (ours, theirs):
        if _core(merged) == _core(side):
            merged.update({name: side[name] for name in STAMPS if name in side})
            return
    merged["version"] = max(int(ours.get("version", 0)), int(theirs.get("version", 0))) + 1
    merged["updatedAt"] = max(int(ours.get("updatedAt", 0)), int(theirs.get("updatedAt", 0)))


def _note(host: Host, embedder: StaticEmbedder, record: dict[str, Any], notes: list[str], path: str) -> str:
    """Write the conflict note of ``record`` (under its scope); return its id."""
    ctx = replace(load_context(host), scope=record_scope(record))
    lines = [f"A git merge of {path or 'the store'} found conflicting changes to {record['id']} "
             f"({record.get('kind')} {_show(record.get('title'))}):"]
    content = "\n".join([*lines, *(f"- {note}" for note in notes)])
    content = content.encode("utf-8")[:NOTE_BYTES].decode("utf-8", "ignore")
    body = {"title": f"Merge conflict in {record['id']}", "content": content,
            "importance": 0.9, "tags": ["merge-conflict"]}
    return str(RecordWriter(host, embedder).create(ctx, "session_note", body)["id"])


def _newer(ours: dict[str, Any], theirs: dict[str, Any]) -> str | None:
    """The side whose copy is newer: higher ``version``, then later ``updatedAt``; ``None``: a tie."""
    o = (int(ours.get("version", 0)), int(ours.get("updatedAt", 0)))
    t = (int(theirs.get("version", 0)), int(theirs.get("updatedAt", 0)))
    return None if o == t else "ours" if o > t else "theirs"


def _created(record: dict[str, Any]) -> tuple[int, bytes]:
    return int(record.get("createdAt", 0)), store.encode(record)


def _core(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in STAMPS}


def _decode(sides: Sides, side: str, key: str, report: Report) -> Any:
    """A side's record, ``None`` when absent, :data:`MISSING` when corrupt (reported)."""
    raw = sides.get(side, store.RECORDS, key)
    if raw is None:
        return None
    record = store.decode(key, raw)
    if record is None:
        report.conflict(f"record {key}: not a valid record on {side}; kept ours")
        return MISSING
    return record


def _json(raw: bytes | None) -> dict[str, Any]:
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _show(value: Any) -> str:
    text = json.dumps(None if value is MISSING else value, ensure_ascii=False)
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"
