"""``RsLearnServer``: rs-learn as an MCP server (issues #14, 25, 26) on the SDK's low-level ``Server``.

Tools are :class:`~host_harness.mcp.tools.ToolSpec` entries with input schemas from
:mod:`host_harness.mcp.schemas` and output schemas from :mod:`host_harness.mcp.outputs`; each call is
one ``dispatch`` on the warm guest of a :class:`~host_harness.mcp.worker.GuestWorker` (one
transaction, the same locks as the spool and the hook). Resources:

* ``rs-learn://archive/<id>`` -- an archived block of the project store, verbatim; the newest
  :data:`LISTED_BLOCKS` are listed (``archive_list``), any block is readable through the template;
* ``rs-learn://skills/<name>`` -- a managed skill's ``SKILL.md`` (``.gm/managed-skills/``).

The low-level server takes the handlers and the SDK's own ``Tool`` objects, so the schemas are ours
(the guest's field lists, not a Python signature) through the public API alone, and the server
advertises exactly what it serves: tools and resources, no prompts (``MCPServer`` always advertises
an empty prompts capability). Arguments reach :meth:`RsLearnServer.call` as one dict that
:func:`~host_harness.mcp.tools.prepare` checks against the advertised properties; the guest does the
rest of the validation, and a guest error is a tool result with ``isError: true``.

Start-up (issue 26): given a :class:`~host_harness.warmup.Compiling`, the server answers
``initialize``, ``tools/list`` and the listings at once -- nothing above needs the component -- while
the component loads on its own thread (a first start after an install or upgrade compiles it, tens of
seconds). A tool call or a resource read waits for it, sending MCP progress notifications every second
when the client asked for them (a ``progressToken``).
"""

from __future__ import annotations

import logging
import signal
import time
from typing import Any, cast

import anyio
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    PaginatedRequestParams,
    ReadResourceRequestParams,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    TextContent,
    TextResourceContents,
    Tool,
)

from host_harness import __version__
from host_harness.config import MemoryConfig
from host_harness.envelope import Envelope
from host_harness.fs import skills, valid_name
from host_harness.mcp.eras import serve_both_eras
from host_harness.mcp.outputs import OUTPUTS
from host_harness.mcp.schemas import memory_schemas, structured_schemas
from host_harness.mcp.stdin import StdinLines
from host_harness.mcp.tools import MEMORY_TOOLS, STRUCTURED_TOOLS, Schema, ToolSpec, prepare, tool_result
from host_harness.mcp.worker import GuestWorker
from host_harness.store import Project
from host_harness.warmup import Compiling

LISTED_BLOCKS = 100
ARCHIVE_URI = "rs-learn://archive/"
SKILLS_URI = "rs-learn://skills/"
INSTRUCTIONS = (
    "rs-learn is this project's persistent memory. Call `recall` before answering questions about the "
    "project's conventions or past decisions; `memorize` durable facts and `learn` reusable lessons. "
    "When a fact changes, `memorize` the new one with `supersedes` (memorize names `similar` candidates); "
    "`forget` wrong ones; `list_memories` to review. "
    "Before summarising a big block of context, `archive` it and cite its id (r7); `recall` with the id "
    "brings it back, `recall_search` finds it by keywords. For long tasks keep checklists, todos and "
    "session notes (create_checklist, create_todo, create_session_note; retrieve_memory to resume)."
)
TEMPLATES = [
    ResourceTemplate(uri_template=f"{ARCHIVE_URI}{{id}}", name="archived-block", mime_type="text/plain",
                     description="An archived block of the project store, verbatim (r7)."),
    ResourceTemplate(uri_template=f"{SKILLS_URI}{{name}}", name="managed-skill", mime_type="text/markdown",
                     description="A managed skill's SKILL.md, written by `learn`."),
]

log = logging.getLogger("rs_learn.mcp")


