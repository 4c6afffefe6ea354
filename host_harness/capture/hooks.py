"""Claude Code's hooks for capture: ``PreCompact``, ``Stop``, ``SessionEnd`` and ``SessionStart``.

* ``hook pre-compact`` (``PreCompact``), ``hook stop`` (``Stop``, after every answer) and ``hook
  session-end`` (``SessionEnd``) check the event's transcript and start ``rs-learn-host capture
  --transcript <it>`` detached (with ``--archive`` before a compaction), then leave at once, printing
  nothing: the agent never waits for capture. What the run says goes to ``.gm/logs/capture.log``.
* ``hook session-context`` (``SessionStart``) prints, within its budget, what capture kept for a new
  context: after a compaction (``source: compact``) the index of the blocks archived before it --
  having waited, within the time budget, for that archive run to finish -- and at any other start
  where the last session stopped (its note).

A transcript is read only when it is one of this project's sessions: a ``.jsonl`` file named after
the event's session, directly in the folder Claude Code keeps the sessions started in the project (or
in a folder of it, down to the event's ``cwd``): ``$CLAUDE_CONFIG_DIR/projects/<folder>/`` (default
``~/.claude``), not reached through a link. A project without rs-learn's folder (``.gm/``) captures nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from host_harness.capture import EVENTS, state
from host_harness.capture.switches import switches
from host_harness.capture.transcript import folder_name
from host_harness.config import ConfigError
from host_harness.fs import confine
from host_harness.hooks import sessions
from host_harness.hooks.pipeline import Hook
from host_harness.hooks.protocol import (
    MAX_INPUT_BYTES,
    SESSION_EVENT,
    Skip,
    has_memory,
    log_reason,
    note_project,
    read_event,
)
from host_harness.project import Found, find, find_from

LOG = (".gm", "logs", "capture.log")


def claude_home() -> Path:
    """Claude Code's configuration folder: ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    return Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude")


def session_folders(project: Path, cwd: Path) -> list[Path]:
    """Where the transcripts of sessions started in ``cwd`` (and its folders up to ``project``) are."""
    root, here = project.resolve(), cwd.resolve()
    if not here.is_relative_to(root):
        here = root
    folders = []
    while True:
        folders.append(claude_home() / "projects" / folder_name(here))
        if here == root or here.parent == here:
            return folders
        here = here.parent


def transcript_of(event: dict[str, Any], project: Path, cwd: Path) -> tuple[Path, str]:
    """The event's transcript and session, when it is one of the project's sessions; else :class:`Skip`."""
    session, raw = event.get("session_id"), event.get("transcript_path")
    if not isinstance(session, str) or not session or len(session) > 256:
        raise Skip("the event has no session_id: nothing to capture")
    if not isinstance(raw, str) or not raw:
        raise Skip("the event has no transcript_path: nothing to capture")
    path = Path(raw)
    if path.name != f"{session}.jsonl":
        raise Skip(f"transcript {raw!r} is not session {session}'s: not read")
    folders = {folder.resolve() for folder in session_folders(project, cwd)}
    if path.is_symlink() or not path.is_file() or path.parent.resolve() not in folders:
        where = claude_home() / "projects"
        raise Skip(f"transcript {raw!r} is not one of this project's sessions (under {where}): not read")
    return path.parent.resolve() / path.name, session


def start_capture(project: Path, wasm: Path, transcript: Path, session: str, archive: bool) -> int:
    """Start ``rs-learn-host capture`` detached (its output appended to ``.gm/logs/capture.log``); its pid."""
    state.mark_pending(project, transcript)
    command = [
        sys.executable,
        "-m",
        "host_harness",
        "-p",
        str(project),
        "--wasm",
        str(wasm),
        "capture",
        "--transcript",
        str(transcript),
        "--session",
        session,
        *(["--archive"] if archive else []),
    ]
    with confine.directory(project, LOG[:-1], create=True) as folder:
        log = os.open(LOG[-1], os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644, dir_fd=folder)
    try:
        child = subprocess.Popen(
            command, cwd=project, start_new_session=True, stdin=subprocess.DEVNULL, stdout=log, stderr=log
        )
    finally:
        os.close(log)
    return child.pid


