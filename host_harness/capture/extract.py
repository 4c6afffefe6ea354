"""What is worth keeping in a session, decided without a model: rules, lessons, big blocks, the note.

* **Directives**: sentences of the user's own typed prompts (never the assistant's, a tool's or any
  other text the CLI writes as a user entry: ``host_harness/capture/typed.py``) that state a rule
  (``host_harness/capture/rules.py``): "Always …", "Don't ever …", "From now on …", "We use X, not
  Y" -- not a question, "never mind", a scope that ends ("for now", "for this test"), a one-off
  choice, a description, quoted text or code.
* **Lessons**: a shell command that failed, then edits, then the same command (white space aside)
  succeeding: "`CMD` failed with `the error line`; fixed by editing a.py, b.py."
* **Blocks**: tool results, files read, edits and pastes of at least ``block_bytes`` bytes, where
  they are in the transcript (re-read when archived) and what they were.
* **The session note**: the files edited, the commands run, the branch and the open todos.

:class:`Tracker` carries what a later run needs (a failure still waiting for its fix, the note's
lists) in the transcript's state (``host_harness/capture/state.py``); :meth:`Tracker.redact` passes
every text it holds through the guest's redaction before it is saved.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from host_harness.capture.rules import directives
from host_harness.capture.transcript import Entry, result_text

MAX_LABEL_CHARS = 100
MAX_FAILURES = 50
MAX_PENDING_BLOCKS = 500
MAX_LISTED = 200
SHELL_TOOLS = frozenset({"Bash"})
EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
NAMED_ERROR = re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b|\b[Ee]rror:")
ERROR_LINE = re.compile(r"error|exception|failed|failure|traceback|not found|cannot|denied|fatal", re.I)
EXIT_LINE = re.compile(r"^exit code \d+$", re.I)


def command_of(use: dict[str, Any]) -> str | None:
    """The shell command of a ``Bash`` tool use (white space collapsed)."""
    data = use.get("input")
    command = data.get("command") if isinstance(data, dict) else None
    return " ".join(command.split()) if isinstance(command, str) and command.strip() else None


def edited_file(use: dict[str, Any]) -> str | None:
    """The file an editing tool use changes."""
    data = use.get("input")
    if not isinstance(data, dict):
        return None
    path = data.get("file_path") or data.get("notebook_path")
    return path if isinstance(path, str) and path else None


def error_line(output: str) -> str:
    """The line of a failed command's output that says what went wrong (the last error-looking one)."""
    lines = [
        line.strip() for line in output.splitlines() if line.strip() and not EXIT_LINE.match(line.strip())
    ]
    for pattern in (NAMED_ERROR, ERROR_LINE):
        for line in reversed(lines):
            if pattern.search(line):
                return clip(line, 160)
    return clip(lines[-1], 160) if lines else "no output"


def clip(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1].rstrip() + "…"


def relative(path: str, project: Path) -> str:
    """``path`` relative to the project when it is inside (as the lessons and the note cite it)."""
    root = str(project).rstrip("/") + "/"
    return path[len(root) :] if path.startswith(root) else path


