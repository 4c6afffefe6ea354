"""The MCP tools: one per verb an agent should call, named after the seeds.

Each :class:`ToolSpec` names the tool, the ``dispatch`` verb behind it, its title and a description an
LLM can act on (both the verb's ``title`` and ``help`` in the guest's verb spec, ``contract.json``)
and the annotations (read-only, destructive, idempotent). Schemas come from
:mod:`host_harness.mcp.schemas`, from the same spec. A call is prepared here (arguments checked
against the advertised properties, a JSON-encoded value some clients send for an array or a number
decoded), dispatched by the server, and its envelope turned into a tool result (:func:`tool_result`):
``ok`` gives the data as ``structuredContent`` and a text, an error gives ``isError: true`` with the
guest's message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from host_harness.contract import section, verbs
from host_harness.envelope import Envelope

if TYPE_CHECKING:  # the SDK is imported where a result is built: ``mcp --help`` lists the tools without it
    from mcp.types import CallToolResult, ToolAnnotations

Schema = dict[str, Any]  # a JSON Schema (host_harness/mcp/schemas.py makes them from the verb spec)
JSON_TYPES: dict[str, type | tuple[type, ...]] = {
    "array": list, "object": dict, "integer": int, "number": (int, float), "boolean": bool,
}


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, the verb behind it, what it is for, and how it behaves."""

    name: str
    verb: str
    title: str
    description: str
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False

    def annotations(self) -> ToolAnnotations:
        """The MCP tool annotations (every tool works on the project's own store: closed world)."""
        from mcp.types import ToolAnnotations

        return ToolAnnotations(
            title=self.title,
            read_only_hint=self.read_only,
            destructive_hint=self.destructive if not self.read_only else False,
            idempotent_hint=self.idempotent or self.read_only,
            open_world_hint=False,
        )


def _tool(verb: str, *, read_only: bool = False, destructive: bool = False,
          idempotent: bool = False) -> ToolSpec:
    """The tool calling ``verb``, named after it: its title and description are the verb's in the spec.

    The guest's verb spec (``guest/spec.py``, in ``contract.json``) holds every word an agent reads
    about a verb; this module adds only the MCP annotations.
    """
    spec = verbs()[verb]
    return ToolSpec(verb, verb, spec["title"], spec["help"], read_only, destructive, idempotent)


MEMORY_TOOLS = (
    _tool("recall", read_only=True),
    _tool("memorize", idempotent=True),
    _tool("list_memories", read_only=True),
    _tool("get_memory", read_only=True),
    _tool("forget", destructive=True, idempotent=True),
    _tool("learn", destructive=True),
    _tool("archive"),
    _tool("recall_search", read_only=True),
)

STRUCTURED_TOOLS = (
    _tool("create_checklist"),
    _tool("update_checklist", destructive=True, idempotent=True),
    _tool("add_checklist_item"),
    _tool("update_checklist_item", destructive=True, idempotent=True),
    _tool("create_todo"),
    _tool("update_todo", destructive=True, idempotent=True),
    _tool("create_session_note"),
    _tool("update_session_note", destructive=True, idempotent=True),
    _tool("query_records", read_only=True),
    _tool("retrieve_memory", read_only=True),
    _tool("get_record", read_only=True),
    _tool("delete_record", destructive=True, idempotent=True),
)


def prepare(spec: ToolSpec, schema: Schema, arguments: dict[str, Any]) -> dict[str, Any] | str:
    """The request body for ``arguments``, or a ``validation:`` message for an argument not advertised.

    ``null`` for a property that does not take ``null`` is the same as leaving it out (some clients
    send every optional parameter); a JSON text given for a property that is not a string (an
    array sent as ``"[\\"a\\"]"``) is decoded when it decodes to the advertised type. Everything
    else is left to the guest, which validates it.
    """
    properties: dict[str, Schema] = schema.get("properties", {})
    body: dict[str, Any] = {}
    for name, value in arguments.items():
        prop = properties.get(name)
        if prop is None:
            if name in section("structured.fields").SCOPE_KEYS:
                return (f"validation: argument {name!r} is a scope field; scope comes from the server's "
                        "trusted configuration (rs-learn-host mcp --project-id ...), never from a tool call")
            takes = ", ".join(properties) or "no arguments"
            return f"validation: unknown argument {name!r}; {spec.name} takes {takes}"
        kinds = prop.get("type")
        if value is None and not (isinstance(kinds, list) and "null" in kinds):
            continue
        body[name] = _decoded(value, kinds)
    return body


def _decoded(value: Any, kinds: Any) -> Any:
    """``value``, or the JSON it encodes when the property is not a string and that JSON fits."""
    listed = kinds if isinstance(kinds, list) else [kinds]
    wanted = [k for k in listed if k in JSON_TYPES]
    if not isinstance(value, str) or not wanted or "string" in listed:
        return value
    try:
        decoded = json.loads(value)
    except ValueError:
        return value
    fits = any(isinstance(decoded, JSON_TYPES[k]) and not (isinstance(decoded, bool) and k != "boolean")
               for k in wanted)
    return decoded if fits else value


def tool_result(envelope: dict[str, Any]) -> CallToolResult:
    """A ``dispatch`` envelope as a tool result.

    ``ok``: ``structuredContent`` is the data (a list is wrapped as ``{"result": [...]}``: structured
    content is an object); the text is the data's own ``text`` when it has one (the seeds' tool
    texts: learn, archive, recall by id, recall_search, retrieve_memory), else the data as JSON.
    ``isError`` follows the data's ``isError`` (``learn`` reports a shadowed or missing skill that
    way after storing the lesson). An error envelope is ``isError: true`` with the guest's message.
    """
    from mcp.types import CallToolResult, TextContent

    reply = Envelope.of(envelope)
    if not reply.ok:
        return CallToolResult(content=[TextContent(type="text", text=reply.error)], is_error=True)
    data = reply.data
    structured = data if isinstance(data, dict) else {"result": data}
    text = data.get("text") if isinstance(data, dict) else None
    if not isinstance(text, str) or not text:
        text = json.dumps(data, ensure_ascii=False)
    failed = isinstance(data, dict) and data.get("isError") is True
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=structured,
                          is_error=failed)
