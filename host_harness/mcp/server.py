"""``RsLearnServer``: rs-learn as an MCP server (issue #14) on the official SDK's ``MCPServer``.

Tools are :class:`~host_harness.mcp.tools.ToolSpec` entries with schemas from
:mod:`host_harness.mcp.schemas`; each call is one ``dispatch`` on the warm guest of a
:class:`~host_harness.mcp.worker.GuestWorker` (one transaction, the same locks as the spool and the
hook). Resources:

* ``rs-learn://archive/<id>`` -- an archived block of the project store, verbatim; the newest
  :data:`LISTED_BLOCKS` are listed (``archive_list``), any block is readable through the template;
* ``rs-learn://skills/<name>`` -- a managed skill's ``SKILL.md`` (``.gm/managed-skills/``).

The tools are registered as hand-built SDK ``Tool`` objects: their input schemas are ours (the
guest's field lists, not a Python signature), and their arguments reach :meth:`RsLearnServer.call`
as one dict that :func:`~host_harness.mcp.tools.prepare` checks against the advertised properties.
The guest does the rest of the validation; a guest error is a tool result with ``isError: true``.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import CallToolResult, Resource, TextContent
from pydantic import ConfigDict

from host_harness import __version__
from host_harness.mcp.schemas import Schema, memory_schemas, structured_schemas
from host_harness.mcp.tools import MEMORY_TOOLS, STRUCTURED_TOOLS, ToolSpec, prepare, tool_result
from host_harness.mcp.worker import GuestWorker
from host_harness.store import skills
from host_harness.store.config import MemoryConfig
from host_harness.store.names import valid_name
from host_harness.store.router import Project

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

log = logging.getLogger("rs_learn.mcp")


class Arguments(ArgModelBase):
    """A tool's arguments as one dict: the schema is ours, the guest validates the values."""

    model_config = ConfigDict(extra="allow")

    def model_dump_one_level(self) -> dict[str, Any]:
        """Hand every argument to the tool function as ``arguments``."""
        return {"arguments": dict(self.model_extra or {})}


class RsLearnServer(MCPServer[Any]):
    """The MCP server of one project over one warm guest."""

    def __init__(
        self,
        worker: GuestWorker,
        project: Project,
        config: MemoryConfig,
        log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "WARNING",
    ) -> None:
        self.worker = worker
        self.project = project
        schemas = memory_schemas()
        specs = list(MEMORY_TOOLS)
        if config.enabled:  # a disabled structured memory refuses every verb: advertise none of them
            schemas.update(structured_schemas(config.maxChecklistDepth))
            specs += STRUCTURED_TOOLS
        self.schemas: dict[str, Schema] = {spec.name: schemas[spec.name] for spec in specs}
        super().__init__(
            name="rs-learn",
            title="rs-learn: project memory",
            version=__version__,
            instructions=INSTRUCTIONS,
            tools=[self._tool(spec) for spec in specs],
            log_level=log_level,
        )
        self.resource(f"{ARCHIVE_URI}{{id}}", name="archived-block", mime_type="text/plain",
                      description="An archived block of the project store, verbatim (r7).")(self.read_block)
        self.resource(f"{SKILLS_URI}{{name}}", name="managed-skill", mime_type="text/markdown",
                      description="A managed skill's SKILL.md, written by `learn`.")(self.read_skill)

    def _tool(self, spec: ToolSpec) -> Tool:
        async def run(arguments: dict[str, Any]) -> CallToolResult:
            return await self.call(spec, arguments)

        return Tool(
            fn=run, name=spec.name, title=spec.title, description=spec.description,
            parameters=self.schemas[spec.name], fn_metadata=FuncMetadata(arg_model=Arguments),
            is_async=True, context_kwarg=None, annotations=spec.annotations(),
        )

    async def call(self, spec: ToolSpec, arguments: dict[str, Any]) -> CallToolResult:
        """Serve one tool call: check the arguments, dispatch the verb, shape the result."""
        started = time.monotonic()
        body = prepare(spec, self.schemas[spec.name], arguments)
        if isinstance(body, str):
            result = CallToolResult(content=[TextContent(type="text", text=body)], is_error=True)
        else:
            result = tool_result(await self.worker.dispatch(spec.verb, body))
        first = result.content[0]
        outcome = f"error: {first.text[:200]}" if result.is_error and isinstance(first, TextContent) else "ok"
        log.info("tool %s: %s (%.0f ms)", spec.name, outcome, (time.monotonic() - started) * 1000)
        return result

    # resources

    async def list_resources(self) -> list[Resource]:
        """The newest archived blocks of the project store, then the managed skills."""
        listed = await super().list_resources()
        envelope = await self.worker.dispatch("archive_list", {"limit": LISTED_BLOCKS})
        if envelope.get("ok"):
            listed += [
                Resource(uri=f"{ARCHIVE_URI}{block['id']}", name=block["id"], title=block["label"],
                         description=block["excerpt"], mime_type="text/plain")
                for block in envelope["data"]["blocks"]
            ]
        else:
            log.error("cannot list the archive: %s", envelope.get("error"))
        listed += [
            Resource(uri=f"{SKILLS_URI}{name}", name=name, title=f"Managed skill {name}",
                     mime_type="text/markdown")
            for name in skills.managed_skills(self.project.root)
        ]
        return listed

    async def read_block(self, id: str) -> str:  # `id`: the URI template's variable
        """``rs-learn://archive/<id>``: the block, byte for byte."""
        envelope = await self.worker.dispatch("archive_recall", {"id": id})
        if not envelope.get("ok"):
            error = str(envelope.get("error"))
            missing = error.startswith(("not_found:", "validation:"))
            raise (ResourceNotFoundError if missing else ResourceError)(error)
        return str(envelope["data"]["content"])

    async def read_skill(self, name: str) -> str:
        """``rs-learn://skills/<name>``: a managed skill's ``SKILL.md``."""
        path = self.project.gm / "managed-skills" / name / "SKILL.md"
        if not valid_name(name) or path.is_symlink() or not path.is_file():
            raise ResourceNotFoundError(f"not_found: no managed skill {name!r}")
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ResourceError(f"internal: cannot read the managed skill {name!r}: {error}") from error

