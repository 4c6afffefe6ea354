"""The warm socket's server: a long-lived process answers the project's hooks (``spool --watch``, ``mcp``).

:class:`WarmServer` listens on ``<project>/.gm/rs-learn.sock`` and hands every request to a
:class:`~host_harness.hooks.reader.WarmReader`, which answers on its own thread with its own guest:
a long spool import or MCP call never delays a hook. Connections are served concurrently (one
short-lived thread each, at most :data:`MAX_CONNECTIONS`; beyond that a connection is closed at
once and its hook goes cold), and each has its own deadlines: :data:`READ_TIMEOUT_S` in all to send
its request, then the client's own ``start_within`` and ``within`` (``host_harness/hooks/warm.py``
describes the protocol). So an idle or slow client holds its own thread, never the socket.

Safety. ``.gm/`` is committed, so nothing here goes through a link below the project: the folder is
opened with ``O_NOFOLLOW`` (``host_harness/fs/confine.py``) and the socket is bound through that
open folder (``/proc/self/fd/<fd>/rs-learn.sock``). The socket is created owner-only (``0600``) and
answers only its own user (``SO_PEERCRED``). A socket left by a dead server (connecting is refused)
is replaced; anything else at that name -- a live server, a file, a link -- is left alone, and then
this server does not listen. Takeovers are serialised by ``flock`` on the ``.gm`` folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import math
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from host_harness.fs import confine
from host_harness.hooks.warm import (
    SOCKET_NAME,
    STARTED,
    VERBS,
    VERSION,
    Lines,
    NoServer,
    own_socket,
    peer_uid,
    socket_path,
)

MAX_CONNECTIONS = 32
READ_TIMEOUT_S = 5.0  # a client that has not sent its whole request within this is dropped
V1_WITHIN_S = 60.0  # a version 1 client sends no deadline: how long its request may wait
MAX_WITHIN_S = 60.0  # the longest hook budget (hooks/protocol.py TIMEOUT_RANGE)
GRACE_S = 0.5  # how long past a client's deadline the answer is still sent

log = logging.getLogger("rs_learn.warm")


@dataclass
class Request:
    """One hook's request, as the reader needs it: what to answer, by when, and how to say it started."""

    verb: str
    body: str
    start_by: float  # time.monotonic(): not started by then, the client has gone cold
    deadline: float  # the client's deadline
    started: Callable[[], bool]  # acknowledge the start; False when the client has gone

    def left(self) -> float:
        """Seconds until the client's deadline."""
        return self.deadline - time.monotonic()


class Reader(Protocol):
    """What answers the requests (:class:`host_harness.hooks.reader.WarmReader`)."""

    def answer(self, request: Request) -> str | None:
        """The envelope, or ``None`` when the request was not started in time."""
        ...

    def close(self) -> None:
        """Stop answering."""
        ...


