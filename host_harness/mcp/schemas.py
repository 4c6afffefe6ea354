"""The MCP tools' input JSON Schemas, built from the guest's own field lists and limits.

One source of truth: a property is advertised only when the guest's validation reads it. The
values come from the guest's ``describe`` answer, ``host_harness/contract.json``, one section per
guest module: the structured-memory schemas take their property names from the tuples the guest
checks bodies against (``shapes.FIELDS``, ``tree.ITEM_FIELDS``, ``shapes.QUERY_FIELDS``), their
statuses from ``store.STATUSES`` and their bounds from ``structured.fields``; the memory, archive and
learn schemas take their bounds from those capabilities' constants. A field name the guest gains
without a description here fails at import (:data:`PROPERTIES` has no entry for it), and
``tests/test_mcp_tools.py`` checks the rest against the guest itself: every advertised property
reaches the guest without being refused as unknown, the structured schemas equal the guest's
``allowed:`` lists, and no scope field is advertised anywhere.

Every schema is a closed object (``additionalProperties: false``) without ``$ref``, ``oneOf`` or
other constructs that some clients cannot digest: a checklist's nested ``items`` are unrolled to
the configured ``maxChecklistDepth``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from host_harness.contract import section

requests = section("requests")
archive_search = section("archive.search")
archive = section("archive.verbs")
skills = section("learn.skills")
memory = section("memory.limits")
listing = section("memory.listing")
lookup = section("memory.lookup")
tombstones = section("memory.tombstones")
fields = section("structured.fields")
shapes = section("structured.shapes")
tree = section("structured.tree")
PREFIXES: dict[str, str] = section("structured.store").PREFIXES
STATUSES: dict[str, list[str]] = section("structured.store").STATUSES

Schema = dict[str, Any]
STRUCTURED_KINDS = ("checklist", "todo", "session_note")


def anchored(pattern: str) -> str:
    """A Python ``fullmatch`` pattern as an anchored JSON Schema (ECMA-262) pattern."""
    return f"^(?:{pattern})$"


def string(description: str, **extra: Any) -> Schema:
    """A string property."""
    return {"type": "string", "description": description, **extra}


def integer(description: str, low: int, high: int) -> Schema:
    """An integer property within ``[low, high]``."""
    return {"type": "integer", "minimum": low, "maximum": high, "description": description}


def number(description: str, low: float, high: float) -> Schema:
    """A number property within ``[low, high]``."""
    return {"type": "number", "minimum": low, "maximum": high, "description": description}


def boolean(description: str) -> Schema:
    """A boolean property."""
    return {"type": "boolean", "description": description}


def enum(description: str, values: Iterable[str]) -> Schema:
    """A string property restricted to ``values``."""
    return {"type": "string", "enum": list(values), "description": description}


def array(description: str, items: Schema, max_items: int | None = None) -> Schema:
    """An array property."""
    schema: Schema = {"type": "array", "items": items, "description": description}
    if max_items is not None:
        schema["maxItems"] = max_items
    return schema


def nullable(schema: Schema, why: str) -> Schema:
    """``schema`` or ``null`` (``why`` says what null means)."""
    kind = schema["type"]
    return {**schema, "type": [kind, "null"], "description": f"{schema['description']} {why}"}


def obj(properties: dict[str, Schema], required: Iterable[str] = ()) -> Schema:
    """A closed object schema."""
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    needed = [name for name in required if name in properties]
    if needed:
        schema["required"] = needed
    return schema


NAMESPACE = string(
    "`default` (the project store) or a discipline name, e.g. `frontend`; omit it to use the "
    "`@name` sigil of the text, or the default.",
    pattern=anchored(requests.NAME_RE),
)
TAG = string("A tag: no white space, ',', '#', '\"' or '\\\\'.", pattern=anchored(fields.TAG_RE))
DUE = string("ISO-8601 date (2026-12-01) or date-time with Z or an offset.",
             pattern=anchored(fields.DUE_RE))
ITEM_ID = string("A checklist item id, e.g. `it-3`.", pattern=anchored(r"it-[1-9][0-9]{0,15}"))
VERSION = integer("Fail with a conflict unless the record is still at this version.", 1, fields.MAX_VERSION)
MEMORY_ID = string("A memory id, e.g. `mem-03a1bd30e5d2fbe6-58`.", pattern=anchored(lookup.ID_RE))
STORE = {**NAMESPACE, "description": "The store to look in: `default` or a discipline name; omit it to look "
         "in the project store, then every discipline."}

# Every structured-memory body field, by the name the guest validates it under. ``status`` depends
# on the record kind (see :func:`status`).
PROPERTIES: dict[str, Schema] = {
    "title": string(f"Short title, 1-{fields.MAX_TITLE_CHARS} characters.", minLength=1,
                    maxLength=fields.MAX_TITLE_CHARS),
    "description": string(f"Free text, at most {fields.MAX_TEXT_BYTES} bytes."),
    "content": string(f"The note's text, at most {fields.MAX_TEXT_BYTES} bytes.", minLength=1),
    "tags": array(f"Up to {fields.MAX_TAGS} tags (stored lower-cased).", TAG, fields.MAX_TAGS),
    "due": DUE,
    "priority": integer("0-5, 5 the most urgent (default 0).", 0, fields.MAX_PRIORITY),
    "importance": number("0-1, how much the note matters (default 0.5).", 0, 1),
    "ordinal": integer("Position among its siblings (default: last).", 0, fields.MAX_ORDINAL),
    "id": string("The record id, e.g. `td-1`, `cl-2`, `nt-3`."),
    "version": VERSION,
    "checklistId": string("The checklist id, e.g. `cl-1`.", pattern=anchored(r"cl-[1-9][0-9]{0,15}")),
    "checklistVersion": integer("Fail with a conflict unless the checklist is still at this version.", 1,
                                fields.MAX_VERSION),
    "itemId": ITEM_ID,
    "parentId": {**ITEM_ID, "description": "The parent item id (omit it for a top-level item)."},
    "hard": boolean("true removes the record for good; default false (soft delete, purged later)."),
    "query": string(f"Words to search titles, tags, descriptions and contents for (at most "
                    f"{shapes.MAX_QUERY_BYTES} bytes); omit it for the newest records."),
    "kinds": array("Only these kinds (default all).", enum("A record kind.", shapes.ALL_KINDS)),
    "includeArchived": boolean("Include archived records (default false)."),
    "limit": integer("At most this many records (0 or omitted: the configured defaultLimit).", 0,
                     shapes.MAX_LIMIT),
    "maxTokens": integer("Token budget of the text (default: the configured maxContextTokens).", 1,
                         shapes.MAX_TOKENS),
}


def status(kind: str) -> Schema:
    """The ``status`` property of a record kind (``item`` for checklist items)."""
    return enum(f"The {kind.replace('_', ' ')}'s status.", STATUSES[kind])


def structured(names: Iterable[str], kind: str | None = None) -> dict[str, Schema]:
    """The properties ``names`` (``status`` of ``kind``), in the guest's order."""
    out: dict[str, Schema] = {}
    for name in names:
        if name == "status":
            if kind is None:
                out[name] = array("Only records with one of these statuses.",
                                  enum("A status.", shapes.ALL_STATUSES))
            else:
                out[name] = status(kind)
        else:
            out[name] = PROPERTIES[name]
    return out


