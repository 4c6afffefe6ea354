"""The MCP server's tools in process, on both targets: schemas against the guest, results, bad input.

The server is the real ``RsLearnServer`` over a real guest (native or the built component) and real
SQLite, reached through the SDK's in-process ``Client``; ``tests/process/test_mcp_server.py`` runs it as a
subprocess over stdio.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client
from structured_helpers import db_digest, write_config

from guest.structured import shapes, tree
from guest.structured.fields import SCOPE_KEYS
from host_harness.mcp import server as server_module
from host_harness.mcp.outputs import OUTPUTS
from host_harness.mcp.schemas import property_names
from host_harness.mcp.server import RsLearnServer
from host_harness.mcp.tools import MEMORY_TOOLS, STRUCTURED_TOOLS, ToolSpec, prepare
from host_harness.mcp.worker import GuestWorker
from host_harness.services import HostServices, ManualClock
from host_harness.targets.base import BaseGuest

ALL_TOOLS = {spec.name for spec in (*MEMORY_TOOLS, *STRUCTURED_TOOLS)}
SEED_TOOLS = {"recall", "memorize", "learn", "archive", "recall_search", "create_checklist",
              "add_checklist_item", "update_checklist_item", "create_todo", "update_todo",
              "create_session_note", "query_records", "retrieve_memory", "get_record", "delete_record"}
READ_ONLY = {"recall", "recall_search", "query_records", "retrieve_memory", "get_record", "list_memories",
             "get_memory"}
# Values the guest accepts for string properties with a pattern (the first that matches is used).
PATTERNED = ("default", "2026-12-01", "cl-1", "td-1", "nt-1", "it-1", "release", "mem-0123456789abcdef-3",
             "m1")
SAMPLE_IDS = {("recall", "id"): "r1", ("get_record", "id"): "td-1", ("delete_record", "id"): "td-1"}

Scenario = Callable[[Client, "Served"], Awaitable[None]]


class Served:
    """A server on a worker of the current target, and a way to call the guest directly."""

    def __init__(self, server: RsLearnServer, worker: GuestWorker) -> None:
        self.server = server
        self.worker = worker

    def run(self, scenario: Scenario) -> None:
        async def main() -> None:
            async with Client(self.server) as client:
                await scenario(client, self)

        asyncio.run(main())


@pytest.fixture
def serve(target: str, project: Path, clock: ManualClock,
          request: pytest.FixtureRequest) -> Iterator[Callable[[], Served]]:
    """``serve()``: an ``RsLearnServer`` over a fresh guest of the target (configure the project first)."""
    runtime = request.getfixturevalue("wasm_runtime") if target == "wasm" else None
    workers: list[GuestWorker] = []

    def open_guest() -> BaseGuest:  # on the worker thread, like the CLI's session
        services = HostServices(project, clock=clock)
        if runtime is None:
            from host_harness.targets.native import NativeGuest

            return NativeGuest(services)
        from host_harness.targets.component import WasmGuest

        return WasmGuest(runtime, services)

    def make() -> Served:
        worker = GuestWorker.of(open_guest)
        workers.append(worker)
        services = worker.start().services
        return Served(RsLearnServer(worker, services.project, services.router.memory_config), worker)

    yield make
    for worker in workers:
        worker.close()


def sample(schema: dict[str, Any], tool: str, name: str) -> Any:
    """A value of ``schema`` that the guest's validation accepts."""
    if (tool, name) in SAMPLE_IDS:
        return SAMPLE_IDS[tool, name]
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    kind = kinds[0]
    if "enum" in schema:
        return schema["enum"][0]
    if kind == "string" and "pattern" in schema:
        return next(v for v in PATTERNED if re.search(schema["pattern"], v))
    if kind == "string":
        return {"id": "td-1"}.get(name, f"A sample {name} for the release checklist")
    if kind in ("integer", "number"):
        return schema["minimum"]
    if kind == "boolean":
        return False
    if kind == "array":
        return [sample(schema["items"], tool, name)]
    props = schema["properties"]
    return {key: sample(props[key], tool, key) for key in schema.get("required", [])}


def required_args(schema: dict[str, Any], tool: str) -> dict[str, Any]:
    return {key: sample(schema["properties"][key], tool, key) for key in schema.get("required", [])}


def text(result: Any) -> str:
    return str(result.content[0].text)


