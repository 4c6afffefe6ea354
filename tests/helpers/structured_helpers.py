"""Shared helpers of the structured-memory tests (issue #4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from envelopes import call
from stores import store_digest


def fails(guest, verb: str, body: Any, kind: str) -> str:
    """The error message of a call that must fail with ``kind``."""
    envelope = call(guest, verb, body)
    assert envelope["ok"] is False, envelope
    assert envelope["error"].startswith(f"{kind}: "), envelope["error"]
    return envelope["error"]


def db_digest(project: Path) -> str | None:
    """The project store's contents (file bytes or PostgreSQL rows); ``None`` when it does not exist."""
    return store_digest(project)


def ids(data: dict) -> list[str]:
    """The record ids of a ``query_records`` answer, in rank order."""
    return [hit["record"]["id"] for hit in data["hits"]]


def write_config(project: Path, **memory: Any) -> None:
    """Set the ``memory`` block of ``.gm/config.json`` (the rest of the file, e.g. the store, is kept)."""
    gm = project / ".gm"
    gm.mkdir(exist_ok=True)
    path = gm / "config.json"
    document = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    path.write_text(json.dumps({**document, "memory": memory}), encoding="utf-8")


def nested(depth: int) -> list[dict]:
    """A chain of ``depth`` items, each the only child of the previous one."""
    node: list[dict] = []
    for level in range(depth, 0, -1):
        node = [{"title": f"level {level}", **({"items": node} if node else {})}]
    return node
