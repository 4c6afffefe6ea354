"""Checklist items: a ``parentId`` tree inside the checklist record, validated on every change.

Items are stored flat in ``checklist["items"]`` in tree order (pre-order; siblings by ``ordinal``,
then by id number). A root item (``parentId`` null) is at depth 1, its children at depth 2, and so
on; no item may sit deeper than ``maxChecklistDepth``. Moving an item moves its subtree, so the
whole subtree must still fit. A parent must be an item of the same checklist, and an item can never
become its own ancestor (a cycle). An item's ``ordinal`` is a sort key among its siblings (default:
one past the largest); ties fall back to creation order. Siblings are never renumbered.
"""

from __future__ import annotations

from typing import Any

from guest.errors import InvalidRequest
from guest.requests import kind_of
from guest.structured import fields
from guest.structured.store import DEFAULT_STATUS, STATUSES, id_number

MAX_ITEMS = 500
ITEM_FIELDS = ("title", "status", "tags", "due", "ordinal")


def children(items: list[dict[str, Any]]) -> dict[str | None, list[dict[str, Any]]]:
    """Items by parent id, each list in sibling order."""
    out: dict[str | None, list[dict[str, Any]]] = {}
    for item in items:
        out.setdefault(item.get("parentId"), []).append(item)
    for siblings in out.values():
        siblings.sort(key=lambda i: (i.get("ordinal", 0), id_number(str(i.get("id")))))
    return out


