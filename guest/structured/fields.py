r"""Validation of structured-memory request fields; every error is ``validation:`` naming the field.

Limits: titles 1-200 characters; descriptions and note contents at most 16 KiB of UTF-8; at most
20 tags of 1-40 characters without whitespace, control characters, ``,``, ``#``, ``"`` or ``\\``
(stored lower-cased, duplicates dropped, order kept); ``due`` an ISO-8601 date ``YYYY-MM-DD`` or
date-time ``YYYY-MM-DDTHH:MM[:SS[.fff]]`` with ``Z`` or an offset; priority an integer 0-5 (5 most
urgent); importance a number 0-1; ordinal an integer 0-1,000,000; version an integer >= 1.

Scope never comes from a request: a body carrying any scope field -- ``scope``, ``actorId``,
``conversationId``, ``projectId``, ``threadId``, ``global`` (or their snake_case spellings) -- at
any depth is rejected, naming the field's path.
"""

from __future__ import annotations

import json
import re
from typing import Any

from guest.errors import InvalidRequest
from guest.requests import as_integer, check_unicode, kind_of
from guest.text import wordpin

MAX_TITLE_CHARS = 200
MAX_TEXT_BYTES = 16 * 1024
MAX_TAGS = 20
MAX_TAG_CHARS = 40
MAX_PRIORITY = 5
MAX_ORDINAL = 1_000_000
MAX_VERSION = 2**53
SCOPE_KEYS = frozenset(
    {"scope", "actorId", "conversationId", "projectId", "threadId", "global"}
    | {"actor_id", "conversation_id", "project_id", "thread_id"}
)
TAG_RE = re.compile(r'[^\s,#"\\\x00-\x1f\x7f]{1,40}')
DUE_RE = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?"
    r"(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?"
)
ID_RE = re.compile(r"(cl|td|nt|it)-([1-9][0-9]{0,15})")


integer = as_integer  # one integer check for every verb (guest/requests.py)


def reject_scope(value: Any, path: str = "") -> None:
    """Refuse any scope field anywhere in a request: scope comes from the host only."""
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if key in SCOPE_KEYS:
                raise InvalidRequest(
                    f"field {where!r} is a scope field; scope comes from the host's trusted "
                    "configuration, never from a request"
                )
            reject_scope(item, where)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            reject_scope(item, f"{path}[{i}]")


def only(body: dict[str, Any], allowed: tuple[str, ...], path: str = "") -> None:
    """Refuse fields outside ``allowed`` (typos must not be ignored silently)."""
    for key in body:
        if key not in allowed:
            where = f"{path}.{key}" if path else key
            raise InvalidRequest(f"unknown field {where!r}; allowed: {', '.join(allowed)}")


def title(value: Any, field: str) -> str:
    """A non-blank string of at most 200 characters."""
    if not isinstance(value, str):
        raise InvalidRequest(f"field {field!r} must be a string, not {kind_of(value)}")
    check_unicode(value, field)
    if not value.strip():
        raise InvalidRequest(f"field {field!r} is empty")
    if len(value) > MAX_TITLE_CHARS:
        raise InvalidRequest(f"field {field!r} has {len(value)} characters; the limit is {MAX_TITLE_CHARS}")
    return value.strip()


def text(value: Any, field: str, allow_empty: bool = False) -> str:
    """A string of at most 16 KiB of UTF-8 (blank only if ``allow_empty``)."""
    if not isinstance(value, str):
        raise InvalidRequest(f"field {field!r} must be a string, not {kind_of(value)}")
    check_unicode(value, field)
    if not allow_empty and not value.strip():
        raise InvalidRequest(f"field {field!r} is empty")
    size = len(value.encode("utf-8"))
    if size > MAX_TEXT_BYTES:
        raise InvalidRequest(f"field {field!r} is {size} bytes; the limit is {MAX_TEXT_BYTES}")
    return value


def tags(value: Any, field: str) -> list[str]:
    """A list of tags, lower-cased, duplicates dropped."""
    if not isinstance(value, list):
        raise InvalidRequest(f"field {field!r} must be an array of strings, not {kind_of(value)}")
    if len(value) > MAX_TAGS:
        raise InvalidRequest(f"field {field!r} has {len(value)} tags; the limit is {MAX_TAGS}")
    out: list[str] = []
    for i, tag in enumerate(value):
        if not isinstance(tag, str):
            raise InvalidRequest(f"field '{field}[{i}]' must be a string, not {kind_of(tag)}")
        check_unicode(tag, field)
        if not TAG_RE.fullmatch(tag):
            raise InvalidRequest(
                f"tag {tag[:60]!r} in {field!r} is not valid: 1-{MAX_TAG_CHARS} characters "
                "without whitespace, control characters, ',', '#', '\"' or '\\\\'"
            )
        folded = wordpin.lower(tag)  # the same on both targets (Unicode 14's case)
        if folded not in out:
            out.append(folded)
    return out


def due(value: Any, field: str) -> str | None:
    """``null`` or an ISO-8601 date or date-time with a real calendar date."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidRequest(f"field {field!r} must be an ISO-8601 date string or null, not {kind_of(value)}")
    match = DUE_RE.fullmatch(value)
    if match is None or not _real_date(int(match[1]), int(match[2]), int(match[3])):
        raise InvalidRequest(
            f"field {field!r} must be an ISO-8601 date (YYYY-MM-DD) or date-time "
            f"(YYYY-MM-DDTHH:MM[:SS]Z or with an offset), got {value[:60]!r}"
        )
    return value


def _real_date(year: int, month: int, day: int) -> bool:
    if year < 1 or not 1 <= month <= 12:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return 1 <= day <= days


def number(value: Any, field: str, low: float, high: float) -> float:
    """A finite number within ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidRequest(f"field {field!r} must be a number, not {kind_of(value)}")
    if not low <= value <= high:  # also refuses NaN
        raise InvalidRequest(f"field {field!r} must be between {low} and {high}, got {json.dumps(value)}")
    return float(value)


def choice(value: Any, field: str, allowed: tuple[str, ...]) -> str:
    """A string among ``allowed``."""
    if not isinstance(value, str) or value not in allowed:
        shown = json.dumps(value)[:60] if not isinstance(value, str) else repr(value[:60])
        raise InvalidRequest(f"field {field!r} must be one of {', '.join(allowed)}, got {shown}")
    return value


def boolean(value: Any, field: str) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, bool):
        raise InvalidRequest(f"field {field!r} must be true or false, not {kind_of(value)}")
    return value


def record_id(value: Any, field: str, prefixes: tuple[str, ...]) -> str:
    """An id ``<prefix>-<n>`` with one of ``prefixes`` (``cl``, ``td``, ``nt``, ``it``)."""
    if not isinstance(value, str):
        raise InvalidRequest(f"field {field!r} must be a string id, not {kind_of(value)}")
    match = ID_RE.fullmatch(value)
    if match is None or match[1] not in prefixes:
        wanted = " or ".join(f"{p}-<n>" for p in prefixes)
        raise InvalidRequest(f"field {field!r} must be an id of the form {wanted}, got {value[:60]!r}")
    return value


def version(body: dict[str, Any], field: str = "version") -> int | None:
    """The optional expected version of an update."""
    value = body.get(field)
    return None if value is None else integer(value, field, 1, MAX_VERSION)
