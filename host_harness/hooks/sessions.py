"""What the prompt-submit hook remembers of an agent session: what it injected, and whether it is off.

Claude Code's hook events carry a ``session_id``. The hook keeps one small file per session,
``.gm/logs/sessions/<sha256 of the id, 32 hex>.json`` -- ``{"session", "injected": [ids], "off",
"conventions": [ids], "updated"}`` -- local state, never committed (``.gm/logs/`` is in
``.gm/.gitignore``), reached without following links (``host_harness/fs/confine.py``) and replaced
atomically. It is bounded: the last :data:`MAX_IDS` ids, sessions idle for :data:`EXPIRE_S` removed, at most
:data:`MAX_SESSIONS` files (the oldest go first) -- pruned whenever a session's first file is
written. An event without a session id keeps no state: nothing is deduplicated, and a session
cannot be turned off (the project and the environment still can).

A ``SessionStart`` whose ``source`` is ``clear`` or ``compact`` empties the session's injected set:
the context no longer holds those memories. The session's off switch stays as the user set it.
``conventions`` are the ids the session start's context listed (``hook session-context``, issue 47
item 5): each start replaces them, and per-prompt recall excludes them with the injected ones (a
convention superseded since is a new memory, so its successor is not excluded).

Every change is a read-modify-write under an exclusive ``flock`` of the sessions folder
(:func:`update`): the two ``SessionStart`` hooks (the reset after ``/clear`` or a compaction, and
the conventions' note) and a prompt's run may write one session's file at once, and each keeps
what the others wrote. The lock is waited for :data:`LOCK_WAIT_S` at most (a hook has a budget);
past that the change is written unlocked, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host_harness.cachedir import flock_within
from host_harness.fs import confine

FOLDER = (".gm", "logs", "sessions")
MAX_IDS = 1000
MAX_SESSIONS = 200
EXPIRE_S = 7 * 86_400
MAX_FILE_BYTES = 256 * 1024
RESET_SOURCES = ("clear", "compact")
LOCK_WAIT_S = 1.0


@dataclass
class SessionState:
    """One session's state: the ids injected so far (oldest first) and whether auto-recall is off."""

    session: str
    injected: list[str] = field(default_factory=list)
    off: bool = False
    stored: bool = False  # read from its file (else new)
    conventions: list[str] = field(default_factory=list)  # listed at the session's latest start

    def excluded(self) -> list[str]:
        """What per-prompt recall must not inject again: the injected ids and the start's conventions."""
        known = set(self.injected)
        return self.injected + [i for i in self.conventions if i not in known]

    def add(self, ids: list[str]) -> None:
        """Note ``ids`` as injected (the last :data:`MAX_IDS` are kept)."""
        known = set(self.injected)
        self.injected += [i for i in ids if i not in known]
        del self.injected[:-MAX_IDS]


def session_id(event: dict[str, Any]) -> str | None:
    """The event's ``session_id`` (a non-empty string of at most 256 characters), else ``None``."""
    value = event.get("session_id")
    return value if isinstance(value, str) and 0 < len(value) <= 256 else None


def file_name(session: str) -> str:
    """The state file of ``session`` (a digest: the id never becomes a path)."""
    return hashlib.sha256(session.encode("utf-8", "surrogatepass")).hexdigest()[:32] + ".json"


def load(project: Path, session: str) -> SessionState:
    """The state of ``session`` (new when it has none, or when its file is unreadable or expired)."""
    try:
        raw = confine.read_file(project, (*FOLDER, file_name(session)), MAX_FILE_BYTES)
        value = json.loads(raw) if raw else None
    except (OSError, ValueError):
        value = None
    if not isinstance(value, dict) or value.get("session") != session:
        return SessionState(session)
    updated = value.get("updated")
    if not isinstance(updated, int | float) or time.time() - updated > EXPIRE_S:
        return SessionState(session)
    return SessionState(session, _ids(value.get("injected")), value.get("off") is True, stored=True,
                        conventions=_ids(value.get("conventions")))


def _ids(value: Any) -> list[str]:
    """The last :data:`MAX_IDS` strings of a stored list (none when it is not one)."""
    return [i for i in value if isinstance(i, str)][-MAX_IDS:] if isinstance(value, list) else []


def save(project: Path, state: SessionState) -> None:
    """Write ``state`` atomically (pruning old sessions when it is the session's first file)."""
    data = {"session": state.session, "injected": state.injected, "off": state.off,
            "conventions": state.conventions, "updated": time.time()}
    confine.write_file(project, (*FOLDER, file_name(state.session)), json.dumps(data).encode("utf-8"))
    if not state.stored:
        state.stored = True
        prune(project)


def update(project: Path, session: str, change: Callable[[SessionState], bool | None]) -> SessionState:
    """Apply ``change`` to the stored state of ``session`` and write it, holding the folder's lock.

    ``change`` returns ``False`` when it changed nothing (then nothing is written).
    """
    with confine.directory(project, FOLDER, create=True) as fd:
        flock_within(fd, LOCK_WAIT_S, 0.01)  # released when the folder's descriptor closes
        state = load(project, session)
        if change(state) is not False:
            save(project, state)
    return state


def reset(project: Path, session: str) -> int:
    """Forget what ``session`` was injected (its off switch stays); how many ids were forgotten."""
    if not load(project, session).injected:
        return 0  # nothing to forget: nothing written (a start after /clear may find no state at all)
    forgotten = 0

    def forget(state: SessionState) -> bool:
        nonlocal forgotten
        forgotten, state.injected = len(state.injected), []
        return forgotten > 0

    update(project, session, forget)
    return forgotten


def prune(project: Path, now: float | None = None) -> int:
    """Remove expired session files, and the oldest beyond :data:`MAX_SESSIONS`; how many went."""
    now = time.time() if now is None else now
    try:
        fd = confine.open_dir(project, FOLDER)
    except OSError:
        return 0
    removed = 0
    try:
        files = []
        for name in os.listdir(fd):
            if not name.endswith(".json"):
                continue
            with contextlib.suppress(OSError):
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                if stat.S_ISREG(st.st_mode):
                    files.append((st.st_mtime, name))
        files.sort(reverse=True)
        for rank, (mtime, name) in enumerate(files):
            if rank >= MAX_SESSIONS or now - mtime > EXPIRE_S:
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=fd)
                    removed += 1
    finally:
        os.close(fd)
    return removed
