"""Claude Code transcripts for the capture tests and the dev set: the JSONL lines the CLI writes.

The shapes are the CLI's (checked against the transcripts ``claude -p`` writes in
``tests/test_capture_hooks.py``): every line carries ``type``, ``uuid``, ``parentUuid``,
``sessionId``, ``timestamp``, ``cwd``, ``gitBranch``, ``version`` and ``message``; a tool's answer is a
``user`` line whose content is a ``tool_result`` block (with the CLI's own ``toolUseResult`` beside it).
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class Transcript:
    """A session being written: each call appends one line, a second later than the one before."""

    def __init__(self, cwd: Path | str, session: str | None = None, branch: str = "main") -> None:
        self.cwd, self.branch = str(cwd), branch
        self.session = session or str(uuid.uuid5(uuid.NAMESPACE_URL, f"{cwd}/{len(str(cwd))}"))
        self.lines: list[dict[str, Any]] = []
        self.clock = START
        self.uses = 0

    def _line(self, kind: str, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
        self.clock += timedelta(seconds=1)
        line = {
            "parentUuid": self.lines[-1]["uuid"] if self.lines else None,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session,
            "version": "2.1.197",
            "gitBranch": self.branch,
            "type": kind,
            "message": message,
            "uuid": str(uuid.uuid5(uuid.NAMESPACE_OID, f"{self.session}/{len(self.lines)}")),
            "timestamp": self.clock.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            **extra,
        }
        self.lines.append(line)
        return line

    def prompt(self, text: str, **extra: Any) -> Transcript:
        """The user types ``text``."""
        self._line("user", {"role": "user", "content": text}, **extra)
        return self

    def say(self, text: str) -> Transcript:
        """The assistant answers with ``text``."""
        self._line(
            "assistant",
            {
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "type": "message",
                "content": [{"type": "text", "text": text}],
            },
        )
        return self

    def tool(self, name: str, data: dict[str, Any], output: str, error: bool = False) -> Transcript:
        """The assistant uses tool ``name`` with ``data``; it answers ``output`` (an error if ``error``)."""
        self.uses += 1
        use_id = f"toolu_{self.session[:8]}{self.uses:04d}"
        self._line(
            "assistant",
            {
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "type": "message",
                "content": [{"type": "tool_use", "id": use_id, "name": name, "input": data}],
            },
        )
        result = {"type": "tool_result", "tool_use_id": use_id, "content": output, "is_error": error}
        extra = {"stdout": output, "stderr": "", "interrupted": False} if name == "Bash" else {"type": "text"}
        self._line("user", {"role": "user", "content": [result]}, toolUseResult=extra)
        return self

    def bash(self, command: str, output: str, code: int = 0) -> Transcript:
        """A shell command and its output (a non-zero ``code`` is an error, as the CLI reports it)."""
        return self.tool(
            "Bash",
            {"command": command, "description": "run it"},
            f"Exit code {code}\n{output}" if code else output,
            error=code != 0,
        )

    def edit(self, path: str, old: str = "a", new: str = "b") -> Transcript:
        return self.tool(
            "Edit",
            {"file_path": f"{self.cwd}/{path}", "old_string": old, "new_string": new},
            f"The file {self.cwd}/{path} has been updated.",
        )

    def read(self, path: str, content: str) -> Transcript:
        return self.tool("Read", {"file_path": f"{self.cwd}/{path}"}, content)

    def todos(self, *items: tuple[str, str]) -> Transcript:
        return self.tool(
            "TodoWrite",
            {"todos": [{"content": c, "status": s, "activeForm": c} for c, s in items]},
            "Todos have been modified successfully.",
        )

    def text(self) -> str:
        return "".join(json.dumps(line) + "\n" for line in self.lines)

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.text(), encoding="utf-8")
        return path
