"""The view's access to the project: guest verbs through one worker thread, and the project's folder."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

from host_harness.envelope import Envelope
from host_harness.mcp.worker import GuestWorker
from host_harness.services import HostServices, identity

T = TypeVar("T")
LEDGERS = ("ledger.jsonl", "ledger.jsonl.1")


class UiError(Exception):
    """A request the view cannot serve: the guest's error envelope, or a bad parameter (HTTP 400)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


BACKGROUND: ContextVar[bool] = ContextVar("rs_learn_ui_background", default=False)


class Backend:
    """Guest calls for the view: each one ``dispatch``, one transaction, on the worker's thread.

    One worker serves every request, one call at a time, so the calls of a request that reads much
    (the Overview: :func:`background`) wait while any other request has a call queued or running:
    a search waits for at most the one background call under way, never for the whole Overview.
    """

    def __init__(self, worker: GuestWorker, services: HostServices) -> None:
        self.worker = worker
        self.services = services  # used on the worker's thread only (run())
        self.root: Path = services.project.root
        self._front = 0  # calls of foreground requests queued or running
        self._clear = asyncio.Event()  # set while there are none
        self._clear.set()

    async def call(self, verb: str, body: dict[str, Any]) -> Any:
        """The verb's ``data``; :class:`UiError` with the guest's message when it fails."""
        envelope = Envelope.of(await self._turn(lambda: self.worker.dispatch(verb, body)))
        if not envelope.ok:
            raise UiError(envelope.error)
        return envelope.data

    async def run(self, work: Callable[[HostServices], T]) -> T:
        """``work(services)`` on the worker's thread (between two guest calls, outside any transaction)."""
        return await self._turn(lambda: self.worker.run(lambda: work(self.services)))

    async def _turn(self, submit: Callable[[], Awaitable[T]]) -> T:
        """``submit()`` now (a foreground call), or once no foreground call is queued (a background one)."""
        if BACKGROUND.get():
            while self._front:
                await self._clear.wait()
            return await submit()
        self._front += 1
        self._clear.clear()
        try:
            return await submit()
        finally:
            self._front -= 1
            if not self._front:
                self._clear.set()

    async def stamp(self) -> str:
        """What the page polls: changes with every committed write to the store and every ledger line."""
        store = await self.run(lambda services: services.change_stamp())
        return f"{store};{','.join(identity(_lstat(self.root / '.gm' / 'logs' / name)) for name in LEDGERS)}"

    async def namespaces(self) -> list[str]:
        """``default`` and every discipline with a store."""
        return ["default", *await self.run(lambda services: services.stored_disciplines())]


def background() -> None:
    """Mark the calls of the current request (its task) as background ones (see :class:`Backend`)."""
    BACKGROUND.set(True)


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return path.lstat()
    except OSError:
        return None
