"""``GuestWorker``: one warm guest on one thread, called from the MCP server's event loop.

The guest and its :class:`~host_harness.services.HostServices` are not thread-safe (SQLite
connections belong to the thread that opened them; a wasmtime ``Store`` takes one call at a time),
and a guest call blocks for milliseconds to seconds. So every guest call -- opening it, each
``dispatch``, closing it -- runs on one dedicated thread, in order: the event loop stays free to
read and answer the protocol (pings, listings, cancellations) while a call runs, and concurrent
tool calls are served one after another. Each ``dispatch`` is one transaction (``BaseGuest``); a
trap costs that one call and the next re-instantiates (:func:`host_harness.targets.base.answer`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from host_harness.targets.base import BaseGuest, answer

T = TypeVar("T")

log = logging.getLogger("rs_learn.mcp")


class GuestWorker:
    """Serve ``dispatch`` calls of the guest that ``open_guest`` returns, on one thread."""

    def __init__(self, open_guest: Callable[[], BaseGuest], close: Callable[[], None]) -> None:
        self._open = open_guest  # called on the worker thread; returns the same guest every time
        self._close = close
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rs-learn-guest")
        self._closed = False

    @classmethod
    def of(cls, make: Callable[[], BaseGuest]) -> GuestWorker:
        """A worker over the guest ``make()`` builds (once, on the worker thread, with its services).

        Closing the worker closes that guest and its services. (The CLI passes its session instead.)
        """
        opened: list[BaseGuest] = []

        def open_guest() -> BaseGuest:
            if not opened:
                opened.append(make())
            return opened[0]

        def close() -> None:
            for guest in opened:
                guest.close()
                guest.services.close()

        return cls(open_guest, close)

    def start(self) -> BaseGuest:
        """Open the guest now (load the component, read the configuration); raises what opening raises."""
        return self.begin(self._open)

    def begin(self, work: Callable[[], T]) -> T:
        """Run ``work`` (opening the stores, say) on the worker thread now; close the worker if it raises."""
        try:
            return self.run_sync(work)
        except BaseException:
            self.close()
            raise

    def soon(self, work: Callable[[], object]) -> None:
        """Start ``work`` on the worker thread, ahead of the calls to come, without waiting for it.

        What it raises is logged; a call that needs what it opens tries again and says why.
        """
        def logged() -> None:
            try:
                work()
            except Exception as error:
                log.error("%s", error)

        self._pool.submit(logged)

    def run_sync(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the worker thread and wait for it (outside the event loop)."""
        return self._pool.submit(work).result()

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the worker thread from the event loop (what needs the guest's services)."""
        return await asyncio.wrap_future(self._pool.submit(work))

    async def dispatch(self, verb: str, body: dict[str, Any]) -> dict[str, Any]:
        """One verb, one transaction: the parsed envelope (never raises for a guest failure)."""
        raw = json.dumps(body, ensure_ascii=False)
        envelope = await asyncio.wrap_future(self._pool.submit(lambda: self._answer(verb, raw)))
        value = json.loads(envelope)
        if not isinstance(value, dict):
            return {"ok": False, "verb": verb, "error": "internal: the guest's envelope is not an object"}
        return value

    def _answer(self, verb: str, raw: str) -> str:
        log.info("%s: running on the guest", verb)
        try:
            guest = self._open()
        except Exception as error:  # the component cannot be loaded: every call says why, none crashes
            message = f"internal: cannot load the component: {type(error).__name__}: {error}"
            log.error("%s", message)
            return json.dumps({"ok": False, "verb": verb, "error": message})
        return answer(guest, verb, raw)

    def close(self) -> None:
        """Finish the call in progress, close the guest and the stores, stop the thread (once)."""
        if self._closed:
            return
        self._closed = True
        try:
            self.run_sync(self._close)
        finally:
            self._pool.shutdown(wait=True)