def record_id(kind: str) -> Schema:
    """The ``id`` of an update: a record of ``kind``."""
    prefix = PREFIXES[kind]
    return string(f"The {kind.replace('_', ' ')}'s id, e.g. `{prefix}-1`.",
                  pattern=anchored(rf"{prefix}-[1-9][0-9]{{0,15}}"))


def clearable(properties: dict[str, Schema]) -> dict[str, Schema]:
    """An update's properties: ``null`` clears ``description`` and ``due`` (and moves ``parentId`` up)."""
    out = dict(properties)
    for name, why in (("description", "null clears it."), ("due", "null clears it."),
                      ("parentId", "null moves the item to the top level.")):
        if name in out:
            out[name] = nullable(out[name], why)
    return out


def checklist_items(depth: int) -> Schema:
    """The nested ``items`` of ``create_checklist``, unrolled to ``depth`` levels."""
    item = structured(tree.ITEM_FIELDS, "item")
    if depth > 1:
        item["items"] = checklist_items(depth - 1)
    return array(f"Items, each with the same fields (nested up to {depth} level(s) deep).",
                 obj(item, ["title"]))


def memory_schemas() -> dict[str, Schema]:
    """The memory tools (recall, memorize, list_memories, get_memory, forget, archive, search, learn)."""
    skill = obj(
        {
            "action": enum("create a new managed skill or update an existing one.", ("create", "update")),
            "name": string(f"Skill name (made lowercase kebab-case, at most {skills.MAX_NAME} characters)."),
            "description": string("One line: when the skill applies."),
            "body": string(f"The SKILL.md body in Markdown (the whole file at most {skills.MAX_FILE_BYTES} "
                           "bytes)."),
        },
        ["action", "name", "description", "body"],
    )
    return {
        "recall": obj({
            "query": string(f"What to look for, in plain words (at most {memory.MAX_QUERY_BYTES} bytes); a "
                            "leading `@name` searches only that discipline."),
            "id": string("Instead of a query: an archived block's id, e.g. `r7`, to get the block back "
                         "verbatim."),
            "limit": integer(f"At most this many memories (0 or omitted: the default, "
                             f"{memory.DEFAULT_LIMIT}).", 0, memory.MAX_LIMIT),
            "mode": enum("hybrid (default), vector (meaning only) or keyword (words only).",
                         memory.MODES),
            "explain": boolean("true: each hit also carries `explain`, where its score comes from "
                               "(cosine and BM25, raw and scaled to 0-1 over this query's candidates, "
                               "the lift of a named subject or time, fused, and the recency and stale "
                               "factors)."),
            "as_of": string("When the question is asked, for its relative dates ('10 days ago', 'last "
                            "week'): an ISO date or date-time such as 2026-10-02 or 2026-10-02T15:00:00Z "
                            "(UTC unless it says otherwise). Omitted: now."),
            "namespace": NAMESPACE,
        }),
        "memorize": obj({
            "text": string(f"The fact, self-contained (at most {memory.MAX_TEXT_BYTES} bytes); a leading "
                           "`@name` stores it in that discipline.", minLength=1),
            "namespace": NAMESPACE,
            "supersedes": array("Ids of memories this fact replaces (of the same store): recall then shows "
                                "only the new one. An unknown id stores nothing and says so.", MEMORY_ID,
                                lookup.MAX_IDS),
        }, ["text"]),
        "list_memories": obj({
            "namespace": {**NAMESPACE, "description": "The store to list: `default` (the default) or a "
                          "discipline name."},
            "limit": integer(f"At most this many memories (default {listing.DEFAULT_PAGE}).", 1,
                             listing.MAX_PAGE),
            "cursor": string("The `next` of the previous page.", pattern=anchored(listing.CURSOR_RE)),
            "query": string(f"Only memories whose text contains this, case-insensitive (at most "
                            f"{listing.MAX_QUERY_BYTES} bytes)."),
            "include": array("Also list these hidden memories.", enum("A kind of hidden memory.",
                                                                      listing.INCLUDE)),
            "stale": boolean("Only memories whose cited project files changed since they were stored."),
            "quarantined": boolean("Only memories held back from the agent because they read as "
                                   "instructions (a person approves them)."),
        }),
        "get_memory": obj({"id": MEMORY_ID, "namespace": STORE}, ["id"]),
        "forget": obj({
            "ids": array("The ids of the memories to forget.", MEMORY_ID, lookup.MAX_IDS),
            "reason": string(f"Why (at most {tombstones.MAX_REASON_BYTES} bytes), kept with the tombstone.",
                             minLength=1),
            "namespace": STORE,
        }, ["ids"]),
        "learn": obj({
            "memory": string("Durable, self-contained lesson to remember: what, when, and why.", minLength=1),
            "context": string("Source context for the lesson."),
            "skill": {**skill, "description": "Managed skill to create or enhance in the same call."},
        }, ["memory"]),
        "archive": obj({
            "content": string(f"The block, verbatim (at most {archive.MAX_CONTENT_BYTES} bytes)."),
            "label": string("A one-line title; omit it to use the block's first line."),
            "namespace": NAMESPACE,
        }, ["content"]),
        "recall_search": obj({
            "query": string(f"Keywords (at most {archive.MAX_QUERY_BYTES} bytes); words of one letter are "
                            "ignored.", minLength=1),
            "limit": integer(f"At most this many blocks (0 or omitted: the default, "
                             f"{archive_search.DEFAULT_LIMIT}).", 0, archive_search.MAX_LIMIT),
            "namespace": NAMESPACE,
        }, ["query"]),
    }


