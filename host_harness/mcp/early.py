"""``rs-learn-host mcp`` answers ``initialize`` and ``tools/list`` before importing anything heavy (#33).

Clients give a starting server little time (Codex starts its turn about a second after spawning it,
Gemini's probe gives up at 5 s), and importing the MCP SDK alone takes 1.3-2 s here, 10-20 s on a
loaded machine. So the command line's entry (:mod:`host_harness.cli.entry`) starts :class:`Early`
first, importing only the standard library: it takes over stdin and stdout, and a thread of its own
reads the client's messages. It answers

* ``initialize`` (the first one, in the handshake era) from the replies the SDK gave at build time
  (``replies.json``, :mod:`host_harness.mcp.prebuilt`), negotiating the protocol version as the SDK
  does: the client's when the SDK supports it, else the SDK's latest;
* ``tools/list`` after that, when the project's configuration is one the replies cover (structured
  memory on with the default ``maxChecklistDepth``, or off);

and keeps every message, answered or not, in order. Meanwhile the main thread imports the CLI, the
SDK and the component as before; the SDK server then reads the kept messages first -- the
``initialize`` and ``notifications/initialized`` it needs for its own session state, then anything
that arrived meanwhile (a tool call waits there, in order) -- and the rest as they come
(:meth:`Early.readline`). Its answers to requests already answered here are dropped on the way out
(:meth:`Early.write`), so the client sees exactly one answer per request.

Anything else waits for the SDK: a modern-era request (``_meta`` naming a protocol version), a
malformed ``initialize`` (the SDK's error is then the answer), a configuration the replies do not
cover. A command line this module does not fully understand is left to the CLI alone (no early
answers), and so is a project whose configuration does not load: the CLI then fails as before,
before answering anything.
"""

from __future__ import annotations

import json
import os
import queue
import threading
from pathlib import Path
from typing import Any, BinaryIO

REPLIES = Path(__file__).with_name("replies.json")
MODERN_META = "io.modelcontextprotocol/protocolVersion"
DEFAULT_CHECKLIST_DEPTH = 5  # host_harness.config.config.MemoryConfig.maxChecklistDepth's default
GLOBAL_VALUES = ("-p", "--project", "--wasm", "--store")
GLOBAL_FLAGS = ("-v", "--verbose", "--native")
MCP_VALUES = ("-p", "--project", "--timeout", "--actor", "--conversation", "--project-id", "--thread")
MCP_FLAGS = ("--global",)
TIMEOUT_RANGE = (0.05, 3600.0)  # the mcp command's --timeout

_active: Early | None = None


def project_of(args: list[str]) -> Path | None:
    """The project of a plain ``[global options] mcp [options]`` command line; ``None`` for any other.

    Only options the CLI would accept as they are given (an existing ``-p`` folder, a ``--timeout``
    in range); ``-h``/``--help`` or anything unknown leaves the command line to the CLI alone.
    """
    from host_harness.project import FROM_ENV, GIVEN, chosen

    project: str | None = None
    given_by = GIVEN
    options = _options(args, GLOBAL_VALUES, GLOBAL_FLAGS, until="mcp")
    if options is None:
        return None
    rest, values = options
    mcp_options = _options(rest, MCP_VALUES, MCP_FLAGS, until=None)
    if mcp_options is None:
        return None
    _, mcp_values = mcp_options
    project = mcp_values.get("--project") or values.get("--project")
    if project is None and os.environ.get("RS_LEARN_PROJECT"):
        project, given_by = os.environ["RS_LEARN_PROJECT"], FROM_ENV
    if project is not None and not Path(project).is_dir():
        return None
    if (timeout := mcp_values.get("--timeout")) is not None:
        try:
            if not TIMEOUT_RANGE[0] <= float(timeout) <= TIMEOUT_RANGE[1]:
                return None
        except ValueError:
            return None
    return chosen(Path(project) if project is not None else None, given_by).root


def _options(args: list[str], valued: tuple[str, ...], flags: tuple[str, ...], until: str | None
             ) -> tuple[list[str], dict[str, str]] | None:
    """Walk ``args`` up to ``until`` (or their end): ``(what follows it, the values)``; ``None``: unknown."""
    values: dict[str, str] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        name, equals, value = arg.partition("=")
        if until is not None and arg == until:
            return args[i + 1 :], values
        if arg in flags:
            i += 1
        elif name in valued and equals:
            values["--project" if name == "-p" else name] = value
            i += 1
        elif arg in valued and i + 1 < len(args):
            values["--project" if arg == "-p" else arg] = args[i + 1]
            i += 2
        else:
            return None
    return ([], values) if until is None else None


def tool_set(project: Path) -> str | None:
    """Which recorded tool list ``project``'s configuration serves (``None``: none of them).

    Raises ``ConfigError`` or ``OSError`` when the configuration does not load.
    """
    from host_harness.config import read_memory_config

    config, _warnings = read_memory_config(project)
    if not config.enabled:
        return "memory"
    return "structured" if config.maxChecklistDepth == DEFAULT_CHECKLIST_DEPTH else None


