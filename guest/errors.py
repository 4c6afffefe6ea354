"""Errors are values with names, translated once at each boundary."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine reports to a caller."""

    kind = "internal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


class InvalidRequest(EngineError):
    """The request is malformed: wrong type, missing field, out of range."""

    kind = "validation"


class NotFound(EngineError):
    """The request names something that does not exist."""

    kind = "not_found"


class Conflict(EngineError):
    """The request conflicts with the stored state (e.g. a stale version)."""

    kind = "conflict"


class Internal(EngineError):
    """The engine or its host failed; the request itself may be fine."""

    kind = "internal"
