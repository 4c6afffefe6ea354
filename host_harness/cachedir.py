"""The user's rs-learn cache directory: precompiled components, persisted vector indexes, logs."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "RS_LEARN_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$RS_LEARN_CACHE_DIR`` or ``~/.cache/rs-learn``."""
    env = os.environ.get(CACHE_ENV)
    return Path(env) if env else Path.home() / ".cache" / "rs-learn"
