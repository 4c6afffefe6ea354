"""``Envelope``: the guest's reply to ``dispatch``, read in one place.

The guest answers every verb with one JSON object: ``{"ok": true, "verb", "data"}`` or ``{"ok": false,
"verb", "error"}`` (the error's kind first: ``validation:``, ``not_found:``, ``internal:`` ...), the
host adding ``"warnings"`` (what it left out of the call: ``host_harness/targets/base.py``). Every
host module that acts on a reply -- the CLI, the hooks, the git drivers, the managed-skill writes,
the MCP server and the UI -- reads it through :meth:`Envelope.of` or :meth:`Envelope.parse`, so
that "is it ok, what is the data, what went wrong" has one answer. A reply that is not an object, or
not JSON at all, is a failed envelope whose error shows its head.

Standard library only: the hooks' fast path reads the warm server's reply with it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

UNKNOWN_ERROR = "unknown error"
HEAD = 200  # characters of a reply that is no envelope, shown as its error


@dataclass(frozen=True)
class Envelope:
    """One reply: ``ok`` with its ``data``, or not with its ``error``; the host's ``warnings`` either way."""

    ok: bool
    data: Any = None
    error: str = ""
    verb: str = ""
    warnings: tuple[str, ...] = ()

    @classmethod
    def of(cls, value: Any) -> Envelope:
        """The envelope of a decoded reply; anything but an object with ``"ok": true`` is a failure."""
        if not isinstance(value, dict):
            return cls(False, error=str(value)[:HEAD])
        warnings = value.get("warnings")
        notes = tuple(str(w) for w in warnings) if isinstance(warnings, list) else ()
        verb = str(value.get("verb") or "")
        if value.get("ok") is True:
            return cls(True, value.get("data"), "", verb, notes)
        error = value.get("error")
        return cls(False, None, UNKNOWN_ERROR if error is None else str(error), verb, notes)

    @classmethod
    def parse(cls, text: str) -> Envelope:
        """The envelope of a reply's JSON text (text that is not JSON: a failure showing its head)."""
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return cls(False, error=text[:HEAD])
        return cls.of(value)