def start(args: list[str]) -> Early | None:
    """Start answering if ``args`` is a plain ``mcp`` command line whose project's configuration loads."""
    from host_harness.config import ConfigError

    global _active
    project = project_of(args)
    if project is None:
        return None
    try:
        tools = tool_set(project)
    except (ConfigError, OSError):
        return None  # the CLI says what is wrong, before answering anything
    try:
        replies = recorded()
    except (OSError, ValueError):  # a broken install: the SDK answers everything, later
        return None
    _active = Early(replies, tools)
    return _active


def recorded() -> dict[str, Any]:
    """The recorded replies (``replies.json``)."""
    replies: dict[str, Any] = json.loads(REPLIES.read_text(encoding="utf-8"))
    return replies


def tool_names(tools: str) -> list[str]:
    """The names of the tools of a recorded tool set (``memory`` or ``structured``), in order."""
    replies = recorded()
    listed = replies["lists"][replies["tools"][tools][replies["latest"]]]
    return [tool["name"] for tool in listed["tools"]]


def active() -> Early | None:
    """The responder this process started, if any (for the SDK server to take over)."""
    return _active


class Early:
    """Answer the handshake from recorded replies and keep every message for the SDK server."""

    def __init__(self, replies: dict[str, Any], tools: str | None, stdin_fd: int = 0, stdout_fd: int = 1
                 ) -> None:
        self.replies = replies
        self.tools = tools
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._answered: set[str] = set()  # the JSON of each request id answered here
        self._lock = threading.Lock()  # one message at a time on stdout; the answered ids
        self._protocol: str | None = None  # negotiated by the initialize answered here
        self._handed_over = False
        # the wire on private descriptors; 0 reads the null device and 1 writes to stderr meanwhile,
        # so nothing else in the process (or a child) reads the client's messages or writes into them
        self._in: BinaryIO = os.fdopen(_divert(stdin_fd, os.devnull, os.O_RDONLY), "rb")
        self._out = _divert(stdout_fd, None, os.O_WRONLY)
        self._reader = threading.Thread(target=self._read, name="rs-learn-mcp-early", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            for line in iter(self._in.readline, b""):
                with self._lock:
                    if not self._handed_over:
                        self._answer(line)
                self._lines.put(line)
        except (OSError, ValueError):  # the descriptor failed: the client is gone
            pass
        self._lines.put(b"")

    def _answer(self, line: bytes) -> None:
        """Answer ``line`` here if it is a request the recorded replies cover (under the lock)."""
        try:
            message = json.loads(line)
        except ValueError:
            return
        if not isinstance(message, dict) or "id" not in message or message.get("jsonrpc") != "2.0":
            return
        params = message.get("params")
        if params is not None and not isinstance(params, dict):
            return
        meta = params.get("_meta") if params is not None else None
        if isinstance(meta, dict) and MODERN_META in meta:
            return  # the modern era: the SDK's
        result: Any = None
        if message.get("method") == "initialize" and self._protocol is None:
            protocol = negotiate(params, self.replies)
            if protocol is not None:
                result, self._protocol = self.replies["initialize"][protocol], protocol
        elif message.get("method") == "tools/list" and self._protocol is not None and self.tools is not None:
            result = self.replies["lists"][self.replies["tools"][self.tools][self._protocol]]
        if result is not None:
            self._answered.add(json.dumps(message["id"]))
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def _send(self, message: dict[str, Any]) -> None:
        self._send_text(json.dumps(message, ensure_ascii=False))

    def readline(self) -> bytes:
        """The client's next message, kept ones first (``b""`` at the end of input); for the SDK server.

        The first call hands the session over: from then on nothing is answered here.
        """
        with self._lock:
            self._handed_over = True
        return self._lines.get()

    def write(self, text: str) -> None:
        """Write one message of the SDK server's, unless it answers a request answered here."""
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        with self._lock:
            if isinstance(message, dict) and "id" in message and ("result" in message or "error" in message):
                ident = json.dumps(message["id"])
                if ident in self._answered:
                    self._answered.discard(ident)
                    return
            self._send_text(text)

    def _send_text(self, text: str) -> None:
        data = (text if text.endswith("\n") else text + "\n").encode("utf-8")
        while data:
            data = data[os.write(self._out, data) :]


def negotiate(params: dict[str, Any] | None, replies: dict[str, Any]) -> str | None:
    """The protocol version the SDK would answer ``initialize`` with; ``None``: let the SDK judge.

    The client's version when the SDK supports it, else the SDK's latest -- for well-formed params
    only (a protocol version, capabilities, and client info with a name and a version); anything
    else is the SDK's to refuse.
    """
    if params is None:
        return None
    requested, capabilities, client = params.get("protocolVersion"), params.get("capabilities"), \
        params.get("clientInfo")
    if not (isinstance(requested, str) and isinstance(capabilities, dict) and isinstance(client, dict)
            and isinstance(client.get("name"), str) and isinstance(client.get("version"), str)):
        return None
    return requested if requested in replies["versions"] else str(replies["latest"])


def _divert(fd: int, to: str | None, mode: int) -> int:
    """A private duplicate of ``fd``; ``fd`` itself then points at ``to`` (``None``: stderr)."""
    private = os.dup(fd)  # not inheritable: no child gets the client's pipe
    target = os.open(to, mode) if to is not None else os.dup(2)
    try:
        os.dup2(target, fd)
    finally:
        os.close(target)
    return private