def structured_schemas(max_depth: int) -> dict[str, Schema]:
    """The structured-memory tools; ``max_depth`` is the configured ``maxChecklistDepth``."""
    checklist = structured(shapes.FIELDS["checklist"], "checklist")
    item_fields = structured(tree.ITEM_FIELDS, "item")
    return {
        "create_checklist": obj({**checklist, "items": checklist_items(max_depth)}, ["title"]),
        "update_checklist": obj(clearable({"id": record_id("checklist"), "version": VERSION, **checklist}),
                                ["id"]),
        "add_checklist_item": obj(
            {**structured(("checklistId", "checklistVersion", "parentId")), **item_fields},
            ["checklistId", "title"],
        ),
        "update_checklist_item": obj(
            clearable({**structured(("checklistId", "itemId", "version", "checklistVersion", "parentId")),
                       **item_fields}),
            ["checklistId", "itemId"],
        ),
        **{f"create_{kind}": obj(structured(shapes.FIELDS[kind], kind),
                                 ["content" if kind == "session_note" else "title"])
           for kind in ("todo", "session_note")},
        **{f"update_{kind}": obj(clearable({"id": record_id(kind), "version": VERSION,
                                            **structured(shapes.FIELDS[kind], kind)}), ["id"])
           for kind in ("todo", "session_note")},
        "get_record": obj({"id": PROPERTIES["id"]}, ["id"]),
        "query_records": obj(structured(shapes.QUERY_FIELDS)),
        "retrieve_memory": obj(structured((*shapes.QUERY_FIELDS, "maxTokens"))),
        "delete_record": obj({
            "id": string("The record id (`cl-`, `td-`, `nt-`), or a checklist item id (`it-`) with "
                         "checklistId."),
            "hard": PROPERTIES["hard"],
            "version": VERSION,
            "checklistId": {**PROPERTIES["checklistId"],
                            "description": "The checklist of an item id (`it-`)."},
        }, ["id"]),
    }


def property_names(schema: Schema) -> set[str]:
    """Every property name in ``schema``, at any depth."""
    names: set[str] = set()
    for name, sub in schema.get("properties", {}).items():
        names.add(name)
        names |= property_names(sub)
    if isinstance(schema.get("items"), dict):
        names |= property_names(schema["items"])
    return names
