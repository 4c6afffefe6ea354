"""A spool request's own scope: the ``$spool`` wrapper field (``docs/decisions.md`` D78).

Structured memory takes its scope from the host's trusted configuration, never from a request
(D18): a watcher answers with the scope of its ``--actor``/``--conversation``/``--project-id``/
``--thread``/``--global`` options or ``RS_LEARN_SCOPE_*``, like the CLI. A spool shared by several
agents may need one scope per request; then the *writer of the spool* (the program that puts agents'
requests into ``in/``, trusted like the watcher's configuration) names it beside the body::

    {"$spool": {"scope": {"projectId": "app", "threadId": "t-7"}}, "title": "Fix the login test"}

The watcher takes ``$spool`` off before the guest sees the body, and uses its ``scope`` for that one
call -- only when it was started with :data:`TRUST_FLAG`; otherwise the request is refused with an
error naming the flag (an agent that can write into ``in/`` must not pick its own scope). The scope
replaces the watcher's for the call; ``{}`` or ``null`` means unscoped. Only a JSON object body can
carry the wrapper; any other body is given to the guest unchanged.
"""

from __future__ import annotations

import json
from typing import Any

from host_harness.spool.inbox import BodyError

WRAPPER = "$spool"
TRUST_FLAG = "--trust-request-scope"
ID_FIELDS = ("actorId", "conversationId", "projectId", "threadId")
MAX_ID_CHARS = 256


def unwrap(body: str, trusted: bool) -> tuple[str, dict[str, Any] | None] | None:
    """``(body without the wrapper, its scope)`` when ``body`` carries ``$spool`` with a scope.

    ``None`` when there is no scope to apply (no wrapper, or one without ``scope``: the body then
    goes on without it). :class:`BodyError` for a malformed wrapper, or a scope without ``trusted``.
    """
    if not body.lstrip().startswith("{"):  # raw text, a bare string: no wrapper
        return None
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None  # the guest names what does not parse
    if not isinstance(value, dict) or WRAPPER not in value:
        return None
    wrapper = value.pop(WRAPPER)
    rest = json.dumps(value, ensure_ascii=False)
    if not isinstance(wrapper, dict):
        raise BodyError(f"validation: field '{WRAPPER}' must be an object, got {json.dumps(wrapper)[:80]}")
    unknown = sorted(set(wrapper) - {"scope"})
    if unknown:
        raise BodyError(f"validation: field '{WRAPPER}.{unknown[0]}' is unknown (known: scope)")
    if "scope" not in wrapper:
        return rest, None  # an empty wrapper: nothing to apply, but never passed on
    if not trusted:
        raise BodyError(
            f"validation: field '{WRAPPER}.scope' is refused: this watcher was not started with "
            f"{TRUST_FLAG} (a request's scope is trusted configuration: see docs/spool.md)"
        )
    return rest, checked_scope(wrapper["scope"])


def checked_scope(value: Any) -> dict[str, Any] | None:
    """A request scope as the host serves it (``host/scope``); ``None`` for unscoped."""
    where = f"{WRAPPER}.scope"
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BodyError(f"validation: field '{where}' must be an object, got {json.dumps(value)[:80]}")
    unknown = sorted(set(value) - {*ID_FIELDS, "global"})
    if unknown:
        raise BodyError(f"validation: field '{where}.{unknown[0]}' is unknown (known: "
                        f"{', '.join(ID_FIELDS)}, global)")
    ids: dict[str, str | None] = {}
    for name in ID_FIELDS:
        item = value.get(name)
        if item is not None and not (isinstance(item, str) and 0 < len(item) <= MAX_ID_CHARS):
            raise BodyError(f"validation: field '{where}.{name}' must be a string of 1 to {MAX_ID_CHARS} "
                            f"characters or null, got {json.dumps(item)[:80]}")
        ids[name] = item
    flag = value.get("global", False)
    if not isinstance(flag, bool):
        raise BodyError(f"validation: field '{where}.global' must be true or false, "
                        f"got {json.dumps(flag)[:80]}")
    return {**ids, "global": flag} if any(ids.values()) or flag else None