class WarmServer:
    """The warm socket of one project, its requests answered by ``reader``."""

    def __init__(self, project: Path, reader: Reader) -> None:
        self.project = Path(project).resolve()
        self.reader = reader
        self.sock: socket.socket | None = None
        self._fd: int | None = None
        self._inode: int | None = None
        self._stopped = threading.Event()
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._thread: threading.Thread | None = None

    def start(self) -> bool:
        """Listen if this project's socket is free (or stale); whether it listens. Never raises."""
        try:
            self._fd = confine.open_dir(self.project, (".gm",), create=True)
            fcntl.flock(self._fd, fcntl.LOCK_EX)  # one takeover at a time
            try:
                self.sock = self._bind(self._fd)
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        except (OSError, NoServer) as error:
            log.warning("no warm socket for %s: %s", self.project, error)
        if self.sock is None:
            self._close_fd()
            return False
        self._thread = threading.Thread(target=self._accept, name="rs-learn-warm", daemon=True)
        self._thread.start()
        log.info("warm socket %s listening", self.project / ".gm" / SOCKET_NAME)
        return True

    def _bind(self, fd: int) -> socket.socket | None:
        try:
            st = os.stat(SOCKET_NAME, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        if st is not None:
            if own_socket(fd) is None:
                log.warning(".gm/%s exists and is not this user's socket: left alone", SOCKET_NAME)
                return None
            if _alive(fd):
                log.info("another warm server answers on .gm/%s", SOCKET_NAME)
                return None
            os.unlink(SOCKET_NAME, dir_fd=fd)  # left by a server that died
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        mask = os.umask(0o177)  # created 0600: only this user may connect
        try:
            sock.bind(socket_path(fd))
        except OSError:
            sock.close()
            raise
        finally:
            os.umask(mask)
        sock.listen(64)
        sock.settimeout(0.5)  # the loop looks at the stop flag this often
        self._inode = os.stat(SOCKET_NAME, dir_fd=fd, follow_symlinks=False).st_ino
        return sock

    def _accept(self) -> None:
        assert self.sock is not None
        while not self._stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                if self._stopped.is_set():
                    return
                continue
            if not self._slots.acquire(blocking=False):
                conn.close()  # too many at once: this hook goes cold
                continue
            threading.Thread(target=self._connection, args=(conn,), name="rs-learn-warm-conn",
                             daemon=True).start()

    def _connection(self, conn: socket.socket) -> None:
        try:
            with conn:
                self._answer(conn)
        except OSError as error:  # the client went away: its hook has given up or gone cold
            log.info("warm socket: %s", error)
        except Exception:  # the server keeps serving whatever one connection did
            log.exception("warm socket: a connection failed")
        finally:
            self._slots.release()

    def _answer(self, conn: socket.socket) -> None:
        if peer_uid(conn) != os.getuid():
            return  # not this user: no answer at all
        received = time.monotonic()
        raw = Lines(conn).read(received + READ_TIMEOUT_S)
        try:
            value = json.loads(raw)
        except ValueError as error:
            _send(conn, _error("?", f"validation: the warm request is not JSON: {error}"), received + 1.0)
            return
        request = self._request(value, conn, received)
        if isinstance(request, str):
            _send(conn, request, received + 1.0)
            return
        envelope = self.reader.answer(request)
        if envelope is not None:  # else not started in time: the client has gone cold
            _send(conn, envelope, request.deadline + GRACE_S)

    def _request(self, value: Any, conn: socket.socket, received: float) -> Request | str:
        """The request in ``value``, or the error envelope for one this server does not serve."""
        if not isinstance(value, dict) or value.get("v") not in (1, VERSION):
            return _error("?", f"validation: the warm protocol is version {VERSION}")
        verb = value.get("verb")
        if verb not in VERBS or not isinstance(value.get("body"), dict):
            return _error(str(verb), f"validation: the warm socket serves only {', '.join(VERBS)}")
        project = value.get("project")
        if not isinstance(project, str) or Path(project).resolve() != self.project:
            return _error(str(verb), f"validation: this warm server serves {self.project}")
        body = json.dumps(value["body"], ensure_ascii=False)
        if value["v"] == 1:  # no deadline, no acknowledgement
            deadline = received + V1_WITHIN_S
            return Request(verb, body, deadline, deadline, lambda: True)
        for field in ("start_within", "within"):
            if not _seconds(value.get(field)):
                return _error(str(verb), f"validation: field {field!r} must be a number of seconds in "
                                         f"(0, {MAX_WITHIN_S:g}], got {value.get(field)!r}")
        start_by, deadline = received + float(value["start_within"]), received + float(value["within"])
        return Request(verb, body, min(start_by, deadline), deadline,
                       lambda: _sent(conn, STARTED, deadline))

    def close(self) -> None:
        """Stop listening, stop the reader and remove the socket (if it is still the one this server made)."""
        self._stopped.set()
        if self.sock is not None:
            self.sock.close()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        self.reader.close()
        if self._fd is not None and self._inode is not None:
            with contextlib.suppress(OSError):
                if os.stat(SOCKET_NAME, dir_fd=self._fd, follow_symlinks=False).st_ino == self._inode:
                    os.unlink(SOCKET_NAME, dir_fd=self._fd)
        self._close_fd()

    def _close_fd(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _seconds(value: Any) -> bool:
    """Whether ``value`` is a deadline a client may ask for."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and 0 < value <= MAX_WITHIN_S


def _alive(fd: int) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        try:
            probe.connect(socket_path(fd))
        except ConnectionRefusedError:
            return False
        except OSError:
            return True  # cannot tell: do not take it over
        return True


def _send(conn: socket.socket, line: str | bytes, deadline: float) -> None:
    data = line if isinstance(line, bytes) else line.encode("utf-8") + b"\n"
    conn.settimeout(max(deadline - time.monotonic(), 0.001))
    conn.sendall(data)


def _sent(conn: socket.socket, data: bytes, deadline: float) -> bool:
    """Whether ``data`` went to the client (``False``: it has gone)."""
    try:
        _send(conn, data, deadline)
    except OSError:
        return False
    return True


def _error(verb: str, message: str) -> str:
    return json.dumps({"ok": False, "verb": verb, "error": message}, ensure_ascii=False)
