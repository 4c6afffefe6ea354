"""The warm socket: a hook hands its request to a server that already has the component loaded.

A hook is a new process per prompt; starting Python, importing wasmtime and numpy and loading the
component cost ~200 ms before any work. A long-lived process of the project -- the spool watcher
(``spool --watch``) or the MCP server -- listens on ``<project>/.gm/rs-learn.sock``, and the hook
(:func:`ask`) sends it one request and prints the answer; it imports neither wasmtime nor numpy.
With no server listening the hook takes its cold path, as before.

Protocol: one connection per request; the client writes one JSON line ``{"v": 1, "project":
<absolute root>, "verb", "body"}`` and reads one line, the ``dispatch`` envelope. Only the hooks'
read-only verbs are served (:data:`VERBS`), for the server's own project.

Safety. ``.gm/`` is committed, so nothing here goes through a link below the project: the folder is
opened with ``O_NOFOLLOW`` (``host_harness/store/confine.py``) and the socket is bound and reached
through that open folder (``/proc/self/fd/<fd>/rs-learn.sock``). The socket is created owner-only
(``0600``); a client uses only a socket that is one, owned by its own user, not reachable by
others, and whose peer process runs as that user (``SO_PEERCRED``); the server answers only its
own user. A socket left by a dead server (connecting is refused) is replaced; anything else at that
name -- a live server, a file, a link -- is left alone, and then this server does not listen.
Takeovers are serialised by ``flock`` on the ``.gm`` folder.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import socket
import stat
import struct
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from queue import Empty, SimpleQueue
from typing import Any

from host_harness.hooks.protocol import WARM_SOCKET
from host_harness.store import confine

SOCKET_NAME = WARM_SOCKET
VERSION = 1
VERBS = ("auto_recall", "session_start")
MAX_LINE = 16 * 1024 * 1024
READ_TIMEOUT_S = 5.0  # a client that does not send its request within this is dropped
ANSWER_WAIT_S = 60.0  # a request the guest's thread has not answered by then is given up
PEERCRED = struct.Struct("3i")  # pid, uid, gid

log = logging.getLogger("rs_learn.warm")
Serve = Callable[[str, str], str]  # (verb, body JSON) -> envelope


class NoServer(Exception):
    """No warm server listens for this project (the hook takes its cold path)."""


def _via(fd: int) -> str:
    """The socket's path through the open ``.gm`` folder (short, and never through a link)."""
    proc = f"/proc/self/fd/{fd}"
    if os.path.isdir(proc):
        return f"{proc}/{SOCKET_NAME}"
    raise NoServer("no /proc/self/fd: the warm socket needs Linux")