def walk(items: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
    """``(item, depth)`` in tree order; items unreachable from a root (a corrupt tree) are left out."""
    tree = children(items)
    out: list[tuple[dict[str, Any], int]] = []
    stack = [(item, 1) for item in reversed(tree.get(None, []))]
    seen: set[str] = set()
    while stack:
        item, depth = stack.pop()
        if item["id"] in seen:
            continue
        seen.add(item["id"])
        out.append((item, depth))
        stack.extend((child, depth + 1) for child in reversed(tree.get(item["id"], [])))
    return out


def ordered(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items in tree order (how they are stored); unreachable ones (a corrupt tree) kept at the end."""
    reachable = [item for item, _ in walk(items)]
    seen = {item["id"] for item in reachable}
    return reachable + [item for item in items if item["id"] not in seen]


def find(items: list[dict[str, Any]], item_id: str, checklist_id: str, field: str) -> dict[str, Any]:
    """The item ``item_id`` of this checklist; ``validation:`` when it is not one of its items."""
    for item in items:
        if item["id"] == item_id:
            return item
    raise InvalidRequest(f"{field} {item_id!r} is not an item of checklist {checklist_id!r}")


def depth_of(items: list[dict[str, Any]], item_id: str | None) -> int:
    """Depth of ``item_id`` (0 for ``None``, the checklist itself); a stored cycle is refused."""
    by_id = {item["id"]: item for item in items}
    depth, start, seen = 0, item_id, set()
    while item_id is not None and item_id in by_id:
        if item_id in seen:
            raise InvalidRequest(
                f"item {start!r} hangs under a cycle in the stored tree (written by another tool?); "
                "move one of the cycle's items to the top level (parentId null) first"
            )
        seen.add(item_id)
        depth += 1
        item_id = by_id[item_id].get("parentId")
    return depth


def height(items: list[dict[str, Any]], item_id: str) -> int:
    """Levels in the subtree rooted at ``item_id`` (1 for a leaf)."""
    tree = children(items)
    best, stack = 0, [(item_id, 1)]
    while stack:
        node, level = stack.pop()
        best = max(best, level)
        if level <= len(items):
            stack.extend((child["id"], level + 1) for child in tree.get(node, []))
    return best


def check_parent(
    items: list[dict[str, Any]], checklist_id: str, item_id: str | None, parent_id: str | None, max_depth: int
) -> None:
    """Refuse a parent outside the checklist, a cycle, or a subtree that would end up too deep."""
    if parent_id is None:
        depth = 1
    else:
        find(items, parent_id, checklist_id, "parentId")
        if item_id is not None:
            ancestor: str | None = parent_id
            by_id = {item["id"]: item for item in items}
            seen: set[str] = set()
            while ancestor is not None and ancestor not in seen:  # `seen`: a corrupt stored cycle ends
                if ancestor == item_id:
                    raise InvalidRequest(
                        f"parentId {parent_id!r} would make item {item_id!r} its own ancestor (a cycle)"
                    )
                seen.add(ancestor)
                ancestor = by_id[ancestor].get("parentId") if ancestor in by_id else None
        depth = depth_of(items, parent_id) + 1
    deepest = depth + (height(items, item_id) - 1 if item_id is not None else 0)
    if deepest > max_depth:
        what = f"item {item_id!r}" if item_id is not None else "the new item"
        raise InvalidRequest(
            f"{what} would reach depth {deepest} under parentId {parent_id!r}; "
            f"maxChecklistDepth is {max_depth}"
        )


def next_ordinal(items: list[dict[str, Any]], parent_id: str | None) -> int:
    """One past the largest ordinal among the children of ``parent_id``."""
    siblings = [int(i.get("ordinal", 0)) for i in items if i.get("parentId") == parent_id]
    return min(max(siblings) + 1, fields.MAX_ORDINAL) if siblings else 0


def flatten(
    value: Any, path: str, allowed: tuple[str, ...], max_depth: int
) -> list[tuple[dict[str, Any], str, int]]:
    """Nested ``items`` (each may carry ``items``) in pre-order as ``(node, path, parent index or -1)``.

    Checks the shape (arrays of objects with ``allowed`` fields), the depth and the item count.
    """
    out: list[tuple[dict[str, Any], str, int]] = []

    def visit(nodes: Any, parent: int, depth: int, path: str) -> None:
        if not isinstance(nodes, list):
            raise InvalidRequest(f"field {path!r} must be an array of items, not {kind_of(nodes)}")
        for i, node in enumerate(nodes):
            where = f"{path}[{i}]"
            if not isinstance(node, dict):
                raise InvalidRequest(f"field {where!r} must be an object, not {kind_of(node)}")
            fields.only(node, allowed, where)
            if depth > max_depth:
                raise InvalidRequest(
                    f"item {where!r} would be at depth {depth}; maxChecklistDepth is {max_depth}"
                )
            out.append((node, where, parent))
            check_count([], len(out))
            visit(node.get("items", []), len(out) - 1, depth + 1, where + ".items")

    visit(value, -1, 1, path)
    return out


def item_fields(body: dict[str, Any], path: str, creating: bool) -> dict[str, Any]:
    """Validate an item's own fields (``title`` required when ``creating``); absent ones are left out."""
    out: dict[str, Any] = {}
    if creating and "title" not in body:
        raise InvalidRequest(f"missing field {path + 'title'!r}")
    if "title" in body:
        out["title"] = fields.title(body["title"], path + "title")
    if "status" in body:
        out["status"] = fields.choice(body["status"], path + "status", STATUSES["item"])
    if "tags" in body:
        out["tags"] = fields.tags(body["tags"], path + "tags")
    if "due" in body:
        out["due"] = fields.due(body["due"], path + "due")
    if "ordinal" in body:
        out["ordinal"] = fields.integer(body["ordinal"], path + "ordinal", 0, fields.MAX_ORDINAL)
    return out


def new_item(
    item_id: str, parent_id: str | None, ordinal: int, values: dict[str, Any], now: int
) -> dict[str, Any]:
    """A fresh item record."""
    return {
        "id": item_id,
        "title": values["title"],
        "status": values.get("status", DEFAULT_STATUS["item"]),
        "parentId": parent_id,
        "ordinal": values.get("ordinal", ordinal),
        "tags": values.get("tags", []),
        "due": values.get("due"),
        "version": 1,
        "createdAt": now,
        "updatedAt": now,
    }


def check_count(items: list[dict[str, Any]], adding: int) -> None:
    """At most :data:`MAX_ITEMS` items per checklist."""
    if len(items) + adding > MAX_ITEMS:
        raise InvalidRequest(f"a checklist holds at most {MAX_ITEMS} items; this one has {len(items)}")
