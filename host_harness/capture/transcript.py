"""Claude Code's transcript (one JSON object per line), read incrementally, as the events capture needs.

The CLI appends one entry per line to ``~/.claude/projects/<the folder, every character but a-z, A-Z
and 0-9 replaced by ->/<session id>.jsonl``. The entries capture reads:

* a prompt the user typed: a ``user`` entry (or a ``queued_command`` attachment) that the allow-list
  of :mod:`host_harness.capture.typed` accepts, reduced to its typed text;
* ``{"type": "assistant", "message": {"content": [{"type": "tool_use", "id", "name", "input"}]}}``;
* ``{"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id", "content",
  "is_error"}]}}``: what a tool answered.

Each entry also carries ``timestamp`` (ISO 8601), ``sessionId``, ``cwd`` and ``gitBranch``.
:class:`Reader` streams the complete lines after a byte offset through :mod:`host_harness.capture.jsonl`
(regular files only, bounded lines, a bad line skipped and said) and says where the next run starts.
:func:`entry_of` is the one function that knows Claude Code's format: another agent's transcript is
read by the same :class:`Reader` given its own function that maps a line's object onto an
:class:`Entry` (and its own allow-list of what its user typed, as :mod:`host_harness.capture.typed`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from host_harness.capture import jsonl, typed
from host_harness.capture.jsonl import Skipped


@dataclass
class Entry:
    """One line of the transcript, as capture sees it."""

    offset: int  # where its line starts (bytes)
    length: int  # its line's length (bytes, without the line break)
    kind: str  # "prompt", "tool_use", "tool_result", "other"
    at: int | None  # epoch milliseconds
    session: str | None = None
    branch: str | None = None
    text: str = ""  # a prompt's typed text
    size: int = 0  # a prompt's bytes, pastes and all (what an archived paste would hold)
    uses: list[dict[str, Any]] = field(default_factory=list)  # tool_use blocks
    results: list[dict[str, Any]] = field(default_factory=list)  # tool_result blocks


EntryOf = Callable[[dict[str, Any], int, int], Entry]  # (a line's object, its offset, its length)


class Reader:
    """The entries of the complete lines of ``path`` after ``offset``, read as they are iterated.

    After the iteration, :attr:`offset` is where the next run starts, :attr:`entries` how many were
    read and :attr:`skipped` the lines that could not be (each with why). An offset beyond the file's
    end (the file was replaced or cut) starts again from 0. :class:`jsonl.NotRegular` for a FIFO or a
    device. ``parse_entry`` maps one line's object (and where the line is) to an :class:`Entry`:
    Claude Code's :func:`entry_of` unless another agent's format is read.
    """

    def __init__(self, path: Path, offset: int, parse_entry: EntryOf | None = None) -> None:
        self.path, self.start, self.offset = path, offset, offset
        self.parse_entry = parse_entry or entry_of
        self.entries = 0
        self.skipped: list[Skipped] = []

    def __iter__(self) -> Iterator[Entry]:
        with jsonl.open_regular(self.path) as handle:
            size = handle.seek(0, 2)
            if self.start > size:
                self.start = self.offset = 0
            for line in jsonl.lines(handle, self.start):
                self.offset = line.offset + line.length + 1
                value = jsonl.parse(line)
                if isinstance(value, str):
                    self.skipped.append(Skipped(line.offset, value))
                elif value is not None:
                    self.entries += 1
                    yield self.parse_entry(value, line.offset, line.length)


def read_line(path: Path, offset: int, length: int) -> dict[str, Any] | None:
    """The JSON object of the line at ``offset`` (``None`` when it is no longer there or not one)."""
    if length > jsonl.MAX_LINE_BYTES:
        return None
    with jsonl.open_regular(path) as handle:
        handle.seek(offset)
        value = jsonl.parse(jsonl.Line(offset, length, handle.read(length)))
    return value if isinstance(value, dict) else None


def entry_of(value: dict[str, Any], offset: int, length: int) -> Entry:
    """The :class:`Entry` of one line's JSON object."""
    message = value.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    entry = Entry(
        offset, length, "other", timestamp_ms(value.get("timestamp")),
        _string(value.get("sessionId")), _string(value.get("gitBranch")),
    )
    if value.get("isSidechain"):
        return entry  # a subagent's conversation: its "user" is the main agent
    if value.get("type") == "assistant" and isinstance(content, list):
        entry.uses = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
        entry.kind = "tool_use" if entry.uses else "other"
    elif value.get("type") == "user" and isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in content
    ):
        entry.kind = "tool_result"  # never typed, whatever it says
        entry.results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
    elif (text := typed.typed_text(value) or typed.queued_text(value)) is not None:
        entry.kind, entry.text = "prompt", text
        entry.size = len(prompt_text(_prompt_content(value)).encode("utf-8"))
    return entry


def prompt_block(value: dict[str, Any]) -> str:
    """The whole text of a prompt's line (what is archived for a long paste)."""
    return prompt_text(_prompt_content(value))


def _prompt_content(value: dict[str, Any]) -> Any:
    attachment = value.get("attachment")
    if isinstance(attachment, dict):
        return attachment.get("prompt")
    message = value.get("message")
    return message.get("content") if isinstance(message, dict) else None


def prompt_text(content: Any) -> str:
    """The text of a message's ``content`` (a string, or its text blocks joined)."""
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
