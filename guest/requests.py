"""Request bodies: JSON object, bare JSON string or raw text, validated.

Every check names the field and the offending value; nothing here touches a store.

Two checks cover every field of every verb at once, before any handler sees the body:

* nesting is bounded *before* parsing (:data:`MAX_DEPTH` arrays/objects deep): the JSON
  decoder recurses once per level, and at about a thousand levels it raises
  ``RecursionError`` natively or exhausts the component's call stack (a trap);
* no string of the parsed body -- value or key, at any depth -- may hold a lone surrogate
  (JSON's ``"\\ud800"`` escapes decode to one): it cannot be stored as UTF-8.
"""

from __future__ import annotations

import json
import re
from typing import Any

from guest.errors import InvalidRequest

MAX_BODY_BYTES = 2 * 1024 * 1024
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
DEFAULT_NAMESPACE = "default"
RESERVED_NAMES = frozenset({"host"})  # the host's read-only namespace (wit/rs-learn.wit)
# Windows' device names, in any case, with any extension: a folder so named breaks a checkout there.
DEVICE_RE = re.compile(r"(?:CON|PRN|AUX|NUL|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3])(?:\..*)?",
                       re.IGNORECASE | re.DOTALL)
# Deep enough for every verb (a checklist of maxChecklistDepth 64 nests ~130 levels), far below
# the ~1,000 levels at which the decoder fails.
MAX_DEPTH = 256
# A JSON string (unrolled: no backtracking on megabyte strings), an opener, a closer.
_NESTING_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|([\[{])|[\]}]', re.S)
_SURROGATE_ESCAPE_RE = re.compile(r"\\u[dD][89a-fA-F]")


def parse_body(body: str, text_field: str) -> dict[str, Any]:
    """Decode a body into an object; a string or raw text becomes ``{text_field: body}``."""
    check_unicode(body, "body")
    if len(body.encode("utf-8")) > MAX_BODY_BYTES:
        raise InvalidRequest(f"body is larger than {MAX_BODY_BYTES} bytes")
    stripped = body.strip()
    if not stripped:
        return {}
    if stripped[:1] in ("{", "[", '"'):
        check_depth(stripped)
        try:
            value = json.loads(stripped)
        except ValueError as error:
            raise InvalidRequest(f"body looks like JSON but does not parse: {error}") from None
        if _SURROGATE_ESCAPE_RE.search(stripped):  # raw surrogates were refused above: only escapes
            check_strings(value, "")
        if isinstance(value, str):
            return {text_field: value}
        if not isinstance(value, dict):
            expected = "a JSON object, a JSON string or raw text"
            raise InvalidRequest(f"body must be {expected}, not {kind_of(value)}")
        return value
    return {text_field: body}


def check_depth(text: str) -> None:
    """Refuse JSON text whose arrays and objects nest deeper than :data:`MAX_DEPTH`."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return  # cannot nest deeper: no scan
    depth = 0
    for match in _NESTING_RE.finditer(text):
        if match.lastindex:  # an opener
            depth += 1
            if depth > MAX_DEPTH:
                raise InvalidRequest(f"body nests deeper than {MAX_DEPTH} levels of arrays and objects")
        elif match.end() - match.start() == 1:  # a closer (strings are at least 2 characters)
            depth = max(depth - 1, 0)


def check_strings(value: Any, path: str) -> None:
    """Refuse a lone surrogate in any string of a parsed body, naming the field (``skill.body``)."""
    if isinstance(value, str):
        check_unicode(value, f"field {path!r}" if path else "body")
    elif isinstance(value, dict):
        for key, item in value.items():
            check_unicode(key, f"a field name in {path!r}" if path else "a field name")
            check_strings(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_strings(item, f"{path}[{i}]")


def check_unicode(value: str, field: str) -> None:
    """Reject lone surrogates (they cannot be stored as UTF-8)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidRequest(f"{field} is not valid Unicode (lone surrogate)") from None


