"""SQLite lock contention: the budget one call may wait, and telling "busy" from "broken"."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["LockBudget", "WriteLockBusy", "is_busy"]


class WriteLockBusy(sqlite3.OperationalError):
    """A read transaction could not take the write lock at once: another connection holds it."""


class LockBudget:
    """How long one unit of work may still wait for SQLite locks, over all its stores and attempts."""

    def __init__(self, ms: int) -> None:
        self.left_s = ms / 1000

    def remaining_ms(self) -> int:
        """Milliseconds left (0 when spent)."""
        return max(int(self.left_s * 1000), 0)

    @contextmanager
    def waiting(self) -> Iterator[None]:
        """Charge the time the body takes to the budget."""
        started = time.monotonic()
        try:
            yield
        finally:
            self.left_s -= time.monotonic() - started


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` is SQLite's ``SQLITE_BUSY``/``SQLITE_LOCKED`` (another connection's lock)."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
