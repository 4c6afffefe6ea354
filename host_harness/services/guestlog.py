"""The guest's ``host-log`` lines: the ``rs_learn.guest`` logger, and each line kept with its event."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

LEVELS = {1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR}
MAX_LOG_RECORDS = 10_000

guest_log = logging.getLogger("rs_learn.guest")


@dataclass(frozen=True)
class LogRecord:
    """One ``host-log`` line; ``event`` is the parsed JSON of an ``evt: {json}`` message."""

    level: int
    msg: str
    event: dict[str, Any] | None = None


def parse_log_event(msg: str) -> dict[str, Any] | None:
    """Return the JSON object of a guest log line's structured ``evt: {json}`` message, else ``None``."""
    if not msg.startswith("evt:"):
        return None
    try:
        value = json.loads(msg[4:])
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
