"""The web app: Starlette routes over :class:`~host_harness.ui.backend.Backend`, behind a token.

Every request must carry the token -- ``?token=…`` (the URL ``rs-learn-host ui`` prints, and the
page's own links) or the ``X-RS-Learn-Token`` header (the page's API calls) -- compared in constant
time; any other request is answered 403, and so is one whose ``Host`` is not exactly the loopback
address and this server's port (a DNS-rebinding page; ``127.0.0.1:42567@evil.com`` is no host), and
a write (any method but GET and HEAD) whose ``Origin`` is not this page's own (a page of another site
that learnt the token; a browser always sends ``Origin`` with a POST, ``null`` included; a request
without one is not a browser's). ``GET /favicon.ico`` alone is answered without the token -- ``204``,
nothing -- so a browser's own request for it is no error. Answers are never cached and never send a
referrer (the token is in the URL).
"""

from __future__ import annotations

import hmac
import html
import json
import logging
import re
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from host_harness.ui import library, memories, prompts, sessions
from host_harness.ui.backend import Backend, UiError
from host_harness.ui.overview import overview

HEADER = "x-rs-learn-token"
log = logging.getLogger("rs_learn.ui")
HOST_RE = re.compile(r"(127\.0\.0\.1|localhost)(?::([0-9]{1,5}))?")
READS = ("GET", "HEAD")
STATIC = {"app.css": "text/css; charset=utf-8", "app.js": "text/javascript; charset=utf-8"}
SECURITY = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self';"
                               " img-src 'self' data:; connect-src 'self'; base-uri 'none';"
                               " form-action 'none'; frame-ancestors 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
}


class TokenGuard:
    """ASGI middleware: 403 unless the request carries the token and names the loopback host."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token.encode("ascii")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass an authorised HTTP request on; refuse every other one."""
        if scope["type"] != "http":  # lifespan is off; websockets are not served
            return await self.app(scope, receive, send) if scope["type"] == "lifespan" else None
        host = _host(scope)
        if host is not None and scope["path"] == "/favicon.ico" and scope["method"] in READS:
            return await Response(None, 204, headers=SECURITY)(scope, receive, send)
        if host is None or not self._token_ok(scope) or not _origin_ok(scope, host):
            refused = Response("403 Forbidden: this page needs the token rs-learn-host ui printed\n", 403,
                               headers=SECURITY, media_type="text/plain")
            return await refused(scope, receive, send)
        return await self.app(scope, receive, send)

    def _token_ok(self, scope: Scope) -> bool:
        given = dict(scope["headers"]).get(HEADER.encode("ascii"))
        if given is None:
            values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [])
            given = values[0].encode("latin-1", "replace") if len(values) == 1 else b""
        return hmac.compare_digest(given, self.token)



def _host(scope: Scope) -> str | None:
    """The request's ``Host`` when it is exactly a loopback name and this server's port (or none)."""
    host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
    match = HOST_RE.fullmatch(host)
    if match is None:
        return None
    server = scope.get("server")
    port = match.group(2)
    expected = server[1] if server else None
    return host if port is None or expected is None or int(port) == expected else None


def _origin_ok(scope: Scope, host: str) -> bool:
    """Whether a write comes from this page (reads are not checked: a foreign page cannot read them)."""
    if scope["method"] in READS:
        return True
    origin = dict(scope["headers"]).get(b"origin")
    return origin is None or origin.decode("latin-1") == f"http://{host}"


def static_text(name: str) -> str:
    """A vendored file of ``host_harness/ui/static`` (package data: it ships in the wheel)."""
    return resources.files("host_harness.ui").joinpath("static", name).read_text(encoding="utf-8")


def build(backend: Backend, token: str) -> ASGIApp:
    """The app for ``backend``'s project, guarded by ``token``."""

    async def index(_request: Request) -> Response:
        page = static_text("index.html").replace("__TOKEN__", html.escape(token, quote=True))
        return Response(page, headers=SECURITY, media_type="text/html; charset=utf-8")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found\n", 404, headers=SECURITY, media_type="text/plain")
        return Response(static_text(name), headers=SECURITY, media_type=STATIC[name])

    def api(work: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                data = await work(request)
            except UiError as error:
                return JSONResponse({"ok": False, "error": error.message}, error.status, headers=SECURITY)
            except Exception as error:  # a harness bug costs this request, not the server
                log.exception("%s: unexpected error", request.url.path)
                return JSONResponse({"ok": False, "error": f"internal: {type(error).__name__}: {error}"}, 500,
                                    headers=SECURITY)
            return JSONResponse({"ok": True, "data": data}, headers=SECURITY)

        return endpoint

    async def body(request: Request) -> dict[str, Any]:
        try:
            value = json.loads(await request.body())
        except ValueError:
            raise UiError("the request body is not JSON") from None
        if not isinstance(value, dict):
            raise UiError("the request body must be a JSON object")
        return value

    def param(request: Request, name: str) -> str:
        return request.query_params.get(name, "")

    routes = [
        Route("/", index),
        Route("/static/{name}", static),
        Route("/api/stamp", api(lambda r: backend.stamp())),
        Route("/api/namespaces", api(lambda r: backend.namespaces())),
        Route("/api/memories", api(lambda r: memories.page(backend, memories.Filters(r.query_params)))),
        Route("/api/memory/{ident}", api(lambda r: memories.detail(backend, r.path_params["ident"],
                                                                   param(r, "ns") or None))),
        Route("/api/forget", api(lambda r: _with(body(r), memories.forget, backend)), methods=["POST"]),
        Route("/api/supersede", api(lambda r: _with(body(r), memories.supersede, backend)), methods=["POST"]),
        Route("/api/approve", api(lambda r: _with(body(r), memories.approve, backend)), methods=["POST"]),
        Route("/api/prompts", api(lambda r: prompts.timeline(backend.root, param(r, "session")))),
        Route("/api/overview", api(lambda r: overview(backend))),
        Route("/api/captured", api(lambda r: sessions.captured(backend, param(r, "session").strip()))),
        Route("/api/next-session", api(lambda r: sessions.next_start(backend))),
        Route("/api/archive", api(lambda r: library.archive(backend, param(r, "ns")))),
        Route("/api/archive/{ident}", api(lambda r: library.block(backend, r.path_params["ident"],
                                                                  param(r, "ns")))),
        Route("/api/skills", api(lambda r: library.skills(backend))),
        Route("/api/records", api(lambda r: library.records(backend))),
    ]
    return TokenGuard(Starlette(routes=routes), token)


async def _with(body: Awaitable[dict[str, Any]],
                write: Callable[[Backend, dict[str, Any]], Awaitable[Any]], backend: Backend) -> Any:
    return await write(backend, await body)
