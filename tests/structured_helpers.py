"""Shared helpers of the structured-memory tests (issue #4)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from envelopes import call


def fails(guest, verb: str, body: Any, kind: str) -> str:
    """The error message of a call that must fail with ``kind``."""
    envelope = call(guest, verb, body)
    assert envelope["ok"] is False, envelope
    assert envelope["error"].startswith(f"{kind}: "), envelope["error"]
    return envelope["error"]


def db_digest(project: Path) -> str | None:
    path = project / ".gm" / "rs-learn.db"
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def ids(data: dict) -> list[str]:
    """The record ids of a ``query_records`` answer, in rank order."""
    return [hit["record"]["id"] for hit in data["hits"]]


def write_config(project: Path, **memory: Any) -> None:
    gm = project / ".gm"
    gm.mkdir(exist_ok=True)
    (gm / "config.json").write_text(json.dumps({"memory": memory}), encoding="utf-8")


def nested(depth: int) -> list[dict]:
    """A chain of ``depth`` items, each the only child of the previous one."""
    node: list[dict] = []
    for level in range(depth, 0, -1):
        node = [{"title": f"level {level}", **({"items": node} if node else {})}]
    return node
