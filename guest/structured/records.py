"""Create and update checklists, todos and session notes (the record model of seed 001).

Every write validates the whole request first, then writes the record and moves the derived index
(``guest/structured/index.py``) in the same host transaction. Optimistic concurrency: an update may name
the ``version`` it was based on; a stale one is ``conflict:``. An update without ``version`` is
applied to whatever is stored (last writer wins). An update that changes nothing writes nothing and
keeps the version. Setting ``status`` to ``archived`` stamps ``archivedAt``; any other status clears it.
A new record gets a ``slug`` from its title (``guest/structured/slugs.py``); updates keep it.
"""

from __future__ import annotations

from typing import Any

from guest.errors import Conflict, InvalidRequest
from guest.host import Host
from guest.structured import fields, index, slugs, store, tree
from guest.structured.context import Context
from guest.structured.shapes import FIELDS
from guest.structured.store import ARCHIVED, DEFAULT_STATUS, STATUSES
from guest.text.embed import StaticEmbedder

NOTE_TITLE_CHARS = 80
DEFAULTS: dict[str, dict[str, Any]] = {
    "checklist": {"description": None, "due": None, "items": []},
    "todo": {"description": None, "due": None, "priority": 0},
    "session_note": {"content": "", "importance": 0.5},
}


def parse(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """Validate the record fields of ``kind`` present in ``body``."""
    out: dict[str, Any] = {}
    for name in FIELDS[kind]:
        if name not in body:
            continue
        value = body[name]
        if name == "title":
            out[name] = fields.title(value, name)
        elif name == "tags":
            out[name] = fields.tags(value, name)
        elif name == "status":
            out[name] = fields.choice(value, name, STATUSES[kind])
        elif name == "due":
            out[name] = fields.due(value, name)
        elif name == "priority":
            out[name] = fields.integer(value, name, 0, fields.MAX_PRIORITY)
        elif name == "importance":
            out[name] = fields.number(value, name, 0.0, 1.0)
        elif name == "content":
            out[name] = fields.text(value, name)
        else:  # description: may be null or empty to clear it
            out[name] = None if value is None else fields.text(value, name, allow_empty=True) or None
    return out


def derived_title(content: str) -> str:
    """A note's default title: its first line, cut at a word boundary to 80 characters with ``…``."""
    line = content.strip().splitlines()[0].strip()
    if len(line) <= NOTE_TITLE_CHARS:
        return line
    cut = line[: NOTE_TITLE_CHARS - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip() + "…"


def check_version(record: dict[str, Any], expected: int | None, what: str = "record") -> None:
    """``conflict:`` when the caller based its change on another version."""
    if expected is not None and expected != record.get("version"):
        raise Conflict(
            f"{what} {record['id']!r} is at version {record.get('version')}, not {expected}; "
            "read it again and retry"
        )


def stamp(record: dict[str, Any], old: dict[str, Any], now: int) -> bool:
    """Bump ``version``/``updatedAt`` when ``record`` differs from ``old``; return whether it does."""
    if record == old:
        return False
    if record.get("status") != old.get("status"):
        record["archivedAt"] = now if record.get("status") == ARCHIVED else None
    record["version"] = int(old.get("version", 0)) + 1
    record["updatedAt"] = now
    return True


class RecordWriter:
    """The create/update verbs over one host."""

    def __init__(self, host: Host, embedder: StaticEmbedder) -> None:
        self.host = host
        self.embedder = embedder

    def create(self, ctx: Context, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        """``create_checklist`` / ``create_todo`` / ``create_session_note``."""
        fields.only(body, (*FIELDS[kind], "items") if kind == "checklist" else FIELDS[kind])
        values = parse(kind, body)
        required = "content" if kind == "session_note" else "title"
        if required not in values:
            raise InvalidRequest(f"missing field {required!r}")
        if kind == "session_note" and "title" not in values:
            values["title"] = derived_title(values["content"])
        specs = (
            _item_specs(body.get("items", []), ctx.config.maxChecklistDepth) if kind == "checklist" else []
        )
        record: dict[str, Any] = {
            "id": store.next_id(self.host, store.PREFIXES[kind]),
            "kind": kind,
            "tags": [],
            "status": DEFAULT_STATUS[kind],
            **DEFAULTS[kind],
            **values,
            "scope": ctx.scope.as_json(),
            "version": 1,
            "createdAt": ctx.now,
            "updatedAt": ctx.now,
            "archivedAt": ctx.now if values.get("status") == ARCHIVED else None,
            "deletedAt": None,
        }
        if specs:
            ids: list[str] = []
            items: list[dict[str, Any]] = []
            for spec, parent in specs:
                ids.append(store.next_id(self.host, "it"))
                parent_id = None if parent < 0 else ids[parent]
                ordinal = tree.next_ordinal(items, parent_id)
                items.append(tree.new_item(ids[-1], parent_id, ordinal, spec, ctx.now))
            record["items"] = tree.ordered(items)
        record["slug"] = slugs.assign(self.host, record)
        return self._write(None, record)

    def update(self, ctx: Context, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        """``update_checklist`` / ``update_todo`` / ``update_session_note``."""
        fields.only(body, ("id", "version", *FIELDS[kind]))
        if "id" not in body:
            raise InvalidRequest("missing field 'id'")
        record_id = fields.record_id(body["id"], "id", (store.PREFIXES[kind],))
        expected = fields.version(body)
        values = parse(kind, body)
        old = store.find(self.host, ctx, record_id)
        check_version(old, expected)
        return self._write(old, {**old, **values}, ctx.now)

    def add_item(self, ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
        """``add_checklist_item``: returns ``{item, checklist}`` (the checklist with its new version)."""
        fields.only(body, ("checklistId", "checklistVersion", "parentId", *tree.ITEM_FIELDS))
        checklist_id = _required_id(body, "checklistId", "cl")
        expected = fields.version(body, "checklistVersion")
        values = tree.item_fields(body, "", creating=True)
        parent_id = (
            None
            if body.get("parentId") is None
            else fields.record_id(body["parentId"], "parentId", ("it",))
        )
        old = store.find(self.host, ctx, checklist_id)
        check_version(old, expected, "checklist")
        items = [dict(item) for item in old.get("items", [])]
        tree.check_count(items, 1)
        tree.check_parent(items, checklist_id, None, parent_id, ctx.config.maxChecklistDepth)
        item = tree.new_item(
            store.next_id(self.host, "it"),
            parent_id,
            tree.next_ordinal(items, parent_id),
            values,
            ctx.now,
        )
        record = self._write(old, {**old, "items": tree.ordered([*items, item])}, ctx.now)
        return {
            "item": tree.find(record["items"], item["id"], checklist_id, "itemId"),
            "checklist": record,
        }

    def update_item(self, ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
        """``update_checklist_item``: ``version`` is the item's, ``checklistVersion`` the checklist's."""
        allowed = ("checklistId", "itemId", "version", "checklistVersion", "parentId", *tree.ITEM_FIELDS)
        fields.only(body, allowed)
        checklist_id = _required_id(body, "checklistId", "cl")
        item_id = _required_id(body, "itemId", "it")
        expected = fields.version(body)
        expected_list = fields.version(body, "checklistVersion")
        values = tree.item_fields(body, "", creating=False)
        if "parentId" in body:
            parent = body["parentId"]
            values["parentId"] = None if parent is None else fields.record_id(parent, "parentId", ("it",))
        old = store.find(self.host, ctx, checklist_id)
        check_version(old, expected_list, "checklist")
        items = [dict(item) for item in old.get("items", [])]
        item = tree.find(items, item_id, checklist_id, "itemId")
        check_version(item, expected, "item")
        if "parentId" in values and values["parentId"] != item.get("parentId"):
            tree.check_parent(
                items, checklist_id, item_id, values["parentId"], ctx.config.maxChecklistDepth
            )
            if "ordinal" not in values:
                values["ordinal"] = tree.next_ordinal(items, values["parentId"])
        changed = {**item, **values}
        if changed != item:
            changed["version"] = int(item.get("version", 0)) + 1
            changed["updatedAt"] = ctx.now
        items = [changed if i["id"] == item_id else i for i in items]
        record = self._write(old, {**old, "items": tree.ordered(items)}, ctx.now)
        return {"item": tree.find(record["items"], item_id, checklist_id, "itemId"), "checklist": record}

    def _write(self, old: dict[str, Any] | None, record: dict[str, Any], now: int = 0) -> dict[str, Any]:
        if old is not None and not stamp(record, old, now):
            return old
        index.update(self.host, self.embedder, old, record)
        return store.save(self.host, record)


def _required_id(body: dict[str, Any], field: str, prefix: str) -> str:
    if body.get(field) is None:
        raise InvalidRequest(f"missing field {field!r}")
    return fields.record_id(body[field], field, (prefix,))


def _item_specs(value: Any, max_depth: int) -> list[tuple[dict[str, Any], int]]:
    """Flatten nested ``items`` (each may carry ``items``) into ``(fields, parent index)`` in pre-order."""
    nodes = tree.flatten(value, "items", (*tree.ITEM_FIELDS, "items"), max_depth)
    return [(tree.item_fields(node, where + ".", creating=True), parent) for node, where, parent in nodes]
