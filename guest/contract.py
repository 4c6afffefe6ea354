"""``describe`` and ``names``: what a host needs of the guest without running the guest's code.

``describe``: the limits, field lists and enums a host builds its schemas and bounds from, and the
verb spec (``verbs``, :mod:`guest.spec`): every exposed verb's fields with type, range, default and help.

A host must not import the guest's code to learn them (the component is the boundary, and a limit
edited in the sources reaches the loaded ``.wasm`` only with a rebuild). ``scripts/build_component.py``
writes this answer, taken from the very sources it compiles, to ``host_harness/contract.json``; a
test checks that file against the answer of both targets (``docs/host-contract.md``).

Each section names the guest module its values come from; a value keeps that module's name.
Patterns are Python ``fullmatch`` patterns; tuples become lists in their order, sets sorted lists.

``names``: names as the guest reads them, for a host about to use them -- a skill name as a managed
skill's (which authored skill shadows which), the kind of secret a discipline name reads as (a
discipline is a folder git commits). Both answers are the guest's rules, which the host does not copy.
"""

from __future__ import annotations

import re
from typing import Any

from guest import host, requests
from guest.archive import search as archive_search
from guest.archive import verbs as archive
from guest.capture import verbs as capture
from guest.errors import InvalidRequest
from guest.learn import skills
from guest.learn import verbs as learn
from guest.memory import bulk, limits, listing, lookup, tombstones
from guest.memory import verbs as memory
from guest.screening.screen import secret_name
from guest.spec import VERBS
from guest.structured import fields, shapes, store, tree

BUDGETS = ("DEFAULT_BUDGET_TOKENS", "MIN_BUDGET_TOKENS", "MAX_BUDGET_TOKENS")
SOURCES = {
    "host": (host, ("CONTRACT",)),
    "requests": (requests, ("MAX_BODY_BYTES", "MAX_DEPTH", "NAME_RE")),
    "memory.limits": (limits, ("DEFAULT_LIMIT", "MAX_LIMIT", "MAX_QUERY_BYTES", "MAX_TEXT_BYTES", "MODES")),
    "memory.listing": (listing, ("CURSOR_RE", "DEFAULT_PAGE", "INCLUDE", "MAX_PAGE", "MAX_QUERY_BYTES")),
    "memory.lookup": (lookup, ("ID_RE", "MAX_IDS")),
    "memory.tombstones": (tombstones, ("MAX_REASON_BYTES",)),
    "memory.bulk": (bulk, ("MAX_CONTEXT_BYTES", "MAX_SPLIT_BYTES")),
    "structured.fields": (fields, ("DUE_RE", "MAX_ORDINAL", "MAX_PRIORITY", "MAX_TAGS", "MAX_TEXT_BYTES",
                                   "MAX_TITLE_CHARS", "MAX_VERSION", "SCOPE_KEYS", "TAG_RE")),
    "structured.shapes": (shapes, ("ALL_KINDS", "ALL_STATUSES", "FIELDS", "MAX_LIMIT", "MAX_QUERY_BYTES",
                                   "MAX_TOKENS", "QUERY_FIELDS")),
    "structured.store": (store, ("PREFIXES", "STATUSES")),
    "structured.tree": (tree, ("ITEM_FIELDS",)),
    "archive.verbs": (archive, ("MAX_CONTENT_BYTES", "MAX_QUERY_BYTES")),
    "archive.search": (archive_search, ("DEFAULT_LIMIT", "MAX_LIMIT")),
    "learn.skills": (skills, ("MAX_FILE_BYTES", "MAX_NAME")),
    # the budgets of auto_recall (hook prompt-submit), session_start and capture_context (session-context)
    "memory.verbs": (memory, BUDGETS),
    "learn.verbs": (learn, BUDGETS),
    "capture.verbs": (capture, BUDGETS),
}


def plain(value: Any) -> Any:
    """``value`` as JSON data: a pattern's text, a tuple as a list, a set as a sorted list."""
    if isinstance(value, re.Pattern):
        return value.pattern
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted(value)
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    return value


def describe(_body: dict[str, Any]) -> dict[str, Any]:
    """``describe``: every section of the host's contract, in this module's order, then ``verbs``.

    ``verbs`` is the verb spec (:mod:`guest.spec`): each exposed verb's fields, with type, range,
    default and help.
    """
    sections = {name: {key: plain(getattr(module, key)) for key in keys}
                for name, (module, keys) in SOURCES.items()}
    return {**sections, "verbs": plain(VERBS)}


def names(body: dict[str, Any]) -> dict[str, Any]:
    """``names {skills?, disciplines?}``: how the guest reads each name, in the order given.

    A skill name kebab-cased as a managed skill's (``""``: nothing usable); a discipline name's kind
    of secret (``null``: none).
    """
    return {"skills": [skills.sanitize_name(name) for name in _names(body, "skills")],
            "disciplines": [secret_name(name) for name in _names(body, "disciplines")]}


def _names(body: dict[str, Any], field: str) -> list[str]:
    """The list of strings ``body[field]`` (empty when missing)."""
    value = body.get(field, [])
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise InvalidRequest(f"field {field!r} must be a list of strings")
    return value
