"""The warm socket's reader: the hooks' own guest, on its own thread, beside the server's.

The spool watcher and the MCP server run their requests on one guest thread; a 5,000-item import
holds it for seconds. Hooks handed to that thread starved (during an import 3 of 4 got nothing).
So the warm socket (:mod:`host_harness.hooks.server`) answers on a thread of its own,
:class:`WarmReader`, with a guest of its own (:class:`HookGuest`): a second instance of the loaded
component over its own read-only :class:`~host_harness.services.HostServices` -- its own SQLite
connections or PostgreSQL session, the hooks' vector-index policy, each call bounded by its
client's deadline. It answers exactly what a cold hook answers (no trusted scope, the same verbs).

Requests are taken in turn. One is *started* -- the client acknowledged -- only while its client
still waits for that (``start_by``); one whose client has gone cold is dropped unstarted.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from queue import SimpleQueue

from host_harness.cachedir import default_cache_dir
from host_harness.config import ProjectContext, StoreChoice
from host_harness.errors import StoreError
from host_harness.hooks.background import hook_index_policy, warm_vector_indexes
from host_harness.hooks.server import GRACE_S, Request, WarmServer
from host_harness.services import HostServices
from host_harness.targets.base import BaseGuest, answer
from host_harness.vectors import HOOK_SCAN_MAX

Serve = Callable[[str, str, float], str]  # (verb, body JSON, seconds left) -> envelope
log = logging.getLogger("rs_learn.warm")


class Job:
    """A request in the reader's queue: started by the reader, or given up by its connection."""

    def __init__(self, request: Request) -> None:
        self.request = request
        self.lock = threading.Lock()
        self.state = "queued"  # -> "starting" -> "started" (by the reader), or "dropped" (by either)
        self.taken = threading.Event()
        self.done = threading.Event()
        self.envelope: str | None = None

    def start(self) -> bool:
        """On the reader's thread: whether to answer it (its client still waits, and heard it started)."""
        with self.lock:
            live = self.state == "queued" and time.monotonic() <= self.request.start_by
            self.state = "starting" if live else "dropped"
        started = live and self.request.started()  # False: the client has gone
        with self.lock:
            self.state = "started" if started else "dropped"
        self.taken.set()
        return started

    def give_up(self) -> bool:
        """On the connection's thread: drop it unless the reader is starting it; whether it is dropped."""
        with self.lock:
            if self.state == "queued":
                self.state = "dropped"
            return self.state == "dropped"


class WarmReader:
    """Answers the warm socket's requests in turn, on a thread of its own, with ``serve``."""

    def __init__(self, serve: Serve, close: Callable[[], None] = lambda: None) -> None:
        self._serve = serve
        self._close = close
        self._queue: SimpleQueue[Job | None] = SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="rs-learn-warm-reader", daemon=True)
        self._thread.start()

    def answer(self, request: Request) -> str | None:
        """The envelope; ``None`` when the reader did not start it by ``request.start_by``."""
        job = Job(request)
        self._queue.put(job)
        job.taken.wait(max(request.start_by - time.monotonic(), 0.0) + GRACE_S)  # the client decides first
        if job.give_up():
            return None
        job.done.wait(max(request.left(), 0.0))
        return job.envelope

    def _run(self) -> None:
        try:
            while (job := self._queue.get()) is not None:
                if job.start():
                    try:
                        job.envelope = self._serve(job.request.verb, job.request.body, job.request.left())
                    except Exception:  # serve never raises (answer()); keep the thread whatever happens
                        log.exception("warm reader: %s failed", job.request.verb)
                job.done.set()
        finally:
            self._close()  # on this thread: the guest's connections were opened here

    def close(self, timeout_s: float = 30.0) -> None:
        """Finish the request in progress, close the guest, stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout_s)


class ReadOnlyServices(HostServices):
    """Services that never write: the hooks' verbs only read, and a reader beside a writer must not."""

    def kv_put(self, ns: str, key: str, value: bytes) -> None:
        """Refused (the guest hears ``err``)."""
        raise StoreError(f"read-only: the warm socket's reader does not write ({ns}/{key})")


class HookGuest:
    """The hooks' own guest over read-only services, made on first use (on the reader's thread)."""

    def __init__(self, project: Path | ProjectContext, store: StoreChoice,
                 make: Callable[[HostServices], BaseGuest], scan_max: int | None = HOOK_SCAN_MAX) -> None:
        self.project, self.store, self.make, self.scan_max = project, store, make, scan_max
        self.cache = default_cache_dir()
        self.guest: BaseGuest | None = None

    def serve(self, verb: str, body: str, left: float) -> str:
        """One hook's verb within ``left`` seconds (the call's lock waits and the guest's deadline)."""
        from host_harness.targets.component import WasmGuest

        if self.guest is None:
            policy = hook_index_policy(self.cache, self.scan_max)
            self.guest = self.make(ReadOnlyServices(self.project, store=self.store, index_policy=policy))
        services = self.guest.services
        services.busy_timeout_ms = max(int(left * 1000), 1)
        if isinstance(self.guest, WasmGuest):
            self.guest.timeout_s = max(left, 0.001)
        envelope = answer(self.guest, verb, body, f"warm socket {verb}")
        if services.index_policy.cache_dir is not None:
            warm_vector_indexes(services, services.index_policy.cache_dir)  # for the next prompts
        return envelope

    def close(self) -> None:
        """Close the guest and its services."""
        if self.guest is not None:
            self.guest.close()
            self.guest.services.close()
            self.guest = None


def start_warm_server(
    project: Path | ProjectContext, store: StoreChoice, make: Callable[[HostServices], BaseGuest]
) -> WarmServer:
    """Listen on ``project``'s warm socket, its hooks answered by a :class:`HookGuest` (never raises).

    ``project``: the server's :class:`~host_harness.config.ProjectContext` (its configuration read
    already, at the server's start), or the project's folder (read at the first hook).

    ``make`` builds a guest of the server's target over the given services (sharing its component).
    Close the server when done, whether it listens or not (another server may hold the socket).
    """
    guest = HookGuest(project, store, make)
    root = project.root if isinstance(project, ProjectContext) else project
    server = WarmServer(root, WarmReader(guest.serve, guest.close))
    server.start()
    return server
