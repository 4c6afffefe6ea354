"""The replies ``rs-learn-host mcp`` gives before the SDK is loaded, taken from the SDK itself (issue 33).

Importing the MCP SDK takes 1.3-2 s here (10-20 s on a loaded machine), and clients give a server
little time: Codex starts its turn about a second after spawning it. So ``initialize`` and
``tools/list`` are answered from replies recorded at build time (:mod:`host_harness.mcp.early`), and
this module records them: it runs the real :class:`~host_harness.mcp.server.RsLearnServer` on the
SDK's own stdio transport for every protocol version the SDK negotiates in the handshake era, and
keeps the ``result`` of each answer. Two tool sets: structured memory on with the default
``maxChecklistDepth`` (``structured``), and off (``memory``); any other configuration is answered by
the SDK once it is loaded.

``scripts/gen_mcp_replies.py`` writes :data:`OUT`; ``tests/test_mcp_early.py`` checks it against
:func:`sdk_replies` (a new SDK, tool or schema without regenerating fails there).
"""

from __future__ import annotations

import json
from dataclasses import replace
from importlib.metadata import version
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("replies.json")
CLIENT = {"name": "rs-learn-prebuilt", "version": "0"}


def sdk_replies() -> dict[str, Any]:
    """What the SDK answers, per protocol version and tool set (imports the SDK and the tool schemas)."""
    import anyio
    from mcp_types import version as protocols

    from host_harness.config import MemoryConfig
    from host_harness.mcp.server import RsLearnServer
    from host_harness.mcp.worker import GuestWorker
    from host_harness.store import Project

    def no_guest() -> Any:
        raise AssertionError("initialize and tools/list never reach the guest")

    versions = list(protocols.HANDSHAKE_PROTOCOL_VERSIONS)
    initialize: dict[str, Any] = {}
    lists: list[Any] = []
    tools: dict[str, dict[str, int]] = {}
    for name, config in (("structured", MemoryConfig()), ("memory", replace(MemoryConfig(), enabled=False))):
        server = RsLearnServer(GuestWorker(no_guest, lambda: None), Project(Path.cwd()), config)
        tools[name] = {}
        for protocol in versions:
            init, listed = anyio.run(_exchange, server, protocol)
            if initialize.setdefault(protocol, init) != init:
                raise AssertionError(f"initialize at {protocol} depends on the configuration")
            if listed not in lists:
                lists.append(listed)
            tools[name][protocol] = lists.index(listed)
    return {"sdk": version("mcp"), "versions": versions, "latest": protocols.LATEST_HANDSHAKE_VERSION,
            "modern": list(protocols.MODERN_PROTOCOL_VERSIONS), "initialize": initialize, "tools": tools,
            "lists": lists}


async def _exchange(server: Any, protocol: str) -> tuple[Any, Any]:
    """``initialize`` at ``protocol``, ``notifications/initialized``, ``tools/list``: the two results."""
    import anyio
    from mcp.server.stdio import stdio_server

    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": protocol, "capabilities": {}, "clientInfo": CLIENT}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    answers: dict[int, Any] = {}
    done = anyio.Event()

    class Lines:
        """The requests, then end of input once both answers are in."""

        def __aiter__(self) -> Any:
            return self._lines()

        async def _lines(self) -> Any:
            for request in requests:
                yield json.dumps(request) + "\n"
            await done.wait()

    class Output:
        """Collect the answers."""

        async def write(self, text: str) -> None:
            message = json.loads(text)
            if message.get("id") in (1, 2):
                if "result" not in message:
                    raise AssertionError(f"the SDK refused a prebuilt request: {message}")
                answers[message["id"]] = message["result"]
            if len(answers) == 2:
                done.set()

        async def flush(self) -> None:
            return None

    async with stdio_server(stdin=Lines(), stdout=Output()) as (read, write):  # type: ignore[arg-type]
        await server.run(read, write, server.create_initialization_options())
    return answers[1], answers[2]


def file_text(replies: dict[str, Any]) -> str:
    """The text of :data:`OUT` for ``replies`` (one line per top-level entry)."""
    entries = ",\n".join(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
                          for key, value in replies.items())
    return f"{{{entries}}}\n"