def capture_event(event: dict[str, Any], project: Path, cwd: Path, wasm: Path, command: str) -> str:
    """What ``pre-compact``, ``stop`` and ``session-end`` do: why nothing, or ``""`` once started."""
    if not (project / ".gm").is_dir():
        return "no rs-learn folder (.gm/) in this project: nothing captured"
    if switches(project).all_off():
        return "capture is off (.gm/config.json or RS_LEARN_CAPTURE)"
    transcript, session = transcript_of(event, project, cwd)
    start_capture(project, wasm, transcript, session, archive=command == "pre-compact")
    return ""


def hand_off(command: str, fallback: Path, wasm: Path, found: Found | None = None) -> None:
    """``pre-compact`` / ``stop`` / ``session-end`` on stdin's event: start the capture run, or log why not.

    The fast path (``host_harness/cli/entry.py``) and the full command line both come here; neither
    waits for the run, and what a hook imports stops at this module (no click, no CLI, no store).
    ``found``: the project of ``fallback``, found already by the entry point (located once).
    """
    raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    near = found if found is not None else find(fallback)
    project = near.root
    try:
        incoming, cwd = read_event(raw, EVENTS[command])
        start = Path(cwd) if cwd is not None else fallback
        if not start.is_dir():
            raise Skip(f"project directory {str(start)!r} does not exist")
        project = find_from(start, fallback, near).root
        note_project(project)
        why = capture_event(incoming, project, start, wasm, command)
    except (Skip, ConfigError, OSError) as error:
        why = str(error)
    if why:
        log_reason(project, f"{command}: {why}")


def wait_for_archive(event: dict[str, Any], project: Path, cwd: Path, seconds: float) -> None:
    """After a compaction: wait (at most ``seconds``) for the capture run holding the transcript's lock."""
    try:
        transcript, _ = transcript_of(event, project, cwd)
    except Skip as skip:
        log_reason(project, str(skip))
        return
    if not state.wait_idle(project, transcript, seconds):
        log_reason(project, "the archive before the compaction was still running: its index may be short")


class CaptureContextHook(Hook):
    """``SessionStart``: the index of the blocks archived before a compaction, or the last session's note."""

    event = SESSION_EVENT
    verb = "capture_context"
    WAIT_SHARE = 0.5  # of the time left: how long a compact start waits for the archive run

    def request(self, raw: bytes) -> tuple[dict[str, Any], str | None]:
        """``{source, session?, budget_tokens}``."""
        self.incoming, cwd = read_event(raw, SESSION_EVENT)
        source, session = self.incoming.get("source"), self.incoming.get("session_id")
        body: dict[str, Any] = {
            "source": source if isinstance(source, str) and source else "startup",
            "budget_tokens": self.config.budget_tokens,
        }
        if isinstance(session, str) and 0 < len(session) <= 256:
            body["session"] = session
        self.cwd = Path(cwd) if cwd is not None else None
        return body, cwd

    def worth_asking(self, project: Path) -> bool:
        """Only a project of rs-learn's (``.gm/``), and unless both the notes and the archive are off."""
        if not (project / ".gm").is_dir():
            return False
        on = switches(project)
        return on.notes or on.archive

    def before(self, project: Path, body: dict[str, Any]) -> str | None:
        """After a compaction, the archive run of the event's transcript is waited for (within the budget)."""
        if body["source"] == "compact":
            wait_for_archive(self.incoming, project, self.cwd or project, self.remaining() * self.WAIT_SHARE)
        return None if has_memory(project) else ""  # no store yet: nothing to tell

    def after(self, data: dict[str, Any], context: str) -> str:
        """The context; the conventions it lists noted in the session (per-prompt recall leaves them out)."""
        session = sessions.session_id(self.incoming)
        listed = data.get("conventions")
        if session is not None and self.project is not None and isinstance(listed, list):
            try:
                noted = [i for i in listed if isinstance(i, str)]
                sessions.update(self.project, session, lambda state: setattr(state, "conventions", noted))
            except OSError as error:
                self.log(f"cannot note the session's conventions: {error}")
        return context