class RsLearnServer(Server[Any]):
    """The MCP server of one project over one warm guest (loading in the background with ``compiling``)."""

    def __init__(self, worker: GuestWorker, project: Project, config: MemoryConfig,
                 compiling: Compiling | None = None) -> None:
        self.worker = worker
        self.project = project
        self.compiling = compiling
        schemas = memory_schemas()
        specs = list(MEMORY_TOOLS)
        if config.enabled:  # a disabled structured memory refuses every verb: advertise none of them
            schemas.update(structured_schemas(config.maxChecklistDepth))
            specs += STRUCTURED_TOOLS
        self.specs = {spec.name: spec for spec in specs}
        self.schemas: dict[str, Schema] = {spec.name: schemas[spec.name] for spec in specs}
        self.tools = [
            Tool(name=spec.name, title=spec.title, description=spec.description,
                 input_schema=self.schemas[spec.name], output_schema=OUTPUTS[spec.name],
                 annotations=spec.annotations())
            for spec in specs
        ]
        super().__init__(
            "rs-learn",
            version=__version__,
            title="rs-learn: project memory",
            instructions=INSTRUCTIONS,
            get_tool_input_schema=self.schemas.get,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_templates,
            on_read_resource=self._read_resource,
        )

    def run_stdio(self) -> None:
        """Serve one client over stdin and stdout until it closes stdin, or SIGTERM or SIGINT arrives.

        Every message is answered by the SDK, each request in the protocol era it is sent in
        (:mod:`host_harness.mcp.eras`). A signal cancels the serving from inside the event loop (a
        ``KeyboardInterrupt`` raised by a signal handler can land inside the loop's own bookkeeping)
        without waiting for the client's next line (:class:`~host_harness.mcp.stdin.StdinLines`); a
        tool call the guest is running still finishes on the guest's thread before the stores close.
        """
        anyio.run(self._serve_stdio)

    async def _serve_stdio(self) -> None:
        # the SDK's own reader would hold a signal until the client's next line
        lines = StdinLines()
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(_cancel_on_signals, tasks.cancel_scope)
                async with stdio_server(stdin=cast("anyio.AsyncFile[str]", lines)) as (read, write):
                    await serve_both_eras(self, read, write, self.create_initialization_options())
                tasks.cancel_scope.cancel()  # stdin closed: stop waiting for signals
        finally:
            lines.close()

    # tools

    async def _list_tools(self, ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
                          ) -> ListToolsResult:
        return ListToolsResult(tools=self.tools)

    async def _call_tool(self, ctx: ServerRequestContext[Any], params: CallToolRequestParams
                         ) -> CallToolResult:
        spec = self.specs.get(params.name)
        if spec is None:
            return error_result(f"Unknown tool: {params.name}")
        return await self.call(spec, params.arguments or {}, ctx)

    async def call(self, spec: ToolSpec, arguments: dict[str, Any],
                   ctx: ServerRequestContext[Any] | None = None) -> CallToolResult:
        """Serve one tool call: check the arguments, dispatch the verb, shape the result."""
        started = time.monotonic()
        body = prepare(spec, self.schemas[spec.name], arguments)
        if isinstance(body, str):
            result = error_result(body)
        else:
            if spec.verb == "memorize":  # the agent typed it (guest/memory/origin.py): not in the schema
                body = {**body, "origin": {"kind": "typed", "by": "agent"}}
            result = tool_result(await self.dispatch(spec.verb, body, ctx))
        first = result.content[0]
        outcome = f"error: {first.text[:200]}" if result.is_error and isinstance(first, TextContent) else "ok"
        log.info("tool %s: %s (%.0f ms)", spec.name, outcome, (time.monotonic() - started) * 1000)
        return result

    async def dispatch(self, verb: str, body: dict[str, Any],
                       ctx: ServerRequestContext[Any] | None = None) -> dict[str, Any]:
        """One verb on the guest, once the component is loaded (reporting progress to ``ctx`` meanwhile)."""
        if self.compiling is not None and not self.compiling.done:
            async def report(elapsed_s: float, expected_s: float | None) -> None:
                about = f" of about {expected_s:.0f} s" if expected_s else ""
                message = (f"rs-learn is compiling its component (once after an install or upgrade; "
                           f"`rs-learn-host warmup` does it ahead): {elapsed_s:.0f} s{about}")
                if ctx is not None:
                    await ctx.session.report_progress(round(elapsed_s, 1), expected_s, message)

            log.info("%s waits for the component to load", verb)
            await self.compiling.wait(report)
        return await self.worker.dispatch(verb, body)

    # resources

    async def _list_resources(self, ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
                              ) -> ListResourcesResult:
        """The newest archived blocks of the project store, then the managed skills.

        While the component loads, only the skills: a listing never waits for a compile (the blocks
        stay readable through the template, and are listed once the component is there).
        """
        listed: list[Resource] = []
        if self.compiling is not None and not self.compiling.done:
            log.info("the archive is listed once the component is loaded")
        elif (envelope := Envelope.of(await self.dispatch("archive_list", {"limit": LISTED_BLOCKS}, ctx))).ok:
            listed += [
                Resource(uri=f"{ARCHIVE_URI}{block['id']}", name=block["id"], title=block["label"],
                         description=block["excerpt"], mime_type="text/plain")
                for block in envelope.data["blocks"]
            ]
        else:
            log.error("cannot list the archive: %s", envelope.error)
        listed += [
            Resource(uri=f"{SKILLS_URI}{name}", name=name, title=f"Managed skill {name}",
                     mime_type="text/markdown")
            for name in skills.managed_skills(self.project.root)
        ]
        return ListResourcesResult(resources=listed)

    async def _list_templates(self, ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
                              ) -> ListResourceTemplatesResult:
        return ListResourceTemplatesResult(resource_templates=TEMPLATES)

    async def _read_resource(self, ctx: ServerRequestContext[Any], params: ReadResourceRequestParams
                             ) -> ReadResourceResult:
        uri = str(params.uri)
        if uri.startswith(ARCHIVE_URI):
            text, mime = await self.read_block(uri.removeprefix(ARCHIVE_URI), ctx), "text/plain"
        elif uri.startswith(SKILLS_URI):
            text, mime = self.read_skill(uri.removeprefix(SKILLS_URI)), "text/markdown"
        else:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown resource: {uri}", data={"uri": uri})
        return ReadResourceResult(contents=[TextResourceContents(uri=uri, text=text, mime_type=mime)])

    async def read_block(self, block_id: str, ctx: ServerRequestContext[Any] | None = None) -> str:
        """``rs-learn://archive/<id>``: the block, byte for byte."""
        envelope = Envelope.of(await self.dispatch("archive_recall", {"id": block_id}, ctx))
        if not envelope.ok:
            error = envelope.error
            missing = error.startswith(("not_found:", "validation:"))
            raise MCPError(code=INVALID_PARAMS if missing else INTERNAL_ERROR, message=error,
                           data={"uri": f"{ARCHIVE_URI}{block_id}"})
        return str(envelope.data["content"])

    def read_skill(self, name: str) -> str:
        """``rs-learn://skills/<name>``: a managed skill's ``SKILL.md``."""
        path = self.project.gm / "managed-skills" / name / "SKILL.md"
        uri = {"uri": f"{SKILLS_URI}{name}"}
        if not valid_name(name) or path.is_symlink() or not path.is_file():
            raise MCPError(code=INVALID_PARAMS, message=f"not_found: no managed skill {name!r}", data=uri)
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise MCPError(code=INTERNAL_ERROR, message=f"internal: cannot read the managed skill {name!r}: "
                                                        f"{error}", data=uri) from error


async def _cancel_on_signals(scope: anyio.CancelScope) -> None:
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as received:
        async for signum in received:
            log.info("%s: closing", signal.Signals(signum).name)
            scope.cancel()
            return


def error_result(text: str) -> CallToolResult:
    """A tool result that reports ``text`` as an error."""
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