def _ours(fd: int) -> os.stat_result | None:
    """The socket's ``lstat`` if it is a socket of this user that no one else can reach, else ``None``."""
    try:
        st = os.stat(SOCKET_NAME, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if not stat.S_ISSOCK(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return st


def _peer_uid(sock: socket.socket) -> int:
    return int(PEERCRED.unpack(sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, PEERCRED.size))[1])


def _read_line(sock: socket.socket) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if chunk.endswith(b"\n") or size > MAX_LINE:
            break
    return b"".join(chunks)


def ask(project: Path, verb: str, body: dict[str, Any], timeout_s: float) -> str:
    """The envelope the project's warm server answers; :class:`NoServer` when none listens.

    ``TimeoutError`` (or another ``OSError``) when a server took the request and did not answer.
    """
    try:
        fd = confine.open_dir(project, (".gm",))
    except OSError as error:
        raise NoServer(f"no usable .gm folder: {error}") from None
    try:
        if _ours(fd) is None:
            raise NoServer("no warm socket")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(max(timeout_s, 0.001))
            try:
                sock.connect(_via(fd))
            except (ConnectionRefusedError, FileNotFoundError) as error:
                raise NoServer(f"the warm socket does not answer ({error.strerror})") from None
            if _peer_uid(sock) != os.getuid():
                raise NoServer("the warm socket's server runs as another user")
            request = {"v": VERSION, "project": str(project), "verb": verb, "body": body}
            sock.sendall(json.dumps(request, ensure_ascii=False).encode("utf-8") + b"\n")
            sock.shutdown(socket.SHUT_WR)
            answer = _read_line(sock)
    finally:
        os.close(fd)
    if not answer.endswith(b"\n"):
        raise OSError(errno.EPROTO, "the warm server closed the connection without an answer")
    return answer.decode("utf-8")


class WarmServer:
    """The warm socket of one project, answered by ``serve`` (called on the server's thread)."""

    def __init__(self, project: Path, serve: Serve) -> None:
        self.project = Path(project).resolve()
        self.serve = serve
        self.sock: socket.socket | None = None
        self._fd: int | None = None
        self._inode: int | None = None
        self._stopped = threading.Event()
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
        self._thread = threading.Thread(target=self._loop, name="rs-learn-warm", daemon=True)
        self._thread.start()
        log.info("warm socket %s listening", self.project / ".gm" / SOCKET_NAME)
        return True

    def _bind(self, fd: int) -> socket.socket | None:
        try:
            st = os.stat(SOCKET_NAME, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        if st is not None:
            if _ours(fd) is None:
                log.warning(".gm/%s exists and is not this user's socket: left alone", SOCKET_NAME)
                return None
            if self._alive(fd):
                log.info("another warm server answers on .gm/%s", SOCKET_NAME)
                return None
            os.unlink(SOCKET_NAME, dir_fd=fd)  # left by a server that died
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        mask = os.umask(0o177)  # created 0600: only this user may connect
        try:
            sock.bind(_via(fd))
        except OSError:
            sock.close()
            raise
        finally:
            os.umask(mask)
        sock.listen(16)
        sock.settimeout(0.5)  # the loop looks at the stop flag this often
        self._inode = os.stat(SOCKET_NAME, dir_fd=fd, follow_symlinks=False).st_ino
        return sock

    @staticmethod
    def _alive(fd: int) -> bool:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(0.5)
            try:
                probe.connect(_via(fd))
            except ConnectionRefusedError:
                return False
            except OSError:
                return True  # cannot tell: do not take it over
            return True

    def _loop(self) -> None:
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
            with conn:
                try:
                    self._answer(conn)
                except OSError as error:  # the client went away: its hook has given up
                    log.info("warm socket: %s", error)

    def _answer(self, conn: socket.socket) -> None:
        if _peer_uid(conn) != os.getuid():
            return  # not this user: no answer at all
        conn.settimeout(READ_TIMEOUT_S)
        raw = _read_line(conn)
        verb, envelope = "?", ""
        try:
            request = json.loads(raw)
            verb = str(request.get("verb")) if isinstance(request, dict) else "?"
            refused = self._check(request)
            envelope = refused or self.serve(verb, json.dumps(request["body"], ensure_ascii=False))
        except ValueError as error:
            envelope = _error(verb, f"validation: the warm request is not JSON: {error}")
        except Exception as error:  # the server keeps serving whatever one request did
            log.exception("warm socket: %s failed", verb)
            envelope = _error(verb, f"internal: {type(error).__name__}: {error}")
        conn.settimeout(ANSWER_WAIT_S)
        conn.sendall(envelope.encode("utf-8") + b"\n")

    def _check(self, request: Any) -> str | None:
        """An error envelope for a request this server does not serve, else ``None``."""
        if not isinstance(request, dict) or request.get("v") != VERSION:
            return _error("?", f"validation: the warm protocol is version {VERSION}")
        verb = request.get("verb")
        if verb not in VERBS or not isinstance(request.get("body"), dict):
            return _error(str(verb), f"validation: the warm socket serves only {', '.join(VERBS)}")
        project = request.get("project")
        if not isinstance(project, str) or Path(project).resolve() != self.project:
            return _error(str(verb), f"validation: this warm server serves {self.project}")
        return None

    def close(self) -> None:
        """Stop listening and remove the socket (if it is still the one this server made)."""
        self._stopped.set()
        if self.sock is not None:
            self.sock.close()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        if self._fd is not None and self._inode is not None:
            with contextlib.suppress(OSError):
                if os.stat(SOCKET_NAME, dir_fd=self._fd, follow_symlinks=False).st_ino == self._inode:
                    os.unlink(SOCKET_NAME, dir_fd=self._fd)
        self._close_fd()

    def _close_fd(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class Handoff:
    """Requests from the socket's thread, answered on the thread that owns the guest.

    The guest and its SQLite connections belong to one thread. The socket's thread calls
    :meth:`submit`, which waits; the owner calls :meth:`run` between its own calls and
    :meth:`wait` instead of sleeping, so a request is served at once when the owner is idle.
    """

    def __init__(self) -> None:
        self._requests: SimpleQueue[tuple[str, str, Future[str]]] = SimpleQueue()
        self.wake = threading.Event()

    def submit(self, verb: str, body: str) -> str:
        """Queue a request and wait for its envelope (:data:`ANSWER_WAIT_S` at most)."""
        future: Future[str] = Future()
        self._requests.put((verb, body, future))
        self.wake.set()
        return future.result(timeout=ANSWER_WAIT_S)

    def run(self, serve: Serve) -> int:
        """Answer every queued request with ``serve`` (on the owner's thread); how many."""
        done = 0
        while True:
            try:
                verb, body, future = self._requests.get_nowait()
            except Empty:
                return done
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(serve(verb, body))
                except BaseException as error:
                    future.set_exception(error)
            done += 1

    def wait(self, timeout_s: float) -> None:
        """Sleep up to ``timeout_s``, or until a request (or :attr:`wake` from elsewhere) arrives."""
        self.wake.wait(timeout_s)
        self.wake.clear()


def _error(verb: str, message: str) -> str:
    return json.dumps({"ok": False, "verb": verb, "error": message}, ensure_ascii=False)
