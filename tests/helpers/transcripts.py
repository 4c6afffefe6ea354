"""Claude Code transcripts for the capture tests and the dev set: the JSONL lines the CLI writes.

The shapes are the CLI's (checked against the transcripts ``claude -p`` writes in
``tests/process/test_capture_hooks.py``): every line carries ``type``, ``uuid``, ``parentUuid``,
``sessionId``, ``timestamp``, ``cwd``, ``gitBranch``, ``version`` and ``message``; a tool's answer is a
``user`` line whose content is a ``tool_result`` block (with the CLI's own ``toolUseResult`` beside it).

The other ``user`` lines the CLI writes (:class:`Current`, as Claude Code 2.1.332 writes them, seen in
the transcripts of an interactive session and of ``claude -p`` against a stand-in API; the shapes of
notifications and other agents' messages as its bundle builds them): a typed prompt carries
``origin: {kind: human}`` and ``promptSource: typed`` (``rowSource: local`` and ``promptSource: sdk``
under ``-p``); ``!`` bash mode writes ``<bash-input>CMD</bash-input>`` then
``<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>``, both ``rowSource: local``; a background
task's ``<task-notification>``, a teammate's ``<teammate-message>``, another session's
``<cross-session-message>`` come with an ``origin`` of their own kind; reminders are ``<system-reminder>``
text blocks beside the prompt's; a paste is ``<pasted_content id="…">`` inside the prompt; a prompt typed
while the agent works is a ``queued_command`` attachment.
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

    def shaped(self, content: str | list[dict[str, Any]], **extra: Any) -> Transcript:
        """A ``user`` line with ``content`` as given (blocks, tags) and the fields in ``extra``."""
        self._line("user", {"role": "user", "content": content}, **extra)
        return self

    def text(self) -> str:
        return "".join(json.dumps(line) + "\n" for line in self.lines)

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.text(), encoding="utf-8")
        return path


class Current(Transcript):
    """The lines of the current Claude Code (2.1.332): provenance fields on each ``user`` line."""

    VERSION = "2.1.332"

    def _line(self, kind: str, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
        return super()._line(kind, message, **{"version": self.VERSION, "entrypoint": "cli", **extra})

    def prompt(self, text: str, **extra: Any) -> Current:
        """Typed at the prompt of an interactive session."""
        self._line("user", {"role": "user", "content": text}, origin={"kind": "human"}, promptSource="typed",
                   turnOrigin="human", permissionMode="default", **extra)
        return self

    def printed(self, text: str) -> Current:
        """The prompt of ``claude -p TEXT``."""
        self._line("user", {"role": "user", "content": text}, promptSource="sdk", rowSource="local",
                   turnOrigin="sdk", entrypoint="sdk-cli")
        return self

    def bash_mode(self, command: str, stdout: str, stderr: str = "") -> Current:
        """``! COMMAND`` typed at the prompt: the command, then its output, as two user lines."""
        self.shaped(f"<bash-input>{command}</bash-input>", rowSource="local")
        self.shaped(f"<bash-stdout>{stdout}</bash-stdout><bash-stderr>{stderr}</bash-stderr>",
                    rowSource="local", turnOrigin="human")
        return self

    def task_notification(self, summary: str, result: str) -> Current:
        """A background task's report, delivered as a user line."""
        body = (f"<task-notification>\n<task-id>b7q2x</task-id>\n<status>completed</status>\n"
                f"<summary>{summary}</summary>\n<result>{result}</result>\n</task-notification>")
        return self.shaped(body, origin={"kind": "task-notification"})

    def teammate(self, name: str, text: str) -> Current:
        return self.shaped(f'<teammate-message teammate_id="{name}">\n{text}\n</teammate-message>',
                           origin={"kind": "peer"})

    def cross_session(self, text: str) -> Current:
        return self.shaped(f'<cross-session-message from="4f0c2a" from-name="docs-bot">\n{text}\n'
                           "</cross-session-message>", origin={"kind": "peer"})

    def queued(self, text: str, mode: str = "prompt", **origin: str) -> Current:
        """A prompt typed while the agent worked (``mode`` ``bash`` for ``! …``, ``task-notification``)."""
        attachment = {"type": "queued_command", "prompt": text, "commandMode": mode,
                      "origin": origin or {"kind": "human"}}
        line = self._line("attachment", {}, attachment=attachment)
        del line["message"]
        return self
