"""The harness's errors: one small hierarchy, translated once at each boundary.

* :class:`StoreError` -- a caller broke the storage contract (invalid namespace
  or key, a write to the read-only ``host`` namespace). It subclasses the guest's
  :class:`guest.host.HostError`, so the native target sees exactly what the
  component sees as ``err(message)`` from ``host-kv-put``.
* :class:`GuestError` -- an export call failed; the message is the guest's own
  (``validation: ...``) or the harness's. Every failed call was rolled back.
* :class:`HostFailure` -- a host import failed during the call (locked or corrupt
  database, disk full, a bug in the harness); the call was rolled back.
* :class:`GuestTrap` -- the instance trapped (deadline, memory limit, a guest
  bug); the call was rolled back and the next call re-instantiates.
"""

from __future__ import annotations

from guest.host import HostError


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
