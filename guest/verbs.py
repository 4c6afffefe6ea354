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


class Rendered:
    """A verb's data already rendered as JSON text: the engine splices it into the envelope.

    For answers whose generic encoding is the expensive part of the call (``embed``: 384 floats).
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text
