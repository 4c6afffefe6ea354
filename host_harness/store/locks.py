"""Lock contention: the budget one call may wait, and telling "busy" from "broken".

A call that still cannot get a store's write lock when its budget is spent answers ``busy:``
(``host_harness/services/transaction.py``), never ``internal:``: nothing was changed, and the same call
can be made again. :func:`is_busy` tells those errors apart, from SQLite, the writers' queue
(``host_harness/store/queue.py``) and PostgreSQL alike.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["LOCK_NOT_AVAILABLE", "LockBudget", "LockTimeout", "WriteLockBusy", "is_busy"]

LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for a lock wait past lock_timeout


class WriteLockBusy(sqlite3.OperationalError):
    """A read transaction could not take the write lock at once: another connection holds it."""


class LockTimeout(sqlite3.OperationalError):
    """A writer gave up waiting for a store's write lock: its budget was spent."""


class LockBudget:
    """How long one unit of work may still wait for SQLite locks, over all its stores and attempts."""

    def __init__(self, ms: int) -> None:
        self.left_s = ms / 1000

    def remaining_ms(self) -> int:
        """Milliseconds left (0 when spent)."""
        return max(int(self.left_s * 1000), 0)

    def deadline(self) -> float:
        """The ``time.monotonic()`` at which the budget is spent."""
        return time.monotonic() + max(self.left_s, 0)

    @contextmanager
    def waiting(self) -> Iterator[None]:
        """Charge the time the body takes to the budget."""
        started = time.monotonic()
        try:
            yield
        finally:
            self.left_s -= time.monotonic() - started


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` is a lock wait given up (SQLite's busy, the queue's, PostgreSQL's lock timeout)."""
    if isinstance(error, LockTimeout) or getattr(error, "sqlstate", None) == LOCK_NOT_AVAILABLE:
        return True
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
