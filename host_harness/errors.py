"""The harness's errors: one small hierarchy, translated once at each boundary.

* :class:`HostError` -- a host import failed: what the component's guest gets as
  ``err(message)`` from ``host-kv-put`` (or as a failed call). The native target
  (``targets/native.py``) hands the guest the guest's own ``HostError`` with the
  same message, so both targets see the same thing.
* :class:`StoreError` -- a caller broke the storage contract (invalid namespace
  or key, a write to the read-only ``host`` namespace); a :class:`HostError`.
* :class:`GuestError` -- an export call failed; the message is the guest's own
  (``validation: ...``) or the harness's. Every failed call was rolled back.
* :class:`HostFailure` -- a host import failed during the call (locked or corrupt
  database, disk full, a bug in the harness); the call was rolled back.
* :class:`GuestTrap` -- the instance trapped (deadline, memory limit, a guest
  bug); the call was rolled back and the next call re-instantiates.
"""

from __future__ import annotations

import errno
import sqlite3

DISK_FULL_SQLSTATE = "53100"  # PostgreSQL's disk_full
NO_SPACE = (errno.ENOSPC, errno.EDQUOT)


class HostError(Exception):
    """A host import failed (``host-kv-put`` answers ``err`` with this message)."""


class StoreError(HostError):
    """A storage request that breaks the contract (bad namespace or key, reserved namespace)."""


class GuestError(Exception):
    """An export call failed; nothing it wrote was kept."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class HostFailure(GuestError):
    """A host import failed during the call, so the call failed and was rolled back."""


class GuestTrap(GuestError):
    """The WebAssembly instance trapped; the call was rolled back and the instance dropped."""


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` says the disk (or quota) is full: ``SQLITE_FULL``, ``ENOSPC``, PostgreSQL 53100."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:  # the cause may be wrapped
        seen.add(id(current))
        code = getattr(current, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_FULL:
            return True
        if isinstance(current, OSError) and current.errno in NO_SPACE:
            return True
        if getattr(current, "sqlstate", None) == DISK_FULL_SQLSTATE:
            return True
        if "database or disk is full" in str(current) or "No space left on device" in str(current):
            return True
        current = current.__cause__ or current.__context__
    return False


def disk_full_message(details: str) -> str:
    """The ``storage:`` answer of a call that found no room to write; nothing was changed."""
    return (f"storage: disk full: the store could not be written, so nothing was changed; free some space "
            f"(or raise the quota) and run it again ({details})")
