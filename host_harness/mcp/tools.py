"""The MCP tools: one per verb an agent should call, named after the seeds.

Each :class:`ToolSpec` names the tool, the ``dispatch`` verb behind it, a description an LLM can act
on and the annotations (read-only, destructive, idempotent). Schemas come from
:mod:`host_harness.mcp.schemas`. A call is prepared here (arguments checked against the advertised
properties, a JSON-encoded value some clients send for an array or a number decoded), dispatched
by the server, and its envelope turned into a tool result (:func:`tool_result`): ``ok`` gives the
data as ``structuredContent`` and a text, an error gives ``isError: true`` with the guest's message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from host_harness.contract import section

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


MEMORY_TOOLS = (
    ToolSpec("recall", "recall", "Recall memories",
             "Search this project's long-term memory before answering a question about the project, its "
             "conventions or earlier decisions, or before redoing work that may have been done. Give `query` "
             "in plain words; returns the best-matching memories (id, text, score, namespace), best first, "
             "or an empty list: memories with no evidence for the query are left out. A score orders one "
             "answer (0.25 x meaning + 0.75 x shared words, each scaled over this query's candidates); it "
             "does not compare across queries. Give `id` (e.g. `r7`) instead to bring back an archived "
             "block verbatim.",
             read_only=True),
    ToolSpec("memorize", "memorize", "Memorize a fact",
             "Store one durable, self-contained fact about this project (a convention, a decision, a "
             "gotcha) so that later sessions can recall it. Storing the same text again stores nothing. "
             "Returns the memory's id, its namespace and whether it was already stored. When the answer "
             "lists `similar` memories (same subject, different content), read them: if the new fact "
             "replaces one (\"we switched from npm to pnpm\"), call memorize again with the same text and "
             "`supersedes: [its id]`, so recall shows only the new one; if both stay true, do nothing. "
             "Nothing is superseded automatically. Pass `supersedes` directly when you already know the "
             "ids of the facts this one corrects.",
             idempotent=True),
    ToolSpec("list_memories", "list_memories", "List stored memories",
             "Page through what this project remembers, newest first, to review it or to find a memory "
             "to correct: each item has its id, text, time and, when they apply, `superseded_by`, "
             "`supersedes`, `stale` (cited files changed since), `quarantined` (held back until a person "
             "approves it) and `forgotten`. `query` filters by a "
             "case-insensitive substring (use `recall` to search by meaning); pass the answer's `next` as "
             "`cursor` for the following page; `include` shows forgotten or superseded memories too.",
             read_only=True),
    ToolSpec("get_memory", "get_memory", "Get a memory",
             "Read one memory by id (`mem-…`): its text, time, supersede links, the project files it "
             "names and whether they changed since (`stale`), or when and why it was forgotten.",
             read_only=True),
    ToolSpec("forget", "forget", "Forget memories",
             "Forget memories that are wrong or obsolete, by id (from `recall` or `list_memories`), with a "
             "short `reason`. A forgotten memory is never recalled or injected again, and the decision "
             "survives git merges and imports; memorizing the same text later brings it back. Prefer "
             "`memorize` with `supersedes` when a new fact replaces an old one. Returns the ids forgotten "
             "and the ids not found.",
             destructive=True, idempotent=True),
    ToolSpec("learn", "learn", "Learn a lesson",
             "Capture a reusable lesson (what, when, and why) into long-term memory, and optionally create "
             "or update a managed skill (a SKILL.md for a repeatable procedure) in the same call. Use it "
             "sparingly: one precise lesson beats several vague ones; put `skill` only on repeatable "
             "procedures. Returns what was stored; an authored skill of the same name wins, which is "
             "reported as an error after the lesson is stored.",
             destructive=True),
    ToolSpec("archive", "archive", "Archive a block verbatim",
             "Before summarising or dropping a big block of context (a file, a page, a diff, a log), "
             "archive it verbatim under a short id such as `r7` and cite that id in your summary. Returns "
             "the id; `recall` with that `id` brings the block back byte for byte."),
    ToolSpec("recall_search", "recall_search", "Search archived blocks",
             "Find archived blocks by keywords when you do not have their id (for instance an `r` id that "
             "fell out of the summary). Returns matching blocks, best first, each with its id, label and a "
             "one-line excerpt; then `recall` with the id brings a block back verbatim.",
             read_only=True),
)

STRUCTURED_TOOLS = (
    ToolSpec("create_checklist", "create_checklist", "Create a checklist",
             "Start a checklist for a multi-step task that must survive restarts and long sessions "
             "(items may nest). Returns the checklist with its id (`cl-<n>`), version and item ids "
             "(`it-<n>`)."),
    ToolSpec("update_checklist", "update_checklist", "Update a checklist",
             "Change a checklist's title, description, tags, due date or status (open, done, archived). "
             "Pass the `version` you read to avoid overwriting someone else's change. Returns the checklist.",
             destructive=True, idempotent=True),
    ToolSpec("add_checklist_item", "add_checklist_item", "Add a checklist item",
             "Add an item to a checklist, at the top level or under `parentId`. Returns the new item and "
             "the checklist with its new version.",),
    ToolSpec("update_checklist_item", "update_checklist_item", "Update a checklist item",
             "Tick off or change an item: status (pending, in_progress, done, skipped), title, tags, due "
             "date, position or parent. Returns the item and the checklist.",
             destructive=True, idempotent=True),
    ToolSpec("create_todo", "create_todo", "Create a todo",
             "Record a follow-up that must not be forgotten across sessions, with a priority (0-5) and an "
             "optional due date. Returns the todo with its id (`td-<n>`)."),
    ToolSpec("update_todo", "update_todo", "Update a todo",
             "Change a todo: status (pending, in_progress, done, cancelled, archived), priority, title, "
             "description, tags or due date. Returns the todo.",
             destructive=True, idempotent=True),
    ToolSpec("create_session_note", "create_session_note", "Write a session note",
             "Write down a finding, a decision or some context worth keeping for later in this "
             "project (importance 0-1). Notes are found by words and by meaning. Returns the note with its "
             "id (`nt-<n>`)."),
    ToolSpec("update_session_note", "update_session_note", "Update a session note",
             "Change a session note's content, title, importance, tags or status (active, archived). "
             "Returns the note.",
             destructive=True, idempotent=True),
    ToolSpec("query_records", "query_records", "Search checklists, todos and notes",
             "Find checklists, todos and session notes by words, kind, status or tags; without a query, "
             "the newest first. Returns ranked hits, each with its record.",
             read_only=True),
    ToolSpec("retrieve_memory", "retrieve_memory", "Brief me from structured memory",
             "Get the checklists, todos and notes relevant to a question as compact Markdown within a "
             "token budget: what is open, what is done, what was noted. Use it when resuming a task.",
             read_only=True),
    ToolSpec("get_record", "get_record", "Get a record",
             "Read one checklist, todo or session note by id (`cl-`, `td-`, `nt-`), with its version. "
             "Returns the record.",
             read_only=True),
    ToolSpec("delete_record", "delete_record", "Delete a record",
             "Delete a checklist, todo or session note (soft by default: hidden at once, purged later; "
             "`hard: true` removes it now), or a checklist item with its sub-items. Returns what was "
             "deleted.",
             destructive=True, idempotent=True),
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

    if envelope.get("ok") is not True:
        message = str(envelope.get("error", "internal: the guest returned no error message"))
        return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)
    data = envelope.get("data")
    structured = data if isinstance(data, dict) else {"result": data}
    text = data.get("text") if isinstance(data, dict) else None
    if not isinstance(text, str) or not text:
        text = json.dumps(data, ensure_ascii=False)
    failed = isinstance(data, dict) and data.get("isError") is True
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=structured,
                          is_error=failed)