@dataclass
class Tracker:
    """What a session's capture carries from one run to the next (saved with the offset)."""

    session: str | None = None
    first_prompt: str = ""
    branch: str | None = None
    started: int | None = None
    last: int | None = None
    uses: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool_use id -> {name, label, command}
    failures: dict[str, dict[str, Any]] = field(default_factory=dict)  # command -> {error, edits, at}
    files: list[str] = field(default_factory=list)
    commands: dict[str, int] = field(default_factory=dict)  # command -> runs, in first-run order
    todos: list[dict[str, str]] = field(default_factory=list)
    blocks: list[dict[str, Any]] = field(default_factory=list)  # pending: {offset, length, part, label, at}
    changed: bool = False  # something for the note since it was last written

    @classmethod
    def load(cls, value: Any) -> Tracker:
        """A tracker from its saved form (a fresh one when it does not fit)."""
        if not isinstance(value, dict):
            return cls()
        known = {k: v for k, v in value.items() if k in cls.__dataclass_fields__}
        try:
            return cls(**known)
        except TypeError:
            return cls()

    def saved(self) -> dict[str, Any]:
        """The form :meth:`load` reads."""
        return asdict(self)

    def redact(self, clean: Callable[[list[str]], list[str]]) -> None:
        """Replace every text the tracker holds by ``clean``'s answer for it (one call for all, in order).

        The first prompt, the branch, the files, the commands, the errors, the todos, the labels: what
        the state file keeps, so that it keeps no secret the guest's redaction knows.
        """
        texts: list[str] = [self.first_prompt, self.branch or ""]
        texts += self.files + list(self.commands) + [t["content"] for t in self.todos]
        texts += [b["label"] for b in self.blocks]
        for use in self.uses.values():
            texts += [use["label"], use.get("command") or ""]
        for command, failure in self.failures.items():
            texts += [command, failure["error"], *failure["edits"]]
        done = iter(clean(texts))
        self.first_prompt, branch = next(done), next(done)
        self.branch = branch or None
        self.files = [next(done) for _ in self.files]
        self.commands = {next(done): runs for runs in self.commands.values()}
        for todo in self.todos:
            todo["content"] = next(done)
        for block in self.blocks:
            block["label"] = next(done)
        for use in self.uses.values():
            use["label"], command = next(done), next(done)
            use["command"] = command or None
        self.failures = {
            next(done): {**failure, "error": next(done), "edits": [next(done) for _ in failure["edits"]]}
            for failure in self.failures.values()
        }


@dataclass
class Found:
    """What one run found: directives and lessons (text, time)."""

    directives: list[tuple[str, int | None]] = field(default_factory=list)
    lessons: list[tuple[str, int | None]] = field(default_factory=list)


def scan(entries: Iterable[Entry], tracker: Tracker, project: Path, block_bytes: int) -> Found:
    """Go through new ``entries``: what they state or teach, and the tracker brought up to date."""
    found = Found()
    for entry in entries:
        tracker.session = tracker.session or entry.session
        tracker.branch = entry.branch or tracker.branch
        if entry.at is not None:
            tracker.started = tracker.started or entry.at
            tracker.last = entry.at
        if entry.kind == "prompt":
            if not tracker.first_prompt:
                tracker.first_prompt, tracker.changed = clip(entry.text, 200), True
            found.directives += [(text, entry.at) for text in directives(entry.text)]
            if entry.size >= block_bytes:
                _pending(tracker, entry, "prompt", f"pasted by the user: {clip(entry.text, 60)}")
        for use in entry.uses:
            _used(tracker, entry, use, project, block_bytes)
        for result in entry.results:
            _answered(tracker, entry, result, project, block_bytes, found)
    return found


def _used(tracker: Tracker, entry: Entry, use: dict[str, Any], project: Path, block_bytes: int) -> None:
    name = str(use.get("name") or "tool")
    use_id = use.get("id")
    given = use.get("input")
    data: dict[str, Any] = given if isinstance(given, dict) else {}
    if name in EDIT_TOOLS and (path := edited_file(use)):
        shown = relative(path, project)
        if shown not in tracker.files and len(tracker.files) < MAX_LISTED:
            tracker.files.append(shown)
        for failure in tracker.failures.values():
            if shown not in failure["edits"]:
                failure["edits"].append(shown)
        tracker.changed = True
        written = data.get("content") or data.get("new_string") or data.get("new_source")
        if (
            isinstance(written, str)
            and len(written.encode("utf-8")) >= block_bytes
            and isinstance(use_id, str)
        ):
            verb = "written" if name == "Write" else "edited"
            _pending(tracker, entry, f"use:{use_id}", f"{shown} as {verb}")
    if name == "TodoWrite" and isinstance(data.get("todos"), list):
        tracker.todos = [
            {"content": str(t.get("content")), "status": str(t.get("status"))}
            for t in data["todos"]
            if isinstance(t, dict) and t.get("content")
        ][:MAX_LISTED]
        tracker.changed = True
    if isinstance(use_id, str):
        label = _label(name, data, project)
        tracker.uses[use_id] = {
            "name": name,
            "label": label,
            "command": command_of(use) if name in SHELL_TOOLS else None,
        }