def text(obj: dict[str, Any], field: str, max_bytes: int, required: bool = True) -> str:
    """A non-blank string field of at most ``max_bytes`` UTF-8 bytes."""
    value = obj.get(field)
    if value is None and not required:
        return ""
    if value is None:
        raise InvalidRequest(f"missing field {field!r}")
    if not isinstance(value, str):
        raise InvalidRequest(f"field {field!r} must be a string, not {kind_of(value)}")
    check_unicode(value, field)
    if not value.strip():
        raise InvalidRequest(f"field {field!r} is empty")
    size = len(value.encode("utf-8"))
    if size > max_bytes:
        raise InvalidRequest(f"field {field!r} is {size} bytes; the limit is {max_bytes}")
    return value


def integer(obj: dict[str, Any], field: str, default: int, low: int, high: int) -> int:
    """An integer field within ``[low, high]``; absent or null gives ``default``."""
    value = obj.get(field, default)
    return default if value is None else as_integer(value, field, low, high)


def as_integer(value: Any, field: str, low: int, high: int) -> int:
    """``value`` as an integer within ``[low, high]`` (booleans and fractions are not integers)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequest(f"field {field!r} must be an integer, not {kind_of(value)}")
    if not low <= value <= high:
        raise InvalidRequest(f"field {field!r} must be between {low} and {high}, got {value}")
    return value


def number(obj: dict[str, Any], field: str, default: float, low: float, high: float) -> float:
    """A finite number field within ``[low, high]`` (booleans are not numbers)."""
    value = obj.get(field, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidRequest(f"field {field!r} must be a number, not {kind_of(value)}")
    if not low <= value <= high:  # also refuses NaN
        raise InvalidRequest(f"field {field!r} must be between {low:g} and {high:g}, got {value!r}")
    return float(value)


def boolean(obj: dict[str, Any], field: str, default: bool) -> bool:
    """A boolean field."""
    value = obj.get(field, default)
    if not isinstance(value, bool):
        raise InvalidRequest(f"field {field!r} must be true or false, not {kind_of(value)}")
    return value


def choice(obj: dict[str, Any], field: str, default: str, allowed: tuple[str, ...]) -> str:
    """A string field restricted to ``allowed``."""
    value = obj.get(field, default)
    if value not in allowed:
        raise InvalidRequest(f"field {field!r} must be one of {', '.join(allowed)}, got {value!r}")
    return str(value)


def namespace(
    obj: dict[str, Any], field: str = "namespace", default: str | None = DEFAULT_NAMESPACE
) -> str | None:
    """A namespace: ``default`` or a discipline name that cannot escape its directory."""
    value = obj.get(field, default)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidRequest(f"field {field!r} must be a string, not {kind_of(value)}")
    check_name(value, field)
    return value


def check_name(value: str, field: str) -> None:
    """Names are ``[A-Za-z0-9][A-Za-z0-9_-]{0,63}``: no ``/``, ``..``, NUL or absolute path; not ``host``.

    Nor a Windows device name (``CON``, ``nul``, ``LPT1``): the name becomes a folder of ``.gm/``.
    """
    if not NAME_RE.fullmatch(value):
        raise InvalidRequest(
            f"{field} {value!r} is not a valid name (letters, digits, '_' and '-', "
            "starting with a letter or digit, at most 64 characters)"
        )
    if value in RESERVED_NAMES:
        raise InvalidRequest(reserved(value, field))
    if is_device_name(value):
        raise InvalidRequest(device_name(value, field))


def is_device_name(name: str) -> bool:
    """Whether ``name`` is a Windows device name (``CON``, ``nul``, ``LPT1``, ``con.txt`` ...)."""
    return DEVICE_RE.fullmatch(name.rstrip(" .")) is not None


def reserved(name: str, what: str) -> str:
    """The message refusing a reserved discipline name."""
    return f"{what} {name!r} is reserved: it is the host's read-only namespace, not a discipline"


def device_name(name: str, what: str) -> str:
    """The message refusing a Windows device name."""
    return (f"{what} {name!r} is a reserved device name on Windows (CON, PRN, AUX, NUL, COM0-9, "
            "LPT0-9): a folder of that name breaks a checkout there; choose another name")


def kind_of(value: Any) -> str:
    """A JSON type name for messages (``a number``, ``an array``, ``null`` ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "a string" if isinstance(value, str) else type(value).__name__
