"""Both protocol eras on one stdio session, each request served by the SDK in its own era (issue 44).

The SDK's ``Server.run`` lets the client's first request decide the era of the whole connection and
refuses the other era's requests from then on. A client that opens with the 2026-07-28
``server/discover`` and falls back to ``initialize`` when the answer is slow (Claude Code does after
about 3 s) then gets a legacy session whose every call is refused (``params._meta is missing the
required envelope key(s)``). So the session is served per message instead, from the SDK's public
parts (:func:`serve_both_eras`):

* a request whose ``_meta`` carries ``io.modelcontextprotocol/protocolVersion`` (other than
  ``initialize``, which does not exist in the modern era) is a modern request: it carries its own
  protocol version, client info and capabilities, and is checked by the SDK's own validation ladder
  (``classify_inbound_request``) and served on a connection born from its envelope (``serve_one``),
  as the SDK's modern stream loop does;
* everything else belongs to the one legacy session of the connection, the SDK's ``ServerRunner``
  with its handshake (``initialize`` inline, so a request pipelined behind it sees the session
  initialized; requests before it are refused by the SDK as usual).

So a client may open in either era, switch after a timeout, or mix them, in any order and at any
speed, and every answer comes from the SDK. The modern era forbids server-initiated requests; this
server sends none (progress is a notification on the request's own channel).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp.server.connection import Connection
from mcp.server.lowlevel import Server
from mcp.server.models import InitializationOptions
from mcp.server.runner import ServerRunner, aclose_shielded, serve_one
from mcp.shared.dispatcher import DispatchContext
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import InboundLadderRejection, classify_inbound_request
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from mcp.shared.transport_context import TransportContext

MODERN_KEY = "io.modelcontextprotocol/protocolVersion"  # the envelope's version key: spec-reserved


def is_modern(method: str, params: Mapping[str, Any] | None) -> bool:
    """Whether a request is of the 2026-07-28 era: its ``_meta`` names a protocol version."""
    meta = params.get("_meta") if params else None
    return method != "initialize" and isinstance(meta, Mapping) and MODERN_KEY in meta


async def serve_both_eras(server: Server[Any], read_stream: Any, write_stream: Any,
                          init_options: InitializationOptions) -> None:
    """Serve one client over a stream pair until it closes: each request in the era it is sent in."""
    async with server.lifespan(server) as state:
        dispatcher: JSONRPCDispatcher[TransportContext] = JSONRPCDispatcher(
            read_stream, write_stream, inline_methods=frozenset({"initialize"}))
        legacy = ServerRunner(server, Connection.for_loop(dispatcher), state, init_options=init_options)

        async def on_request(dctx: DispatchContext[TransportContext], method: str,
                             params: Mapping[str, Any] | None) -> dict[str, Any]:
            if not is_modern(method, params):
                return await legacy.on_request(dctx, method, params)
            route = classify_inbound_request({"method": method, "params": params})
            if isinstance(route, InboundLadderRejection):
                raise MCPError(code=route.code, message=route.message, data=route.data)
            connection = Connection.from_envelope(route.protocol_version, route.client_info,
                                                  route.client_capabilities)
            return await serve_one(server, dctx, method, params, connection=connection, lifespan_state=state)

        try:
            await dispatcher.run(on_request, legacy.on_notify)
        finally:
            await aclose_shielded(legacy.connection)
            await write_stream.aclose()

