"""Dispatching a verb in tests: one envelope helper for every capability's tests."""

from __future__ import annotations

import json
from typing import Any


def call(guest, verb: str, body: Any) -> dict:
    """Dispatch one verb; ``body`` may be a dict (sent as JSON) or a raw string."""
    raw = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
    return json.loads(guest.dispatch(verb, raw))


def ok(guest, verb: str, body: Any = None) -> Any:
    """The data of a call that must succeed."""
    envelope = call(guest, verb, {} if body is None else body)
    assert envelope["ok"], envelope
    assert envelope["verb"] == verb
    return envelope["data"]