def _answered(
    tracker: Tracker, entry: Entry, result: dict[str, Any], project: Path, block_bytes: int, found: Found
) -> None:
    use = tracker.uses.pop(str(result.get("tool_use_id")), None)
    if use is None:
        return
    output = result_text(result)
    if len(output.encode("utf-8")) >= block_bytes:
        _pending(tracker, entry, f"result:{result.get('tool_use_id')}", use["label"])
    command = use.get("command")
    if not command:
        return
    tracker.commands[command] = tracker.commands.get(command, 0) + 1
    if len(tracker.commands) > MAX_LISTED:
        tracker.commands.pop(next(iter(tracker.commands)))
    tracker.changed = True
    if result.get("is_error"):
        old = tracker.failures.get(command)
        tracker.failures[command] = {
            "error": error_line(output),
            "edits": old["edits"] if old else [],
            "at": entry.at,
        }
        while len(tracker.failures) > MAX_FAILURES:
            tracker.failures.pop(next(iter(tracker.failures)))
        return
    failure = tracker.failures.pop(command, None)
    if failure and failure["edits"]:
        files = ", ".join(failure["edits"][:8]) + (" …" if len(failure["edits"]) > 8 else "")
        found.lessons.append(
            (f"`{clip(command, 200)}` failed with `{failure['error']}`; fixed by editing {files}.", entry.at)
        )


def _pending(tracker: Tracker, entry: Entry, part: str, what: str) -> None:
    if len(tracker.blocks) >= MAX_PENDING_BLOCKS:
        tracker.blocks.pop(0)
    tracker.blocks.append(
        {
            "offset": entry.offset,
            "length": entry.length,
            "part": part,
            "label": label_at(what, entry.at),
            "at": entry.at,
        }
    )


def label_at(what: str, at: int | None) -> str:
    """``what`` and when (UTC, to the minute)."""
    if at is None:
        return clip(what, MAX_LABEL_CHARS)
    return f"{clip(what, MAX_LABEL_CHARS)} ({time.strftime('%Y-%m-%d %H:%M', time.gmtime(at / 1000))} UTC)"


def _label(name: str, data: dict[str, Any], project: Path) -> str:
    """What a tool use's result is: "`pytest -x` output", "src/retry.py", "grep 'retry' results"."""
    if name in SHELL_TOOLS and isinstance(data.get("command"), str):
        return f"`{clip(data['command'], 70)}` output"
    for key in ("file_path", "notebook_path", "path"):
        if isinstance(data.get(key), str):
            return relative(data[key], project)
    if isinstance(data.get("pattern"), str):
        return f"{name} {clip(data['pattern'], 50)!r} results"
    if isinstance(data.get("url"), str):
        return clip(data["url"], 80)
    return f"{name} result"


def note_of(tracker: Tracker, commit: str | None) -> dict[str, str] | None:
    """The session note (title, content) of what the tracker saw; ``None`` before anything happened."""
    if not (tracker.files or tracker.commands or tracker.todos or tracker.first_prompt):
        return None
    session = (tracker.session or "unknown")[:8]
    where = " on branch " + tracker.branch if tracker.branch else ""
    where += f" at {commit}" if commit else ""
    lines = [f"Session {session}{where}."]
    if tracker.first_prompt:
        lines.append(f"Asked first: {clip(tracker.first_prompt, 200)}")
    if tracker.files:
        lines.append(
            "Files edited: " + ", ".join(tracker.files[:30]) + (" …" if len(tracker.files) > 30 else "")
        )
    if tracker.commands:
        runs = [
            f"`{clip(c, 80)}`" + (f" x{n}" if n > 1 else "") for c, n in list(tracker.commands.items())[-15:]
        ]
        lines.append("Commands run: " + ", ".join(runs))
    failing = [c for c in tracker.failures]
    if failing:
        lines.append("Still failing: " + ", ".join(f"`{clip(c, 80)}`" for c in failing[-5:]))
    open_todos = [t for t in tracker.todos if t["status"] != "completed"]
    if open_todos:
        lines.append("Open todos:")
        lines += [f"- [{t['status']}] {clip(t['content'], 150)}" for t in open_todos[:20]]
    title = (
        f"Session {session}: {clip(tracker.first_prompt, 120)}"
        if tracker.first_prompt
        else f"Session {session}"
    )
    return {"title": clip(title, 190), "content": "\n".join(lines)[:16_000]}
