"""The clocks ``host-now-ms`` reads: the system's, or a settable one for deterministic runs."""

from __future__ import annotations

import time


def wall_clock_ms() -> int:
    """Epoch milliseconds from the system clock."""
    return time.time_ns() // 1_000_000


class ManualClock:
    """A settable clock for deterministic runs: ``clock.now_ms = ...``, ``clock.advance(ms)``."""

    def __init__(self, now_ms: int) -> None:
        self.now_ms = now_ms

    def advance(self, ms: int) -> int:
        """Move the clock forward by ``ms`` and return the new time."""
        self.now_ms += ms
        return self.now_ms

    def __call__(self) -> int:
        """Return the current time."""
        return self.now_ms
