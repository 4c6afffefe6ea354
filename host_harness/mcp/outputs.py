"""The MCP tools' output JSON Schemas: what each tool's ``structuredContent`` holds (issue 25).

A successful tool result carries the ``dispatch`` envelope's ``data`` as structured content (a list
wrapped as ``{"result": [...]}``, :func:`host_harness.mcp.tools.tool_result`), and clients -- the
SDK's among them -- validate it against the schema the tool declares. These schemas name the fields
the guest returns and their types, and require the ones every result has. Objects stay open
(``additionalProperties`` is not restricted): a field the guest adds later does not break a client,
while a field that changes type or goes missing fails the MCP tests, whose SDK client checks every
result it receives. A tool added later needs an entry in :data:`OUTPUTS`
(``tests/host/test_mcp_tools.py`` checks that every tool declares one).
"""

from __future__ import annotations

from typing import Any

from host_harness.contract import section

Schema = dict[str, Any]
STRING: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}
NUMBER: Schema = {"type": "number"}
BOOLEAN: Schema = {"type": "boolean"}
TEXT_OR_NULL: Schema = {"type": ["string", "null"]}
TIME_OR_NULL: Schema = {"type": ["integer", "null"]}


def shape(properties: dict[str, Schema], required: tuple[str, ...] = (), **extra: Any) -> Schema:
    """An open object schema: ``properties`` typed, ``required`` present."""
    schema: Schema = {"type": "object", "properties": properties, **extra}
    if required:
        schema["required"] = list(required)
    return schema


def array(items: Schema) -> Schema:
    """An array of ``items``."""
    return {"type": "array", "items": items}


PARTS = ("cosine", "bm25", "vector", "keyword", "fused", "recency", "lift", "stale")
CHANNELS = shape({name: NUMBER for name in PARTS}, PARTS)
STALE = shape({"files": array(STRING)}, ("files",))
HIT = shape({"id": STRING, "text": STRING, "score": NUMBER, "namespace": STRING, "ts": INTEGER,
             "stale": STALE, "quarantined": STRING, "explain": CHANNELS},
            ("id", "text", "score", "namespace", "ts"))
MEMORY = shape({"id": STRING, "text": STRING, "namespace": STRING, "ts": INTEGER, "origin": STRING,
                "supersedes": array(STRING), "superseded_by": STRING, "files": array(STRING), "stale": STALE,
                "quarantined": STRING, "forgotten": shape({"ts": INTEGER, "reason": STRING}, ("ts",))},
               ("id", "text", "namespace", "ts"))
SIMILAR = shape({"id": STRING, "text": STRING, "score": NUMBER}, ("id", "text", "score"))
BLOCK = {"id": STRING, "label": STRING, "namespace": STRING, "ts": INTEGER, "content": STRING, "text": STRING}
SCOPE = shape({"actorId": TEXT_OR_NULL, "conversationId": TEXT_OR_NULL, "projectId": TEXT_OR_NULL,
               "threadId": TEXT_OR_NULL, "global": BOOLEAN})
ITEM = shape({"id": STRING, "title": STRING, "status": STRING, "tags": array(STRING), "due": TEXT_OR_NULL,
              "ordinal": INTEGER, "parentId": TEXT_OR_NULL, "version": INTEGER, "createdAt": INTEGER,
              "updatedAt": INTEGER}, ("id", "title", "status"))
RECORD_FIELDS: dict[str, Schema] = {
    "id": STRING, "kind": {"type": "string", "enum": section("structured.shapes").ALL_KINDS}, "title": STRING,
    "slug": STRING,
    "status": STRING, "tags": array(STRING), "version": INTEGER, "scope": SCOPE, "createdAt": INTEGER,
    "updatedAt": INTEGER, "archivedAt": TIME_OR_NULL, "deletedAt": TIME_OR_NULL,
    "description": TEXT_OR_NULL, "due": TEXT_OR_NULL, "priority": INTEGER,  # checklists and todos
    "content": STRING, "importance": NUMBER,  # session notes
    "items": array(ITEM),  # checklists
}
RECORD = shape(RECORD_FIELDS, ("id", "kind"))  # what the guest checks when it reads a record
HIT_OF_RECORD = shape({"score": NUMBER, "channels": array(STRING), "record": RECORD}, ("score", "record"))
ITEM_CHANGE = shape({"item": ITEM, "checklist": RECORD}, ("item", "checklist"))

OUTPUTS: dict[str, Schema] = {
    "recall": shape({"result": array(HIT), **BLOCK},
                    anyOf=[{"required": ["result"]}, {"required": ["id", "content", "text"]}]),
    "memorize": shape({"id": STRING, "namespace": STRING, "deduped": BOOLEAN, "quarantined": STRING,
                       "supersedes": array(STRING), "similar": array(SIMILAR)},
                      ("id", "namespace", "deduped")),
    "list_memories": shape({"namespace": STRING, "memories": array(MEMORY), "next": TEXT_OR_NULL},
                           ("namespace", "memories", "next")),
    "get_memory": MEMORY,
    "forget": shape({"forgotten": array(STRING), "missing": array(STRING)}, ("forgotten", "missing")),
    "learn": shape({"id": STRING, "namespace": STRING, "text": STRING, "isError": BOOLEAN,
                    "details": shape({"skill": TEXT_OR_NULL}, ("skill",)),
                    "content": array(shape({"type": STRING, "text": STRING}, ("type", "text")))},
                   ("id", "namespace", "text", "isError", "details", "content")),
    "archive": shape({"id": STRING, "seq": INTEGER, "label": STRING, "namespace": STRING, "bytes": INTEGER,
                      "text": STRING}, ("id", "text")),
    "recall_search": shape({"text": STRING, "terms": array(STRING), "namespace": STRING,
                            "results": array(shape({"id": STRING, "label": STRING, "score": NUMBER,
                                                    "excerpt": STRING}, ("id", "label")))},
                           ("text", "results")),
    **{name: RECORD for name in ("create_checklist", "update_checklist", "create_todo", "update_todo",
                                 "create_session_note", "update_session_note", "get_record")},
    "add_checklist_item": ITEM_CHANGE,
    "update_checklist_item": ITEM_CHANGE,
    "query_records": shape({"hits": array(HIT_OF_RECORD), "semantic": BOOLEAN}, ("hits",)),
    "retrieve_memory": shape({"text": STRING, "tokens": INTEGER, "budget": INTEGER, "truncated": BOOLEAN,
                              "records": array({"type": "object"})}, ("text",)),
    "delete_record": shape({"id": STRING, "deleted": {"type": "string", "enum": ["soft", "hard"]},
                            "version": INTEGER, "removed": array(STRING), "checklist": RECORD},
                           ("id", "deleted")),
}
