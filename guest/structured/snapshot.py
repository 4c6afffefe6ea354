"""Hydrating a cold store from a snapshot: ``reconcile_index {"records": [...]}`` (seed 001).

The seed's engine hydrates its index from the durable store at a cold start by passing the records
to ``reconcile_index``. Here the store is durable already, so a snapshot is how records come *in*:
from another store, another tool, a backup. Each snapshot record is the stored shape that
``get_record`` answers, without its scope:

* ``kind`` (``checklist``, ``todo``, ``session_note``) and the fields a create of that kind takes,
  validated exactly like a create (``title``, or ``content`` for a note; tags, status, due, ...);
* optionally ``id`` (of the kind's prefix), ``slug``, ``version``, ``createdAt``, ``updatedAt``,
  ``archivedAt`` and ``deletedAt`` (null: deleted records are not hydrated); a checklist's
  ``items`` may be nested (``items`` inside items, as in a create) or flat with ``id``/``parentId``
  (as stored), each item optionally with ``id``, ``version``, ``createdAt``, ``updatedAt``.

Scope comes only from the host: a snapshot carrying any scope field is refused like any request
(``records[0].scope``), and every hydrated record is stored under the caller's scope. Given ids
and slugs are kept; an id or a slug already in the store is ``conflict:``, a duplicate inside the
snapshot ``validation:``. Missing ids come from the sequences, missing slugs from the titles. The
whole snapshot is validated and written in one call: any error, and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from guest.errors import Conflict, InvalidRequest
from guest.host import Host
from guest.requests import kind_of
from guest.structured import fields, records, shapes, slugs, store, tree
from guest.structured.context import Context
from guest.structured.store import ARCHIVED, DEFAULT_STATUS, PREFIXES

MAX_RECORDS = 10_000
MAX_MS = 2**53
EXTRA = ("kind", "id", "slug", "version", "createdAt", "updatedAt", "archivedAt", "deletedAt")
ITEM_EXTRA = ("id", "parentId", "version", "createdAt", "updatedAt", "items")


@dataclass
class Item:
    """One validated snapshot item; ``parent`` is a given ``parentId`` or the index of its nest parent."""

    values: dict[str, Any]
    id: str | None
    parent: str | int | None
    meta: dict[str, int] = field(default_factory=dict)


@dataclass
class Plan:
    """One validated snapshot record, before ids and slugs are settled."""

    path: str
    record: dict[str, Any]
    items: list[Item]


def parse(value: Any, ctx: Context) -> list[Plan]:
    """Validate the ``records`` array without touching the store."""
    if not isinstance(value, list):
        raise InvalidRequest(f"field 'records' must be an array of records, not {kind_of(value)}")
    if len(value) > MAX_RECORDS:
        raise InvalidRequest(f"field 'records' has {len(value)} records; the limit is {MAX_RECORDS}")
    return [_record(raw, f"records[{i}]", ctx) for i, raw in enumerate(value)]


def _record(raw: Any, path: str, ctx: Context) -> Plan:
    if not isinstance(raw, dict):
        raise InvalidRequest(f"field {path!r} must be a record object, not {kind_of(raw)}")
    kind = fields.choice(raw.get("kind"), f"{path}.kind", tuple(PREFIXES))
    allowed = (*EXTRA, *shapes.FIELDS[kind], *(("items",) if kind == "checklist" else ()))
    fields.only(raw, allowed, path)
    try:
        values = records.parse(kind, raw)
    except InvalidRequest as error:
        raise InvalidRequest(f"{path}: {error.message}") from None
    required = "content" if kind == "session_note" else "title"
    if required not in values:
        raise InvalidRequest(f"missing field '{path}.{required}'")
    if kind == "session_note" and "title" not in values:
        values["title"] = records.derived_title(values["content"])
    created = _ms(raw, "createdAt", path, ctx.now)
    record: dict[str, Any] = {
        "kind": kind,
        "tags": [],
        "status": DEFAULT_STATUS[kind],
        **records.DEFAULTS[kind],
        **values,
        "scope": ctx.scope.as_json(),
        "version": fields.version(raw) or 1,
        "createdAt": created,
        "updatedAt": _ms(raw, "updatedAt", path, created),
        "deletedAt": None,
    }
    if raw.get("deletedAt") is not None:
        raise InvalidRequest(f"{path} is a deleted record (deletedAt is set); only live records are hydrated")
    archived = values.get("status") == ARCHIVED
    record["archivedAt"] = _ms(raw, "archivedAt", path, ctx.now) if archived else None
    if raw.get("id") is not None:
        record["id"] = fields.record_id(raw["id"], f"{path}.id", (PREFIXES[kind],))
    if raw.get("slug") is not None:
        if not slugs.valid(raw["slug"]):
            raise InvalidRequest(f"field '{path}.slug' must be lowercase kebab-case, got {raw['slug']!r}")
        record["slug"] = raw["slug"]
    items = _items(raw.get("items", []), f"{path}.items", ctx) if kind == "checklist" else []
    return Plan(path, record, items)


def _items(value: Any, path: str, ctx: Context) -> list[Item]:
    """Nested and flat items in pre-order, each validated like a create."""
    out: list[Item] = []
    nodes = tree.flatten(value, path, (*tree.ITEM_FIELDS, *ITEM_EXTRA), ctx.config.maxChecklistDepth)
    for raw, where, nest in nodes:
        values = tree.item_fields(raw, where + ".", creating=True)
        item_id = None if raw.get("id") is None else fields.record_id(raw["id"], f"{where}.id", ("it",))
        given = raw.get("parentId")
        if given is not None and nest >= 0:
            raise InvalidRequest(f"item {where!r} is nested and names a parentId: use one or the other")
        parent: str | int | None = None if nest < 0 else nest
        if given is not None:
            parent = fields.record_id(given, f"{where}.parentId", ("it",))
        created = _ms(raw, "createdAt", where, ctx.now)
        meta = {"version": fields.version(raw) or 1, "createdAt": created}
        meta["updatedAt"] = _ms(raw, "updatedAt", where, created)
        out.append(Item(values, item_id, parent, meta))
    return out


def _ms(raw: dict[str, Any], name: str, path: str, default: int) -> int:
    value = raw.get(name)
    return default if value is None else fields.integer(value, f"{path}.{name}", 0, MAX_MS)


def hydrate(host: Host, ctx: Context, plans: list[Plan]) -> list[str]:
    """Store the validated snapshot; the ids written, in snapshot order."""
    existing = store.scan(host)
    ids = {r["id"] for r in existing}
    item_ids = {str(i.get("id")) for r in existing for i in r.get("items", [])}
    taken: dict[str, set[str]] = {}
    for record in existing:
        if slugs.valid(record.get("slug")):
            taken.setdefault(slugs.group(record), set()).add(record["slug"])
    _check_given(plans, ids, item_ids, taken)
    _skip_sequences_past_given(host, plans)
    written = []
    for plan in plans:
        record = plan.record
        if "id" not in record:
            record["id"] = store.next_id(host, PREFIXES[record["kind"]])
        if plan.items:
            record["items"] = _tree(host, plan, ctx)
        group = taken.setdefault(slugs.group(record), set())
        if "slug" not in record:
            record["slug"] = slugs.first_free(slugs.base(record["kind"], record["title"]), group)
        group.add(record["slug"])
        written.append(store.save(host, record)["id"])
    return written


def _check_given(plans: list[Plan], ids: set[str], item_ids: set[str], taken: dict[str, set[str]]) -> None:
    seen: set[str] = set()
    seen_items: set[str] = set()
    seen_slugs: set[tuple[str, str]] = set()
    for plan in plans:
        given = plan.record.get("id")
        if given in ids:
            raise Conflict(f"{plan.path}: record {given!r} is already in the store")
        if given is not None:
            if given in seen:
                raise InvalidRequest(f"{plan.path}: id {given!r} appears twice in the snapshot")
            seen.add(given)
        slug = plan.record.get("slug")
        if slug is not None:
            group = slugs.group(plan.record)
            if slug in taken.get(group, set()):
                kind = plan.record["kind"]
                raise Conflict(f"{plan.path}: slug {slug!r} is already taken by a {kind} of this scope")
            if (group, slug) in seen_slugs:
                raise InvalidRequest(f"{plan.path}: slug {slug!r} appears twice in the snapshot")
            seen_slugs.add((group, slug))
        for item in plan.items:
            if item.id in item_ids:
                raise Conflict(f"{plan.path}: item {item.id!r} is already in the store")
            if item.id is not None:
                if item.id in seen_items:
                    raise InvalidRequest(f"{plan.path}: item id {item.id!r} appears twice in the snapshot")
                seen_items.add(item.id)


def _skip_sequences_past_given(host: Host, plans: list[Plan]) -> None:
    """Move each sequence past the ids the snapshot brings, so fresh ids never collide with them."""
    given = [str(p.record["id"]) for p in plans if "id" in p.record]
    given += [item.id for p in plans for item in p.items if item.id is not None]
    seq = store.read_meta(host, "seq")
    changed = False
    for record_id in given:
        prefix, number = record_id.partition("-")[0], store.id_number(record_id)
        current = seq.get(prefix)
        if number > (current if isinstance(current, int) else 0):
            seq[prefix], changed = number, True
    if changed:
        store.write_meta(host, "seq", seq)


def _tree(host: Host, plan: Plan, ctx: Context) -> list[dict[str, Any]]:
    """The checklist's items with ids, parents resolved, checked as a tree of bounded depth."""
    ids = [item.id or store.next_id(host, "it") for item in plan.items]
    out: list[dict[str, Any]] = []
    for n, (item, item_id) in enumerate(zip(plan.items, ids, strict=True)):
        parent = ids[item.parent] if isinstance(item.parent, int) else item.parent
        if parent is not None and parent not in ids:
            raise InvalidRequest(f"{plan.path}.items: parentId {parent!r} of item {n} is not an item of it")
        siblings = [i for i in out if i["parentId"] == parent]
        new = tree.new_item(item_id, parent, tree.next_ordinal(siblings, parent), item.values, 0)
        out.append({**new, **item.meta})
    placed = tree.walk(out)
    if len(placed) < len(out):
        raise InvalidRequest(f"{plan.path}.items: the parentId links form a cycle")
    deepest = max(depth for _, depth in placed)
    if deepest > ctx.config.maxChecklistDepth:
        raise InvalidRequest(
            f"{plan.path}.items reach depth {deepest}; maxChecklistDepth is {ctx.config.maxChecklistDepth}"
        )
    return tree.ordered(out)
