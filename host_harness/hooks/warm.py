"""The warm socket's client: a hook hands its request to a server that already has the component loaded.

A hook is a new process per prompt; starting Python, importing wasmtime and numpy and loading the
component cost ~200 ms before any work. A long-lived process of the project -- the spool watcher
(``spool --watch``) or the MCP server -- listens on ``<project>/.gm/rs-learn.sock``
(:mod:`host_harness.hooks.server`), and the hook (:func:`ask`) sends it one request and prints the
answer; it imports neither wasmtime nor numpy. Whenever the server cannot serve it in time, the hook
takes its cold path (:class:`NoServer`), as with no server at all.

Protocol, version 2: one connection per request. The client writes one JSON line ``{"v": 2,
"project": <absolute root>, "verb", "body", "start_within": <s>, "within": <s>}``: the server must
*start* the request within ``start_within`` seconds and answer within ``within``. The server writes
``{"started": true}`` when its reader takes the request, then one line, the ``dispatch`` envelope.
No acknowledgement within ``start_within`` (:data:`START_SHARE` of the budget): the client closes
and goes cold. A server of another version answers an error envelope first: cold too. (Version 1
had no acknowledgement; a server still answers a version 1 request, without one.) Only the hooks'
read-only verbs are served (:data:`VERBS`), for the server's own project.

Deadlines are hard: every read and write waits at most until the hook's deadline, however the
server trickles its bytes.

Safety. ``.gm/`` is committed, so nothing here goes through a link below the project: the folder is
opened with ``O_NOFOLLOW`` (``host_harness/fs/confine.py``) and the socket is reached through
that open folder (``/proc/self/fd/<fd>/rs-learn.sock``). A client uses only a socket that is one,
owned by its own user, not reachable by others, and whose peer process runs as that user
(``SO_PEERCRED``).
"""

from __future__ import annotations

import json
import os
import socket
import stat
import struct
import time
from pathlib import Path
from typing import Any

from host_harness.fs import confine
from host_harness.hooks.protocol import WARM_SOCKET

SOCKET_NAME = WARM_SOCKET
VERSION = 2
VERBS = ("auto_recall", "session_start")
MAX_LINE = 16 * 1024 * 1024
START_SHARE = 0.2  # of the hook's budget: how long the server may take to start the request
STARTED = b'{"started": true}\n'
PEERCRED = struct.Struct("3i")  # pid, uid, gid


class NoServer(Exception):
    """No warm server can serve this hook now (none listens, or it did not start in time): go cold."""


class ServerBusy(NoServer):
    """A server listens but did not serve the request (busy, another version, gone): worth a log line."""


def socket_path(fd: int) -> str:
    """The socket's path through the open ``.gm`` folder (short, and never through a link)."""
    proc = f"/proc/self/fd/{fd}"
    if os.path.isdir(proc):
        return f"{proc}/{SOCKET_NAME}"
    raise NoServer("no /proc/self/fd: the warm socket needs Linux")


def own_socket(fd: int) -> os.stat_result | None:
    """The socket's ``lstat`` if it is a socket of this user that no one else can reach, else ``None``."""
    try:
        st = os.stat(SOCKET_NAME, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if not stat.S_ISSOCK(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return st


def peer_uid(sock: socket.socket) -> int:
    """The user id of the process at the other end of ``sock``."""
    return int(PEERCRED.unpack(sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, PEERCRED.size))[1])


class Lines:
    """Lines read from a socket, each read bounded by an absolute deadline (``time.monotonic()``)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def read(self, deadline: float) -> bytes:
        """The next line with its ``\\n`` (``b""`` or a partial line at the end of the stream).

        ``TimeoutError`` at ``deadline``, however the peer spreads its bytes.
        """
        while b"\n" not in self.buffer and len(self.buffer) <= MAX_LINE:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("timed out")
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            self.buffer += chunk
        line, newline, self.buffer = self.buffer.partition(b"\n")
        return line + newline


def ask(project: Path, verb: str, body: dict[str, Any], deadline: float, budget_s: float) -> str:
    """The envelope the project's warm server answers by ``deadline`` (``time.monotonic()``).

    :class:`NoServer` when none listens, :class:`ServerBusy` when one listens but did not start the
    request within :data:`START_SHARE` of ``budget_s`` (or speaks another version, or closed the
    connection without an answer): the hook goes cold. ``TimeoutError`` when the server started the
    request and did not answer by ``deadline``.
    """
    try:
        fd = confine.open_dir(project, (".gm",))
    except OSError as error:
        raise NoServer(f"no usable .gm folder: {error}") from None
    try:
        if own_socket(fd) is None:
            raise NoServer("no warm socket")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            start_by = min(deadline, time.monotonic() + START_SHARE * budget_s)
            sock.settimeout(max(start_by - time.monotonic(), 0.001))
            try:
                sock.connect(socket_path(fd))
            except (ConnectionRefusedError, FileNotFoundError) as error:
                raise NoServer(f"the warm socket does not answer ({error.strerror})") from None
            except TimeoutError:
                raise ServerBusy("the warm server did not accept the connection in time") from None
            if peer_uid(sock) != os.getuid():
                raise NoServer("the warm socket's server runs as another user")
            now = time.monotonic()
            request = {"v": VERSION, "project": str(project), "verb": verb, "body": body,
                       "start_within": round(start_by - now, 3), "within": round(deadline - now, 3)}
            try:
                sock.sendall(json.dumps(request, ensure_ascii=False).encode("utf-8") + b"\n")
                sock.shutdown(socket.SHUT_WR)
                lines = Lines(sock)
                first = lines.read(start_by)
            except TimeoutError:
                first = b""
            except OSError as error:
                raise ServerBusy(f"the warm server went away: {error}") from None
            if first != STARTED:
                raise ServerBusy(_refusal(first, time.monotonic() >= start_by, START_SHARE * budget_s))
            try:
                answer = lines.read(deadline)
            except TimeoutError:
                raise
            except OSError as error:
                raise ServerBusy(f"the warm server went away: {error}") from None
    finally:
        os.close(fd)
    if not answer.endswith(b"\n"):
        raise ServerBusy("the warm server closed the connection without an answer")
    return answer.decode("utf-8")


def _refusal(line: bytes, late: bool, wait_s: float) -> str:
    """Why a server's first line is not the acknowledgement (none in time, an old server's error...)."""
    if not line and late:
        return f"the warm server did not start the request within {wait_s:.2g} s"
    if not line:
        return "the warm server closed the connection without starting the request"
    try:
        value = json.loads(line)
    except ValueError:
        value = None
    error = value.get("error") if isinstance(value, dict) else None
    return f"the warm server refused the request: {error if isinstance(error, str) else line[:200]!r}"