def test_tools_cover_the_seeds_with_valid_schemas_and_annotations(serve):
    async def scenario(client: Client, served: Served) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == ALL_TOOLS and SEED_TOOLS <= set(tools)
        for name, tool in tools.items():
            schema = tool.input_schema
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["type"] == "object" and schema["additionalProperties"] is False, name
            assert not property_names(schema) & SCOPE_KEYS, f"{name} advertises a scope field"
            assert len(tool.description or "") > 80, f"{name} needs a description an LLM can act on"
            notes = tool.annotations
            assert notes is not None and notes.open_world_hint is False and notes.title
            assert notes.read_only_hint is (name in READ_ONLY), name
            if name.startswith(("update_", "delete_")):
                assert notes.destructive_hint is True, name
            if name.startswith(("create_", "add_")) or name in ("memorize", "archive"):
                assert notes.destructive_hint is False, name
            jsonschema.validate(required_args(schema, name), schema)

    serve().run(scenario)


def test_every_tool_declares_the_schema_of_its_structured_results(serve):
    """The SDK client validates every successful result against it: every test here checks them."""

    async def scenario(client: Client, served: Served) -> None:
        assert "prompts" not in client.server_capabilities.model_dump(exclude_none=True)
        for tool in (await client.list_tools()).tools:
            schema = tool.output_schema
            assert schema is not None and schema["type"] == "object", tool.name
            jsonschema.Draft202012Validator.check_schema(schema)
            assert not jsonschema.Draft202012Validator(schema).is_valid({}), f"{tool.name}: not vacuous"
        stored = await client.call_tool("memorize", {"text": "Output schemas are checked."})
        assert stored.is_error is False
        broken = {**stored.structured_content, "deduped": "no"}
        assert not jsonschema.Draft202012Validator(OUTPUTS["memorize"]).is_valid(broken)

    serve().run(scenario)


def test_tools_are_registered_through_the_sdks_public_api_only():
    package = Path(server_module.__file__).parent
    sources = "\n".join(p.read_text(encoding="utf-8") for p in package.glob("*.py"))
    for private in ("ArgModelBase", "FuncMetadata", "func_metadata", "_tool_manager", "_lowlevel_server",
                    "mcpserver"):
        assert private not in sources, private


def test_every_advertised_argument_reaches_the_guest(serve):
    async def scenario(client: Client, served: Served) -> None:
        for tool in (await client.list_tools()).tools:
            schema = tool.input_schema
            base = required_args(schema, tool.name)
            for name, prop in schema["properties"].items():
                args = {**base, name: sample(prop, tool.name, name)}
                jsonschema.validate(args, schema)
                result = await client.call_tool(tool.name, args)
                if result.is_error:
                    assert "unknown" not in text(result), (tool.name, name, text(result))

    serve().run(scenario)


def allowed_by_guest(served: Served, verb: str, body: dict[str, Any]) -> set[str]:
    """The field list of the guest's own ``unknown field`` refusal for ``body``."""
    envelope = asyncio.run(served.worker.dispatch(verb, body))
    assert envelope["ok"] is False, envelope
    match = re.search(r"unknown field '[^']*'; allowed: (.*)$", envelope["error"])
    assert match, envelope["error"]
    return set(match.group(1).split(", "))


def test_structured_schemas_are_exactly_the_guest_field_lists(serve):
    served = serve()
    schemas = served.server.schemas
    for spec in STRUCTURED_TOOLS:
        advertised = set(schemas[spec.name]["properties"])
        assert advertised == allowed_by_guest(served, spec.verb, {"zzProbe": 1}), spec.name
    items = schemas["create_checklist"]["properties"]["items"]["items"]
    probe = {"title": "t", "items": [{"title": "a", "zzProbe": 1}]}
    guest_items = allowed_by_guest(served, "create_checklist", probe)
    assert set(items["properties"]) == guest_items == {*tree.ITEM_FIELDS, "items"}
    assert set(schemas["create_todo"]["properties"]) == set(shapes.FIELDS["todo"])
    assert set(schemas["query_records"]["properties"]) == set(shapes.QUERY_FIELDS)
    envelope = asyncio.run(served.worker.dispatch("learn", {"memory": "m", "zzProbe": 1}))
    takes = re.search(r"learn takes (.*)\)", envelope["error"])
    assert takes and set(takes.group(1).split(", ")) == set(schemas["learn"]["properties"])


