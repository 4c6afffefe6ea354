"""Deleting records, the retention policy, and rebuilding the derived index.

Delete (``delete_record {id, hard?, version?, checklistId?}``):

* soft (the default): ``status`` becomes ``deleted``, ``deletedAt`` is stamped, the record leaves
  the derived index and is hidden from every verb; retention purges it later;
* hard (``hard: true``): the record is removed for good (also a soft-deleted one);
* a checklist item (``it-<n>``, with ``checklistId``) is removed from its checklist together with
  its subtree; items have no soft state of their own.

Retention (``memory_retention {force?}``, and lazily before every structured verb once a day by the
host clock -- ``records-meta`` ``retention.lastRun``): a live record whose ``updatedAt`` is at least
``retentionDays`` old is archived (``status: archived``, ``archivedAt`` stamped, ``updatedAt`` kept);
an archived record whose ``archivedAt`` -- or a soft-deleted one whose ``deletedAt`` -- is at least
``archiveDeleteDays`` old is deleted for good. ``0`` days turns either step off. Retention covers
every record of the store, whatever its scope: it is the store's policy, not a caller's request.
"""

from __future__ import annotations

from typing import Any

from guest.errors import InvalidRequest
from guest.host import INFO, WARN, Host
from guest.structured import fields, index, slugs, store, tree
from guest.structured.context import Context
from guest.structured.records import check_version, stamp
from guest.structured.store import ARCHIVED, DELETED
from guest.text.embed import StaticEmbedder

DAY_MS = 86_400_000


def delete(host: Host, embedder: StaticEmbedder, ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
    """``delete_record``."""
    fields.only(body, ("id", "hard", "version", "checklistId"))
    if body.get("id") is None:
        raise InvalidRequest("missing field 'id'")
    record_id = fields.record_id(body["id"], "id", ("cl", "td", "nt", "it"))
    hard = fields.boolean(body.get("hard", False), "hard")
    expected = fields.version(body)
    if record_id.startswith("it-"):
        return _delete_item(host, embedder, ctx, body, record_id, expected)
    if "checklistId" in body:
        raise InvalidRequest("field 'checklistId' is only for deleting a checklist item (it-<n>)")
    old = store.find(host, ctx, record_id, include_deleted=hard)
    check_version(old, expected)
    if hard:
        store.remove(host, record_id)
        index.update(host, embedder, old, None)
        return {"id": record_id, "deleted": "hard"}
    record = {**old, "status": DELETED, "deletedAt": ctx.now}
    stamp(record, old, ctx.now)
    store.save(host, record)
    index.update(host, embedder, old, record)
    return {"id": record_id, "deleted": "soft", "version": record["version"]}


def _delete_item(
    host: Host,
    embedder: StaticEmbedder,
    ctx: Context,
    body: dict[str, Any],
    item_id: str,
    expected: int | None,
) -> dict[str, Any]:
    if body.get("checklistId") is None:
        raise InvalidRequest("missing field 'checklistId' (deleting an item needs its checklist)")
    checklist_id = fields.record_id(body["checklistId"], "checklistId", ("cl",))
    old = store.find(host, ctx, checklist_id)
    items = old.get("items", [])
    check_version(tree.find(items, item_id, checklist_id, "id"), expected, "item")
    kids = tree.children(items)
    gone, stack = set(), [item_id]
    while stack:
        node = stack.pop()
        gone.add(node)
        stack.extend(child["id"] for child in kids.get(node, []) if child["id"] not in gone)
    record = {**old, "items": [i for i in items if i["id"] not in gone]}
    stamp(record, old, ctx.now)
    index.update(host, embedder, old, record)
    removed = [i["id"] for i in items if i["id"] in gone]
    return {"id": item_id, "deleted": "hard", "removed": removed, "checklist": store.save(host, record)}


def retention(host: Host, embedder: StaticEmbedder, ctx: Context, force: bool = False) -> dict[str, Any]:
    """Archive and purge per the configuration; at most once a day unless ``force``."""
    last = store.read_meta(host, "retention").get("lastRun")
    if not force and isinstance(last, int) and 0 <= ctx.now - last < DAY_MS:
        return {"ran": False, "lastRun": last, "archived": [], "deleted": []}
    if not host.kv_query(store.RECORDS, "", 1):
        return {"ran": False, "lastRun": last, "archived": [], "deleted": []}  # empty store: write nothing
    config = ctx.config
    archive_before = ctx.now - config.retentionDays * DAY_MS if config.retentionDays else None
    purge_before = ctx.now - config.archiveDeleteDays * DAY_MS if config.archiveDeleteDays else None
    archived, deleted = [], []
    for record in store.scan(host):
        status = record.get("status")
        if status in (ARCHIVED, DELETED):
            since = record.get("archivedAt" if status == ARCHIVED else "deletedAt")
            since = since if isinstance(since, int) else int(record.get("updatedAt", 0))
            if purge_before is not None and since <= purge_before:
                store.remove(host, record["id"])
                index.update(host, embedder, record, None)
                deleted.append(record["id"])
        elif archive_before is not None and int(record.get("updatedAt", 0)) <= archive_before:
            new = {**record, "status": ARCHIVED, "archivedAt": ctx.now, "version": int(record["version"]) + 1}
            store.save(host, new)
            index.update(host, embedder, record, new)
            archived.append(record["id"])
    store.write_meta(host, "retention", {"lastRun": ctx.now})
    if archived or deleted:
        host.log(INFO, f"structured memory retention: archived {len(archived)}, deleted {len(deleted)}")
    return {"ran": True, "lastRun": ctx.now, "archived": archived, "deleted": deleted}


def reconcile(host: Host, embedder: StaticEmbedder) -> dict[str, Any]:
    """Rebuild the derived index and the id sequences from the durable records."""
    records, corrupt = [], []
    for key, raw in host.kv_query(store.RECORDS, "", 0):
        record = store.decode(key, raw)
        if record is None or store.doc_number(key) < 0:
            host.log(WARN, f"reconcile_index: skipping {key!r}: not a valid record")
            corrupt.append(key)
            continue
        records.append(record)
    slugged = slugs.backfill(host, records)  # records written before slugs existed, or by other tools
    slugs.rebuild(host, records)
    counts = index.rebuild(host, embedder, records)
    seq = store.read_meta(host, "seq")
    numbers = [r["id"] for r in records] + [str(i.get("id")) for r in records for i in r.get("items", [])]
    for record_id in numbers:
        prefix, number = record_id.partition("-")[0], store.id_number(record_id)
        current = seq.get(prefix)
        if number > (current if isinstance(current, int) else 0):
            seq[prefix] = number
    if seq:
        store.write_meta(host, "seq", seq)
    return {"records": len(records), "skipped": corrupt, "slugged": slugged, **counts}
