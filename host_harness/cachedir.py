"""The user's rs-learn cache directory: precompiled components, persisted vector indexes, logs.

Processes that build the same entry (a compiled component, a vector index) take turns on a lock
file beside it: :func:`flock_within`.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

CACHE_ENV = "RS_LEARN_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$RS_LEARN_CACHE_DIR`` or ``~/.cache/rs-learn``."""
    env = os.environ.get(CACHE_ENV)
    return Path(env) if env else Path.home() / ".cache" / "rs-learn"


def flock_within(fd: int, wait_s: float, poll_s: float) -> bool:
    """Lock ``fd`` (exclusive ``flock``), polling every ``poll_s`` up to ``wait_s``; whether it was locked."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(poll_s)