def test_limit_zero_means_the_default_in_every_schema_and_every_verb(serve):
    """Issue 25, item 19: the schemas said minimum 1 where the guest took 0 (recall) or refused it."""
    served = serve()
    for tool in ("recall", "recall_search", "query_records", "retrieve_memory"):
        limit = served.server.schemas[tool]["properties"]["limit"]
        assert limit["minimum"] == 0 and "0 or omitted: the" in limit["description"], tool
    for n in range(12):
        assert asyncio.run(served.worker.dispatch("create_todo", {"title": f"todo {n}"}))["ok"]
    for verb, body in (("recall", {"query": "todo"}), ("recall_search", {"query": "todo"}),
                       ("query_records", {}), ("retrieve_memory", {})):
        zero = asyncio.run(served.worker.dispatch(verb, {**body, "limit": 0}))
        omitted = asyncio.run(served.worker.dispatch(verb, body))
        assert zero["ok"] is True and zero == omitted, (verb, zero)
    assert len(asyncio.run(served.worker.dispatch("query_records", {"limit": 0}))["data"]["hits"]) == 10


def test_checklist_items_unroll_to_the_configured_depth(project: Path, serve):
    write_config(project, maxChecklistDepth=2)
    items = serve().server.schemas["create_checklist"]["properties"]["items"]
    assert "items" in items["items"]["properties"]
    assert "items" not in items["items"]["properties"]["items"]["items"]["properties"]


def test_disabled_structured_memory_advertises_only_the_memory_tools(project: Path, serve):
    write_config(project, enabled=False)
    assert set(serve().server.schemas) == {spec.name for spec in MEMORY_TOOLS}


def test_correcting_memories_through_the_tools(serve):
    npm, pnpm = "Use npm to install packages.", "Use pnpm, not npm, to install packages."

    async def scenario(client: Client, served: Served) -> None:
        old = (await client.call_tool("memorize", {"text": npm})).structured_content["id"]
        stored = (await client.call_tool("memorize", {"text": pnpm})).structured_content
        assert [s["id"] for s in stored["similar"]] == [old]  # the agent decides: it supersedes
        again = await client.call_tool("memorize", {"text": pnpm, "supersedes": [old]})
        assert again.structured_content["deduped"] is True
        hits = (await client.call_tool("recall", {"query": "package manager"})).structured_content["result"]
        assert [h["text"] for h in hits] == [pnpm]
        page = (await client.call_tool("list_memories", {"include": ["superseded"]})).structured_content
        assert [m.get("superseded_by") for m in page["memories"]] == [None, stored["id"]]
        gone = await client.call_tool("forget", {"ids": [stored["id"]], "reason": "we use bun now"})
        assert gone.structured_content == {"forgotten": [stored["id"]], "missing": []}
        shown = (await client.call_tool("get_memory", {"id": stored["id"]})).structured_content
        assert shown["forgotten"]["reason"] == "we use bun now"
        bad = await client.call_tool("forget", {"ids": ["r7"]})
        assert bad.is_error and text(bad).startswith("validation: field 'ids[0]' is not a memory id")

    serve().run(scenario)


def test_results_carry_text_and_structured_content(serve):
    async def scenario(client: Client, served: Served) -> None:
        stored = await client.call_tool("memorize", {"text": "The staging server runs on port 8080."})
        assert stored.is_error is False
        data = stored.structured_content
        assert data is not None and data["deduped"] is False and data["id"].startswith("mem-")
        assert json.loads(text(stored)) == data
        hits = await client.call_tool("recall", {"query": "staging port", "limit": 3})
        assert hits.structured_content is not None
        found = [h["text"] for h in hits.structured_content["result"]]
        assert found == ["The staging server runs on port 8080."]
        assert all(isinstance(h["ts"], int) for h in hits.structured_content["result"])  # when memorized
        lesson = await client.call_tool("learn", {"memory": "Run the migrations before the tests."})
        assert text(lesson) == "Lesson stored." and lesson.is_error is False
        data = lesson.structured_content
        assert data == {"id": data["id"], "namespace": "default", "text": "Lesson stored.", "isError": False,
                        "details": {"skill": None}, "content": [{"type": "text", "text": "Lesson stored."}]}
        empty = await client.call_tool("retrieve_memory", {"query": "nothing here"})
        assert empty.is_error is False and empty.structured_content["text"] == ""

    serve().run(scenario)


def test_a_shadowed_skill_is_an_error_result_after_the_lesson_is_stored(project: Path, serve):
    authored = project / ".gm" / "skills" / "deploy"
    authored.mkdir(parents=True)
    (authored / "SKILL.md").write_text("---\nname: deploy\n---\nours\n")

    async def scenario(client: Client, served: Served) -> None:
        skill = {"action": "create", "name": "Deploy", "description": "How we deploy", "body": "1. ship\n"}
        result = await client.call_tool("learn", {"memory": "Deploys follow the checklist.", "skill": skill})
        assert result.is_error is True
        assert text(result).startswith('Lesson stored. Managed skill "deploy" was not created')
        assert result.structured_content["details"] == {"skill": None, "shadowed": True}
        recalled = await client.call_tool("recall", {"query": "deploys checklist"})
        assert recalled.structured_content["result"][0]["text"] == "Deploys follow the checklist."

    serve().run(scenario)
    assert not (project / ".gm" / "managed-skills").exists()


