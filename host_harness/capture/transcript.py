"""Claude Code's transcript (one JSON object per line), read incrementally, as the events capture needs.

The CLI appends one entry per line to ``~/.claude/projects/<the folder, every character but a-z, A-Z
and 0-9 replaced by ->/<session id>.jsonl``. The entries capture reads:

* ``{"type": "user", "message": {"content": "..."}}``: a prompt the user typed (``content`` may also
  be a list of ``{"type": "text"}`` blocks). Not a prompt: an entry marked ``isMeta`` (the CLI's own
  additions), ``isSidechain`` (a subagent's conversation: its "user" is the main agent),
  ``isCompactSummary`` (the model's summary after a compaction), and texts the CLI wraps in
  ``<command-name>``, ``<local-command-stdout>``, ``<system-reminder>`` ...;
* ``{"type": "assistant", "message": {"content": [{"type": "tool_use", "id", "name", "input"}]}}``;
* ``{"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id", "content",
  "is_error"}]}}``: what a tool answered.

Each entry also carries ``timestamp`` (ISO 8601), ``sessionId``, ``cwd`` and ``gitBranch``.
:func:`read_from` parses the complete lines after a byte offset (a line still being written is
left for the next run) and says where the next run starts.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

NOT_TYPED = re.compile(
    r"^\s*(<command-|<local-command-|<system-reminder>|<user-prompt-submit-hook>|"
    r"\[Request interrupted|Caveat: The messages below)"
)
CHUNK = 1 << 20


@dataclass
class Entry:
    """One line of the transcript, as capture sees it."""

    offset: int  # where its line starts (bytes)
    length: int  # its line's length (bytes, without the line break)
    kind: str  # "prompt", "tool_use", "tool_result", "other"
    at: int | None  # epoch milliseconds
    session: str | None = None
    branch: str | None = None
    text: str = ""  # a prompt's text
    uses: list[dict[str, Any]] = field(default_factory=list)  # tool_use blocks
    results: list[dict[str, Any]] = field(default_factory=list)  # tool_result blocks


def read_from(path: Path, offset: int) -> tuple[list[Entry], int]:
    """The entries of the complete lines after ``offset``, and the offset after the last of them.

    An offset beyond the file's end (the file was replaced or cut) starts again from 0.
    """
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if offset > size:
            offset = 0
        handle.seek(offset)
        data = handle.read(size - offset)
    end = data.rfind(b"\n") + 1  # only complete lines
    entries = list(parse(data[:end], offset))
    return entries, offset + end


def read_line(path: Path, offset: int, length: int) -> dict[str, Any] | None:
    """The JSON object of the line at ``offset`` (``None`` when it is no longer there)."""
    with open(path, "rb") as handle:
        handle.seek(offset)
        raw = handle.read(length)
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def parse(data: bytes, base: int = 0) -> Iterator[Entry]:
    """The entries of ``data`` (complete lines), ``base`` being the offset of its first byte."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end]
        if line.strip():
            entry = entry_of(line, base + start)
            if entry is not None:
                yield entry
        start = end + 1


def entry_of(line: bytes, offset: int) -> Entry | None:
    """The :class:`Entry` of one line, ``None`` for a line that is not a JSON object."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    message = value.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    entry = Entry(
        offset,
        len(line),
        "other",
        timestamp_ms(value.get("timestamp")),
        _string(value.get("sessionId")),
        _string(value.get("gitBranch")),
    )
    if value.get("isSidechain") or value.get("isMeta"):
        return entry  # a subagent's or the CLI's own text: never the user's
    if value.get("type") == "assistant" and isinstance(content, list):
        entry.uses = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
        entry.kind = "tool_use" if entry.uses else "other"
    elif value.get("type") == "user":
        if isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in content
        ):
            entry.kind = "tool_result"
            entry.results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
        elif not value.get("isCompactSummary") and not value.get("isVisibleInTranscriptOnly"):
            text = prompt_text(content)
            if text and not NOT_TYPED.match(text):
                entry.kind, entry.text = "prompt", text
    return entry


def prompt_text(content: Any) -> str:
    """The text of a user message's ``content`` (a string, or its text blocks joined)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b["text"]
            for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        )
    return ""


def result_text(block: dict[str, Any]) -> str:
    """The text of a ``tool_result`` block (a string, or its text parts joined)."""
    return prompt_text(block.get("content"))


def timestamp_ms(value: Any) -> int | None:
    """Epoch milliseconds of an ISO 8601 ``timestamp`` (``None`` when there is none)."""
    if not isinstance(value, str):
        return None
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return None


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def folder_name(path: Path) -> str:
    """The folder Claude Code keeps the transcripts of sessions started in ``path`` in."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(path))
