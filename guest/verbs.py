"""What a capability module hands the engine: its verbs.

Each capability (memory, archive, structured records, learn) builds a
``dict[str, Verb]``; ``guest/engine.py`` merges them into one dispatch table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Handler = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class Verb:
    """A dispatch verb: its handler, and the field a bare string or raw-text body fills."""

    handler: Handler
    text_field: str = "text"