BAD_CALLS = [
    ("create_todo", {"title": "Ship it", "priority": 9}, "validation: field 'priority' must be between 0"),
    ("create_todo", {"title": "Sneak", "projectId": "other"}, "validation: argument 'projectId' is a scope"),
    ("create_checklist", {"title": "T", "items": [{"title": "a", "scope": {}}]}, "is a scope field"),
    ("memorize", {"text": "A fact", "tags": ["x"]}, "validation: unknown argument 'tags'; memorize takes"),
    ("memorize", {"text": "   "}, "validation: field 'text' is empty"),
    ("recall", {"query": "x", "limit": 101}, "validation: field 'limit' must be between"),
    ("archive", {"label": "no content"}, "validation: missing field 'content'"),
    ("learn", {"memory": "\x01\x02"}, "validation: Lesson was empty after sanitization; nothing stored."),
    ("update_todo", {"id": "td-1", "version": 7}, "conflict: record 'td-1' is at version 1, not 7"),
    ("get_record", {"id": "td-99"}, "not_found:"),
]


@pytest.mark.parametrize(("tool", "args", "error"), BAD_CALLS, ids=[f"{t}-{i}" for i, (t, _, _) in
                                                                     enumerate(BAD_CALLS)])
def test_bad_arguments_are_error_results_and_store_nothing(project: Path, serve, tool, args, error):
    async def scenario(client: Client, served: Served) -> None:
        assert (await client.call_tool("create_todo", {"title": "The one todo"})).is_error is False
        before = db_digest(project)
        result = await client.call_tool(tool, args)
        assert result.is_error is True and result.structured_content is None
        assert text(result).startswith(error) or error in text(result), text(result)
        assert db_digest(project) == before, "a failed call changed the store"

    serve().run(scenario)


def test_nulls_and_json_encoded_values_are_accepted_like_clients_send_them(serve):
    async def scenario(client: Client, served: Served) -> None:
        todo = await client.call_tool("create_todo", {"title": "Tags as text", "tags": '["ci", "flaky"]',
                                                      "priority": "4", "due": None, "description": None})
        assert todo.is_error is False, text(todo)
        assert (todo.structured_content["tags"], todo.structured_content["priority"]) == (["ci", "flaky"], 4)
        cleared = await client.call_tool("update_todo", {"id": "td-1", "due": None, "title": "[not json"})
        assert cleared.is_error is False and cleared.structured_content["title"] == "[not json"

    serve().run(scenario)


def test_prepare_refuses_what_is_not_advertised():
    spec = ToolSpec("t", "t", "T", "A tool.")
    schema = {"properties": {"n": {"type": "integer", "description": "n"},
                             "s": {"type": "string", "description": "s"},
                             "d": {"type": ["string", "null"], "description": "d"}}}
    assert prepare(spec, schema, {"n": "3", "s": "[1]", "d": None}) == {"n": 3, "s": "[1]", "d": None}
    assert prepare(spec, schema, {"n": "true"}) == {"n": "true"}  # not an integer: the guest says so
    assert prepare(spec, schema, {"n": None}) == {}
    assert prepare(spec, schema, {"x": 1}) == "validation: unknown argument 'x'; t takes n, s, d"
    assert "scope field" in str(prepare(spec, schema, {"threadId": "t"}))


def test_recall_search_is_the_seeds_verb_and_recall_takes_an_archive_id(serve):
    assert {spec.name: spec.verb for spec in MEMORY_TOOLS}["recall_search"] == "recall_search"

    async def scenario(client: Client, served: Served) -> None:
        block = "line one\r\nline two: the deploy key rotates monthly\n"
        archived = await client.call_tool("archive", {"content": block, "label": "Deploy notes"})
        assert text(archived) == f"Archived as r1: Deploy notes ({len(block.encode())} bytes)."
        found = await client.call_tool("recall_search", {"query": "deploy rotates"})
        assert [r["id"] for r in found.structured_content["results"]] == ["r1"]
        assert text(found).startswith("Archived blocks matching the query")
        back = await client.call_tool("recall", {"id": " R1 "})
        assert back.structured_content["content"] == block
        assert text(back) == f"[r1 — Deploy notes, recalled verbatim]\n{block}"

    serve().run(scenario)
