"""The MCP tools' input JSON Schemas, generated from the guest's verb spec.

One source of truth (issue 46 item 1): every property, its type, bounds and description come from
``describe``'s ``verbs`` (``guest/spec.py``, written into ``host_harness/contract.json`` by
``make wasm``), where each bound is the constant the guest's validation reads. This module only
translates: a Python ``fullmatch`` pattern becomes an anchored ECMA-262 one, the guest's own keys
(``default``, ``maxBytes``, ``recursive``) are left out, every object is closed, and a checklist's
nested ``items`` are unrolled to the configured ``maxChecklistDepth``. ``tests/host/test_mcp_tools.py``
checks the result against the guest itself: every advertised property reaches the guest without
being refused as unknown, the structured schemas equal the guest's ``allowed:`` lists, and no scope
field is advertised anywhere.

Every schema is a closed object (``additionalProperties: false``) without ``$ref``, ``oneOf`` or
other constructs that some clients cannot digest.
"""

from __future__ import annotations

from typing import Any

from host_harness.contract import verbs
from host_harness.mcp.tools import MEMORY_TOOLS, STRUCTURED_TOOLS
from host_harness.mcp.tools import Schema as Schema  # the server's name for it

GUEST_KEYS = frozenset({"default", "maxBytes", "recursive"})  # the spec's keys that are not JSON Schema


def anchored(pattern: str) -> str:
    """A Python ``fullmatch`` pattern as an anchored JSON Schema (ECMA-262) pattern."""
    return f"^(?:{pattern})$"


def schema_of(field: dict[str, Any], depth: int = 1) -> Schema:
    """The JSON Schema of one spec field (an object closed; ``recursive`` unrolled ``depth`` levels)."""
    if field.get("recursive"):
        return unrolled(field, depth)
    out: Schema = {}
    for key, value in field.items():
        if key in GUEST_KEYS or key == "required":
            continue
        if key == "pattern":
            out[key] = anchored(value)
        elif key == "items":
            out[key] = schema_of(value, depth)
        elif key == "properties":
            out[key] = {name: schema_of(sub, depth) for name, sub in value.items()}
            out["additionalProperties"] = False
        else:
            out[key] = value
    if field.get("required"):
        out["required"] = list(field["required"])
    return out


def unrolled(field: dict[str, Any], depth: int, name: str = "items") -> Schema:
    """A ``recursive`` array of objects, each holding the same array again, ``depth`` levels deep."""
    item = schema_of({key: value for key, value in field["items"].items()})
    if depth > 1:
        item["properties"][name] = unrolled(field, depth - 1, name)
    return {"type": "array", "items": item,
            "description": f"{field['description']} (nested up to {depth} level(s) deep)."}


def tool_schema(verb: str, depth: int = 1) -> Schema:
    """The input schema of the tool calling ``verb``: a closed object of its spec fields."""
    spec = verbs()[verb]
    return schema_of({"type": "object", "properties": spec["fields"], "required": spec["required"]}, depth)


def memory_schemas() -> dict[str, Schema]:
    """The memory tools (recall, memorize, list_memories, get_memory, forget, learn, archive, ...)."""
    return {tool.name: tool_schema(tool.verb) for tool in MEMORY_TOOLS}


def structured_schemas(max_depth: int) -> dict[str, Schema]:
    """The structured-memory tools; ``max_depth`` is the configured ``maxChecklistDepth``."""
    return {tool.name: tool_schema(tool.verb, max_depth) for tool in STRUCTURED_TOOLS}


def property_names(schema: Schema) -> set[str]:
    """Every property name in ``schema``, at any depth."""
    names: set[str] = set()
    for name, sub in schema.get("properties", {}).items():
        names.add(name)
        names |= property_names(sub)
    if isinstance(schema.get("items"), dict):
        names |= property_names(schema["items"])
    return names
